package dxp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

func init() { engine.RegisterDXP(openEngine) }

// Engine is an external DXP engine (engine.Open's dxp:HOST:PORT) as an
// engine.GamePlayer: one connection; we initiate one DXP game per game
// (NewGame), the engine follows with its colour, and each Search sends
// the game's last move and returns the engine's answer. It reports no
// score. Each wait for it is bounded by the search's move time plus
// engine.Options.Timeout, whatever game time the GAMEREQ gives.
type Engine struct {
	o    engine.Options
	addr string
	p    *Player
	name string
	side rules.Color
}

func openEngine(ctx context.Context, s engine.Spec, o engine.Options) (engine.Engine, error) {
	e := &Engine{o: o, addr: s.Addr}
	if err := e.dial(ctx); err != nil {
		return nil, err
	}
	return e, nil
}

// budget bounds one wait for the engine: the move time the caller's limit
// gives (at a fixed depth none: a DXP engine cannot be given a depth) plus
// the timeout.
func (e *Engine) budget(l engine.Limit) time.Duration { return l.MoveTime + e.o.Timeout }

func (e *Engine) dial(ctx context.Context) error {
	p, err := Dial(ctx, e.addr, ClientOptions{Name: e.o.DXPName, Timeout: e.o.Timeout, Notice: e.o.Notice})
	if err != nil {
		return err
	}
	e.p = p
	return nil
}

// Name is the name the engine gave in its first GAMEACC ("" before any
// game); Version is "" (DXP has none).
func (e *Engine) Name() string    { return e.name }
func (e *Engine) Version() string { return "" }

// NewGame sends the GAMEREQ (connecting again first if an earlier failure
// closed the connection); a game left over from a failure is ended first.
func (e *Engine) NewGame(ctx context.Context, start rules.Position, side rules.Color) error {
	if e.p == nil {
		if err := e.dial(ctx); err != nil {
			return err
		}
	}
	if e.p.InGame() {
		e.p.End(ctx, EndUnknown) //nolint:errcheck // a game left over from a failure: end it
	}
	if err := e.p.Start(ctx, Game{Start: start, Engine: side, Minutes: e.o.DXPMinutes, Moves: e.o.DXPMoves}); err != nil {
		return err
	}
	e.side = side
	if n := strings.TrimSpace(e.p.Opponent()); n != "" && e.name == "" {
		e.name = n
	}
	return nil
}

// Search sends g's last move (none when the engine makes the game's first
// move) and returns the engine's move. A GAMEEND instead of a move is
// engine.ErrResigned ("I lose"), engine.ErrDrawClaim ("draw") or a
// *GameEndError.
func (e *Engine) Search(ctx context.Context, g engine.Game, l engine.Limit) (engine.Result, error) {
	if e.p == nil || !e.p.InGame() {
		return engine.Result{}, errors.New("dxp: Search outside a game (NewGame first)")
	}
	pos, _, _, err := g.Position()
	if err != nil {
		return engine.Result{}, err
	}
	e.p.timeout = e.budget(l)
	t0 := time.Now()
	m, err := e.p.Move(ctx, pos, g.Last())
	if err != nil {
		var ge *GameEndError
		if errors.As(err, &ge) {
			switch ge.End.Reason {
			case EndLoss:
				return engine.Result{}, fmt.Errorf("%w (%v)", engine.ErrResigned, err)
			case EndDraw:
				return engine.Result{}, fmt.Errorf("%w (%v)", engine.ErrDrawClaim, err)
			}
		}
		return engine.Result{}, err
	}
	return engine.Result{Move: m, PV: []rules.Move{m}, Time: time.Since(t0)}, nil
}

// EndGame ends the DXP game from our side: reason from our (the
// opponent's) view. The last move, when ours, goes to the engine first;
// when it left the engine without a legal move, the engine may say so
// itself.
func (e *Engine) EndGame(ctx context.Context, g engine.Game, r replay.Result) error {
	if e.p == nil || !e.p.InGame() {
		return nil
	}
	reason := EndUnknown
	if w, ok := r.Winner(); ok {
		if w == e.side {
			reason = EndLoss
		} else {
			reason = EndWin
		}
	} else if r == replay.Draw {
		reason = EndDraw
	}
	wait := time.Duration(0)
	if pos, _, _, err := g.Position(); err == nil && len(g.Moves) > 0 && pos.SideToMove() == e.side && pos.IsLost() {
		wait = finishWait
	}
	return e.p.Finish(ctx, len(g.Moves), g.Last(), reason, wait)
}

// finishWait is how long a DXP engine left without a legal move by our
// last move is given to end the game itself before we do.
const finishWait = 2 * time.Second

// Restart connects again: after a timeout or a bad message the connection
// is out of step with the game.
func (e *Engine) Restart(ctx context.Context) error {
	if e.p != nil {
		e.p.Close()
		e.p = nil
	}
	return e.dial(ctx)
}

// Close ends a game in progress and closes the connection.
func (e *Engine) Close() error {
	if e.p == nil {
		return nil
	}
	if e.p.InGame() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		e.p.End(ctx, EndUnknown) //nolint:errcheck
		cancel()
	}
	err := e.p.Close()
	e.p = nil
	return err
}
