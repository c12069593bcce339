package annotate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Eval is an engine's verdict on one position, as stored in evaluations.
type Eval struct {
	Score  int    // hundredths of a man, side to move's view
	Mate   bool   // forced win or loss
	Depth  int    // last completed iteration
	Best   string // Hub notation; "" when there is no legal move
	PV     string // Hub notation, space separated
	Nodes  int64
	TimeMs int
}

// Evaluator evaluates positions; one per worker goroutine.
type Evaluator interface {
	Evaluate(ctx context.Context, pos rules.Position) (Eval, error)
	Close() error
}

// Thresholds classify a move's loss (hundredths of a man): a loss of at
// least Blunder is a blunder, else of at least Mistake a mistake, else of
// at least Inaccuracy an inaccuracy, else "ok".
type Thresholds struct {
	Inaccuracy, Mistake, Blunder int
}

// DefaultThresholds are the configuration's defaults (analysis.inaccuracy,
// .mistake, .blunder); Run uses them for zero Thresholds.
var DefaultThresholds = Thresholds{Inaccuracy: 30, Mistake: 80, Blunder: 200}

// ErrThresholds: thresholds that do not nest within the losses a move can
// have.
var ErrThresholds = errors.New("annotate: bad thresholds")

// MaxLoss is the largest loss of a move (both scores capped at ScoreCap):
// a threshold above it would never apply.
const MaxLoss = 2 * ScoreCap

// Check reports whether the classes nest: 1 <= Inaccuracy <= Mistake <=
// Blunder <= MaxLoss.
func (t Thresholds) Check() error {
	if 1 <= t.Inaccuracy && t.Inaccuracy <= t.Mistake && t.Mistake <= t.Blunder && t.Blunder <= MaxLoss {
		return nil
	}
	return fmt.Errorf("%w: want 1 <= inaccuracy (%d) <= mistake (%d) <= blunder (%d) <= %d",
		ErrThresholds, t.Inaccuracy, t.Mistake, t.Blunder, MaxLoss)
}

// Class returns the class of a loss.
func (t Thresholds) Class(loss int) string {
	switch {
	case loss >= t.Blunder:
		return "blunder"
	case loss >= t.Mistake:
		return "mistake"
	case loss >= t.Inaccuracy:
		return "inaccuracy"
	}
	return "ok"
}

// ScoreCap bounds scores in the loss computation (30 men): forced wins
// and losses count as large but finite.
const ScoreCap = 3000

// Loss is the loss of a move from a position whose score (its side to
// move = the mover) is before to one whose score (the opponent to move)
// is after: the evaluation before the move from the mover's view minus
// the evaluation after it from the mover's view (-after), both clamped to
// +-ScoreCap, never negative.
func Loss(before, after int) int {
	l := clamp(before) + clamp(after)
	if l < 0 {
		return 0
	}
	return l
}

func clamp(s int) int {
	return max(-ScoreCap, min(ScoreCap, s))
}

