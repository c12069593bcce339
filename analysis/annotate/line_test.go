package annotate

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/jackc/pgx/v5/pgxpool"
)

// lineCall is one call a recordingEvaluator saw.
type lineCall struct {
	hash   int64
	first  bool
	inLine bool
}

// recordingEvaluator is the built-in engine recording, per worker, the
// positions it is given and how.
type recordingEvaluator struct {
	*Builtin
	mu    *sync.Mutex
	calls *[][]lineCall
	mine  int
}

func (r *recordingEvaluator) record(pos rules.Position, first, inLine bool) {
	r.mu.Lock()
	(*r.calls)[r.mine] = append((*r.calls)[r.mine], lineCall{int64(pos.Hash()), first, inLine})
	r.mu.Unlock()
}

func (r *recordingEvaluator) Evaluate(ctx context.Context, pos rules.Position) (Eval, error) {
	r.record(pos, false, false)
	return r.Builtin.Evaluate(ctx, pos)
}

func (r *recordingEvaluator) EvaluateInLine(ctx context.Context, pos rules.Position, first bool) (Eval, error) {
	r.record(pos, first, true)
	return r.Builtin.EvaluateInLine(ctx, pos, first)
}

type storedEval struct {
	score, depth int
	best, pv     string
	nodes        int64
}

