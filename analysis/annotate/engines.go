package annotate

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/endgame"
	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/analysis/engine/evalid"
	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Limit is a search limit: a fixed depth (deterministic) or a move time
// (engine.Limit; Setting is its form in evaluations.setting).
type Limit = engine.Limit

// ErrLimit: a search limit that is neither a depth of 1..search.MaxDepth
// nor a positive move time (engine.ErrLimit).
var ErrLimit = engine.ErrLimit

// ErrEngineSpec: an engine specification that names no engine analyze
// can run (engine.ErrSpec).
var ErrEngineSpec = engine.ErrSpec

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

// EngineOptions configure the engine OpenEngine makes.
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
	// Endgame and EndgamePieces give the built-in engine endgame tables
	// (engine.Options.Endgame); its version then names them.
	Endgame       func(*rules.Variant) *endgame.Tables
	EndgamePieces int
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

// OpenEngine opens the engine spec names (engine.ParseSpec; analyze takes
// builtin and hub:PATH, as a DXP engine reports no score), with args its
// program's arguments. A Hub engine is started once here to read its name
// and version (the file name of its program if it gives no name), then
// once per further evaluator; a position it times out or crashes on is
// tried twice (hub.AnalyzeRetry). A spec of no usable form wraps
// ErrEngineSpec, a bad limit ErrLimit.
func OpenEngine(ctx context.Context, spec string, args []string, o EngineOptions) (*Engine, error) {
	if err := o.Limit.Check(); err != nil {
		return nil, err
	}
	s, err := engine.ParseSpec(spec, args, engine.Builtin, engine.Hub)
	if err != nil {
		return nil, err
	}
	eo := engine.Options{TTSizeMB: o.TTSizeMB, Timeout: o.Timeout, Stderr: o.Stderr, Notice: o.Notice, Retry: true}
	lim := o.Limit
	if s.Kind == engine.Builtin {
		pieces := o.EndgamePieces
		if o.Endgame == nil {
			pieces = 0
		}
		return &Engine{Name: search.Name, Version: evalid.WithEndgame(evalid.Version(), pieces),
			New: func() (Evaluator, error) {
				b := NewBuiltin(lim, eo.TTSizeMB)
				b.E.(*engine.BuiltinEngine).SetEndgame(o.Endgame, pieces)
				return b, nil
			}}, nil
	}
	first, err := engine.OpenSpec(ctx, s, eo)
	if err != nil {
		return nil, err
	}
	e := &Engine{Name: first.Name(), Version: engine.EvalVersion(first), First: NewEvaluator(first, lim),
		New: func() (Evaluator, error) {
			x, err := engine.OpenSpec(context.Background(), s, eo)
			if err != nil {
				return nil, err
			}
			return NewEvaluator(x, lim), nil
		}}
	if e.Name == "" {
		e.Name = s.Fallback()
	}
	return e, nil
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

// EngineEvaluator evaluates positions with an engine.Engine at Limit.
type EngineEvaluator struct {
	Limit Limit
	E     engine.Engine
}

// NewEvaluator evaluates with e at l; a LineSearcher (the built-in engine)
// gives a LineEvaluator.
func NewEvaluator(e engine.Engine, l Limit) Evaluator {
	if ls, ok := e.(engine.LineSearcher); ok && ls.KeepsTable() {
		return &Builtin{EngineEvaluator{Limit: l, E: e}}
	}
	return &EngineEvaluator{Limit: l, E: e}
}

// Evaluate searches pos on its own.
func (x *EngineEvaluator) Evaluate(ctx context.Context, pos rules.Position) (Eval, error) {
	return x.evaluate(ctx, pos, false)
}

func (x *EngineEvaluator) evaluate(ctx context.Context, pos rules.Position, cont bool) (Eval, error) {
	if r, ok := engine.Over(&pos); ok {
		return Eval{Score: r.Score, Mate: r.Mate}, nil
	}
	r, err := x.E.Search(ctx, engine.Game{Start: pos, Continue: cont}, x.Limit)
	if err != nil {
		return Eval{}, err
	}
	if !r.HasScore {
		return Eval{}, fmt.Errorf("engine %s gave no score", engine.Quote(engine.NameOf(x.E)))
	}
	return EvalOf(r), nil
}

// EvalOf is an engine result as stored: moves in Hub notation.
func EvalOf(r engine.Result) Eval {
	e := Eval{Score: r.Score, Mate: r.Mate, Depth: r.Depth, Nodes: int64(r.Nodes), TimeMs: int(r.Time.Milliseconds())}
	pv := make([]string, len(r.PV))
	for i := range r.PV {
		pv[i] = hub.FormatMove(&r.PV[i])
	}
	e.PV = strings.Join(pv, " ")
	switch {
	case len(r.PV) > 0:
		e.Best = pv[0]
	case r.Move.From() != 0:
		e.Best = hub.FormatMove(&r.Move)
	}
	return e
}

// Close closes the engine.
func (x *EngineEvaluator) Close() error { return x.E.Close() }

// Builtin is an evaluator with the built-in engine (package search) and
// its own transposition table: a LineEvaluator.
type Builtin struct {
	EngineEvaluator
}

// NewBuiltin returns a built-in evaluator; ttMB sizes its table.
func NewBuiltin(l Limit, ttMB int) *Builtin {
	return &Builtin{EngineEvaluator{Limit: l, E: engine.NewBuiltin(ttMB)}}
}

// EvaluateInLine searches pos keeping the table of the searches since the
// last call with first set (engine.Game.Continue).
func (b *Builtin) EvaluateInLine(ctx context.Context, pos rules.Position, first bool) (Eval, error) {
	return b.evaluate(ctx, pos, !first)
}
