package annotate

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// MaxAttempts is how many times a position may be claimed: a position
// whose workers keep dying (a crash the engine client cannot catch) is
// marked failed instead of being claimed for ever.
const MaxAttempts = 3

type worker struct {
	queue *schema.EvalQueue
	opts  *Options
	ev    Evaluator
	line  LineEvaluator // ev, if it is one and Options.Independent is not set
	owner string
	runs  *runQueue
}

// runQueue hands the runs of the selected games' positions (see runs) to
// the workers of one Run, the longest first (in game order among runs of
// one length): a worker that takes the last run leaves the others idle
// until it is done, so the last runs should be short ones. Each run
// starts its line afresh, so the order changes no result.
type runQueue struct {
	positions []position
	runs      [][2]int
	next      atomic.Int64  // the next run to hand out
	pending   atomic.Int64  // runs not finished
	done      chan struct{} // closed when pending reaches 0

	// missed collects the positions of runs that were not claimed (held
	// by another worker, failed, evaluated already): after the runs, the
	// ones still queued are the selection's remaining work.
	mu     sync.Mutex
	missed []position
	// checking is held by the worker that looks up which of missed are
	// still queued: one looks (a whole selection, when a run finds it
	// evaluated already), the others then start from its answer.
	checking sync.Mutex
}

// miss records positions of a run that were not claimed.
func (q *runQueue) miss(ps []position) {
	if len(ps) == 0 {
		return
	}
	q.mu.Lock()
	q.missed = append(q.missed, ps...)
	q.mu.Unlock()
}

// left returns the positions still to look at after the runs.
func (q *runQueue) left() []position {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.missed
}

// keep replaces them with still, those found still queued (under
// checking, so no other worker changed them meanwhile).
func (q *runQueue) keep(still []position) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.missed = still
}

// newRunQueue sorts runs in place (the queue owns it).
func newRunQueue(positions []position, runs [][2]int) *runQueue {
	slices.SortStableFunc(runs, func(a, b [2]int) int { return (b[1] - b[0]) - (a[1] - a[0]) })
	q := &runQueue{positions: positions, runs: runs, done: make(chan struct{})}
	q.pending.Store(int64(len(runs)))
	if len(runs) == 0 {
		close(q.done)
	}
	return q
}

// take returns the next run, or false when all are handed out.
func (q *runQueue) take() ([]position, bool) {
	i := q.next.Add(1) - 1
	if i >= int64(len(q.runs)) {
		return nil, false
	}
	r := q.runs[i]
	return q.positions[r[0]:r[1]], true
}

// finish marks a run taken with take as finished.
func (q *runQueue) finish() {
	if q.pending.Add(-1) == 0 {
		close(q.done)
	}
}

type claimed struct {
	posKey
	fen string
}