// Options configure Run, which checks them first (an error names the
// field). An Engine from OpenEngine gives Engine, EngineVersion,
// NewEvaluator and First.
type Options struct {
	// Engine and EngineVersion name the engine in evaluations; Setting is
	// its limit ("depth=8", "movetime=500").
	Engine, EngineVersion, Setting string
	// NewEvaluator makes one worker's evaluator. A first one may be passed
	// in First (already started to learn the engine's name); it is used by
	// worker 0 and closed by Run.
	NewEvaluator func() (Evaluator, error)
	First        Evaluator

	Workers int           // evaluating goroutines (default 1, at most MaxWorkers)
	Batch   int           // positions claimed at a time in any order (default 16; a run is claimed whole)
	Lease   time.Duration // how long a claim lasts without renewal (default 60 s)

	// Selection of games: Where is an SQL boolean expression on games
	// (run through schema.ReadOnly: as the role draughtsdb_reader, in a
	// READ ONLY transaction rolled back, with WhereTimeout as
	// statement_timeout, default 60 s); Variant, if not nil, restricts to
	// one variant; Limit > 0 takes the first Limit games by id; MaxPly > 0
	// takes each game's positions up to that ply (the start is ply 0).
	Where        string
	WhereTimeout time.Duration
	Variant      *rules.Variant
	Limit        int
	MaxPly       int

	// Thresholds classify the moves (zero: DefaultThresholds; else
	// they must pass Check).
	Thresholds Thresholds

	// Independent evaluates every position on its own (Evaluator.Evaluate)
	// even with a LineEvaluator, as a Hub engine does: slower, but each
	// evaluation then depends only on its position and the engine's limit.
	// By default a LineEvaluator evaluates each run of a game's positions
	// in order, carrying its table from one to the next (see runs).
	Independent bool

	// Reevaluate treats a position whose stored evaluation (this engine
	// and setting) names another EngineVersion as not evaluated: it is
	// evaluated again and its row replaced, so that evaluations by an
	// older engine, or other weights of the built-in one (its version
	// carries a fingerprint of the evaluation, evalid.Version), give way
	// to the current engine's. Without it any stored evaluation counts.
	Reevaluate bool

	// ResumeQueued also evaluates, once the selection is done, the
	// positions of this engine and setting that other runs left in the
	// queue (an interrupted run's, or another selection's still being
	// worked on). Without it a run evaluates only its own selection and
	// leaves those to their runs (Plan.QueuedByOthers counts them).
	ResumeQueued bool

	// Owner prefixes lease owners (default host:pid:start, the start in
	// UTC as 20060102T150405Z, which Status reports as "since").
	Owner string
	// Preparing, if set, is called while the run selects ("selecting
	// games": done games, total 0), replays ("replaying games") and
	// enqueues ("queueing positions") before it evaluates anything.
	Preparing func(step string, done, total int)
	// Plan, if set, is called once the selection is queued, before any
	// evaluation: what the run is about to do.
	Plan func(Plan)
	// Progress, if set, is called after each stored batch with the
	// positions evaluated and failed so far by this run and the positions
	// it is to evaluate (Plan.ToEvaluate, and with ResumeQueued the
	// others' then queued).
	Progress func(evaluated, failed, total int64)
	// Notice receives remarks (undecodable games, waits for other workers).
	Notice func(string)
}

// queue is the evaluation queue of o's engine and setting on pool.
func (o *Options) queue(pool *pgxpool.Pool) *schema.EvalQueue {
	return &schema.EvalQueue{Pool: pool, Engine: o.Engine, Setting: o.Setting, Version: o.EngineVersion, Reevaluate: o.Reevaluate}
}

func (o *Options) preparing(step string, done, total int) {
	if o.Preparing != nil {
		o.Preparing(step, done, total)
	}
}

// MaxWorkers bounds Options.Workers: each worker is an engine (a process
// for a hub engine, a transposition table for the built-in one).
const MaxWorkers = 1024

// check validates o and fills its defaults.
func (o *Options) check() error {
	switch {
	case o.Engine == "" || o.Setting == "":
		return errors.New("annotate: Options.Engine and Options.Setting name the evaluations: both are needed")
	case o.NewEvaluator == nil:
		return errors.New("annotate: Options.NewEvaluator is needed")
	case o.Workers < 0 || o.Workers > MaxWorkers:
		return fmt.Errorf("annotate: %d workers: want 0 (one) to %d", o.Workers, MaxWorkers)
	case o.Batch < 0:
		return fmt.Errorf("annotate: batch of %d positions", o.Batch)
	case o.Lease < 0:
		return fmt.Errorf("annotate: lease of %v", o.Lease)
	case o.WhereTimeout < 0:
		return fmt.Errorf("annotate: where timeout of %v", o.WhereTimeout)
	case o.Limit < 0 || o.MaxPly < 0:
		return fmt.Errorf("annotate: limit %d games, max ply %d: want 0 (all) or more", o.Limit, o.MaxPly)
	}
	if o.Thresholds == (Thresholds{}) {
		o.Thresholds = DefaultThresholds
	}
	if err := o.Thresholds.Check(); err != nil {
		return err
	}
	if o.Workers == 0 {
		o.Workers = 1
	}
	if o.Batch == 0 {
		o.Batch = 16
	}
	if o.Lease == 0 {
		o.Lease = 60 * time.Second
	}
	if o.WhereTimeout == 0 {
		o.WhereTimeout = 60 * time.Second
	}
	if o.Where == "" {
		o.Where = "true"
	}
	if o.Owner == "" {
		host, _ := os.Hostname()
		o.Owner = fmt.Sprintf("%s:%d:%s", host, os.Getpid(), time.Now().UTC().Format(ownerTime))
	}
	if o.Notice == nil {
		o.Notice = func(string) {}
	}
	return nil
}

