package annotate

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/jackc/pgx/v5/pgxpool"
)

// stopAfter evaluates like the built-in engine at depth 1 and cancels its
// run once it has evaluated n positions (an interrupted analyze).
type stopAfter struct {
	*Builtin
	n      *atomic.Int64
	cancel context.CancelFunc
}

func (s stopAfter) Evaluate(ctx context.Context, pos rules.Position) (Eval, error) {
	if s.n.Add(-1) < 0 {
		s.cancel()
		<-ctx.Done()
		return Eval{}, ctx.Err()
	}
	return s.Builtin.Evaluate(ctx, pos)
}

func queueRows(t *testing.T, q *pgxpool.Pool, engine string) (queued, leased int) {
	t.Helper()
	if err := q.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE NOT failed), count(lease_owner) FROM analysis_queue WHERE engine = $1`,
		engine).Scan(&queued, &leased); err != nil {
		t.Fatal(err)
	}
	return queued, leased
}

// TestOwnSelectionOnly: a run evaluates its own selection and leaves what
// an interrupted run left in the queue (it used to spend its time on
// those first, its bar still at 0), says so in its plan, and takes them
// only with ResumeQueued. The interrupted run gives back its leases.
func TestOwnSelectionOnly(t *testing.T) {
	ctx := context.Background()
	pool := whereDB(t)
	const engine, setting = "draughtsdb", "depth=1"
	base := Options{Engine: engine, EngineVersion: "test", Setting: setting, Workers: 1, Batch: 4, Independent: true,
		NewEvaluator: func() (Evaluator, error) { return NewBuiltin(Limit{Depth: 1}, 1), nil }}

	// An interrupted run over the games 2-7 (not the first), after 10
	// evaluations.
	cctx, cancel := context.WithCancel(ctx)
	var budget atomic.Int64
	budget.Store(10)
	first := base
	first.Where = "id > (SELECT min(id) FROM games)"
	first.Limit, first.MaxPly = 6, 30
	first.NewEvaluator = func() (Evaluator, error) {
		return stopAfter{NewBuiltin(Limit{Depth: 1}, 1), &budget, cancel}, nil
	}
	s1, err := Run(cctx, pool, first)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v (%+v)", err, s1)
	}
	left, leased := queueRows(t, pool, engine)
	var stored int64
	pool.QueryRow(ctx, `SELECT count(*) FROM evaluations`).Scan(&stored)
	// Two batches of 4 stored; the third was cut off.
	if left == 0 || leased != 0 || s1.PositionsEvaluated != stored || stored != 8 {
		t.Fatalf("after the interruption: %d queued, %d still leased, %d evaluated, %d stored (want 8)", left, leased, s1.PositionsEvaluated, stored)
	}

	// The first game alone: only its positions are evaluated.
	var plan Plan
	var last [3]int64
	own := base
	own.Limit, own.MaxPly = 1, 12
	own.Plan = func(p Plan) { plan = p }
	own.Progress = func(e, f, total int64) { last = [3]int64{e, f, total} }
	s2, err := Run(ctx, pool, own)
	if err != nil {
		t.Fatal(err)
	}
	shared := s2.Positions - s2.PositionsSkipped - int(s2.PositionsEvaluated) // positions of game 1 the first run had queued
	after, _ := queueRows(t, pool, engine)
	if s2.PositionsEvaluated != int64(plan.ToEvaluate) || plan.ToEvaluate != s2.Positions-s2.PositionsSkipped || shared != 0 ||
		plan.QueuedByOthers+plan.ToEvaluate < left || after != plan.QueuedByOthers || s2.PositionsQueuedByOthers != after {
		t.Fatalf("own run: plan %+v, summary %+v; %d queued before, %d after", plan, s2, left, after)
	}
	if last[0] != int64(plan.ToEvaluate) || last[2] != int64(plan.ToEvaluate) {
		t.Errorf("progress ended at %v, want %d of %d", last, plan.ToEvaluate, plan.ToEvaluate)
	}
	if s2.MovesAnnotated != 12 {
		t.Errorf("%d moves annotated, want 12", s2.MovesAnnotated)
	}
	if plan.Positions != s2.Positions || plan.Evaluated != s2.PositionsSkipped || plan.Games != 1 || plan.Setting != setting {
		t.Errorf("plan %+v against summary %+v", plan, s2)
	}

	// With ResumeQueued the leftovers are evaluated too.
	res := own
	res.ResumeQueued = true
	res.Plan = func(p Plan) { plan = p }
	s3, err := Run(ctx, pool, res)
	if err != nil {
		t.Fatal(err)
	}
	if end, _ := queueRows(t, pool, engine); end != 0 || s3.PositionsEvaluated != int64(after) || !plan.ResumeQueued || plan.QueuedByOthers != after || last[2] != int64(after) {
		t.Fatalf("resume: %d left in the queue, summary %+v, plan %+v, progress %v; want the %d others evaluated", end, s3, plan, last, after)
	}
}
