package engine

import (
	"context"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/analysis/engine/evalid"
	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// HubEngine is an external engine driven over the Hub protocol
// (hub.Client), one process. It is told the position to search, not the
// game's history.
type HubEngine struct {
	cfg   hub.Config
	c     *hub.Client
	retry bool
}

func startHub(s Spec, o Options) (*HubEngine, error) {
	h := &HubEngine{cfg: hub.Config{Path: s.Path, Args: s.Args, Timeout: o.Timeout, Stderr: o.Stderr, Notice: o.Notice}, retry: o.Retry}
	if err := h.start(); err != nil {
		return nil, err
	}
	return h, nil
}

func (h *HubEngine) start() error {
	c, err := hub.Start(h.cfg)
	if err != nil {
		return err
	}
	h.c = c
	return nil
}

// Name and Version are the engine's, from its id line ("" if it gave none).
func (h *HubEngine) Name() string {
	if h.c == nil {
		return ""
	}
	return h.c.ID()["name"]
}

func (h *HubEngine) Version() string {
	if h.c == nil {
		return ""
	}
	return h.c.ID()["version"]
}

// EvalVersion is the version with the engine's evaluation fingerprint
// when its id line gives one (draughtsdb hub's eval), as stored
// evaluations name it: "0.1+eval.a9f34bd9"; else the version.
func (h *HubEngine) EvalVersion() string {
	v := h.Version()
	if h.c != nil {
		if fp := h.c.ID()["eval"]; fp != "" {
			v += "+eval." + fp
		}
		if n, err := strconv.Atoi(h.c.ID()["endgame"]); err == nil {
			v = evalid.WithEndgame(v, n)
		}
	}
	return v
}

// Search has the engine analyse the game's position (a decided one is
// answered without asking it: a Hub GUI never asks about a finished game).
func (h *HubEngine) Search(ctx context.Context, g Game, l Limit) (Result, error) {
	if err := l.Check(); err != nil {
		return Result{}, err
	}
	pos, _, _, err := g.Position()
	if err != nil {
		return Result{}, err
	}
	if r, ok := Over(&pos); ok {
		return r, nil
	}
	if h.c == nil {
		if err := h.start(); err != nil {
			return Result{}, err
		}
	}
	var a hub.Analysis
	if h.retry {
		a, err = hub.AnalyzeRetry(ctx, h.c, pos, l.Depth, l.MoveTime)
	} else {
		a, err = h.c.Analyze(ctx, pos, l.Depth, l.MoveTime)
	}
	if err != nil {
		return Result{}, err
	}
	return Result{Move: a.Best, PV: parsePV(pos, a.PV), Score: a.Score, Mate: a.Mate, HasScore: true,
		Depth: a.Depth, Nodes: a.Nodes, Time: a.Time}, nil
}

// parsePV resolves a Hub PV along its positions, as far as it is legal.
func parsePV(pos rules.Position, pv []string) []rules.Move {
	var out []rules.Move
	for _, s := range pv {
		for _, f := range strings.Fields(s) {
			m, err := hub.ParseMove(&pos, f)
			if err != nil {
				return out
			}
			out = append(out, m)
			pos.Play(&m)
		}
	}
	return out
}

// Restart stops the engine process and starts it again (the client
// already does after a timeout or a crash, but not after a protocol
// error).
func (h *HubEngine) Restart(context.Context) error {
	if h.c != nil {
		h.c.Close()
		h.c = nil
	}
	return h.start()
}

// Close stops the engine.
func (h *HubEngine) Close() error {
	if h.c == nil {
		return nil
	}
	err := h.c.Close()
	h.c = nil
	return err
}
