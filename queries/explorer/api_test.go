package explorer

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/queries/players"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// count is one move's results, counted in the test.
type count struct{ games, white, draws, black int64 }

// goFilter is the test's own reading of a filter.
type goFilter struct{ player, color, event, from, to string }

func (f goFilter) pass(g *replayed) bool {
	switch {
	case f.player != "" && f.color == "white" && g.white != f.player,
		f.player != "" && f.color == "black" && g.black != f.player,
		f.player != "" && f.color == "" && g.white != f.player && g.black != f.player:
		return false
	case f.event != "" && !strings.Contains(strings.ToLower(g.event), strings.ToLower(f.event)):
		return false
	}
	if f.from != "" || f.to != "" {
		if strings.HasPrefix(g.date, "????") {
			return false
		}
		if f.from != "" && g.date[:min(len(f.from), len(g.date))] < f.from {
			return false
		}
		if f.to != "" && g.date[:min(len(f.to), len(g.date))] > f.to {
			return false
		}
	}
	return true
}

func (f goFilter) values() url.Values {
	v := url.Values{}
	for k, s := range map[string]string{"player": f.player, "color": f.color, "event": f.event, "from": f.from, "to": f.to} {
		if s != "" {
			v.Set(k, s)
		}
	}
	return v
}

// goTree counts the next moves at the position with hash h over the
// archive's International games that pass keep, each game at its first
// visit, within its first depth plies (0: all), the moves written as the
// variant writes them in a tree.
func goTree(games []replayed, h uint64, depth int, keep func(*replayed) bool) map[string]*count {
	out := map[string]*count{}
	v := rules.International
	for i := range games {
		g := &games[i]
		if g.variant != v || !keep(g) {
			continue
		}
		k := slices.Index(g.hashes, h)
		if k < 0 || k >= len(g.moves) || depth > 0 && k >= depth {
			continue
		}
		pos := g.start
		for j := 0; j < k; j++ {
			pos.Play(&g.moves[j])
		}
		legal := pos.LegalMoves(nil)
		m := &g.moves[k]
		text := rules.FormatMove(v, m, v.DefaultNotation, rules.Ambiguous(legal, m))
		c := out[text]
		if c == nil {
			c = &count{}
			out[text] = c
		}
		c.games++
		switch g.result {
		case replay.WhiteWins:
			c.white++
		case replay.Draw:
			c.draws++
		case replay.BlackWins:
			c.black++
		}
	}
	return out
}

// reachCount counts the archive's International games that pass keep and
// reach h.
func reachCount(games []replayed, h uint64, keep func(*replayed) bool) int {
	n := 0
	for i := range games {
		if g := &games[i]; g.variant == rules.International && keep(g) && slices.Contains(g.hashes, h) {
			n++
		}
	}
	return n
}

func all(*replayed) bool { return true }

// topPlayer is the player with the most International games that have
// moves (ties: the first name).
func topPlayer(games []replayed) string {
	n := map[string]int{}
	for _, g := range games {
		if g.variant == rules.International && len(g.moves) > 0 {
			n[g.white]++
			n[g.black]++
		}
	}
	best, most := "", 0
	for name, c := range n {
		if name != "" && (c > most || c == most && name < best) {
			best, most = name, c
		}
	}
	return best
}

// sameTree compares an answer's moves with the test's count.
func sameTree(t *testing.T, what string, got []TreeMove, want map[string]*count) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("%s: the test data has no game through the position", what)
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d moves, the replay count %d: %+v", what, len(got), len(want), got)
	}
	var games int64
	for i, m := range got {
		c := want[m.Move]
		if c == nil {
			t.Errorf("%s: move %s is not in the replay count", what, m.Move)
			continue
		}
		if m.Games != c.games || m.WhiteWins != c.white || m.Draws != c.draws || m.BlackWins != c.black {
			t.Errorf("%s: %s: %d games (%d/%d/%d), replay %d (%d/%d/%d)", what, m.Move, m.Games, m.WhiteWins, m.Draws, m.BlackWins,
				c.games, c.white, c.draws, c.black)
		}
		if s := openings.Score(c.white, c.draws, c.black); (m.Score == nil) != math.IsNaN(s) || m.Score != nil && *m.Score != math.Round(s*10)/10 {
			t.Errorf("%s: %s: score %v, want %.1f", what, m.Move, m.Score, s)
		}
		if i > 0 && got[i-1].Games < m.Games {
			t.Errorf("%s: not most played first: %s %d after %s %d", what, m.Move, m.Games, got[i-1].Move, got[i-1].Games)
		}
		games += m.Games
	}
	if games == 0 {
		t.Errorf("%s: no games", what)
	}
}

