package annotate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Limit is a search limit: a fixed depth (deterministic) or a move time.
type Limit struct {
	Depth    int
	MoveTime time.Duration
}

// Setting is the limit as stored in evaluations.setting: "depth=8" or
// "movetime=500" (milliseconds).
func (l Limit) Setting() string {
	if l.MoveTime > 0 {
		return fmt.Sprintf("movetime=%d", l.MoveTime.Milliseconds())
	}
	return fmt.Sprintf("depth=%d", l.Depth)
}

// ErrLimit: a search limit that is neither a depth of 1..search.MaxDepth
// nor a positive move time.
var ErrLimit = errors.New("annotate: bad search limit")

// Check reports whether l is usable: a move time > 0 (the depth is then
// not used), else a depth of 1..search.MaxDepth.
func (l Limit) Check() error {
	if l.MoveTime > 0 || l.Depth >= 1 && l.Depth <= search.MaxDepth {
		return nil
	}
	if l.MoveTime < 0 {
		return fmt.Errorf("%w: move time %v", ErrLimit, l.MoveTime)
	}
	return fmt.Errorf("%w: depth %d, want 1..%d", ErrLimit, l.Depth, search.MaxDepth)
}

// ErrEngineSpec: an engine specification that names no engine draughtsdb
// can run.
var ErrEngineSpec = errors.New("annotate: unknown engine")

// AnalyzeTTSizeMB is the built-in engine's table per worker that the
// analyze command uses by default: a batch analysis searches many small
// trees, a game's positions in a row, and a table that stays in the
// core's cache is faster than a larger one that does not, although it
// keeps less. Measured side by side with analyze --workers 2 at depth 8
// (one run): 60 OCA games 497 positions/s with 16 MB, 549 with 2, 619 with
// 1; 12 International games 118, 132, 140; at depth 10 on 60 International
// positions 4.8 positions per CPU second with 16 MB, 5.5 with 1 (13% more
// nodes). Deeper searches or a move time may want more (--tt-size).
const AnalyzeTTSizeMB = 1

// EngineOptions configure the engine ParseEngine makes.
type EngineOptions struct {
	// Limit is every search's limit (checked: Limit.Check).
	Limit Limit
	// TTSizeMB is the built-in engine's transposition table per worker
	// (<= 0: search.DefaultTTSizeMB).
	TTSizeMB int
	// Timeout bounds one position of a hub engine beyond its move time
	// (hub.Config.Timeout; <= 0: a minute).
	Timeout time.Duration
	// Stderr receives a hub engine's standard error (nil: discarded).
	Stderr io.Writer
	// Notice receives remarks on a hub engine's output (hub.Config.Notice).
	Notice func(string)
}

// Engine is an engine ready to evaluate: its name and version as stored
// in evaluations, and how to make one evaluator per worker.
type Engine struct {
	Name, Version string
	// New makes one worker's evaluator.
	New func() (Evaluator, error)
	// First, if not nil, is an evaluator already started (a hub engine,
	// to learn its name): give it to Run as Options.First, which closes
	// it, or call Close.
	First Evaluator
}

// Close closes First, for a caller that does not pass it to Run.
func (e *Engine) Close() error {
	if e.First == nil {
		return nil
	}
	err := e.First.Close()
	e.First = nil
	return err
}

