package annotate

import (
	"context"
	"fmt"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// oddFails fails on every position whose hash is odd and scores the others
// with their hash's low bits.
type oddFails struct{}

func (oddFails) Evaluate(_ context.Context, pos rules.Position) (Eval, error) {
	h := int64(pos.Hash())
	if h&1 != 0 {
		return Eval{}, fmt.Errorf("boom %d", h)
	}
	return Eval{Score: int(h & 1023), Depth: 1, Best: "x", PV: "x y", Nodes: h & 0xffff, TimeMs: 1}, nil
}

func (oddFails) Close() error { return nil }

// TestFailedPositions: what the engine fails on stays in the queue marked
// failed, with its error and without a lease, and counts as failed; the
// rest is stored as the engine said and leaves the queue, in the same
// batches (the store is one statement for both), in game order and in
// claims of any order. Run again, the failed positions are enqueued and
// fail again, and nothing evaluated is searched twice.
func TestFailedPositions(t *testing.T) {
	ctx := context.Background()
	pool := whereDB(t)
	for _, c := range []struct {
		engine      string
		independent bool
	}{{"odd-line", false}, {"odd-claims", true}} {
		run := func() *Summary {
			sum, err := Run(ctx, pool, Options{
				Engine: c.engine, EngineVersion: "test", Setting: "s",
				NewEvaluator: func() (Evaluator, error) { return oddFails{}, nil },
				Workers:      2, Batch: 5, Limit: 4, MaxPly: 60, Independent: c.independent,
			})
			if err != nil {
				t.Fatalf("%s: %v", c.engine, err)
			}
			return sum
		}
		sum := run()
		var odd, even int64
		rows, err := pool.Query(ctx, `SELECT hash FROM analysis_queue WHERE engine = $1
			UNION ALL SELECT hash FROM evaluations WHERE engine = $1`, c.engine)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var h int64
			if err := rows.Scan(&h); err != nil {
				t.Fatal(err)
			}
			if h&1 != 0 {
				odd++
			} else {
				even++
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if odd == 0 || even == 0 || odd+even != int64(sum.Positions) {
			t.Fatalf("%s: %d odd and %d even positions, %d selected", c.engine, odd, even, sum.Positions)
		}
		if sum.PositionsFailed != odd || sum.PositionsEvaluated != even {
			t.Errorf("%s: %d failed and %d evaluated, want %d and %d", c.engine, sum.PositionsFailed, sum.PositionsEvaluated, odd, even)
		}
		var bad int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM analysis_queue
			WHERE engine = $1 AND (NOT failed OR hash & 1 = 0 OR error <> 'boom ' || hash OR lease_owner IS NOT NULL OR lease_until IS NOT NULL)`,
			c.engine).Scan(&bad); err != nil || bad != 0 {
			t.Errorf("%s: %d queue rows not failed with their error, or even, or leased (%v)", c.engine, bad, err)
		}
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM evaluations
			WHERE engine = $1 AND (hash & 1 = 1 OR score <> hash & 1023 OR nodes <> hash & 65535 OR pv <> 'x y' OR best_move <> 'x')`,
			c.engine).Scan(&bad); err != nil || bad != 0 {
			t.Errorf("%s: %d evaluations not the engine's (%v)", c.engine, bad, err)
		}
		again := run()
		if again.PositionsEnqueued != int(odd) || again.PositionsSkipped != int(even) || again.PositionsFailed != odd || again.PositionsEvaluated != 0 {
			t.Errorf("%s, again: %+v; want %d enqueued and failed, %d skipped", c.engine, again, odd, even)
		}
	}
}