// sameAsTree checks that the API's moves are what openings.Tree gives:
// what `draughtsdb openings --format json` prints.
func sameAsTree(t *testing.T, pool *pgxpool.Pool, pos *rules.Position, ans *TreeAnswer) {
	t.Helper()
	node, err := openings.Tree(context.Background(), pool, pos)
	if err != nil {
		t.Fatal(err)
	}
	if ans.Position.Games != node.Games || ans.Position.FEN != node.FEN || ans.Position.Hash != strconv.FormatInt(int64(node.Hash), 10) {
		t.Errorf("position %+v; openings.Tree: %d games, %s", ans.Position, node.Games, node.FEN)
	}
	if len(ans.Moves) != len(node.Branch) {
		t.Fatalf("%d moves; openings.Tree %d", len(ans.Moves), len(node.Branch))
	}
	for i, b := range node.Branch {
		m := ans.Moves[i]
		if m.Move != b.Text || m.Algebraic != b.Algebraic || m.Games != b.Games || m.WhiteWins != b.WhiteWins ||
			m.Draws != b.Draws || m.BlackWins != b.BlackWins || m.Name != b.Name || m.EvalCount != b.EvalCount ||
			(m.Eval == nil) != (b.Eval == nil) || m.Eval != nil && *m.Eval != *b.Eval {
			t.Errorf("move %d: %+v; openings.Tree %+v", i, m, b)
		}
	}
}

func TestAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	pool := importArchive(t)
	games := replayArchive(t)
	ts := testServer(t, pool, Options{})
	// The same answers when every filtered selection at a position the
	// statistics count scans the newest games, a few ids at a time.
	scanning, err := New(pool, Options{DefaultVariant: "international"})
	if err != nil {
		t.Fatal(err)
	}
	scanning.scanMin, scanning.window = 1, 64
	scanTS := httptest.NewServer(scanning.Handler())
	t.Cleanup(scanTS.Close)
	ctx := context.Background()
	after := func(moves ...string) rules.Position {
		t.Helper()
		p, err := replay.PositionAfter(rules.International, "", moves)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}

	t.Run("variants", func(t *testing.T) {
		var ans struct {
			Default  string
			Variants []VariantInfo
		}
		if st, body := get(t, ts, "/api/variants", nil, &ans); st != 200 {
			t.Fatalf("%d %s", st, body)
		}
		if ans.Default != "international" || len(ans.Variants) != len(rules.Variants()) {
			t.Fatalf("default %q, %d variants", ans.Default, len(ans.Variants))
		}
		byName := map[string]VariantInfo{}
		for _, v := range ans.Variants {
			byName[v.Name] = v
		}
		in := byName["international"]
		start := rules.International.StartPosition()
		if len(in.Squares) != 50 || in.Board.Width != 10 || in.Bottom != "white" || in.Notation != "numeric" ||
			in.Squares[31].Algebraic != "d4" || in.Squares[31].File != 4 || in.Squares[31].Rank != 4 {
			t.Errorf("international: %+v", in)
		}
		var want int64
		for _, c := range goTree(games, start.Hash(), openings.DefaultDepth, all) {
			want += c.games
		}
		if in.Games != want {
			t.Errorf("international: %d games from the start; replay %d", in.Games, want)
		}
		if en := byName["english"]; en.Bottom != "black" || len(en.Squares) != 32 || en.FirstToMove != "black" {
			t.Errorf("english: %+v", en)
		}
		if ca := byName["canadian"]; len(ca.Squares) != 72 || ca.Board.Width != 12 {
			t.Errorf("canadian: %+v", ca)
		}
	})

	t.Run("position", func(t *testing.T) {
		var p PositionInfo
		if st, body := get(t, ts, "/api/position", url.Values{"moves": {"32-28 19-23"}}, &p); st != 200 {
			t.Fatalf("%d %s", st, body)
		}
		want := after("32-28", "19-23")
		if p.Variant != "international" || p.FEN != want.FEN() || p.Hash != strconv.FormatInt(int64(want.Hash()), 10) ||
			p.SideToMove != "white" || p.Ply != 2 || len(p.Pieces.White) != 20 || len(p.Pieces.Black) != 20 ||
			p.Pieces.White[0] != 28 || p.Pieces.Black[19] != 23 {
			t.Errorf("%+v; want %s", p, want.FEN())
		}
		legal := want.LegalMoves(nil)
		if len(p.LegalMoves) != len(legal) {
			t.Fatalf("%d legal moves, want %d", len(p.LegalMoves), len(legal))
		}
		var captures int
		for i, m := range p.LegalMoves {
			if m.From != legal[i].From() || m.To != legal[i].To() || m.Move != rules.MoveText(rules.International, legal, &legal[i], rules.Numeric) {
				t.Errorf("legal move %d: %+v", i, m)
			}
			if len(m.Captured) > 0 {
				captures++
				if m.Move != "28x19" || !slices.Equal(m.Captured, []int{23}) || m.Algebraic != "e5:g7" {
					t.Errorf("capture %+v", m)
				}
			}
		}
		if captures != 1 {
			t.Errorf("%d captures; 28x19 is the only legal move", captures)
		}
		if len(p.Line) != 2 || p.Line[0].Move != "32-28" || p.Line[0].Algebraic != "d4-e5" || p.Line[1].Move != "19-23" {
			t.Errorf("line %+v", p.Line)
		}
		// Either notation, and a FEN.
		var q PositionInfo
		get(t, ts, "/api/position", url.Values{"moves": {"d4-e5"}, "variant": {"International"}}, &q)
		if q.FEN != after("32-28").FEN() {
			t.Errorf("d4-e5: %s", q.FEN)
		}
		get(t, ts, "/api/position", url.Values{"fen": {want.FEN()}, "moves": {"28x19"}}, &q)
		if q.FEN != after("32-28", "19-23", "28x19").FEN() || q.Ply != 1 {
			t.Errorf("fen + 28x19: %+v", q)
		}
		// Russian by default when the server says so.
		rs := testServer(t, pool, Options{DefaultVariant: "russian"})
		get(t, rs, "/api/position", nil, &q)
		if q.Variant != "russian" || q.FEN != rules.Russian.StartPosition().FEN() {
			t.Errorf("default russian: %+v", q)
		}
	})

	t.Run("openings", func(t *testing.T) {
		for _, moves := range [][]string{nil, {"32-28"}, {"32-28", "19-23"}, {"33-28"}, {"32-28", "18-23"}} {
			var ans TreeAnswer
			if st, body := get(t, ts, "/api/openings", url.Values{"moves": {strings.Join(moves, " ")}}, &ans); st != 200 {
				t.Fatalf("%v: %d %s", moves, st, body)
			}
			pos := after(moves...)
			what := fmt.Sprintf("after %v", moves)
			sameTree(t, what, ans.Moves, goTree(games, pos.Hash(), openings.DefaultDepth, all))
			sameAsTree(t, pool, &pos, &ans)
			if ans.Position.Source != "statistics" || ans.Position.Depth != openings.DefaultDepth || ans.Position.Filter != nil {
				t.Errorf("%s: %+v", what, ans.Position)
			}
			n := reachCount(games, pos.Hash(), all)
			if want := min(n, topGames); len(ans.TopGames) != want {
				t.Errorf("%s: %d top games of %d", what, len(ans.TopGames), n)
			}
		}
		// Past the statistics' depth the answer says so.
		g := games[slices.IndexFunc(games, func(g replayed) bool { return g.variant == rules.International && len(g.moves) > 45 })]
		var deep []string
		for i := range g.moves[:42] {
			deep = append(deep, rules.FormatMove(g.variant, &g.moves[i], rules.Numeric, true))
		}
		var ans TreeAnswer
		get(t, ts, "/api/openings", url.Values{"moves": {strings.Join(deep, " ")}}, &ans)
		if len(ans.Moves) != 0 || len(ans.Position.Notes) == 0 || !strings.Contains(ans.Position.Notes[0], "first 40 plies") {
			t.Errorf("at ply 42: %+v", ans.Position)
		}
		// A filter counts the games themselves, at any depth.
		get(t, ts, "/api/openings", url.Values{"moves": {strings.Join(deep, " ")}, "from": {"1900"}}, &ans)
		sameTree(t, "ply 42, from 1900", ans.Moves, goTree(games, g.hashes[42], 0, all))
	})

	t.Run("filtered", func(t *testing.T) {
		player := topPlayer(games)
		filters := []goFilter{
			{event: "dam"},
			{event: "nk 2003"},
			{player: player},
			{player: player, color: "black"},
			{player: player, color: "white"},
			{from: "2003.04"},
			{from: "2003", to: "2003.03"},
			{to: "2000.09"},
			{from: "2000.09.16", to: "2000.09.16", event: "DAM"},
			{from: "1900"},
		}
		positions := [][]string{nil, {"32-28"}, {"32-28", "19-23"}, {"33-28"}, {"31-27"}}
		tested := 0
		for _, ts := range []*httptest.Server{ts, scanTS} {
			for _, f := range filters {
				for _, moves := range positions {
					pos := after(moves...)
					want := goTree(games, pos.Hash(), 0, f.pass)
					params := f.values()
					params.Set("moves", strings.Join(moves, " "))
					var ans TreeAnswer
					if st, body := get(t, ts, "/api/openings", params, &ans); st != 200 {
						t.Fatalf("%v: %d %s", params, st, body)
					}
					what := params.Encode()
					if n := reachCount(games, pos.Hash(), f.pass); ans.Position.Counted != n || ans.Position.Truncated ||
						ans.Position.Source != "games" || ans.Position.Filter == nil || len(ans.TopGames) != min(n, topGames) {
						t.Errorf("%s: %+v, %d top games; %d games reach it", what, ans.Position, len(ans.TopGames), n)
					}
					if len(want) == 0 {
						if len(ans.Moves) != 0 {
							t.Errorf("%s: %+v; no game passes", what, ans.Moves)
						}
						continue
					}
					tested++
					sameTree(t, what, ans.Moves, want)
				}
			}
		}
		if scanning.scans.Load() < 10 {
			t.Errorf("only %d filtered trees scanned the newest games", scanning.scans.Load())
		}
		if tested < 50 {
			t.Errorf("only %d filtered trees had games", tested)
		}
		// A player with more games than the cap is counted through the
		// position index: the same counts where no more games than the cap
		// reach the position.
		var pgames int
		for _, g := range games {
			if g.variant == rules.International && (g.white == player || g.black == player) {
				pgames++
			}
		}
		viaIndex := testServer(t, pool, Options{MaxFilterGames: pgames - 1})
		checked := 0
		for _, moves := range positions {
			pos := after(moves...)
			f := goFilter{player: player}
			n := reachCount(games, pos.Hash(), f.pass)
			if n == 0 || n > pgames-1 {
				continue
			}
			params := f.values()
			params.Set("moves", strings.Join(moves, " "))
			var ans TreeAnswer
			get(t, viaIndex, "/api/openings", params, &ans)
			if ans.Position.Counted != n || ans.Position.Truncated {
				t.Errorf("via the index, %s: %+v", params.Encode(), ans.Position)
			}
			if want := goTree(games, pos.Hash(), 0, f.pass); len(want) > 0 {
				sameTree(t, "via the index, "+params.Encode(), ans.Moves, want)
				checked++
			}
		}
		if checked == 0 {
			t.Errorf("no position of %s's games was counted through the index", player)
		}
		// The cap: the newest games only, and the answer says so.
		small := testServer(t, pool, Options{MaxFilterGames: 10})
		var ans TreeAnswer
		get(t, small, "/api/openings", url.Values{"event": {"DAM"}}, &ans)
		if !ans.Position.Truncated || ans.Position.Counted != 10 || ans.Position.Games != 10 || len(ans.Position.Notes) != 1 {
			t.Errorf("capped: %+v", ans.Position)
		}
	})

	t.Run("games", func(t *testing.T) {
		for _, ts := range []*httptest.Server{ts, scanTS} {
			for _, f := range []goFilter{{}, {event: "DAM"}, {player: topPlayer(games)}, {from: "2003"}} {
				for _, moves := range [][]string{{"32-28"}, {"32-28", "19-23"}} {
					pos := after(moves...)
					params := f.values()
					params.Set("moves", strings.Join(moves, " "))
					params.Set("limit", "7")
					var ids []int64
					for page := 0; ; page++ {
						var p GamesPage
						if st, body := get(t, ts, "/api/games", params, &p); st != 200 {
							t.Fatalf("%v: %d %s", params, st, body)
						}
						if len(p.Games) > 7 || p.NextCursor != "" && len(p.Games) != 7 {
							t.Fatalf("page %d: %d games, next %q", page, len(p.Games), p.NextCursor)
						}
						for _, g := range p.Games {
							ids = append(ids, g.ID)
							if g.Variant != "international" {
								t.Errorf("game %+v", g)
							}
						}
						if p.NextCursor == "" {
							break
						}
						params.Set("cursor", p.NextCursor)
					}
					n := reachCount(games, pos.Hash(), f.pass)
					if len(ids) != n || !slices.IsSortedFunc(ids, func(a, b int64) int { return int(b - a) }) || len(slices.Compact(slices.Clone(ids))) != n {
						t.Errorf("%s %v: %d games %v; %d reach the position", ts.URL, params, len(ids), ids, n)
					}
				}
			}
		}
		// A cursor of another position, or none of ours.
		var p GamesPage
		get(t, ts, "/api/games", url.Values{"moves": {"32-28"}, "limit": {"2"}}, &p)
		for _, c := range []struct{ moves, cursor, want string }{
			{"33-28", p.NextCursor, "another position"},
			{"32-28", "xyz", "not a cursor"},
			{"32-28", p.NextCursor + "A", "not a cursor"},
		} {
			st, body := get(t, ts, "/api/games", url.Values{"moves": {c.moves}, "cursor": {c.cursor}}, nil)
			if st != 400 || !strings.Contains(body, c.want) {
				t.Errorf("cursor %q at %s: %d %s", c.cursor, c.moves, st, body)
			}
		}
	})

	t.Run("game", func(t *testing.T) {
		var p GamesPage
		get(t, ts, "/api/games", url.Values{"player": {topPlayer(games)}, "limit": {"1"}}, &p)
		if len(p.Games) != 1 {
			t.Fatalf("no game of %s: %+v", topPlayer(games), p)
		}
		id := p.Games[0].ID
		var moves []byte
		var v int16
		if err := pool.QueryRow(ctx, `SELECT variant, moves FROM games WHERE id = $1`, id).Scan(&v, &moves); err != nil {
			t.Fatal(err)
		}
		dg, err := codec.Decode(rules.International, "", moves)
		if err != nil {
			t.Fatal(err)
		}
		// An evaluation of the position after ply 2 (Black's score, side
		// to move White: +150 for White) and a blunder class for ply 3.
		if _, err := pool.Exec(ctx, `INSERT INTO evaluations (variant, hash, engine, setting, score, mate, depth, pv, nodes, time_ms, engine_version)
			VALUES (20, $1, 'test', 'depth=1', 150, false, 1, '', 1, 1, '1'), (20, $1, 'test', 'depth=2', 50, false, 2, '', 1, 1, '1')`,
			int64(dg.Positions[2].Hash())); err != nil {
			t.Fatal(err)
		}
		if _, err := pool.Exec(ctx, `INSERT INTO move_annotations (game_id, ply, engine, setting, loss, class)
			VALUES ($1, 3, 'test', 'depth=1', 250, 'blunder'), ($1, 3, 'test', 'depth=2', 40, 'inaccuracy')`, id); err != nil {
			t.Fatal(err)
		}
		var g GameAnswer
		if st, body := get(t, ts, fmt.Sprintf("/api/game/%d", id), nil, &g); st != 200 {
			t.Fatalf("%d %s", st, body)
		}
		if g.ID != id || g.Variant != "international" || len(g.Moves) != len(dg.Moves) || g.Plies != len(dg.Moves) ||
			g.White == "" || g.Tags["White"] != g.White || g.Tags["Event"] != g.Event || g.Tags["GameType"] == "" {
			t.Fatalf("%+v", g)
		}
		var texts []string
		for i, m := range g.Moves {
			if m.FEN != dg.Positions[i+1].FEN() || m.Numeric != rules.FormatMove(rules.International, &dg.Moves[i], rules.Numeric, true) ||
				m.Algebraic != rules.FormatMove(rules.International, &dg.Moves[i], rules.Algebraic, true) || m.Ply != i+1 {
				t.Errorf("ply %d: %+v", i+1, m)
			}
			texts = append(texts, m.Move)
		}
		if e := g.Moves[1].Eval; e == nil || *e != 1.0 || g.Moves[1].EvalCount != 2 || g.Moves[0].Eval != nil {
			t.Errorf("evaluation after ply 2: %v (%d)", e, g.Moves[1].EvalCount)
		}
		if m := g.Moves[2]; m.Class != "blunder" || len(m.Annotations) != 2 || g.Moves[1].Class != "" {
			t.Errorf("ply 3: %+v", m)
		}
		// The moves replay to the same game, and so does the PDN.
		line, err := replay.PlayLine(rules.International, "", texts)
		if err != nil || line.Final.FEN() != dg.Final().FEN() {
			t.Errorf("the moves %v do not replay: %v", texts, err)
		}
		pg, err := pdn.NewReader(strings.NewReader(g.PDN), "api").Next()
		if err != nil {
			t.Fatalf("PDN: %v\n%s", err, g.PDN)
		}
		var rg replay.Game
		if err := replay.NewReplayer(replay.Options{}).Replay(pg, nil, &rg); err != nil || rg.Final.FEN() != dg.Final().FEN() ||
			rg.Variant != rules.International || pg.Tag("White") != g.White {
			t.Errorf("the PDN does not replay to the game: %v\n%s", err, g.PDN)
		}
		// The evaluation shows in the trees, filtered or not, on the move
		// that reaches the position (a server that keeps no filtered
		// tree: ts may have kept this one from before the evaluation).
		line2 := []string{texts[0], texts[1]}
		fresh := testServer(t, pool, Options{CacheTTL: -1})
		for _, params := range []url.Values{{"moves": {texts[0]}}, {"moves": {texts[0]}, "from": {"1900"}}} {
			var ans TreeAnswer
			get(t, fresh, "/api/openings", params, &ans)
			i := slices.IndexFunc(ans.Moves, func(m TreeMove) bool { return m.Move == line2[1] })
			if i < 0 || ans.Moves[i].Eval == nil || *ans.Moves[i].Eval != 1.0 || ans.Moves[i].EvalCount != 2 {
				t.Errorf("%v: %+v", params, ans.Moves)
			}
		}
		var pi PositionInfo
		get(t, ts, "/api/position", url.Values{"moves": {strings.Join(line2, " ")}}, &pi)
		if pi.Eval == nil || *pi.Eval != 1.0 || pi.EvalCount != 2 {
			t.Errorf("position after %v: eval %v", line2, pi.Eval)
		}
		if st, body := get(t, ts, "/api/game/99999999", nil, nil); st != 404 || !strings.Contains(body, "no game 99999999") {
			t.Errorf("unknown game: %d %s", st, body)
		}
	})

	t.Run("player", func(t *testing.T) {
		var p PlayerAnswer
		player := topPlayer(games)
		if st, body := get(t, ts, "/api/player", url.Values{"name": {player}}, &p); st != 200 {
			t.Fatalf("%d %s", st, body)
		}
		// The player is every spelling grouped with theirs (package
		// players joins "Sijbrands,T." and "T. Sijbrands"); the record is
		// counted here from the replayed games.
		var spellings []players.Spelling
		seen := map[string]bool{}
		for _, g := range games {
			for _, name := range []string{g.white, g.black} {
				if name != "" && !seen[name] {
					seen[name] = true
					spellings = append(spellings, players.Spelling{ID: int32(len(spellings) + 1), Name: name})
				}
			}
		}
		group, err := players.Find(players.Group(spellings, nil), player)
		if err != nil {
			t.Fatal(err)
		}
		of := map[string]bool{}
		for _, sp := range group.Spellings {
			of[sp.Name] = true
		}
		var n, wins int64
		for _, g := range games {
			if of[g.white] || of[g.black] {
				n++
				if w, ok := g.result.Winner(); ok && of[g.white] != of[g.black] && (w == rules.White) == of[g.white] {
					wins++
				}
			}
		}
		if len(p.Record) == 0 || p.Record[0].Scope != "all games" || p.Record[0].Games != n || p.Record[0].Wins != wins || n == 0 {
			t.Errorf("%+v; replay: %d games, %d wins", p, n, wins)
		}
		if want := len(group.Spellings) - 1; len(p.Aliases) != want {
			t.Errorf("aliases %q, want %d", p.Aliases, want)
		}
		var ps struct {
			Players []PlayerName
		}
		prefix := strings.ToUpper(player[:3])
		get(t, ts, "/api/players", url.Values{"prefix": {prefix}}, &ps)
		if i := slices.IndexFunc(ps.Players, func(p PlayerName) bool { return p.Name == player }); i < 0 || ps.Players[i].Games != n {
			t.Errorf("prefix %s: %+v", prefix, ps.Players)
		}
		get(t, ts, "/api/players", url.Values{"limit": {"3"}}, &ps)
		if len(ps.Players) != 3 || !sort.SliceIsSorted(ps.Players, func(i, j int) bool { return ps.Players[i].Name < ps.Players[j].Name }) {
			t.Errorf("limit 3: %+v", ps.Players)
		}
		if st, body := get(t, ts, "/api/player", url.Values{"name": {"Nobody At All"}}, nil); st != 404 || !strings.Contains(body, "no player") {
			t.Errorf("unknown player: %d %s", st, body)
		}
	})

	t.Run("bad requests", func(t *testing.T) {
		for _, c := range []struct {
			path   string
			params url.Values
			status int
			want   string
		}{
			{"/api/position", url.Values{"moves": {"32-22"}}, 400, "legal: 31-26, 32-27"},
			{"/api/openings", url.Values{"moves": {"32-28 32-28"}}, 400, "ply 2"},
			{"/api/position", url.Values{"variant": {"chess"}}, 400, "unknown; one of russian, international"},
			{"/api/position", url.Values{"fen": {"W:Wzz"}}, 400, "invalid FEN"},
			{"/api/position", url.Values{"fen": {strings.Repeat("W", 600)}}, 400, "at most 500"},
			{"/api/position", url.Values{"move": {"32-28"}}, 400, `unknown parameter`},
			{"/api/position", url.Values{"moves": {"32-28", "33-28"}}, 400, "given 2 times"},
			{"/api/openings", url.Values{"color": {"white"}}, 400, "color needs player"},
			{"/api/openings", url.Values{"player": {"X"}, "color": {"red"}}, 400, "want white or black"},
			{"/api/openings", url.Values{"from": {"yesterday"}}, 400, "want YYYY"},
			{"/api/games", url.Values{"to": {"1995.13"}}, 400, "month 13 is not 01-12"},
			{"/api/openings", url.Values{"event": {"a\x00b"}}, 400, "control character"},
			{"/api/openings", url.Values{"event": {"\xff"}}, 400, "not valid UTF-8"},
			{"/api/games", url.Values{"limit": {"0"}}, 400, "from 1 to 100"},
			{"/api/games", url.Values{"limit": {"1000"}}, 400, "from 1 to 100"},
			{"/api/game/abc", nil, 400, "positive integer"},
			{"/api/game/0", nil, 400, "positive integer"},
			{"/api/game/99999999999999999999", nil, 400, "positive integer"},
			{"/api/player", nil, 400, "give a player's name"},
			{"/api/players", url.Values{"limit": {"51"}}, 400, "from 1 to 50"},
			{"/api/variants", url.Values{"x": {"1"}}, 400, "takes none"},
			{"/api/nothing", nil, 404, "no such API endpoint"},
		} {
			st, body := get(t, ts, c.path, c.params, nil)
			if st != c.status || !strings.Contains(body, `"error"`) || !strings.Contains(body, c.want) {
				t.Errorf("%s?%s: %d %s; want %d with %q", c.path, c.params.Encode(), st, body, c.status, c.want)
			}
		}
		// A malformed query string.
		resp, err := http.Get(ts.URL + "/api/position?moves=%zz")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 400 || !bytes.Contains(body, []byte("query string")) {
			t.Errorf("%%zz: %d %s", resp.StatusCode, body)
		}
		// An endpoint asked with another method is 405 with Allow, as the
		// page is (the catch-all of /api/ answered 404 "no such API
		// endpoint"); a path that is none stays 404 whatever the method.
		for _, c := range []struct {
			method, path string
			status       int
		}{
			{http.MethodPost, "/api/openings", 405},
			{http.MethodPut, "/api/openings", 405},
			{http.MethodDelete, "/api/openings", 405},
			{http.MethodOptions, "/api/openings", 405},
			{http.MethodPost, "/api/game/5", 405},
			{http.MethodPatch, "/api/players", 405},
			{http.MethodPost, "/api/nothing", 404},
			{http.MethodHead, "/api/variants", 200},
		} {
			req, err := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader("x"))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			allow := resp.Header.Get("Allow")
			if resp.StatusCode != c.status || (c.status == 405) != (allow == "GET, HEAD") ||
				c.status == 405 && !bytes.Contains(body, []byte("not allowed")) {
				t.Errorf("%s %s: %d, Allow %q, %s; want %d", c.method, c.path, resp.StatusCode, allow, body, c.status)
			}
		}
	})
}

