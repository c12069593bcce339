package match

import (
	"context"
	"io"
	"math"
	"strings"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/dxp" // also the DXP client behind engine.Open's dxp:HOST:PORT
	"github.com/draughtsdb/draughtsdb/analysis/endgame"
	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/analysis/search"
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

// quote quotes s for a message, cut to 80 bytes on a rune boundary.
func quote(s string) string { return engine.Quote(s) }

// Errors of the players and engine specifications.
var (
	// ErrEngineSpec: an engine specification of no known form (engine.ErrSpec).
	ErrEngineSpec = engine.ErrSpec
	// ErrResigned: the engine gave the game up (DXP GAMEEND "I lose").
	ErrResigned = engine.ErrResigned
	// ErrDrawClaim: the engine ended the game claiming a draw (DXP GAMEEND
	// "draw") in a position the rules do not call drawn.
	ErrDrawClaim = engine.ErrDrawClaim
	// ErrNoMove: an engine answered without a move.
	ErrNoMove = engine.ErrNoMove
)

// EngineOptions configure the players OpenPlayer makes.
type EngineOptions struct {
	// Limit is every move's search limit (engine.Limit.Check).
	Limit engine.Limit
	// Timeout is how much longer than Limit.MoveTime (or, at a fixed
	// depth, in all) an engine of any kind may take for one move before it
	// forfeits the game (default 60 s). A DXP engine, which keeps its own
	// clock, is bounded the same way: a game time that would let it think
	// longer on one move does not extend the bound. The built-in engine is
	// stopped at that point and plays its best move so far: it runs in
	// this process and cannot hang.
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
	// Book, if not nil, gives a builtin or Hub engine its moves while the
	// game is inside it (engine.WithBook; a DXP engine plays its own).
	Book engine.Booker
	// Endgame and EndgamePieces give a builtin engine endgame tables
	// (engine.Options.Endgame); other engines have their own.
	Endgame       func(*rules.Variant) *endgame.Tables
	EndgamePieces int
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

// OpenPlayer opens the engine spec names (engine.ParseSpec: builtin,
// hub:PATH, dxp:HOST:PORT), with args its program's arguments, as a player
// in games of variant v:
//
//	builtin        sees the game's history (repetitions, Frisian's
//	               king-move limit)
//	hub:PATH       one process, told the position of every move (not the
//	               game's history: in Frisian it may move one king a fourth
//	               time, which the referee forfeits as illegal)
//	dxp:HOST:PORT  International only; one connection, one DXP game per game
//
// A spec of no known form wraps ErrEngineSpec, a bad limit engine.ErrLimit.
func OpenPlayer(ctx context.Context, spec string, args []string, v *rules.Variant, o EngineOptions) (Player, error) {
	if err := o.Limit.Check(); err != nil {
		return nil, err
	}
	o.fill()
	s, err := engine.ParseSpec(spec, args)
	if err != nil {
		return nil, err
	}
	e, err := engine.OpenSpec(ctx, s, engine.Options{Variant: v, TTSizeMB: o.TTSizeMB, Timeout: o.Timeout,
		Stderr: o.Stderr, Notice: o.Notice, DXPName: o.DXPName, DXPMinutes: o.DXPMinutes, DXPMoves: o.DXPMoves,
		Endgame: o.Endgame, EndgamePieces: o.EndgamePieces})
	if err != nil {
		return nil, err
	}
	if o.Book != nil && s.Kind != engine.DXP {
		if e, err = engine.WithBook(e, o.Book); err != nil {
			return nil, err
		}
	}
	return NewPlayer(e, s.Fallback(), o), nil
}

// NewPlayer makes engine e a player; fallback is its name until it
// reports one (a DXP engine names itself in its first GAMEACC).
func NewPlayer(e engine.Engine, fallback string, o EngineOptions) Player {
	o.fill()
	return &enginePlayer{e: e, o: o, fallback: fallback}
}

// enginePlayer is an engine.Engine as a Player: the game goes to Search
// with its history; a GamePlayer (DXP) is told when games begin and end.
type enginePlayer struct {
	e        engine.Engine
	o        EngineOptions
	fallback string
}

func (p *enginePlayer) Name() string {
	if n := strings.TrimSpace(engine.NameOf(p.e)); n != "" {
		return n
	}
	return p.fallback
}

func (p *enginePlayer) Begin(ctx context.Context, g *Game, side rules.Color) error {
	if gp, ok := p.e.(engine.GamePlayer); ok {
		return gp.NewGame(ctx, g.Start, side)
	}
	return nil
}

func (p *enginePlayer) Move(ctx context.Context, g *Game) (rules.Move, error) {
	if engine.IsBuiltin(p.e) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.o.moveBudget())
		defer cancel()
	}
	r, err := p.e.Search(ctx, g.engineGame(), p.o.Limit)
	if err != nil {
		return rules.Move{}, err
	}
	if r.Move.From() == 0 && r.Move.To() == 0 {
		return rules.Move{}, ErrNoMove
	}
	return r.Move, nil
}

func (p *enginePlayer) Finish(ctx context.Context, g *Game) error {
	if gp, ok := p.e.(engine.GamePlayer); ok {
		return gp.EndGame(ctx, g.engineGame(), g.Result)
	}
	return nil
}

// Reset restarts an engine that can be (a Hub process, a DXP connection).
func (p *enginePlayer) Reset(ctx context.Context) error {
	if r, ok := p.e.(engine.Restarter); ok {
		return r.Restart(ctx)
	}
	return nil
}

func (p *enginePlayer) Close() error { return p.e.Close() }