// Summary is what Run did. JSON keys are those of `draughtsdb analyze --json`.
type Summary struct {
	Engine            string `json:"engine"`
	EngineVersion     string `json:"engine_version"`
	Setting           string `json:"setting"`
	Games             int    `json:"games"`
	GamesUndecodable  int    `json:"games_undecodable"`
	Positions         int    `json:"positions"`
	PositionsEnqueued int    `json:"positions_enqueued"`
	PositionsSkipped  int    `json:"positions_skipped"`
	// PositionsQueuedByOthers: rows of this engine and setting in the
	// queue, not failed, outside the selection, when it was queued.
	PositionsQueuedByOthers int     `json:"positions_queued_by_others"`
	PositionsEvaluated      int64   `json:"positions_evaluated"`
	PositionsFailed         int64   `json:"positions_failed"`
	MovesAnnotated          int64   `json:"moves_annotated"`
	Inaccuracies            int64   `json:"inaccuracies"`
	Mistakes                int64   `json:"mistakes"`
	Blunders                int64   `json:"blunders"`
	Seconds                 float64 `json:"seconds"`
	PositionsPerSecond      float64 `json:"positions_per_second"`
}

// Plan is what a run is about to do, once its selection is queued.
type Plan struct {
	Engine, EngineVersion, Setting string
	Games, GamesUndecodable        int
	Positions                      int // distinct positions selected
	Evaluated                      int // of those, evaluated already by this engine and setting (skipped)
	ToEvaluate                     int // of those, in the queue now: the run's own work
	QueuedByOthers                 int // other rows of this engine and setting in the queue, not failed
	ResumeQueued                   bool
}

// ownerTime is the form of the start time in a default lease owner.
const ownerTime = "20060102T150405Z"

// gameLine is a selected game's positions: hashes[i] is the position
// after ply i (hashes[0] the start). The game owns positions[lo:hi], the
// distinct positions it reached first among the selected games, in the
// order of its plies.
type gameLine struct {
	id      int64
	variant int16
	hashes  []int64
	lo, hi  int
}

// RunLength is the most positions of one game evaluated as one run: in
// order, by one worker, a LineEvaluator carrying its table from each to
// the next. A game's positions (those no earlier selected game reached)
// are cut into runs of at most RunLength, the last one the shortest, so
// that the runs, and so the evaluations, do not depend on the number of
// workers or their timing, and two workers share a long game at the end
// of a selection instead of one waiting for the other.
const RunLength = 32

// chunks cuts n positions into pieces of at most size, in order: the
// claims of a run without game order.
func chunks(n, size int) [][2]int {
	var out [][2]int
	for lo := 0; lo < n; lo += size {
		out = append(out, [2]int{lo, min(lo+size, n)})
	}
	return out
}

// runs cuts each game's positions into runs of at most RunLength.
func runs(lines []gameLine) [][2]int {
	var out [][2]int
	for _, g := range lines {
		for lo := g.lo; lo < g.hi; lo += RunLength {
			out = append(out, [2]int{lo, min(lo+RunLength, g.hi)})
		}
	}
	return out
}

