package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/annotate"
	"github.com/draughtsdb/draughtsdb/analysis/dxp"
	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Player is one engine of a match, playing one game at a time. The match
// referees: it hands the player the game so far and checks the move it
// returns against the rules.
type Player interface {
	// Name is the engine's name as it reported it (the player name the
	// games record comes from it, see Run).
	Name() string
	// Begin starts game g, in which the player has colour side; g.Start is
	// the position after the opening (DXP sends it in its GAMEREQ).
	Begin(ctx context.Context, g *Game, side rules.Color) error
	// Move returns the player's move in g.Pos, where it is to move. An
	// error forfeits the game (see Forfeit); the match then calls Reset.
	Move(ctx context.Context, g *Game) (rules.Move, error)
	// Finish tells the player that g ended (g.Result and g.Reason set).
	// Its error is only reported.
	Finish(ctx context.Context, g *Game) error
	// Reset closes the engine and starts it again, after an error; when it
	// fails the match stops (the engine cannot play any more games).
	Reset(ctx context.Context) error
	Close() error
}

// Errors of the players and engine specifications.
var (
	// ErrEngineSpec: an engine specification of no known form.
	ErrEngineSpec = errors.New("match: unknown engine")
	// ErrResigned: the engine gave the game up (DXP GAMEEND "I lose").
	ErrResigned = errors.New("match: the engine resigned")
	// ErrDrawClaim: the engine ended the game claiming a draw (DXP GAMEEND
	// "draw") in a position the rules do not call drawn.
	ErrDrawClaim = errors.New("match: the engine claimed a draw")
	// ErrNoMove: an engine answered without a move.
	ErrNoMove = errors.New("match: the engine gave no move")
)

// EngineOptions configure the players ParseEngine makes.
type EngineOptions struct {
	// Limit is every move's search limit (annotate.Limit.Check).
	Limit annotate.Limit
	// Timeout is how much longer than Limit.MoveTime (or, at a fixed
	// depth, in all) an engine may take for one move before it forfeits
	// the game (default 60 s); a DXP engine, which keeps its own clock,
	// may take Timeout plus its whole game time (DXPMinutes). The built-in
	// engine is stopped at that point and plays its best move so far: it
	// runs in this process and cannot hang.
	Timeout time.Duration
	// TTSizeMB is the built-in engine's transposition table
	// (search.DefaultTTSizeMB when 0).
	TTSizeMB int
	// Stderr receives a Hub engine's standard error (nil: discarded).
	Stderr io.Writer
	// Notice receives remarks: a Hub engine's over-long lines, a DXP
	// engine's CHAT.
	Notice func(string)
	// DXPMinutes and DXPMoves are the time control sent to a DXP engine,
	// which has no fixed time per move: its thinking time for the game and
	// the moves in it (0: none). DXPMinutes 0 derives it from
	// Limit.MoveTime, or at a fixed depth sends DXPMinutesFor(0) (see
	// DXPMinutesFor): a GAMEREQ never says 0 minutes.
	DXPMinutes, DXPMoves int
	// DXPName is our name in the GAMEREQ ("draughtsdb" if empty).
	DXPName string
}

// DXPMinutesFor is the game time sent to a DXP engine for a fixed move
// time: 75 moves at moveTime, rounded up to a whole minute (at least one).
// DXP engines divide their time by an estimate of the moves left (Moby Dam
// by about 60 at the start of a game), so they move at roughly moveTime.
//
// A DXP engine cannot be given a depth, so at a fixed depth (moveTime 0)
// it is 75 moves at dxp.DefaultMoveTime (1 s, what our own server gives a
// move in a game of 0 minutes): 2 minutes. It is never 0: Moby Dam does
// not answer a GAMEREQ of 0 minutes at all (no GAMEACC), so a match at a
// fixed depth against it would lose every game by timeout.
func DXPMinutesFor(moveTime time.Duration) int {
	if moveTime <= 0 {
		moveTime = dxp.DefaultMoveTime
	}
	return max(1, int(math.Ceil((75 * moveTime).Minutes())))
}

