package queries_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// genGames is the number of synthetic games per variant of
// TestEveryVariantImportsAndCounts.
const genGames = 40

// variantCount is the opening statistics of one variant counted from the
// generated games without the database: per position (Zobrist hash) the
// moves played there in the games' first depth plies (full path, numeric)
// with their results, each game once per position (its first visit).
type variantCount struct {
	positions map[uint64]rules.Position
	moves     map[uint64]map[string]*tally
}

func countGames(v *rules.Variant, moves [][]rules.Move, results []replay.Result, depth int) variantCount {
	c := variantCount{positions: map[uint64]rules.Position{}, moves: map[uint64]map[string]*tally{}}
	for gi, ms := range moves {
		pos := v.StartPosition()
		visited := map[uint64]bool{}
		for ply := 0; ply < len(ms) && ply < depth; ply++ {
			h := pos.Hash()
			if !visited[h] {
				visited[h] = true
				if c.moves[h] == nil {
					c.moves[h] = map[string]*tally{}
					c.positions[h] = pos
				}
				k := rules.FormatMove(v, &ms[ply], rules.Numeric, true)
				if c.moves[h][k] == nil {
					c.moves[h][k] = &tally{}
				}
				c.moves[h][k].add(results[gi])
			}
			pos.Play(&ms[ply])
		}
	}
	return c
}

// compareTrees checks openings.Trees at every position of c against c.
func compareTrees(t *testing.T, pool *pgxpool.Pool, v *rules.Variant, c variantCount, what string) {
	t.Helper()
	var positions []rules.Position
	for _, p := range c.positions {
		positions = append(positions, p)
	}
	nodes, err := openings.Trees(context.Background(), pool, positions)
	if err != nil {
		t.Fatalf("%s %s: %v", v.Name, what, err)
	}
	bad := 0
	for i, node := range nodes {
		want := c.moves[positions[i].Hash()]
		got := map[string]string{}
		for _, b := range node.Branch {
			got[rules.FormatMove(v, &b.Move, rules.Numeric, true)] = fmt.Sprintf("%d %d %d %d", b.Games, b.WhiteWins, b.Draws, b.BlackWins)
		}
		for k, x := range want {
			if exp := fmt.Sprintf("%d %d %d %d", x.games, x.white, x.draws, x.black); got[k] != exp {
				if bad++; bad <= 5 {
					t.Errorf("%s %s at %s, %s: tree %q, count %q", v.Name, what, positions[i].FEN(), k, got[k], exp)
				}
			}
		}
		if len(got) != len(want) {
			if bad++; bad <= 5 {
				t.Errorf("%s %s at %s: the tree has %d moves, the count %d", v.Name, what, positions[i].FEN(), len(got), len(want))
			}
		}
	}
	if len(positions) < genGames {
		t.Errorf("%s: only %d positions compared", v.Name, len(positions))
	}
}

