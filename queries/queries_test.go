package queries_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/queries"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const shared = "../ingest/pdn/testdata/shared"

var inputs = []string{
	filepath.Join(shared, "international"),
	filepath.Join(shared, "online", "russian.pdn.gz"),
	filepath.Join(shared, "online", "american.pdn.gz"),
	filepath.Join(shared, "online", "brazilian.pdn.gz"),
	filepath.Join(shared, "testsuite", "succeed", "mrcd2006.pdn.gz"),
	// Games that are rejected (an illegal move, an unknown move), for the
	// rejected query.
	filepath.Join(shared, "testsuite", "fail", "Cat.C1.pdn.gz"),
	filepath.Join(shared, "testsuite", "fail", "abatsiev.pdn.gz"),
}

// game is what the independent computation keeps of an accepted game.
type game struct {
	variant      *rules.Variant
	event, date  string
	white, black string
	result       replay.Result
	hashes       []uint64 // start and after every ply
	moves        []string // numeric, full paths
	short        []string // start and end in the variant's own notation
	algebraic    []string // start and end, algebraic
	ownFull      []string // the variant's own notation, full paths
	fromStart    bool     // the game starts from the initial position
	source       string   // the name of its source
}

// replayAll reads and replays inputs in Go, without the database, each
// game read as the import reads it (ingest.ReplayGames: the game alone,
// then what its source says of the variant of the games that name none).
func replayAll(t *testing.T) (games []game, rejected map[string]int) {
	t.Helper()
	srcs, errs := source.Expand(inputs)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	rejected = map[string]int{}
	// Duplicates: same variant, start, moves, players, date and result,
	// and Event, Site and Round the same wherever both give one.
	type header struct {
		result             replay.Result
		event, site, round string
	}
	seen := map[string][]header{}
	err := ingest.ReplayGames(context.Background(), srcs, func(s *source.Source, pg *pdn.Game, g *replay.Game, err error) error {
		if err != nil {
			rejected[replay.Reason(err)]++
			return nil
		}
		gm := game{variant: g.Variant, event: pg.Tag("Event"), date: g.Date, white: name(pg.Tag("White")), black: name(pg.Tag("Black")), result: g.Result}
		gm.hashes = append([]uint64{g.Start.Hash()}, g.Hashes...)
		gm.fromStart = g.StartFEN == ""
		gm.source = s.Name
		for i := range g.Moves {
			m := &g.Moves[i]
			gm.moves = append(gm.moves, rules.FormatMove(g.Variant, m, rules.Numeric, true))
			gm.short = append(gm.short, rules.FormatMove(g.Variant, m, g.Variant.DefaultNotation, false))
			gm.algebraic = append(gm.algebraic, rules.FormatMove(g.Variant, m, rules.Algebraic, false))
			gm.ownFull = append(gm.ownFull, rules.FormatMove(g.Variant, m, g.Variant.DefaultNotation, true))
		}
		key := strings.Join(append([]string{g.Variant.Name, g.StartFEN, gm.white, gm.black, gm.date}, gm.moves...), "|")
		h := header{g.Result, pg.Tag("Event"), pg.Tag("Site"), pg.Tag("Round")}
		agree := func(a, b string) bool {
			a, b = strings.TrimSpace(a), strings.TrimSpace(b)
			return a == "" || a == "?" || a == "-" || b == "" || b == "?" || b == "-" || strings.EqualFold(a, b)
		}
		for _, o := range seen[key] {
			if o.result == h.result && agree(o.event, h.event) && agree(o.site, h.site) && agree(o.round, h.round) {
				return nil
			}
		}
		seen[key] = append(seen[key], h)
		games = append(games, gm)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return games, rejected
}

// name cleans a player tag as the importer does: spaces collapsed, "?" and
// "-" meaning nobody.
func name(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "?" || s == "-" {
		return ""
	}
	return s
}

// setup returns a database holding the inputs (a copy of the one the
// test binary imports them into once) and the games replay reads in them.
func setup(t *testing.T) (*pgxpool.Pool, []game, map[string]int) {
	t.Helper()
	games, rejected := replayAll(t)
	pool := pgtest.NewDBFrom(t, "queries inputs", func(ctx context.Context, pool *pgxpool.Pool) error {
		sum, err := ingest.Import(ctx, pool, inputs, ingest.Options{BatchSize: 200})
		if err != nil {
			return err
		}
		if sum.Imported != len(games) {
			return fmt.Errorf("import %+v, replay found %d distinct games", sum, len(games))
		}
		return nil
	})
	return pool, games, rejected
}

func run(t *testing.T, pool *pgxpool.Pool, name string, params map[string]string) *queries.Result {
	t.Helper()
	q, err := queries.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	res, err := queries.Run(context.Background(), pool, q, params)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func col(t *testing.T, r *queries.Result, name string) int {
	for i, c := range r.Columns {
		if c == name {
			return i
		}
	}
	t.Fatalf("no column %s in %v", name, r.Columns)
	return -1
}

func TestNamedQueriesAgreeWithReplay(t *testing.T) {
	t.Parallel()
	pool, games, rejected := setup(t)

	t.Run("events", func(t *testing.T) {
		want := map[string]int{}
		for _, g := range games {
			ev := g.event
			if ev == "" {
				ev = "(no event)"
			}
			want[ev+"|"+g.variant.Name]++
		}
		res := run(t, pool, "events", map[string]string{"limit": "100000"})
		ev, v, n := col(t, res, "event"), col(t, res, "variant"), col(t, res, "games")
		if len(res.Rows) != len(want) {
			t.Fatalf("%d events, want %d", len(res.Rows), len(want))
		}
		for _, row := range res.Rows {
			if got, _ := strconv.Atoi(row[n]); got != want[row[ev]+"|"+row[v]] {
				t.Errorf("event %q %s: %d games, replay counts %d", row[ev], row[v], got, want[row[ev]+"|"+row[v]])
			}
		}
	})

	t.Run("rejected", func(t *testing.T) {
		res := run(t, pool, "rejected", nil)
		reason, n := col(t, res, "reason"), col(t, res, "games")
		got := map[string]int{}
		for _, row := range res.Rows {
			got[row[reason]], _ = strconv.Atoi(row[n])
		}
		if len(rejected) == 0 || len(got) != len(rejected) {
			t.Fatalf("reasons %v, replay says %v", got, rejected)
		}
		for r, c := range rejected {
			if got[r] != c {
				t.Errorf("%s: %d, replay says %d", r, got[r], c)
			}
		}
	})

	t.Run("player", func(t *testing.T) {
		// The player with the most games, counted in Go.
		count := map[string]int{}
		for _, g := range games {
			count[g.white]++
			count[g.black]++
		}
		delete(count, "")
		var best string
		for p, c := range count {
			if c > count[best] || c == count[best] && p < best {
				best = p
			}
		}
		var w, d, l, asWhite int
		byYear := map[string]int{}
		for _, g := range games {
			if g.white == best || g.black == best {
				byYear[g.date[:4]]++
			}
			switch best {
			case g.white:
				asWhite++
				switch g.result {
				case replay.WhiteWins:
					w++
				case replay.Draw:
					d++
				case replay.BlackWins:
					l++
				}
			case g.black:
				switch g.result {
				case replay.BlackWins:
					w++
				case replay.Draw:
					d++
				case replay.WhiteWins:
					l++
				}
			}
		}
		res := run(t, pool, "player", map[string]string{"player": best})
		scope, n, wins, draws, losses := col(t, res, "scope"), col(t, res, "games"), col(t, res, "wins"), col(t, res, "draws"), col(t, res, "losses")
		found := map[string]bool{}
		for _, row := range res.Rows {
			found[row[scope]] = true
			switch row[scope] {
			case "all games":
				if row[n] != strconv.Itoa(count[best]) || row[wins] != strconv.Itoa(w) || row[draws] != strconv.Itoa(d) || row[losses] != strconv.Itoa(l) {
					t.Errorf("%s: %v, replay: games %d +%d =%d -%d", best, row, count[best], w, d, l)
				}
			case "as white":
				if row[n] != strconv.Itoa(asWhite) {
					t.Errorf("%s as white: %s games, replay %d", best, row[n], asWhite)
				}
			case "as black":
				if row[n] != strconv.Itoa(count[best]-asWhite) {
					t.Errorf("%s as black: %s games, replay %d", best, row[n], count[best]-asWhite)
				}
			default:
				year := strings.TrimPrefix(row[scope], "in ")
				if row[n] != strconv.Itoa(byYear[year]) {
					t.Errorf("%s in %s: %s games, replay %d", best, year, row[n], byYear[year])
				}
				delete(byYear, year)
			}
		}
		if len(byYear) > 0 {
			t.Errorf("years missing from the record: %v", byYear)
		}
		if !found["all games"] || found["as white"] != (asWhite > 0) || found["as black"] != (count[best] > asWhite) {
			t.Errorf("scopes %v for %d games, %d as white", found, count[best], asWhite)
		}
	})

	t.Run("games at position, with a transposition", func(t *testing.T) {
		// A position two games reach by different move orders.
		type seen struct {
			game  int
			moves string
		}
		first := map[uint64]seen{}
		var hash uint64
		var variant *rules.Variant
	search:
		for gi, g := range games {
			for ply := 1; ply < len(g.hashes) && ply <= 20; ply++ {
				h := g.hashes[ply]
				key := ""
				for _, m := range g.moves[:ply] {
					key += m + " "
				}
				if s, ok := first[h]; ok && s.game != gi && s.moves != key && g.variant.Board == games[s.game].variant.Board {
					hash, variant = h, g.variant
					break search
				}
				if _, ok := first[h]; !ok {
					first[h] = seen{gi, key}
				}
			}
		}
		if variant == nil {
			t.Fatal("no transposition in the test data")
		}
		want := 0
		for _, g := range games {
			for _, h := range g.hashes {
				if h == hash && g.variant.Board == variant.Board {
					want++
					break
				}
			}
		}
		res := run(t, pool, "games_at_position", map[string]string{"hash": strconv.FormatInt(int64(hash), 10), "limit": "100000"})
		if len(res.Rows) != want || want < 2 {
			t.Fatalf("position %x: %d games, replay finds %d", hash, len(res.Rows), want)
		}
		// A page.
		page := run(t, pool, "games_at_position", map[string]string{"hash": strconv.FormatInt(int64(hash), 10), "limit": "1", "offset": "1"})
		if len(page.Rows) != 1 || page.Rows[0][0] != res.Rows[1][0] {
			t.Fatalf("second page of one: %v, want %v", page.Rows, res.Rows[1])
		}
	})
}

func TestQueryFiles(t *testing.T) {
	t.Parallel()
	all, err := queries.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 4 {
		t.Fatalf("%d queries", len(all))
	}
	for _, q := range all {
		if q.Description == "" {
			t.Errorf("%s: no description", q.Name)
		}
		for _, p := range q.Params {
			if p.Description == "" {
				t.Errorf("%s: parameter %s has no description", q.Name, p.Name)
			}
		}
	}
	q, _ := queries.Lookup("events")
	if _, _, err := q.Bind(map[string]string{"nonsense": "1"}); !errors.Is(err, queries.ErrUnknownParam) {
		t.Errorf("unknown parameter accepted: %v", err)
	}
	p, _ := queries.Lookup("player")
	if _, _, err := p.Bind(nil); !errors.Is(err, queries.ErrMissingParam) {
		t.Errorf("missing required parameter accepted: %v", err)
	}
	sql, args, err := q.Bind(map[string]string{"variant": "russian"})
	if err != nil || len(args) != 4 || args[0] != "russian" || args[1] != "50" || args[2] != "archive" || args[3] != "0" {
		t.Fatalf("bind: %v %v %v", sql, args, err)
	}

	// A variant the rules do not know, or a count of moves below 1, is an
	// error, not a query that answers no rows (events, opening_stats,
	// opening_tree and games_at_position printed "(0 rows)" for
	// variant=nonsense, opening_stats one row of every game for n=-1).
	// Empty is a variant only where the query takes it for all.
	for _, c := range []struct {
		query  string
		params map[string]string
		ok     bool
	}{
		{"events", map[string]string{"variant": "nonsense"}, false},
		{"events", map[string]string{"variant": ""}, true},
		{"events", map[string]string{"variant": "American"}, true},
		{"events", map[string]string{"variant": "turkish"}, true},
		{"opening_stats", map[string]string{"variant": "nonsense"}, false},
		{"opening_stats", map[string]string{"variant": ""}, false},
		{"opening_stats", map[string]string{"n": "-1"}, false},
		{"opening_stats", map[string]string{"n": "0"}, false},
		{"opening_stats", map[string]string{"n": "two"}, false},
		{"opening_stats", map[string]string{"n": "1", "variant": "frisian"}, true},
		{"opening_stats", nil, true},
		{"opening_tree", map[string]string{"hash": "1", "variant": "nonsense"}, false},
		{"games_at_position", map[string]string{"hash": "1", "variant": "nonsense"}, false},
		{"games_at_position", map[string]string{"hash": "1"}, true},
		{"games_by_opening", map[string]string{"moves": "", "variant": "nonsense"}, false},
	} {
		q, err := queries.Lookup(c.query)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := q.Bind(c.params); (err == nil) != c.ok || err != nil && !errors.Is(err, queries.ErrBadParam) {
			t.Errorf("%s %v: %v", c.query, c.params, err)
		}
	}
	// A parameter's description that lists variants lists every one (the
	// events query's named 5 of 16).
	for _, q := range all {
		for _, p := range q.Params {
			if !strings.Contains(p.Description, "russian") {
				continue
			}
			for _, v := range rules.Variants() {
				if !strings.Contains(p.Description, v.Name) {
					t.Errorf("%s: parameter %s names variants but not %s: %q", q.Name, p.Name, v.Name, p.Description)
				}
			}
		}
	}
}

// selfGames are International games of a player against themself (the
// same name as White and Black: game 56 of Tricks traps and shots, Walter
// Hellman's, is one), won by either side, and one against another player.
const selfGames = `[Event "self"]
[Date "2001.01.01"]
[White "Self Player"]
[Black "Self Player"]
[Result "2-0"]
[GameType "20"]

1. 32-28 19-23 2-0

[Event "self"]
[Date "2002.01.01"]
[White "Self Player"]
[Black "Self Player"]
[Result "0-2"]
[GameType "20"]

1. 33-28 19-23 0-2

[Event "self"]
[Date "2002.02.01"]
[White "Self Player"]
[Black "Other Player"]
[Result "2-0"]
[GameType "20"]

1. 34-29 19-23 2-0
`

// TestPlayerAgainstThemself: the query player counts a game against
// oneself once in all games and its year (it counted it twice: once per
// colour), and once as white and once as black; won by either side, it is
// half the points, neither a win nor a loss, except by colour.
func TestPlayerAgainstThemself(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewDB(t)
	file := filepath.Join(t.TempDir(), "self.pdn")
	if err := os.WriteFile(file, []byte(selfGames), 0o644); err != nil {
		t.Fatal(err)
	}
	tricks := filepath.Join(shared, "testsuite", "succeed", "Tricks traps and shots.pdn.gz")
	if _, err := ingest.Import(context.Background(), pool, []string{file, tricks}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	for player, want := range map[string][]string{
		// Game 56, drawn, undated.
		"Walter Hellman": {
			"all games 1 0 1 0 50.0",
			"in ???? 1 0 1 0 50.0",
			"as white 1 0 1 0 50.0",
			"as black 1 0 1 0 50.0",
		},
		"Self Player": {
			"all games 3 1 0 0 66.7",
			"in 2001 1 0 0 0 50.0",
			"in 2002 2 1 0 0 75.0",
			"as white 3 2 0 1 66.7",
			"as black 2 1 0 1 50.0",
		},
	} {
		res := run(t, pool, "player", map[string]string{"player": player})
		var got []string
		for _, row := range res.Rows {
			got = append(got, strings.Join(row, " "))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: %v\n%s\nwant\n%s", player, res.Columns, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
