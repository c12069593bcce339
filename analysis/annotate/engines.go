package annotate

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/analysis/search"
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

// lost is the verdict on a position without a legal move (its side to move
// has lost), given without asking the engine: draughtsdb's own -Win, as
// the built-in engine returns it.
func lost() Eval { return Eval{Score: -search.Win, Mate: true} }

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

// Evaluate searches pos.
func (b *Builtin) Evaluate(ctx context.Context, pos rules.Position) (Eval, error) {
	if len(pos.LegalMoves(nil)) == 0 {
		return lost(), nil
	}
	r := b.e.Search(ctx, pos, search.Options{Depth: b.Limit.Depth, MoveTime: b.Limit.MoveTime}, nil)
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
	if len(pos.LegalMoves(nil)) == 0 {
		return lost(), nil
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
