package explorer

import (
	"context"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/queries/players"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestPlayerBySpelling: the PDN standard's example files write Ton
// Sijbrands "Sijbrands,T." and "T. Sijbrands"; /api/player by either
// spelling is one player with both, and the record `draughtsdb players`
// lists for them.
func TestPlayerBySpelling(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewDB(t)
	ctx := context.Background()
	var files []string
	for _, f := range []string{"wk2003.pdn.gz", "nk ronde 01.pdn.gz", "PROF2.pdn.gz"} {
		files = append(files, filepath.Join(shared, "testsuite", "succeed", f))
	}
	if _, err := ingest.Import(ctx, pool, files, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	list, err := players.List(ctx, pool, "sijbrands")
	if err != nil || len(list) != 1 {
		t.Fatalf("players.List: %v %+v", err, list)
	}
	ts := testServer(t, pool, Options{})
	for _, name := range []string{"Sijbrands,T.", "T. Sijbrands", "t. sijbrands", "Ton Sijbrands"} {
		var p PlayerAnswer
		if st, body := get(t, ts, "/api/player", url.Values{"name": {name}}, &p); st != 200 {
			t.Fatalf("%s: %d %s", name, st, body)
		}
		spellings := append([]string{p.Name}, p.Aliases...)
		slices.Sort(spellings)
		if !slices.Equal(spellings, []string{"Sijbrands,T.", "T. Sijbrands"}) || len(p.Record) < 3 ||
			p.Record[0].Games != int64(list[0].Games) || p.Record[0].Wins != int64(list[0].Wins) || p.Record[0].Losses != int64(list[0].Losses) {
			t.Errorf("%s: %+v; players lists %+v", name, p, list[0].Record)
		}
	}
	if st, body := get(t, ts, "/api/player", url.Values{"name": {"Sijbrans"}}, nil); st != 404 || !strings.Contains(body, "closest: Sijbrands,T.") {
		t.Errorf("unknown name: %d %s", st, body)
	}
}

// sijbrandsFiles are the PDN standard's example files that write Ton
// Sijbrands two ways.
func sijbrandsFiles() []string {
	var files []string
	for _, f := range []string{"wk2003.pdn.gz", "nk ronde 01.pdn.gz", "PROF2.pdn.gz"} {
		files = append(files, filepath.Join(shared, "testsuite", "succeed", f))
	}
	return files
}

// firstMoves counts, over the replayed games of a player (spellings of)
// as color that start with line (as written by the variant's notation),
// the move after it, its games and the player's points in the finished
// ones: counted from the files, not the database.
func firstMoves(games []replayed, of map[string]bool, color rules.Color, line []string) (total int64, moves map[string][2]float64) {
	moves = map[string][2]float64{}
	for _, g := range games {
		name := g.white
		if color == rules.Black {
			name = g.black
		}
		if !of[name] || g.variant != rules.International || len(g.moves) < len(line) {
			continue
		}
		pos := g.start
		match := true
		for i, want := range line {
			legal := pos.LegalMoves(nil)
			m := &g.moves[i]
			if rules.FormatMove(g.variant, m, g.variant.DefaultNotation, rules.Ambiguous(legal, m)) != want {
				match = false
				break
			}
			pos.Play(m)
		}
		if !match {
			continue
		}
		total++
		if len(g.moves) == len(line) {
			continue
		}
		legal := pos.LegalMoves(nil)
		m := &g.moves[len(line)]
		text := rules.FormatMove(g.variant, m, g.variant.DefaultNotation, rules.Ambiguous(legal, m))
		c := moves[text]
		c[0]++
		moves[text] = c
	}
	return total, moves
}

// TestPlayerPageAPI: /api/player's player page — the record by year, the
// opening trees as White and as Black (first moves and a move further)
// and the pages of games — against counts made here from the PDN files
// themselves; /api/players?search= finds the player by any part of any
// spelling, and prefix= still completes a spelling.
func TestPlayerPageAPI(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewDB(t)
	ctx := context.Background()
	files := sijbrandsFiles()
	if _, err := ingest.Import(ctx, pool, files, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	games, err := replayFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	of := map[string]bool{"Sijbrands,T.": true, "T. Sijbrands": true}
	var n int64
	years := map[string]int64{}
	for _, g := range games {
		if of[g.white] || of[g.black] {
			n++
			if len(g.date) >= 4 && !strings.Contains(g.date[:4], "?") {
				years[g.date[:4]]++
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d games of Sijbrands in the files: not a test", n)
	}
	ts := testServer(t, pool, Options{})
	var p PlayerAnswer
	if st, body := get(t, ts, "/api/player", url.Values{"name": {"T. Sijbrands"}}, &p); st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	if p.All.Games != n || p.White.Games+p.Black.Games != n || p.Variant != "international" ||
		len(p.Variants) != 1 || p.Variants[0].Games != n {
		t.Errorf("record %+v %+v %+v, variants %+v; the files: %d games", p.All, p.White, p.Black, p.Variants, n)
	}
	gotYears := map[string]int64{}
	for _, y := range p.Years {
		gotYears[y.Scope] = y.Games
	}
	if len(years) == 0 || !maps.Equal(gotYears, years) {
		t.Errorf("years %v; the files %v", gotYears, years)
	}
	if len(p.Opponents) == 0 || p.Opponents[0].Games < p.Opponents[len(p.Opponents)-1].Games {
		t.Errorf("opponents %+v", p.Opponents)
	}

	// The trees, as White and as Black, at the start and a move further.
	checkTree := func(tree *PlayerTree, color rules.Color, line []string) {
		t.Helper()
		total, moves := firstMoves(games, of, color, line)
		got := map[string][2]float64{}
		for _, m := range tree.Moves {
			got[m.Move] = [2]float64{float64(m.Games)}
		}
		if tree.Games != total || !maps.Equal(got, moves) || !slices.Equal(tree.Line, line) {
			t.Errorf("%s tree after %v: %d games %v (line %v); the files: %d games %v", tree.Color, line, tree.Games, got, tree.Line, total, moves)
		}
		if total == 0 {
			t.Errorf("%s tree after %v: no game: not a test", tree.Color, line)
		}
	}
	checkTree(p.WhiteTree, rules.White, nil)
	checkTree(p.BlackTree, rules.Black, nil)
	if len(p.WhiteTree.Moves) == 0 || len(p.BlackTree.Moves) == 0 {
		t.Fatalf("empty trees: %+v %+v", p.WhiteTree, p.BlackTree)
	}
	// The player's score as Black is the other side of White's.
	for _, m := range p.BlackTree.Moves {
		if m.Score != nil && (m.PlayerScore == nil || *m.PlayerScore+*m.Score < 99.9 || *m.PlayerScore+*m.Score > 100.1) {
			t.Errorf("black tree move %s: score %v, the player's %v", m.Move, *m.Score, m.PlayerScore)
		}
	}
	w1, b1 := p.WhiteTree.Moves[0].Move, p.BlackTree.Moves[0].Move
	t.Logf("%d games (%d as White, %d as Black) in %d years; %d first moves as White (%s %d), %d as Black (%s %d)",
		n, p.White.Games, p.Black.Games, len(years), len(p.WhiteTree.Moves), w1, p.WhiteTree.Moves[0].Games,
		len(p.BlackTree.Moves), b1, p.BlackTree.Moves[0].Games)
	var p2 PlayerAnswer
	if st, body := get(t, ts, "/api/player", url.Values{"name": {"sijbrands,t."}, "white_moves": {w1}, "black_moves": {b1}}, &p2); st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	checkTree(p2.WhiteTree, rules.White, []string{w1})
	checkTree(p2.BlackTree, rules.Black, []string{b1})

	// The games, a page of 7 at a time, newest first: every game once.
	seen := map[int64]bool{}
	before := ""
	for page := 0; ; page++ {
		var pg PlayerAnswer
		params := url.Values{"name": {"Sijbrands,T."}, "limit": {"7"}}
		if before != "" {
			params.Set("before", before)
		}
		if st, body := get(t, ts, "/api/player", params, &pg); st != 200 || len(pg.Games) > 7 || page > 100 {
			t.Fatalf("page %d: %d %s", page, st, body)
		}
		for i, g := range pg.Games {
			if seen[g.ID] || (i > 0 && g.ID >= pg.Games[i-1].ID) || !(of[g.White] || of[g.Black]) {
				t.Errorf("page %d: game %+v again, out of order or not theirs", page, g)
			}
			seen[g.ID] = true
		}
		if pg.NextBefore == 0 {
			break
		}
		before = strconv.FormatInt(pg.NextBefore, 10)
	}
	if int64(len(seen)) != n {
		t.Errorf("the pages hold %d games; the files %d", len(seen), n)
	}

	// The list: by any part of any spelling, one entry for the player.
	for _, q := range []string{"sijbrands", "T. Sijb", "SIJBRANDS,T"} {
		var ans struct {
			Players []PlayerEntry
			Total   int
		}
		if st, body := get(t, ts, "/api/players", url.Values{"search": {q}}, &ans); st != 200 {
			t.Fatalf("%s: %d %s", q, st, body)
		}
		if len(ans.Players) != 1 || ans.Total != 1 || ans.Players[0].Games != n || len(ans.Players[0].Aliases) != 1 {
			t.Errorf("search %q: %+v; the files: %d games", q, ans, n)
		}
	}
	var all struct {
		Players []PlayerEntry
		Total   int
	}
	get(t, ts, "/api/players", url.Values{"search": {""}, "limit": {"5"}}, &all)
	if len(all.Players) != 5 || all.Total <= 5 || all.Players[0].Games < all.Players[4].Games {
		t.Errorf("search of nothing, limit 5: %+v", all)
	}
	var old struct{ Players []PlayerName }
	get(t, ts, "/api/players", url.Values{"prefix": {"sijb"}}, &old)
	if len(old.Players) != 1 || old.Players[0].Name != "Sijbrands,T." {
		t.Errorf("prefix sijb: %+v", old)
	}
	for _, c := range []struct {
		params url.Values
		want   string
	}{
		{url.Values{"name": {"Sijbrands,T."}, "white_moves": {"32-22"}}, "white_moves (international)"},
		{url.Values{"name": {"Sijbrands,T."}, "before": {"x"}}, "before"},
		{url.Values{"name": {"Sijbrands,T."}, "variant": {"chess"}}, "variant"},
		{url.Values{"name": {"Sijbrands,T."}, "limit": {"1000"}}, "limit"},
	} {
		if st, body := get(t, ts, "/api/player", c.params, nil); st != 400 || !strings.Contains(body, c.want) {
			t.Errorf("%v: %d %s", c.params, st, body)
		}
	}
	if st, body := get(t, ts, "/api/players", url.Values{"search": {"a"}, "prefix": {"b"}}, nil); st != 400 {
		t.Errorf("search and prefix: %d %s", st, body)
	}
}