// run evaluates the runs of this Run's selected positions it takes from
// w.runs (with a LineEvaluator one game's positions each, in order; else
// pieces of Batch positions); once every run is finished, it claims the
// selection's positions that are still queued (held by another process
// when their run came: it waits for them to be finished or for their
// lease to expire); with ResumeQueued it then claims and evaluates batches
// in any order until the queue of this engine and setting holds no
// unfailed row (rows of other runs, rows whose lease expired). When every
// remaining row is leased by someone else it waits: a live worker will
// finish them, a dead one's lease expires and they are claimed here.
func (w *worker) run(ctx context.Context, done func(evaluated, failed int)) error {
	for {
		run, ok := w.runs.take()
		if !ok {
			break
		}
		err := w.evaluateRun(ctx, run, done)
		w.runs.finish()
		if err != nil {
			return err
		}
	}
	// The rows of runs that other workers of this Run are still on
	// are theirs: claimed here they would leave their line, and their
	// evaluations would depend on the workers' timing.
	select {
	case <-w.runs.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if err := w.finishOwn(ctx, done); err != nil {
		return err
	}
	if !w.opts.ResumeQueued {
		return nil
	}
	waiting := false
	for {
		batch, err := w.claim(ctx)
		if err != nil {
			return err
		}
		if len(batch) == 0 {
			remaining, own, next, err := w.others(ctx)
			if err != nil {
				return err
			}
			if remaining == 0 {
				return nil
			}
			// Rows this run's own workers hold are the normal end of a
			// run, not worth a notice; other processes' are.
			if !waiting && remaining > own {
				w.opts.Notice(fmt.Sprintf("%s: %d position(s) leased by other analyze processes; waiting for them or for their leases to expire", w.owner, remaining-own))
				waiting = true
			}
			wait := min(max(next, 50*time.Millisecond), 500*time.Millisecond)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
			continue
		}
		waiting = false
		e, f, err := w.evaluate(ctx, batch, nil)
		if err != nil {
			return err
		}
		done(e, f)
	}
}

// finishOwn evaluates the selection's positions that the runs did not
// claim and that are still queued, not failed: held by other processes
// then (their live workers finish them, a dead one's lease expires), or
// by this run's own workers.
func (w *worker) finishOwn(ctx context.Context, done func(evaluated, failed int)) error {
	waiting := false
	for {
		w.runs.checking.Lock()
		left := w.runs.left()
		still, own, next, err := w.stillQueued(ctx, left)
		if err == nil {
			w.runs.keep(still)
		}
		w.runs.checking.Unlock()
		if err != nil {
			return err
		}
		if len(still) == 0 {
			return nil
		}
		claimedAny := false
		for lo := 0; lo < len(still); lo += w.opts.Batch {
			batch, _, err := w.claimRun(ctx, still[lo:min(lo+w.opts.Batch, len(still))])
			if err != nil {
				return err
			}
			if len(batch) == 0 {
				continue
			}
			claimedAny = true
			e, f, err := w.evaluate(ctx, batch, nil)
			if err != nil {
				return err
			}
			done(e, f)
		}
		if claimedAny {
			waiting = false
			continue
		}
		if !waiting && len(still) > own {
			w.opts.Notice(fmt.Sprintf("%s: %d position(s) of this selection leased by other analyze processes; waiting for them or for their leases to expire", w.owner, len(still)-own))
			waiting = true
		}
		wait := min(max(next, 50*time.Millisecond), 500*time.Millisecond)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// stillQueued returns the positions of ps still in the queue of this
// engine and setting and not failed, how many of them this process's
// workers hold, and how long until the first of their leases expires.
// Rows claimed MaxAttempts times whose lease expired (their workers kept
// dying) are marked failed first.
func (w *worker) stillQueued(ctx context.Context, ps []position) (still []position, own int, next time.Duration, err error) {
	o := w.opts
	first := time.Duration(-1)
	for lo := 0; lo < len(ps); lo += chunk {
		part := ps[lo:min(lo+chunk, len(ps))]
		vs, hs := make([]int16, len(part)), make([]int64, len(part))
		for i, p := range part {
			vs[i], hs[i] = p.variant, p.hash
		}
		queued, err := w.queue.StillQueued(ctx, o.Owner, MaxAttempts, vs, hs)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("checking the selection's queue: %w", err)
		}
		for _, q := range queued {
			still = append(still, part[q.Ord-1])
			if q.Mine {
				own++
			}
			if first < 0 || q.LeaseLeft < first {
				first = q.LeaseLeft
			}
		}
	}
	return still, own, max(first, 0), nil
}

// release gives back the leases this worker still holds when it stops
// (interrupted, or an error): the claims were not the positions' fault,
// so they do not count as attempts, and the next run claims the rows at
// once instead of waiting for the leases to expire.
func (w *worker) release() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = schema.ReleaseLeases(ctx, w.queue.Pool, w.owner)
}

// evaluateRun evaluates the positions of run (one game's, in the order of
// its plies) that are still to be evaluated, as one line of the
// LineEvaluator: it claims them at once (at most RunLength rows, one
// transaction instead of one per Batch, and one to store them) in that
// order. Positions another worker holds are left to it (or, if it dies,
// to the claims in any order after the runs).
func (w *worker) evaluateRun(ctx context.Context, run []position, done func(evaluated, failed int)) error {
	first := true
	for len(run) > 0 {
		batch, next, err := w.claimRunMissing(ctx, run)
		if err != nil {
			return err
		}
		if next == 0 {
			return nil // nothing of the run is claimable any more
		}
		run = run[next:]
		if len(batch) == 0 {
			continue // the claimed rows were evaluated already
		}
		e, f, err := w.evaluate(ctx, batch, &first)
		if err != nil {
			return err
		}
		done(e, f)
	}
	return nil
}

// claimRunMissing is claimRun recording in w.runs the positions of run it
// passed over without claiming them.
func (w *worker) claimRunMissing(ctx context.Context, run []position) ([]claimed, int, error) {
	batch, next, missed, err := w.claimRunAll(ctx, run)
	if err == nil {
		w.runs.miss(missed)
	}
	return batch, next, err
}

func (w *worker) claimRun(ctx context.Context, run []position) ([]claimed, int, error) {
	batch, next, _, err := w.claimRunAll(ctx, run)
	return batch, next, err
}

// claimRunAll leases the claimable rows of run, in its order:
// not failed, not claimed MaxAttempts times already (the claims in any
// order mark those failed), lease absent or expired. It returns them in
// run order, less those already evaluated (which it deletes), and next,
// the index in run after the last row it claimed (0 if none), and the
// positions of run it did not claim (all of them if none).
func (w *worker) claimRunAll(ctx context.Context, run []position) ([]claimed, int, []position, error) {
	o := w.opts
	vs, hs := make([]int16, len(run)), make([]int64, len(run))
	for i, p := range run {
		vs[i], hs[i] = p.variant, p.hash
	}
	got, err := w.queue.ClaimRun(ctx, w.owner, o.Lease, MaxAttempts, vs, hs)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("claim: %w", err)
	}
	// The claim's rows come back in no order: ordered by their ordinals,
	// the positions of run between them are those passed over.
	slices.SortFunc(got, func(a, b schema.EvalClaim) int { return a.Ord - b.Ord })
	var out []claimed
	var missed []position
	next, prev := 0, 0
	for _, r := range got {
		if !r.Evaluated {
			out = append(out, claimed{posKey{r.Variant, r.Hash}, r.FEN})
		}
		missed = append(missed, run[prev:r.Ord-1]...)
		prev = r.Ord
		next = max(next, r.Ord) // Ord counts from 1
	}
	if next == 0 {
		missed = run
	}
	return out, next, missed, nil
}

