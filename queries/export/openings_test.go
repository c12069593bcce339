package export

import (
	"context"
	"fmt"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5/pgxpool"
)

// openingRow is what the openings export should say of one (position,
// move), computed here from the stored games without the statistics.
type openingRow struct {
	games, white, draws, black int64
	child                      string
}

// expectedOpenings replays every stored game's first plies (as the import
// counts them: each position once per game) and keeps the (position,
// move) pairs the walk reaches from the initial positions: keyed by
// "variant zobrist move".
func expectedOpenings(t *testing.T, pool *pgxpool.Pool) map[string]*openingRow {
	t.Helper()
	ctx := context.Background()
	rows, err := pool.Query(ctx, `SELECT variant, coalesce(start_fen, ''), moves, result FROM games`)
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]*openingRow{}
	children := map[string][]string{} // "variant zobrist" -> its moves' keys
	for rows.Next() {
		var gt, result int16
		var fen string
		var moves []byte
		if err := rows.Scan(&gt, &fen, &moves, &result); err != nil {
			t.Fatal(err)
		}
		v, err := codec.VariantByID(gt)
		if err != nil {
			t.Fatal(err)
		}
		pos := v.StartPosition()
		if fen != "" {
			if pos, err = rules.ParseFEN(v, fen); err != nil {
				t.Fatal(err)
			}
		}
		ms, err := codec.DecodeMoves(v, pos, moves)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[uint64]bool{}
		for i := 0; i < len(ms) && i < openings.DefaultDepth; i++ {
			m := &ms[i]
			h := pos.Hash()
			if !seen[h] {
				seen[h] = true
				legal := pos.LegalMoves(nil)
				node := fmt.Sprintf("%s %s", v.Name, hex64(h))
				key := node + " " + rules.FormatMove(v, m, v.DefaultNotation, rules.Ambiguous(legal, m))
				r := all[key]
				if r == nil {
					r = &openingRow{}
					all[key] = r
					children[node] = append(children[node], key)
				}
				r.games++
				switch result {
				case 1:
					r.white++
				case 2:
					r.draws++
				case 3:
					r.black++
				}
				after := pos
				after.Play(m)
				r.child = fmt.Sprintf("%s %s", v.Name, hex64(after.Hash()))
			}
			pos.Play(m)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	// The positions reachable from the initial positions.
	want := map[string]*openingRow{}
	var frontier []string
	reached := map[string]bool{}
	for _, v := range rules.Variants() {
		start := v.StartPosition()
		n := fmt.Sprintf("%s %s", v.Name, hex64(start.Hash()))
		reached[n] = true
		frontier = append(frontier, n)
	}
	for len(frontier) > 0 {
		n := frontier[len(frontier)-1]
		frontier = frontier[:len(frontier)-1]
		for _, key := range children[n] {
			r := all[key]
			want[key] = r
			if !reached[r.child] {
				reached[r.child] = true
				frontier = append(frontier, r.child)
			}
		}
	}
	return want
}

// testOpeningsExport: the openings export holds exactly the (position,
// move) pairs of the games reachable from the initial positions, with
// their counts, and --min-games and --max-ply bound it.
func testOpeningsExport(t *testing.T, f *fixture) {
	pool := f.pool
	want := f.wantOpenings(t)
	dir := t.TempDir()
	path, sum := f.openingsJSONL(t)
	if sum.Rows != int64(len(want)) || len(want) < 1000 {
		t.Fatalf("%d rows, the games give %d", sum.Rows, len(want))
	}
	rd := newJSONLRows(t, path, openingColumns)
	got := map[string]bool{}
	minPly := map[string]int{}
	for {
		vals, ok := rd.next(t)
		if !ok {
			break
		}
		key := fmt.Sprintf("%s %s %s", vals[0], vals[3], vals[5])
		if got[key] {
			t.Errorf("%s twice", key)
		}
		got[key] = true
		w := want[key]
		if w == nil {
			t.Errorf("%s is not in the games", key)
			continue
		}
		if g := fmt.Sprintf("%v %v %v %v", vals[7], vals[8], vals[9], vals[10]); g != fmt.Sprintf("%d %d %d %d", w.games, w.white, w.draws, w.black) {
			t.Errorf("%s: exported %s, games %+v", key, g, *w)
		}
		ply := 0
		fmt.Sscan(jsonText(vals[1]), &ply)
		minPly[fmt.Sprintf("%s %s", vals[0], vals[3])] = ply
	}
	// --min-games 3 --max-ply 4: only moves played 3 times or more, from
	// positions within 4 plies.
	path, sum = exportTo(t, pool, dir, "openings-3.jsonl", Options{What: Openings, Format: JSONL, MinGames: 3, MaxPly: 4})
	rd = newJSONLRows(t, path, openingColumns)
	n := int64(0)
	for {
		vals, ok := rd.next(t)
		if !ok {
			break
		}
		n++
		var games, ply int
		fmt.Sscan(jsonText(vals[7]), &games)
		fmt.Sscan(jsonText(vals[1]), &ply)
		if games < 3 || ply > 4 {
			t.Errorf("--min-games 3 --max-ply 4 exported %v", vals)
		}
	}
	if n == 0 || n >= sum.Rows && sum.Rows >= int64(len(want)) {
		t.Errorf("--min-games 3 --max-ply 4: %d rows of %d", n, len(want))
	}
	t.Logf("%d (position, move) rows; %d with --min-games 3 --max-ply 4", len(want), n)
}