// Run selects the games, enqueues their positions not yet evaluated by
// this engine and setting, evaluates them with opts.Workers workers
// (sharing the queue with any other analyze process on the database), and
// then annotates the selected games' moves. It returns when no position of
// the selection is left in the queue unfailed (with ResumeQueued, when the
// queue of this engine and setting holds no unfailed rows). Interrupted, it
// gives back the leases its workers hold, so that the next run need not
// wait for them to expire.
func Run(ctx context.Context, pool *pgxpool.Pool, opts Options) (*Summary, error) {
	start := time.Now()
	defer func() {
		if opts.First != nil {
			opts.First.Close()
		}
	}()
	if err := opts.check(); err != nil {
		return nil, err
	}
	sum := &Summary{Engine: opts.Engine, EngineVersion: opts.EngineVersion, Setting: opts.Setting}

	lines, positions, err := selectGames(ctx, pool, opts, sum)
	if err != nil {
		return sum, err
	}
	if err := enqueue(ctx, pool, opts, positions, sum); err != nil {
		return sum, err
	}
	own := sum.Positions - sum.PositionsSkipped
	queued, err := queuedRows(ctx, pool, opts)
	if err != nil {
		return sum, err
	}
	sum.PositionsQueuedByOthers = max(0, queued-own)
	if opts.Plan != nil {
		opts.Plan(Plan{Engine: opts.Engine, EngineVersion: opts.EngineVersion, Setting: opts.Setting,
			Games: sum.Games, GamesUndecodable: sum.GamesUndecodable, Positions: sum.Positions,
			Evaluated: sum.PositionsSkipped, ToEvaluate: own, QueuedByOthers: sum.PositionsQueuedByOthers,
			ResumeQueued: opts.ResumeQueued})
	}

	var (
		evaluated, failed atomic.Int64
		wg                sync.WaitGroup
		errs              = make([]error, opts.Workers)
	)
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	total := int64(own)
	if opts.ResumeQueued {
		total += int64(sum.PositionsQueuedByOthers)
	}
	line := false
	if opts.First != nil {
		_, line = opts.First.(LineEvaluator)
	} else if ev, err := opts.NewEvaluator(); err != nil {
		return sum, err
	} else {
		_, line = ev.(LineEvaluator)
		opts.First = ev
	}
	line = line && !opts.Independent
	var rq *runQueue
	switch {
	case own == 0:
		// Every selected position is evaluated: no claim would find one
		// (a rerun of a large selection made one claim per run for
		// nothing).
		rq = newRunQueue(positions, nil)
	case line:
		rq = newRunQueue(positions, runs(lines))
	default:
		rq = newRunQueue(positions, chunks(len(positions), opts.Batch))
	}
	for w := range opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ev Evaluator
			if w == 0 && opts.First != nil {
				ev, opts.First = opts.First, nil
			} else {
				var err error
				if ev, err = opts.NewEvaluator(); err != nil {
					errs[w] = err
					cancel()
					return
				}
			}
			defer ev.Close()
			wk := &worker{queue: opts.queue(pool), opts: &opts, ev: ev, owner: fmt.Sprintf("%s:%d", opts.Owner, w), runs: rq}
			if le, ok := ev.(LineEvaluator); ok && line {
				wk.line = le
			}
			errs[w] = wk.run(wctx, func(e, f int) {
				ne, nf := evaluated.Add(int64(e)), failed.Add(int64(f))
				if opts.Progress != nil {
					opts.Progress(ne, nf, total)
				}
			})
			if errs[w] != nil {
				wk.release()
				cancel()
			}
		}()
	}
	wg.Wait()
	sum.PositionsEvaluated, sum.PositionsFailed = evaluated.Load(), failed.Load()
	finish := func() {
		sum.Seconds = time.Since(start).Seconds()
		if sum.Seconds > 0 {
			sum.PositionsPerSecond = float64(sum.PositionsEvaluated) / sum.Seconds
		}
	}
	if err := errors.Join(errs...); err != nil {
		finish()
		if ctx.Err() != nil {
			return sum, ctx.Err()
		}
		return sum, err
	}
	if err := annotate(ctx, pool, opts, lines, sum); err != nil {
		finish()
		return sum, err
	}
	finish()
	return sum, nil
}

