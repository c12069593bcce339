package patternsearch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/queries/export"
	"github.com/draughtsdb/draughtsdb/replay/pattern"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

const sharedDir = "../../ingest/pdn/testdata/shared"

// TestSharedArchives imports the shared archives once and checks the
// search on them: against a scan of export --what positions
// (searchAgreesWithExport), the index replayed position by position
// (indexReplaysEveryPosition), the SQL functions (sqlAgreesWithSearch).
func TestSharedArchives(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	pool := pgtest.NewDB(t)
	if _, err := ingest.Import(context.Background(), pool, []string{sharedDir}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	// Read-only checks of one database: in parallel.
	t.Run("SearchAgreesWithExport", func(t *testing.T) { t.Parallel(); searchAgreesWithExport(t, pool) })
	t.Run("IndexReplaysEveryPosition", func(t *testing.T) { t.Parallel(); indexReplaysEveryPosition(t, pool) })
	t.Run("SQLAgreesWithSearch", func(t *testing.T) { t.Parallel(); sqlAgreesWithSearch(t, pool) })
}

// exported is one row of export --what positions.
type exported struct {
	GameID int64  `json:"game_id"`
	Ply    int    `json:"ply"`
	FEN    string `json:"fen"`
	Move   string `json:"move"`
}

// exportCache keeps each variant's export for the tests of one database;
// exportMu guards it (the subtests run in parallel, and one export at a
// time is enough: the second asker waits and takes the first's rows).
var (
	exportMu    sync.Mutex
	exportCache = map[*pgxpool.Pool]map[string][]exported{}
)

func exportPositions(t *testing.T, pool *pgxpool.Pool, v *rules.Variant) []exported {
	t.Helper()
	exportMu.Lock()
	defer exportMu.Unlock()
	if rows, ok := exportCache[pool][v.Name]; ok {
		return rows
	}
	var buf bytes.Buffer
	if _, err := export.Run(context.Background(), pool, &buf, export.Options{What: export.Positions, Format: export.JSONL,
		Filter: export.Filter{Variant: v}}); err != nil {
		t.Fatal(err)
	}
	var out []exported
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r exported
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no positions exported", v.Name)
	}
	if exportCache[pool] == nil {
		exportCache[pool] = map[string][]exported{}
	}
	exportCache[pool][v.Name] = out
	return out
}

// matchesFEN tests a partial position against a FEN piece by piece, the
// colour-reversed way by looking at the turned square with the other
// colour: independent of the square sets the search uses.
func matchesFEN(v *rules.Variant, p *rules.Position, white, black map[int]rules.Piece, side string, reversed bool) bool {
	n := v.Board.Squares()
	swap := map[rules.Piece]rules.Piece{rules.WhiteMan: rules.BlackMan, rules.WhiteKing: rules.BlackKing,
		rules.BlackMan: rules.WhiteMan, rules.BlackKing: rules.WhiteKing}
	for _, want := range []map[int]rules.Piece{white, black} {
		for sq, pc := range want {
			if reversed {
				sq, pc = n+1-sq, swap[pc]
			}
			if p.Piece(sq) != pc {
				return false
			}
		}
	}
	toMove := "white"
	if p.SideToMove() == rules.Black {
		toMove = "black"
	}
	if reversed {
		toMove = map[string]string{"white": "black", "black": "white"}[toMove]
	}
	return side == "" || side == toMove
}

type want struct {
	first     int
	positions int
}