func storedEvals(t *testing.T, pool *pgxpool.Pool, engine string) map[int64]storedEval {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT hash, score, depth, coalesce(best_move, ''), pv, nodes FROM evaluations WHERE engine = $1`, engine)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]storedEval{}
	for rows.Next() {
		var h int64
		var e storedEval
		if err := rows.Scan(&h, &e.score, &e.depth, &e.best, &e.pv, &e.nodes); err != nil {
			t.Fatal(err)
		}
		out[h] = e
	}
	return out
}

// TestGameOrder: Run gives a LineEvaluator each game's positions (those no
// earlier game reached) in the order of the game's plies, in runs of at
// most RunLength that each start a line, every position once; the stored
// evaluations do not depend on the number of workers or the batch size;
// they take fewer nodes than independent searches; and with Independent
// every position is searched on its own, exactly as search.Search does.
func TestGameOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	ctx := context.Background()
	pool := whereDB(t)
	const depth, games, maxPly = 4, 6, 70
	lim := Limit{Depth: depth}
	run := func(engine string, workers, batch int, independent bool) [][]lineCall {
		var mu sync.Mutex
		calls := make([][]lineCall, workers)
		next := 0
		sum, err := Run(ctx, pool, Options{
			Engine: engine, EngineVersion: "test", Setting: lim.Setting(),
			NewEvaluator: func() (Evaluator, error) {
				mu.Lock()
				defer mu.Unlock()
				next++
				return &recordingEvaluator{Builtin: NewBuiltin(lim, 4), mu: &mu, calls: &calls, mine: next - 1}, nil
			},
			Workers: workers, Batch: batch, Limit: games, MaxPly: maxPly, Independent: independent,
		})
		if err != nil || sum.PositionsFailed != 0 || sum.PositionsEvaluated != int64(sum.Positions) {
			t.Fatalf("%s: %+v, %v", engine, sum, err)
		}
		return calls
	}

	// The selection as Run sees it: each game's own positions in order.
	lines, positions, err := selectGames(ctx, pool, Options{Where: "true", Limit: games, MaxPly: maxPly, WhereTimeout: 60e9, Notice: func(string) {}}, &Summary{})
	if err != nil {
		t.Fatal(err)
	}
	// Cut into runs of RunLength, handed out the longest first and in
	// game order among runs of one length.
	type cut struct{ lo, hi int }
	var cuts []cut
	for _, g := range lines {
		for lo := g.lo; lo < g.hi; lo += RunLength {
			cuts = append(cuts, cut{lo, min(lo+RunLength, g.hi)})
		}
	}
	slices.SortStableFunc(cuts, func(a, b cut) int { return (b.hi - b.lo) - (a.hi - a.lo) })
	var want []int64
	var starts []bool
	for _, c := range cuts {
		for i := c.lo; i < c.hi; i++ {
			want = append(want, positions[i].hash)
			starts = append(starts, i == c.lo)
		}
	}
	if cuts[len(cuts)-1].hi-cuts[len(cuts)-1].lo == RunLength {
		t.Fatal("every run is whole: the order of the runs is not tested")
	}
	if len(positions) < 3*RunLength || len(want) != len(positions) {
		t.Fatalf("%d positions in %d games: too few to test runs", len(positions), len(lines))
	}

	// One worker: the calls are the runs, each in the order of its
	// game's plies and starting a line, the longest runs first.
	one := run("line1", 1, 16, false)[0]
	if len(one) != len(want) {
		t.Fatalf("%d positions evaluated, want %d", len(one), len(want))
	}
	for i, c := range one {
		if c.hash != want[i] || !c.inLine || c.first != starts[i] {
			t.Fatalf("call %d: %+v, want position %d, first %v", i, c, want[i], starts[i])
		}
	}

	// Three workers, another batch: the same evaluations, each position
	// once, and each worker's calls are whole runs in order.
	three := run("line3", 3, 5, false)
	index := map[int64]int{}
	for i, h := range want {
		index[h] = i
	}
	seen := map[int64]bool{}
	for w, calls := range three {
		for i, c := range calls {
			if seen[c.hash] || !c.inLine {
				t.Fatalf("worker %d call %d: %+v evaluated twice or not in line", w, i, c)
			}
			seen[c.hash] = true
			if c.first != starts[index[c.hash]] || !c.first && (i == 0 || index[calls[i-1].hash] != index[c.hash]-1) {
				t.Fatalf("worker %d call %d: position %d (first %v) does not continue its run", w, i, index[c.hash], c.first)
			}
		}
	}
	a, b := storedEvals(t, pool, "line1"), storedEvals(t, pool, "line3")
	if len(a) != len(want) || !mapsEqual(a, b) {
		t.Fatalf("1 worker and 3 workers stored different evaluations (%d, %d rows)", len(a), len(b))
	}

	// Independent: every position on its own, as search.Search; more
	// nodes in all than in game order.
	run("indep", 2, 16, true)
	ind := storedEvals(t, pool, "indep")
	var nLine, nInd int64
	for _, p := range positions {
		v, _ := rules.VariantByGameType(20)
		pos, err := rules.ParseFEN(v, p.fen)
		if err != nil {
			t.Fatal(err)
		}
		e, l := ind[p.hash], a[p.hash]
		nLine, nInd = nLine+l.nodes, nInd+e.nodes
		if l.depth != depth || legalMove(pos, l.best) == nil {
			t.Fatalf("%s: in line depth %d, best move %q not legal", p.fen, l.depth, l.best)
		}
		r := search.Search(pos, search.Options{Depth: depth, TTSizeMB: 4}, nil)
		if got := (storedEval{score: r.Score, depth: r.Depth, best: hub.FormatMove(&r.Best), pv: e.pv, nodes: int64(r.Nodes)}); got != e {
			t.Fatalf("%s: independent %+v, search.Search %+v", p.fen, e, got)
		}
	}
	if nLine >= nInd {
		t.Errorf("game order took %d nodes, independent %d", nLine, nInd)
	}
	t.Logf("%d positions in %d games: %d nodes in game order, %d independent", len(positions), len(lines), nLine, nInd)
}

func mapsEqual(a, b map[int64]storedEval) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// legalMove returns the legal move of pos written text in Hub notation.
func legalMove(pos rules.Position, text string) *rules.Move {
	legal := pos.LegalMoves(nil)
	i := slices.IndexFunc(legal, func(m rules.Move) bool { return hub.FormatMove(&m) == text })
	if i < 0 {
		return nil
	}
	return &legal[i]
}
