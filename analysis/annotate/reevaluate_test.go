package annotate

import (
	"context"
	"testing"
)

// TestReevaluate: a run whose engine names another version skips the
// positions evaluated by the older one, unless Reevaluate: then each of
// them is evaluated again and its row names the new version (with the new
// engine's results); a run of the same version re-evaluates nothing.
func TestReevaluate(t *testing.T) {
	ctx := context.Background()
	pool := whereDB(t)
	run := func(version string, depth int, reevaluate bool) *Summary {
		t.Helper()
		sum, err := Run(ctx, pool, Options{
			Engine: "draughtsdb", EngineVersion: version, Setting: "depth=1",
			NewEvaluator: func() (Evaluator, error) { return NewBuiltin(Limit{Depth: depth}, 1), nil },
			Limit:        2, MaxPly: 6, Reevaluate: reevaluate,
		})
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	// The old engine searches to depth 1, the new one to depth 3 (under
	// the same setting, as an engine whose evaluation changed would give
	// other results): its rows are told apart by their depth too.
	old := run("old", 1, false)
	if old.PositionsEvaluated == 0 {
		t.Fatalf("first run: %+v", old)
	}
	count := func(version string, depth int) (n int) {
		t.Helper()
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM evaluations WHERE engine_version = $1 AND depth = $2`, version, depth).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	oldRows := count("old", 1)
	if s := run("new", 3, false); s.PositionsEvaluated != 0 || s.PositionsSkipped != old.Positions {
		t.Errorf("new version without Reevaluate: %+v, want every position skipped", s)
	}
	s := run("new", 3, true)
	if s.PositionsEvaluated != int64(oldRows) || s.PositionsSkipped != 0 {
		t.Errorf("Reevaluate: %+v, want %d evaluated, none skipped", s, oldRows)
	}
	if n, o := count("new", 3), count("old", 1); n != oldRows || o != 0 {
		t.Errorf("after Reevaluate: %d rows of the new version at depth 3, %d old; want %d and 0", n, o, oldRows)
	}
	if s := run("new", 3, true); s.PositionsEvaluated != 0 || s.PositionsSkipped != old.Positions {
		t.Errorf("Reevaluate with the same version again: %+v, want nothing evaluated", s)
	}
}
