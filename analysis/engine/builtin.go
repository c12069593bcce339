package engine

import (
	"context"
	"errors"

	"github.com/draughtsdb/draughtsdb/analysis/endgame"
	"github.com/draughtsdb/draughtsdb/analysis/engine/evalid"
	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// BuiltinEngine is draughtsdb's own search (package search) with its own
// transposition table, in this process. It sees the game's history:
// repetitions and Frisian's king-move limit along every line.
type BuiltinEngine struct {
	e *search.Engine
	// Options, if not nil, adjusts each search's options (tests: a fake
	// clock).
	Options func(*search.Options)

	endgame  func(*rules.Variant) *endgame.Tables
	egPieces int
}

// SetEndgame makes the engine search with the endgame tables tables gives
// for a position's variant (nil: none) of up to pieces pieces; its
// EvalVersion then names them, since exact values below the root change
// scores. A nil tables removes them.
func (b *BuiltinEngine) SetEndgame(tables func(*rules.Variant) *endgame.Tables, pieces int) {
	b.endgame, b.egPieces = tables, pieces
	if tables == nil {
		b.egPieces = 0
	}
}

// NewBuiltin returns the built-in engine; ttMB sizes its table
// (search.DefaultTTSizeMB when <= 0).
func NewBuiltin(ttMB int) *BuiltinEngine {
	if ttMB <= 0 {
		ttMB = search.DefaultTTSizeMB
	}
	return &BuiltinEngine{e: search.NewEngine(ttMB)}
}

// Name is search.Name, Version search.Version (the name a match records);
// EvalVersion names the evaluation too, for stored evaluations.
func (b *BuiltinEngine) Name() string    { return search.Name }
func (b *BuiltinEngine) Version() string { return search.Version }

// EvalVersion is evalid.Version: search.Version with a fingerprint of the
// evaluation (its weights), as evaluations.engine_version stores it.
func (b *BuiltinEngine) EvalVersion() string { return evalid.WithEndgame(evalid.Version(), b.egPieces) }

// KeepsTable: Game.Continue keeps the table of the earlier searches.
func (b *BuiltinEngine) KeepsTable() bool { return true }

// Search searches the game's position to l. Cancelling ctx stops it with
// the best move so far (the first legal move if the first iteration did
// not complete).
func (b *BuiltinEngine) Search(ctx context.Context, g Game, l Limit) (Result, error) {
	if err := l.Check(); err != nil {
		return Result{}, err
	}
	if b.e == nil {
		return Result{}, errClosed
	}
	pos, hist, kmc, err := g.Position()
	if err != nil {
		return Result{}, err
	}
	o := search.Options{Depth: l.Depth, MoveTime: l.MoveTime, History: hist, KingMoves: &kmc, KingPlies: g.DrawCount(), Continue: g.Continue}
	if b.endgame != nil {
		o.Endgame = b.endgame(pos.Variant())
	}
	if b.Options != nil {
		b.Options(&o)
	}
	r := b.e.Search(ctx, pos, o, nil)
	return Result{Move: r.Best, PV: r.PV, Score: r.Score, Mate: r.Mate, HasScore: true,
		Depth: r.Depth, Nodes: r.Nodes, Time: r.Time}, nil
}

// Close drops the table.
func (b *BuiltinEngine) Close() error {
	b.e = nil
	return nil
}

var errClosed = errors.New("engine: search after Close")