// searchAgreesWithExport: for three patterns in each of International,
// Russian and English, the games found (each with its first ply and
// count of matching positions), normally and colour-reversed, are those
// of a scan of export --what positions.
func searchAgreesWithExport(t *testing.T, pool *pgxpool.Pool) {
	type pat struct {
		text         string
		white, black map[int]rules.Piece
		side         string
	}
	wm, wk, bm, bk := rules.WhiteMan, rules.WhiteKing, rules.BlackMan, rules.BlackKing
	cases := []struct {
		variant string
		pats    []pat
	}{
		{"international", []pat{
			{"W:W28,32:B19,23", map[int]rules.Piece{28: wm, 32: wm}, map[int]rules.Piece{19: bm, 23: bm}, ""},
			{"B:W27:B18,22", map[int]rules.Piece{27: wm}, map[int]rules.Piece{18: bm, 22: bm}, "black"},
			{"W:WK3:B", map[int]rules.Piece{3: wk}, nil, ""},
		}},
		// Russian squares: c3 22, e3 23, f6 11, d4 18, c5 14, e5 15, c1 30.
		{"russian", []pat{
			{"W:Wc3,e3:Bf6", map[int]rules.Piece{22: wm, 23: wm}, map[int]rules.Piece{11: bm}, ""},
			{"B:Wd4:Bc5,e5", map[int]rules.Piece{18: wm}, map[int]rules.Piece{14: bm, 15: bm}, "black"},
			{"W:W:BKc1", nil, map[int]rules.Piece{30: bk}, ""},
		}},
		{"english", []pat{
			{"W:W21,22:B9,10", map[int]rules.Piece{21: wm, 22: wm}, map[int]rules.Piece{9: bm, 10: bm}, ""},
			{"W:W18:B14,15", map[int]rules.Piece{18: wm}, map[int]rules.Piece{14: bm, 15: bm}, "white"},
			{"W:WK5:BK28", map[int]rules.Piece{5: wk}, map[int]rules.Piece{28: bk}, ""},
		}},
	}
	for _, c := range cases {
		v, err := rules.VariantByName(c.variant)
		if err != nil {
			t.Fatal(err)
		}
		rows := exportPositions(t, pool, v)
		positionsOf := make([]rules.Position, len(rows))
		for i, r := range rows {
			if positionsOf[i], err = rules.ParseFEN(v, r.FEN); err != nil {
				t.Fatalf("%s: %v", r.FEN, err)
			}
		}
		for _, p := range c.pats {
			parsed, err := pattern.Parse(v, p.text)
			if err != nil {
				t.Fatal(err)
			}
			white, black := p.white, p.black
			side, err := pattern.ParseSide(p.side)
			if err != nil {
				t.Fatal(err)
			}
			for _, rev := range []bool{false, true} {
				name := fmt.Sprintf("%s/%s/reversed=%v", c.variant, p.text, rev)
				exp := map[int64]want{}
				positions := 0
				for i, r := range rows {
					ok := matchesFEN(v, &positionsOf[i], white, black, p.side, false)
					if !ok && rev {
						ok = matchesFEN(v, &positionsOf[i], white, black, p.side, true)
					}
					if !ok {
						continue
					}
					positions++
					w, seen := exp[r.GameID]
					if !seen {
						w.first = r.Ply
					}
					w.first = min(w.first, r.Ply)
					w.positions++
					exp[r.GameID] = w
				}
				res, err := Search(context.Background(), pool, Options{Variant: v,
					Query: pattern.Query{Patterns: []pattern.Pattern{parsed}, Side: side, MinPly: -1, MaxPly: -1, Reversed: rev}, Limit: 1 << 30})
				if err != nil {
					t.Fatal(err)
				}
				got := map[int64]want{}
				for _, m := range res.Matches {
					got[m.GameID] = want{m.Ply, m.Positions}
				}
				if res.Games != len(exp) || int(res.Positions) != positions || !maps.Equal(got, exp) {
					ids := slices.Sorted(maps.Keys(exp))
					t.Errorf("%s: search %d games %d positions, export scan %d games %d positions (first expected %v)",
						name, res.Games, res.Positions, len(exp), positions, ids[:min(5, len(ids))])
					continue
				}
				if len(exp) == 0 {
					t.Errorf("%s: no game matches: not a test", name)
				}
				t.Logf("%s: %d games, %d positions", name, res.Games, res.Positions)
			}
		}
	}
}