// importMixed returns a new database holding English games (Tricks traps
// and shots, counted to the default depth), among them two a player played
// against himself (game 56 Walter Hellman's, game 59 Hugh Henderson's,
// both drawn), and the shared International archive counted to 4 plies.
func importMixed(t *testing.T) *pgxpool.Pool {
	t.Helper()
	pool := pgtest.NewDB(t)
	ctx := context.Background()
	if _, err := ingest.Import(ctx, pool, []string{filepath.Join(shared, "testsuite", "succeed", "Tricks traps and shots.pdn.gz")}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Import(ctx, pool, []string{filepath.Join(shared, "international")}, ingest.Options{OpeningDepth: 4}); err != nil {
		t.Fatal(err)
	}
	return pool
}

// TestPlayerAgainstThemself: a game whose White and Black are one player
// is one game of the player's record and completion (they said 2), and the
// filter player=P finds it for either colour (color=black found none).
func TestPlayerAgainstThemself(t *testing.T) {
	t.Parallel()
	ts := testServer(t, importMixed(t), Options{DefaultVariant: "english"})
	const name = "Walter Hellman"
	var p PlayerAnswer
	if st, body := get(t, ts, "/api/player", url.Values{"name": {name}}, &p); st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	games := map[string]int64{}
	for _, r := range p.Record {
		games[r.Scope] = r.Games
	}
	if games["all games"] != 1 || games["as white"] != 1 || games["as black"] != 1 {
		t.Errorf("record %+v", p.Record)
	}
	var ps struct{ Players []PlayerName }
	if st, body := get(t, ts, "/api/players", url.Values{"prefix": {"Walter H"}}, &ps); st != 200 || len(ps.Players) != 1 ||
		ps.Players[0].Name != name || ps.Players[0].Games != 1 {
		t.Errorf("players: %d %s", st, body)
	}
	for _, color := range []string{"", "white", "black"} {
		params := url.Values{"variant": {"english"}, "player": {name}}
		if color != "" {
			params.Set("color", color)
		}
		var tree TreeAnswer
		if st, body := get(t, ts, "/api/openings", params, &tree); st != 200 || tree.Position.Counted != 1 || tree.Position.Games != 1 {
			t.Errorf("openings %s: %d %s", params.Encode(), st, body)
		}
		var page GamesPage
		if st, body := get(t, ts, "/api/games", params, &page); st != 200 || len(page.Games) != 1 ||
			page.Games[0].White != name || page.Games[0].Black != name {
			t.Errorf("games %s: %d %s", params.Encode(), st, body)
		}
	}
}

// TestDepthOfTheVariant: the depth an English tree reports is that of the
// English sources (40), not the least of all (the International source's
// 4, which made the note on a position at ply 5 say English was counted
// to 4 plies).
func TestDepthOfTheVariant(t *testing.T) {
	t.Parallel()
	ts := testServer(t, importMixed(t), Options{})
	for _, c := range []struct {
		variant, moves string
		depth          int
		note           bool
	}{
		{"english", "11-15 23-19 8-11 22-17 9-13", openings.DefaultDepth, false},
		{"international", "32-28 19-23 28x19 14x23", 4, true},
	} {
		var tree TreeAnswer
		st, body := get(t, ts, "/api/openings", url.Values{"variant": {c.variant}, "moves": {c.moves}}, &tree)
		noted := slices.ContainsFunc(tree.Position.Notes, func(n string) bool { return strings.Contains(n, "plies of each game") })
		if st != 200 || tree.Position.Depth != c.depth || noted != c.note {
			t.Errorf("%s %s: %d %s; want depth %d, note %v", c.variant, c.moves, st, body, c.depth, c.note)
		}
	}
}

// TestTimeout: a request past its deadline is 503 saying so, not 500.
func TestTimeout(t *testing.T) {
	t.Parallel()
	pool := importArchive(t)
	// A statement timeout too short for any statement.
	s, err := New(pool, Options{StatementTimeout: time.Microsecond, DefaultVariant: "international"})
	if err != nil {
		t.Fatal(err)
	}
	s.opt.StatementTimeout = time.Microsecond // New keeps it; ReadOnlyTimeout rounds it up to 1 ms
	ts := newServer(t, s)
	// pg_sleep is not reachable from the API; a cancelled request context
	// is what a request past RequestTimeout sees.
	s2, _ := New(pool, Options{RequestTimeout: time.Nanosecond, DefaultVariant: "international"})
	ts2 := newServer(t, s2)
	for _, srv := range []string{ts, ts2} {
		resp, err := http.Get(srv + "/api/openings?from=1900")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		// The 1 ms statement timeout may or may not hit a statement on a
		// fast machine; the request deadline always does.
		if resp.StatusCode != 200 && (resp.StatusCode != 503 || !bytes.Contains(body, []byte("took too long"))) {
			t.Errorf("%s: %d %s", srv, resp.StatusCode, body)
		}
		if srv == ts2 && resp.StatusCode != 503 {
			t.Errorf("past the request deadline: %d %s", resp.StatusCode, body)
		}
	}
}

func newServer(t *testing.T, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, s.Handler(), 5*time.Second) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

// TestServeLogAndStop: one log line per request (method, path, status,
// duration), and Serve returns nil when its context ends.
func TestServeLogAndStop(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	pool := importArchive(t)
	var logBuf syncBuffer
	s, err := New(pool, Options{Log: &logBuf})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, s.Handler(), 5*time.Second) }()
	base := "http://" + ln.Addr().String()
	for _, p := range []string{"/api/position?moves=c3-d4", "/api/game/0", "/", "/app.js"} {
		resp, err := http.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Serve did not return after its context ended")
	}
	if _, err := http.Get(base + "/"); err == nil {
		t.Error("still serving after the stop")
	}
	lines := strings.Split(strings.TrimSpace(logBuf.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d log lines:\n%s", len(lines), logBuf.String())
	}
	// The server writes a line when a request ends, which may be after the
	// client has sent the next one: any order.
	for _, want := range []string{"GET /api/position 200 ", "GET /api/game/0 400 ", "GET / 200 ", "GET /app.js 200 "} {
		i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, want) })
		if i < 0 {
			t.Errorf("no log line %q in\n%s", want, logBuf.String())
			continue
		}
		f := strings.Fields(lines[i])
		if len(f) != 6 {
			t.Errorf("log line %q: want date, time, method, path, status and duration", lines[i])
			continue
		}
		if _, err := time.ParseDuration(f[5]); err != nil {
			t.Errorf("log line %q: duration: %v", lines[i], err)
		}
	}
}

// syncBuffer is a bytes.Buffer for a logger written by server goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