// claim leases up to Batch claimable rows: not failed, lease absent or
// expired (in no particular order: without ORDER BY the scan stops at the
// first Batch unlocked rows instead of sorting the whole queue). Rows already evaluated
// (enqueued again by a run that raced with the evaluation) are dropped.
func (w *worker) claim(ctx context.Context) ([]claimed, error) {
	o := w.opts
	got, err := w.queue.Claim(ctx, w.owner, o.Lease, MaxAttempts, o.Batch)
	if err != nil {
		return nil, fmt.Errorf("claim: %w", err)
	}
	var out []claimed
	for _, r := range got {
		if !r.Evaluated {
			out = append(out, claimed{posKey{r.Variant, r.Hash}, r.FEN})
		}
	}
	return out, nil
}

// others returns how many unfailed rows of this engine and setting remain
// (all leased, since claim found none), how many of them this process's
// workers hold (owners opts.Owner:N), and how long until the first lease
// expires.
func (w *worker) others(ctx context.Context) (remaining, own int, next time.Duration, err error) {
	return w.queue.Others(ctx, w.opts.Owner)
}

// evaluate runs the engine on each claimed position, renewing the lease
// when half of it has passed, then stores the evaluations and removes the
// queue rows in one transaction. A position the engine fails on is marked
// failed. With line set (positions of a run, in order) and a
// LineEvaluator, the positions continue the line; *line says that the
// next one starts it, and is cleared once one has.
func (w *worker) evaluate(ctx context.Context, batch []claimed, line *bool) (evaluated, failed int, err error) {
	o := w.opts
	var (
		ok     []claimed
		evs    []Eval
		bad    []claimed
		errs   []string
		renew  = time.Now()
		params = o.Lease / 2
	)
	for _, c := range batch {
		v, err := codec.VariantByID(c.variant)
		if err != nil {
			bad, errs = append(bad, c), append(errs, err.Error())
			continue
		}
		pos, err := rules.ParseFEN(v, c.fen)
		if err != nil {
			bad, errs = append(bad, c), append(errs, err.Error())
			continue
		}
		if int64(pos.Hash()) != c.hash {
			bad, errs = append(bad, c), append(errs, "FEN does not match the hash")
			continue
		}
		var e Eval
		if w.line != nil && line != nil {
			e, err = w.line.EvaluateInLine(ctx, pos, *line)
			*line = false
		} else {
			e, err = w.ev.Evaluate(ctx, pos)
		}
		if ctx.Err() != nil {
			return 0, 0, ctx.Err()
		}
		if err != nil {
			bad, errs = append(bad, c), append(errs, err.Error())
		} else {
			ok, evs = append(ok, c), append(evs, e)
		}
		if time.Since(renew) > params {
			if err := schema.RenewLeases(ctx, w.queue.Pool, w.owner, o.Lease); err != nil {
				return 0, 0, fmt.Errorf("renew lease: %w", err)
			}
			renew = time.Now()
		}
	}
	// One statement (see EvalQueue.Store): the evaluations stored, the
	// rows of the queue they answer deleted, the positions the engine
	// failed on marked failed.
	stored := make([]schema.Evaluation, len(ok))
	for i, e := range evs {
		stored[i] = schema.Evaluation{Variant: ok[i].variant, Hash: ok[i].hash, Score: int32(e.Score), Mate: e.Mate,
			Depth: int32(e.Depth), Best: e.Best, PV: e.PV, Nodes: e.Nodes, TimeMs: int32(e.TimeMs)}
	}
	failures := make([]schema.EvalFailure, len(bad))
	for i, c := range bad {
		failures[i] = schema.EvalFailure{Variant: c.variant, Hash: c.hash, Error: errs[i]}
	}
	// The evaluations are done: they are stored even when the run is being
	// interrupted. On the cancelled context the statement could commit on
	// the server while the client saw only the cancellation, and the
	// run's summary would leave them out. The timeout bounds a server that
	// no longer answers.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	evaluated, err = w.queue.Store(sctx, w.owner, stored, failures)
	if err != nil {
		return 0, 0, fmt.Errorf("store evaluations: %w", err)
	}
	return evaluated, len(bad), nil
}