func (o *EngineOptions) fill() {
	if o.Timeout <= 0 {
		o.Timeout = time.Minute
	}
	if o.TTSizeMB <= 0 {
		o.TTSizeMB = search.DefaultTTSizeMB
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	if o.DXPMinutes <= 0 {
		o.DXPMinutes = DXPMinutesFor(o.Limit.MoveTime)
	}
}

// moveBudget is the longest a move may take: the move time (if any) plus
// the timeout.
func (o *EngineOptions) moveBudget() time.Duration { return o.Limit.MoveTime + o.Timeout }

// ParseEngine starts the engine spec names, with args its program's
// arguments, for games of variant v:
//
//	builtin          draughtsdb's own search (package search), with the game's
//	                 history (repetitions, Frisian's king-move limit); no args
//	hub:PATH         a Hub-protocol engine program (Scan, draughtsdb hub), one
//	                 process, told the position of every move (not the game's
//	                 history: in Frisian it may move one king a fourth time,
//	                 which the referee forfeits as illegal)
//	dxp:HOST:PORT    a DXP engine listening there (Moby Dam, draughtsdb dxp),
//	                 International only; one connection, one DXP game per game
//
// The forms are annotate.ParseEngine's, plus dxp. A spec of no known form
// wraps ErrEngineSpec, a bad limit annotate.ErrLimit.
func ParseEngine(ctx context.Context, spec string, args []string, v *rules.Variant, o EngineOptions) (Player, error) {
	if err := o.Limit.Check(); err != nil {
		return nil, err
	}
	o.fill()
	kind, arg, _ := strings.Cut(spec, ":")
	switch {
	case spec == "builtin":
		if len(args) > 0 {
			return nil, fmt.Errorf("%w: builtin takes no program arguments (have %s)", ErrEngineSpec, quote(strings.Join(args, " ")))
		}
		return &builtinPlayer{o: o, e: search.NewEngine(o.TTSizeMB)}, nil
	case kind == "hub" && arg != "":
		p := &hubPlayer{o: o, cfg: hub.Config{Path: arg, Args: args, Timeout: o.Timeout, Stderr: o.Stderr, Notice: o.Notice}}
		if err := p.start(); err != nil {
			return nil, fmt.Errorf("engine %s: %w", quote(spec), err)
		}
		return p, nil
	case kind == "dxp" && arg != "":
		if v != rules.International {
			return nil, fmt.Errorf("%w: %s: DXP plays International draughts only, not %s", ErrEngineSpec, quote(spec), v.Name)
		}
		if len(args) > 0 {
			return nil, fmt.Errorf("%w: a DXP engine takes no program arguments (have %s)", ErrEngineSpec, quote(strings.Join(args, " ")))
		}
		p := &dxpPlayer{o: o, addr: arg}
		if err := p.dial(ctx); err != nil {
			return nil, fmt.Errorf("engine %s: %w", quote(spec), err)
		}
		return p, nil
	}
	return nil, fmt.Errorf("%w %s: want builtin, hub:PATH or dxp:HOST:PORT", ErrEngineSpec, quote(spec))
}

// quote quotes s for a message, cut to 80 bytes on a rune boundary.
func quote(s string) string { return fmt.Sprintf("%q", pdn.Clip(s, 80)) }

// builtinPlayer is package search in this process. It sees the game's
// history: the positions since the last irreversible move for repetitions
// and the king-move counter (Frisian).
type builtinPlayer struct {
	o EngineOptions
	e *search.Engine
}

func (p *builtinPlayer) Name() string { return search.Name + " " + search.Version }

func (p *builtinPlayer) Begin(context.Context, *Game, rules.Color) error { return nil }

func (p *builtinPlayer) Move(ctx context.Context, g *Game) (rules.Move, error) {
	ctx, cancel := context.WithTimeout(ctx, p.o.moveBudget())
	defer cancel()
	kmc := g.KingMoves
	r := p.e.Search(ctx, g.Pos, search.Options{Depth: p.o.Limit.Depth, MoveTime: p.o.Limit.MoveTime,
		History: g.History[:len(g.History)-1], KingMoves: &kmc}, nil)
	if r.Best.From() == 0 && r.Best.To() == 0 {
		return rules.Move{}, ErrNoMove
	}
	return r.Best, nil
}

func (p *builtinPlayer) Finish(context.Context, *Game) error { return nil }
func (p *builtinPlayer) Reset(context.Context) error         { return nil }
func (p *builtinPlayer) Close() error                        { return nil }

// hubPlayer drives a Hub engine with hub.Client: one Analyze per move, no
// retry (a failure forfeits the game; the client has then restarted the
// engine already when it timed out or crashed).
type hubPlayer struct {
	o    EngineOptions
	cfg  hub.Config
	c    *hub.Client
	name string
}

func (p *hubPlayer) start() error {
	c, err := hub.Start(p.cfg)
	if err != nil {
		return err
	}
	p.c = c
	if p.name == "" {
		id := c.ID()
		p.name = strings.TrimSpace(id["name"] + " " + id["version"])
		if p.name == "" {
			p.name = filepath.Base(p.cfg.Path)
		}
	}
	return nil
}

func (p *hubPlayer) Name() string { return p.name }

func (p *hubPlayer) Begin(context.Context, *Game, rules.Color) error { return nil }

func (p *hubPlayer) Move(ctx context.Context, g *Game) (rules.Move, error) {
	if p.c == nil {
		if err := p.start(); err != nil {
			return rules.Move{}, err
		}
	}
	a, err := p.c.Analyze(ctx, g.Pos, p.o.Limit.Depth, p.o.Limit.MoveTime)
	if err != nil {
		return rules.Move{}, err
	}
	return a.Best, nil
}

func (p *hubPlayer) Finish(context.Context, *Game) error { return nil }

// Reset restarts the engine process: the client already did after a
// timeout or a crash, but not after a protocol error.
func (p *hubPlayer) Reset(context.Context) error {
	if p.c != nil {
		p.c.Close()
		p.c = nil
	}
	return p.start()
}

func (p *hubPlayer) Close() error {
	if p.c == nil {
		return nil
	}
	err := p.c.Close()
	p.c = nil
	return err
}

// dxpPlayer is an engine listening for DXP: we connect and initiate each
// game (dxp.Player), the engine follows with its colour.
type dxpPlayer struct {
	o    EngineOptions
	addr string
	p    *dxp.Player
	name string
	side rules.Color // the engine's colour in the game going on
}

func (p *dxpPlayer) dial(ctx context.Context) error {
	// A DXP engine keeps its own clock: one move may take up to the whole
	// game's time before it is late.
	budget := max(p.o.moveBudget(), p.o.Timeout+time.Duration(p.o.DXPMinutes)*time.Minute)
	pl, err := dxp.Dial(ctx, p.addr, dxp.ClientOptions{Name: p.o.DXPName, Timeout: budget, Notice: p.o.Notice})
	if err != nil {
		return err
	}
	p.p = pl
	return nil
}

// Name is the name the engine gave in its first GAMEACC, or its address
// before any game.
func (p *dxpPlayer) Name() string {
	if p.name != "" {
		return p.name
	}
	return "dxp:" + p.addr
}

// Begin sends the GAMEREQ (connecting again first if an earlier failure
// closed the connection). The engine names itself in its GAMEACC: Name is
// that name from then on.
func (p *dxpPlayer) Begin(ctx context.Context, g *Game, side rules.Color) error {
	if p.p == nil {
		if err := p.dial(ctx); err != nil {
			return err
		}
	}
	if p.p.InGame() {
		p.p.End(ctx, dxp.EndUnknown) //nolint:errcheck // a game left over from a failure: end it
	}
	err := p.p.Start(ctx, dxp.Game{Start: g.Start, Engine: side, Minutes: p.o.DXPMinutes, Moves: p.o.DXPMoves})
	if err != nil {
		return err
	}
	p.side = side
	if n := strings.TrimSpace(p.p.Opponent()); n != "" && p.name == "" {
		p.name = n
	}
	return nil
}

func (p *dxpPlayer) Move(ctx context.Context, g *Game) (rules.Move, error) {
	var last *rules.Move
	if len(g.Moves) > 0 {
		last = &g.Moves[len(g.Moves)-1]
	}
	m, err := p.p.Move(ctx, g.Pos, last)
	var ge *dxp.GameEndError
	if errors.As(err, &ge) {
		switch ge.End.Reason {
		case dxp.EndLoss:
			return rules.Move{}, fmt.Errorf("%w (%v)", ErrResigned, err)
		case dxp.EndDraw:
			return rules.Move{}, fmt.Errorf("%w (%v)", ErrDrawClaim, err)
		}
	}
	return m, err
}

// Finish ends the DXP game from our side: reason from our (the
// opponent's) view.
func (p *dxpPlayer) Finish(ctx context.Context, g *Game) error {
	if p.p == nil || !p.p.InGame() {
		return nil
	}
	reason := dxp.EndUnknown
	if w, ok := g.Result.Winner(); ok {
		if w == p.side {
			reason = dxp.EndLoss
		} else {
			reason = dxp.EndWin
		}
	} else if g.Result == replay.Draw {
		reason = dxp.EndDraw
	}
	// The last move, when ours, goes to the engine first; when it left
	// the engine without a legal move, the engine may say so itself.
	var last *rules.Move
	wait := time.Duration(0)
	if n := len(g.Moves); n > 0 {
		last = &g.Moves[n-1]
		if g.Pos.SideToMove() == p.side && g.Pos.IsLost() {
			wait = finishWait
		}
	}
	return p.p.Finish(ctx, len(g.Moves), last, reason, wait)
}

// finishWait is how long a DXP engine left without a legal move by our
// last move is given to end the game itself before we do.
const finishWait = 2 * time.Second

// Reset connects again: after a timeout or a bad message the connection
// is out of step with the game.
func (p *dxpPlayer) Reset(ctx context.Context) error {
	if p.p != nil {
		p.p.Close()
		p.p = nil
	}
	return p.dial(ctx)
}

func (p *dxpPlayer) Close() error {
	if p.p == nil {
		return nil
	}
	if p.p.InGame() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		p.p.End(ctx, dxp.EndUnknown) //nolint:errcheck
		cancel()
	}
	err := p.p.Close()
	p.p = nil
	return err
}