// TestEveryVariantImportsAndCounts: synthetic games of every variant rules
// plays (ingest/synth, the same text `draughtsdb gen` writes) import with
// their variant decided from their tags; the opening statistics equal a
// count over the generated games at every position of their first plies,
// after the import and after `db rebuild-openings` at another depth; the
// opening_tree query writes each variant's moves; draughtsdb_moves_text
// and draughtsdb_result_text give back each game's moves and result as
// generated. A variant added to rules is covered without a change here.
func TestEveryVariantImportsAndCounts(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	dir := t.TempDir()
	type generated struct {
		opts    synth.Options
		moves   [][]rules.Move
		results []replay.Result
		texts   []string // each game's moves in the variant's notation, full paths
		written []string // each game's Result as written
	}
	gens := map[*rules.Variant]*generated{}
	for _, v := range rules.Variants() {
		g := &generated{opts: synth.Options{Variant: v, Games: genGames, Seed: 17}}
		f, err := os.Create(filepath.Join(dir, "gen_"+v.Name+".pdn"))
		if err != nil {
			t.Fatal(err)
		}
		if err := synth.Write(f, g.opts); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		for i := range genGames {
			pg, moves := synth.Game(g.opts, i)
			r, ok := replay.ParseResult(v, pg.Result)
			if !ok {
				t.Fatalf("%s game %d: result %q", v.Name, i+1, pg.Result)
			}
			texts := make([]string, len(moves))
			for k := range moves {
				texts[k] = rules.FormatMove(v, &moves[k], v.DefaultNotation, true)
			}
			g.moves, g.results = append(g.moves, moves), append(g.results, r)
			g.texts, g.written = append(g.texts, strings.Join(texts, " ")), append(g.written, pg.Result)
		}
		gens[v] = g
	}
	sum, err := ingest.Import(ctx, pool, []string{dir}, ingest.Options{BatchSize: 64})
	if err != nil {
		t.Fatal(err)
	}
	if want := genGames * len(gens); sum.Imported != want || sum.Rejected != 0 {
		t.Fatalf("import: %+v, want %d games imported", sum, want)
	}

	for v, g := range gens {
		// Stored under the variant, with the moves and result as generated.
		rows, err := pool.Query(ctx, `SELECT g.variant, draughtsdb_variant_name(g.variant), g.variant_basis,
				draughtsdb_moves_text(g.moves, g.variant), draughtsdb_result_text(g.variant, g.result), g.result
			FROM games g JOIN sources s ON s.id = g.source_id
			WHERE s.name LIKE '%gen\_' || $1 || '.pdn' ORDER BY g.ordinal`, v.Name)
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		for rows.Next() {
			var (
				id                          int16
				name, basis, moves, written string
				result                      int16
			)
			if err := rows.Scan(&id, &name, &basis, &moves, &written, &result); err != nil {
				t.Fatal(err)
			}
			if i < genGames && (id != codec.VariantID(v) || name != v.Name || moves != g.texts[i] ||
				written != g.written[i] || codec.ResultOf(result) != g.results[i]) {
				t.Errorf("%s game %d: stored as %d %q (%s), result %q (%d), moves\n%s\ngenerated %q, %v\n%s",
					v.Name, i+1, id, name, basis, written, result, moves, g.written[i], g.results[i], g.texts[i])
			}
			i++
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if i != genGames {
			t.Fatalf("%s: %d games stored", v.Name, i)
		}

		compareTrees(t, pool, v, countGames(v, g.moves, g.results, openings.DefaultDepth), "after the import")

		// The named query writes the moves at the start in the variant's
		// notation and algebraically.
		start := v.StartPosition()
		want := countGames(v, g.moves, g.results, 1).moves[start.Hash()]
		res := run(t, pool, "opening_tree", map[string]string{"variant": v.Name, "hash": strconv.FormatInt(int64(start.Hash()), 10), "limit": "1000"})
		mv, alg, n := col(t, res, "move"), col(t, res, "algebraic"), col(t, res, "games")
		byText := map[string]int{}
		for _, m := range start.LegalMoves(nil) {
			if x := want[rules.FormatMove(v, &m, rules.Numeric, true)]; x != nil {
				byText[rules.FormatMove(v, &m, v.DefaultNotation, false)+" "+rules.FormatMove(v, &m, rules.Algebraic, false)] = x.games
			}
		}
		if len(res.Rows) != len(byText) {
			t.Errorf("%s: opening_tree has %d first moves, the games %d", v.Name, len(res.Rows), len(byText))
		}
		for _, row := range res.Rows {
			if got, ok := byText[row[mv]+" "+row[alg]]; !ok || strconv.Itoa(got) != row[n] {
				t.Errorf("%s: opening_tree %s (%s) in %s games; the games: %v", v.Name, row[mv], row[alg], row[n], byText)
			}
		}
	}

	// db rebuild-openings at another depth counts every variant again.
	const depth = 10
	rs, err := openings.Rebuild(ctx, pool, openings.RebuildOptions{Depth: depth, All: true})
	if err != nil {
		t.Fatal(err)
	}
	if rs.Games != genGames*len(gens) || rs.Undecodable != 0 {
		t.Fatalf("rebuild: %+v", rs)
	}
	for v, g := range gens {
		compareTrees(t, pool, v, countGames(v, g.moves, g.results, depth), "after the rebuild")
	}
}