// selectGames reads the selected games through schema.ReadOnly (the
// user's --where text runs nowhere else: a READ ONLY transaction, rolled
// back, as the role draughtsdb_reader, which may only read the data tables,
// with WhereTimeout as statement_timeout), decodes their moves and returns
// each game's position hashes and the distinct positions with their FEN.
func selectGames(ctx context.Context, pool *pgxpool.Pool, opts Options, sum *Summary) ([]gameLine, []position, error) {
	// -1: every variant (0 is a variant's number: Killer's).
	variant := -1
	if opts.Variant != nil {
		variant = int(codec.VariantID(opts.Variant))
	}
	limit := int64(-1)
	if opts.Limit > 0 {
		limit = int64(opts.Limit)
	}
	var games []schema.StoredGame
	err := schema.SelectGames(ctx, pool, opts.Where, opts.WhereTimeout, variant, limit, func(g *schema.StoredGame) error {
		games = append(games, *g)
		if len(games)%1000 == 0 {
			opts.preparing("selecting games", len(games), 0)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("selecting games (--where %q): %w", pdn.Clip(opts.Where, 80), err)
	}

	seen := map[posKey]bool{}
	var positions []position
	lines := make([]gameLine, 0, len(games))
	for i, g := range games {
		if i%1000 == 0 {
			opts.preparing("replaying games", i, len(games))
		}
		v, err := codec.VariantByID(g.Variant)
		if err != nil {
			sum.GamesUndecodable++
			opts.Notice(fmt.Sprintf("game %d: %v", g.ID, err))
			continue
		}
		// A start FEN that does not parse says "start FEN: ".
		d, err := codec.Decode(v, g.StartFEN, g.Moves)
		if err != nil {
			sum.GamesUndecodable++
			opts.Notice(fmt.Sprintf("game %d: %v", g.ID, err))
			continue
		}
		plies := d.Positions
		if opts.MaxPly > 0 && len(plies) > opts.MaxPly+1 {
			plies = plies[:opts.MaxPly+1]
		}
		gl := gameLine{id: g.ID, variant: g.Variant, hashes: make([]int64, 0, len(plies)), lo: len(positions)}
		for i := range plies {
			pos := &plies[i]
			h := int64(pos.Hash())
			gl.hashes = append(gl.hashes, h)
			k := posKey{g.Variant, h}
			if !seen[k] {
				seen[k] = true
				positions = append(positions, position{posKey: k, fen: pos.FEN()})
			}
		}
		gl.hi = len(positions)
		lines = append(lines, gl)
	}
	sum.Games = len(lines)
	sum.Positions = len(positions)
	return lines, positions, nil
}

type posKey struct {
	variant int16
	hash    int64
}

type position struct {
	posKey
	fen string
}

const chunk = 5000

// enqueue inserts the positions not yet evaluated into analysis_queue (a
// failed row is made claimable again) and counts the skipped ones.
func enqueue(ctx context.Context, pool *pgxpool.Pool, opts Options, positions []position, sum *Summary) error {
	q := opts.queue(pool)
	for lo := 0; lo < len(positions); lo += chunk {
		hi := min(lo+chunk, len(positions))
		vs, hs, fens := make([]int16, 0, hi-lo), make([]int64, 0, hi-lo), make([]string, 0, hi-lo)
		for _, p := range positions[lo:hi] {
			vs, hs, fens = append(vs, p.variant), append(hs, p.hash), append(fens, p.fen)
		}
		skipped, enqueued, err := q.Enqueue(ctx, vs, hs, fens)
		if err != nil {
			return fmt.Errorf("enqueue: %w", err)
		}
		sum.PositionsSkipped += skipped
		sum.PositionsEnqueued += enqueued
		opts.preparing("queueing positions", hi, len(positions))
	}
	return nil
}

// queuedRows counts the rows of this engine and setting in the queue that
// are not failed.
func queuedRows(ctx context.Context, pool *pgxpool.Pool, opts Options) (int, error) {
	n, err := opts.queue(pool).Queued(ctx)
	if err != nil {
		return 0, fmt.Errorf("counting the queue: %w", err)
	}
	return n, nil
}

// annotate writes move_annotations for the selected games: every ply whose
// positions before and after are both evaluated by this engine and setting.
func annotate(ctx context.Context, pool *pgxpool.Pool, opts Options, lines []gameLine, sum *Summary) error {
	q := opts.queue(pool)
	var (
		gs, hb, ha []int64
		ps         []int32
		vs         []int16
	)
	flush := func() error {
		if len(gs) == 0 {
			return nil
		}
		t := opts.Thresholds
		c, err := q.Annotate(ctx, schema.AnnotatedPlies{Games: gs, Plies: ps, Variants: vs, Before: hb, After: ha},
			t.Inaccuracy, t.Mistake, t.Blunder, ScoreCap)
		sum.MovesAnnotated += c.Moves
		sum.Inaccuracies += c.Inaccuracies
		sum.Mistakes += c.Mistakes
		sum.Blunders += c.Blunders
		if err != nil {
			return err
		}
		gs, hb, ha, ps, vs = gs[:0], hb[:0], ha[:0], ps[:0], vs[:0]
		return nil
	}
	for _, g := range lines {
		for i := 1; i < len(g.hashes); i++ {
			gs, ps, vs = append(gs, g.id), append(ps, int32(i)), append(vs, g.variant)
			hb, ha = append(hb, g.hashes[i-1]), append(ha, g.hashes[i])
			if len(gs) == chunk {
				if err := flush(); err != nil {
					return fmt.Errorf("annotate: %w", err)
				}
			}
		}
	}
	if err := flush(); err != nil {
		return fmt.Errorf("annotate: %w", err)
	}
	return nil
}