// ParseEngine makes the engine spec names, with args its program's
// arguments:
//
//	builtin    draughtsdb's own search (package search); no args
//	hub:PATH   the Hub-protocol engine program PATH, one process per
//	           evaluator (started once here to read its name and version;
//	           the file name of PATH if it gives no name)
//
// A spec of no known form wraps ErrEngineSpec, a bad limit ErrLimit. The
// analyze command takes spec from --engine and args from --engine-arg;
// other front ends (a match between engines) share the forms.
func ParseEngine(spec string, args []string, o EngineOptions) (*Engine, error) {
	if err := o.Limit.Check(); err != nil {
		return nil, err
	}
	if o.TTSizeMB <= 0 {
		o.TTSizeMB = search.DefaultTTSizeMB
	}
	if o.Timeout <= 0 {
		o.Timeout = time.Minute
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	lim := o.Limit
	switch kind, arg, _ := strings.Cut(spec, ":"); {
	case spec == "builtin":
		if len(args) > 0 {
			return nil, fmt.Errorf("%w: builtin takes no program arguments (have %d: %s)", ErrEngineSpec, len(args), capQuote(strings.Join(args, " ")))
		}
		return &Engine{Name: search.Name, Version: search.Version,
			New: func() (Evaluator, error) { return NewBuiltin(lim, o.TTSizeMB), nil }}, nil
	case kind == "hub" && arg != "":
		cfg := hub.Config{Path: arg, Args: args, Timeout: o.Timeout, Stderr: o.Stderr, Notice: o.Notice}
		first, err := StartHub(cfg, lim)
		if err != nil {
			return nil, fmt.Errorf("engine %s: %w", capQuote(arg), err)
		}
		e := &Engine{Name: first.Name(), Version: first.Version(), First: first,
			New: func() (Evaluator, error) { return StartHub(cfg, lim) }}
		if e.Name == "" {
			e.Name = filepath.Base(arg)
		}
		return e, nil
	}
	return nil, fmt.Errorf("%w %s: want builtin or hub:PATH", ErrEngineSpec, capQuote(spec))
}

// capQuote quotes s for a message, cut to 80 bytes on a rune boundary.
func capQuote(s string) string { return fmt.Sprintf("%q", pdn.Clip(s, 80)) }

// over is the verdict on a position whose game is over by the variant's
// Win rule (rules.Position.Outcome: no legal move loses, or wins in
// antidraughts; in breakthrough the first king has won), given without
// asking the engine (a Hub GUI never asks one about a finished game):
// draughtsdb's own -Win or Win for the side to move, as the built-in
// engine returns it, and no best move. ok is false when the game goes on.
func over(pos *rules.Position) (e Eval, ok bool) {
	o := pos.Outcome()
	if o == rules.Undecided {
		return Eval{}, false
	}
	winner := rules.White
	if o == rules.BlackWins {
		winner = rules.Black
	}
	if winner == pos.SideToMove() {
		return Eval{Score: search.Win, Mate: true}, true
	}
	return Eval{Score: -search.Win, Mate: true}, true
}

// LineEvaluator is an Evaluator that gains from evaluating the positions of
// one game in order, as analysis servers do: the built-in engine keeps its
// transposition table from one position to the next, where it already
// holds much of the next position's tree. Run gives each worker's
// positions in game order to EvaluateInLine (unless Options.Independent).
type LineEvaluator interface {
	Evaluator
	// EvaluateInLine evaluates pos, which follows, in the same game, the
	// positions evaluated since the last call with first set; first
	// starts a new line, which forgets the earlier ones. The result may
	// depend on those positions; the same sequence gives the same results.
	EvaluateInLine(ctx context.Context, pos rules.Position, first bool) (Eval, error)
}

// Builtin is the built-in engine (package search) with its own
// transposition table.
type Builtin struct {
	Limit Limit
	e     *search.Engine
}

// NewBuiltin returns a built-in evaluator; ttMB sizes its table.
func NewBuiltin(l Limit, ttMB int) *Builtin {
	return &Builtin{Limit: l, e: search.NewEngine(ttMB)}
}

// Evaluate searches pos on its own (from an empty table).
func (b *Builtin) Evaluate(ctx context.Context, pos rules.Position) (Eval, error) {
	return b.evaluate(ctx, pos, false)
}

// EvaluateInLine searches pos keeping the table of the searches since the
// last call with first set (search.Options.Continue).
func (b *Builtin) EvaluateInLine(ctx context.Context, pos rules.Position, first bool) (Eval, error) {
	return b.evaluate(ctx, pos, !first)
}

func (b *Builtin) evaluate(ctx context.Context, pos rules.Position, cont bool) (Eval, error) {
	if e, ok := over(&pos); ok {
		return e, nil
	}
	r := b.e.Search(ctx, pos, search.Options{Depth: b.Limit.Depth, MoveTime: b.Limit.MoveTime, Continue: cont}, nil)
	e := Eval{Score: r.Score, Mate: r.Mate, Depth: r.Depth, Nodes: int64(r.Nodes), TimeMs: int(r.Time.Milliseconds())}
	pv := make([]string, len(r.PV))
	for i := range r.PV {
		pv[i] = hub.FormatMove(&r.PV[i])
	}
	e.PV = strings.Join(pv, " ")
	switch {
	case len(r.PV) > 0:
		e.Best = pv[0]
	case r.Best.From() != 0:
		e.Best = hub.FormatMove(&r.Best)
	}
	return e, nil
}

// Close does nothing.
func (b *Builtin) Close() error { return nil }

// Hub is an external engine driven over the Hub protocol (hub.Client),
// with hub.AnalyzeRetry's policy: a position is tried twice, then failed.
type Hub struct {
	Limit Limit
	c     *hub.Client
}

// StartHub starts the engine.
func StartHub(cfg hub.Config, l Limit) (*Hub, error) {
	c, err := hub.Start(cfg)
	if err != nil {
		return nil, err
	}
	return &Hub{Limit: l, c: c}, nil
}

// Name and Version are the engine's, from its id line ("" if it gave none).
func (h *Hub) Name() string    { return h.c.ID()["name"] }
func (h *Hub) Version() string { return h.c.ID()["version"] }

// Evaluate has the engine analyse pos.
func (h *Hub) Evaluate(ctx context.Context, pos rules.Position) (Eval, error) {
	if e, ok := over(&pos); ok {
		return e, nil
	}
	a, err := hub.AnalyzeRetry(ctx, h.c, pos, h.Limit.Depth, h.Limit.MoveTime)
	if err != nil {
		return Eval{}, err
	}
	return Eval{Score: a.Score, Mate: a.Mate, Depth: a.Depth, Best: hub.FormatMove(&a.Best),
		PV: strings.Join(a.PV, " "), Nodes: int64(a.Nodes), TimeMs: int(a.Time.Milliseconds())}, nil
}

// Close stops the engine.
func (h *Hub) Close() error { return h.c.Close() }
