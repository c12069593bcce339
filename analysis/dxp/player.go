package dxp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Errors of the Player.
var (
	// ErrRefused: the engine did not accept the game (*RefusedError).
	ErrRefused = errors.New("dxp: game refused")
	// ErrGameEnded: the engine ended the game with GAMEEND (*GameEndError).
	ErrGameEnded = errors.New("dxp: game ended by the engine")
	// ErrDesync: the caller's position or move does not follow from the
	// game as the Player has it.
	ErrDesync = errors.New("dxp: position out of step with the game")
	// ErrNoGame: Move, End or TakeBack without a game in progress; Start
	// while one is.
	ErrNoGame = errors.New("dxp: no game in progress")
)

// RefusedError is a GAMEACC with a code other than 0.
type RefusedError struct{ Acc GameAcc }

func (e *RefusedError) Error() string {
	return fmt.Sprintf("dxp: %s refused the game: %s", quote(e.Acc.Name), e.Acc.Code)
}

// Unwrap makes errors.Is(err, ErrRefused) hold.
func (e *RefusedError) Unwrap() error { return ErrRefused }

// GameEndError is the engine's GAMEEND in place of a move (already
// acknowledged). Reason is from the engine's view: EndLoss means the
// engine gives up.
type GameEndError struct {
	End GameEnd
	Ply int // plies played when it came
}

func (e *GameEndError) Error() string {
	s := fmt.Sprintf("dxp: the engine ended the game at ply %d: %s", e.Ply, e.End.Reason)
	if e.End.Stop {
		s += " (and wants no further game)"
	}
	return s
}

// Unwrap makes errors.Is(err, ErrGameEnded) hold.
func (e *GameEndError) Unwrap() error { return ErrGameEnded }

// ClientOptions configure a Player.
type ClientOptions struct {
	// Name is ours in GAMEREQ (at most 32 bytes; "draughtsdb" if empty).
	Name string
	// Timeout bounds each wait for the engine (GAMEACC, its move, the
	// acknowledgement of GAMEEND, BACKACC). 0: the game's thinking time
	// plus a minute (10 minutes when the game has none).
	Timeout time.Duration
	// Notice receives the engine's CHAT and remarks on messages ignored.
	Notice func(string)
	// Trace sees every message sent and received (Conn.Trace).
	Trace func(sent bool, raw []byte)
}

// Game is what Start asks the engine to play.
type Game struct {
	// Start is the start position (International); the zero Position is
	// the normal start.
	Start rules.Position
	// Engine is the colour the engine plays (the DXP Follower's colour).
	Engine rules.Color
	// Minutes is each side's thinking time for the whole game (0..999),
	// Moves the moves to play in it (0..999, 0: no limit).
	Minutes, Moves int
}

// Player is an external DXP engine as one side of a game that the caller
// referees: the Player is the Initiator and the engine the Follower. Its
// methods are not safe for concurrent use.
type Player struct {
	c        *Conn
	o        ClientOptions
	opponent string
	g        *game // nil outside a game
	engine   rules.Color
	timeout  time.Duration
	since    time.Time // when the engine's last move (or GAMEACC) came
	err      error     // sticky: the connection is gone
}

// Dial connects to a DXP engine listening on addr (HOST:PORT).
func Dial(ctx context.Context, addr string, o ClientOptions) (*Player, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("dxp: connect to %s: %w", quote(addr), err)
	}
	return NewPlayer(nc, o), nil
}

// NewPlayer plays over a connection already made (for an engine that
// connects to us and waits for a GAMEREQ, as Moby Dam's -c does).
func NewPlayer(nc net.Conn, o ClientOptions) *Player {
	if o.Name == "" {
		o.Name = "draughtsdb"
	}
	o.Name = fit(o.Name, NameBytes)
	c := NewConn(nc)
	c.Trace = o.Trace
	return &Player{c: c, o: o}
}

// Conn is the connection, for messages the Player has no method for.
func (p *Player) Conn() *Conn { return p.c }

// Opponent is the engine's name from its GAMEACC.
func (p *Player) Opponent() string { return p.opponent }

// InGame reports whether a game is in progress.
func (p *Player) InGame() bool { return p.g != nil }

// Close closes the connection (a game in progress is simply abandoned:
// End first to end it properly).
func (p *Player) Close() error {
	if p.err == nil {
		p.err = fmt.Errorf("%w (closed by the player)", ErrDisconnected)
	}
	return p.c.Close()
}

func (p *Player) notice(format string, args ...any) {
	if p.o.Notice != nil {
		p.o.Notice(fmt.Sprintf(format, args...))
	}
}

// send sends m; a dropped connection sticks.
func (p *Player) send(ctx context.Context, m Message) error {
	if p.err != nil {
		return p.err
	}
	err := p.c.Send(ctx, m)
	if errors.Is(err, ErrDisconnected) {
		p.err = err
		p.g = nil
	}
	return err
}

// receive waits at most p.timeout for a message other than CHAT (CHAT
// goes to Notice, BACKREQ is answered "not supported").
func (p *Player) receive(ctx context.Context, what string) (Message, error) {
	if p.err != nil {
		return nil, p.err
	}
	wctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	for {
		m, err := p.c.Receive(wctx)
		var me *MessageError
		switch {
		case errors.As(err, &me):
			return nil, err
		case err != nil:
			who := p.opponent
			if who == "" {
				who = p.c.RemoteAddr().String()
			}
			if ctx.Err() == nil && (wctx.Err() != nil || errors.Is(err, ErrTimeout)) {
				return nil, fmt.Errorf("%w: no %s from %s within %v", ErrTimeout, what, quote(who), p.timeout)
			}
			if errors.Is(err, ErrDisconnected) {
				p.err = err
				p.g = nil
			}
			return nil, fmt.Errorf("dxp: waiting for %s from %s: %w", what, quote(who), err)
		}
		switch m := m.(type) {
		case Chat:
			p.notice("chat from %s: %s", quote(p.opponent), quote(m.Text))
		case BackReq:
			p.notice("%s asked to take back to move %d (%s): not supported", quote(p.opponent), m.MoveNumber, m.Color)
			if err := p.send(ctx, BackAcc{Code: BackNotSupported}); err != nil {
				return nil, err
			}
		default:
			return m, nil
		}
	}
}

// Start sends the GAMEREQ and waits for the GAMEACC. A refusal is a
// *RefusedError; the connection stays usable for another Start.
func (p *Player) Start(ctx context.Context, gm Game) error {
	if p.g != nil {
		return fmt.Errorf("%w: Start while a game is in progress (End it first)", ErrNoGame)
	}
	start := gm.Start
	if start.Variant() == nil {
		start = rules.International.StartPosition()
	}
	if why := checkStart(&start); why != "" {
		return fmt.Errorf("dxp: start position %s: %s", start.FEN(), why)
	}
	req := GameReq{Version: Version, Name: p.o.Name, Follower: gm.Engine, Minutes: gm.Minutes, Moves: gm.Moves}
	normal := rules.International.StartPosition()
	if start.Hash() != normal.Hash() {
		req.Setup, req.Position = true, start
	}
	p.timeout = p.o.Timeout
	if p.timeout <= 0 {
		p.timeout = time.Duration(gm.Minutes)*time.Minute + time.Minute
		if gm.Minutes == 0 {
			p.timeout = 10 * time.Minute
		}
	}
	if err := p.send(ctx, req); err != nil {
		return err
	}
	for {
		m, err := p.receive(ctx, "GAMEACC")
		if err != nil {
			return err
		}
		acc, ok := m.(GameAcc)
		if !ok {
			p.notice("%s sent %s while we waited for GAMEACC: ignored", quote(p.opponent), m.Kind())
			continue
		}
		p.opponent = acc.Name
		if acc.Code != Accepted {
			return &RefusedError{Acc: acc}
		}
		p.g = newGame(start)
		p.engine = gm.Engine
		p.since = time.Now()
		return nil
	}
}

// Move plays the game on to the engine's next move: pos is the position
// with the engine to move, last the caller's move that led to it (nil
// when the engine makes the first move of the game). See the package
// documentation for the errors.
func (p *Player) Move(ctx context.Context, pos rules.Position, last *rules.Move) (rules.Move, error) {
	g := p.g
	if g == nil {
		if p.err != nil {
			return rules.Move{}, p.err
		}
		return rules.Move{}, ErrNoGame
	}
	if last != nil {
		if g.pos.SideToMove() == p.engine {
			return rules.Move{}, fmt.Errorf("%w: a move for our side at ply %d, but the engine (%s) is to move", ErrDesync, g.ply()+1, p.engine)
		}
		m, ok := sameLegal(&g.pos, last)
		if !ok {
			return rules.Move{}, fmt.Errorf("%w: our move at ply %d is not legal in %s", ErrDesync, g.ply()+1, g.pos.FEN())
		}
		g.play(m)
	}
	if g.pos.SideToMove() != p.engine || g.pos.Hash() != pos.Hash() {
		if last != nil { // keep the game as it was
			g.takeBack(g.numberAt(g.ply() - 1))
		}
		return rules.Move{}, fmt.Errorf("%w: given %s, the game is at %s after %d plies", ErrDesync, pos.FEN(), g.pos.FEN(), g.ply())
	}
	if last != nil {
		secs := int(time.Since(p.since).Round(time.Second) / time.Second)
		if err := p.send(ctx, MoveOf(last, secs)); err != nil {
			return rules.Move{}, err
		}
	}
	for {
		msg, err := p.receive(ctx, "move")
		var me *MessageError
		if errors.As(err, &me) {
			p.abort(ctx, fmt.Sprintf("malformed message at ply %d: %v", g.ply()+1, err))
			return rules.Move{}, err
		}
		if err != nil {
			return rules.Move{}, err
		}
		switch msg := msg.(type) {
		case Move:
			m, err := msg.Resolve(&g.pos)
			if err != nil {
				var ie *IllegalMoveError
				if errors.As(err, &ie) {
					ie.Ply = g.ply() + 1
				}
				p.abort(ctx, err.Error())
				return rules.Move{}, err
			}
			g.play(m)
			p.since = time.Now()
			return m, nil
		case GameEnd:
			ply := g.ply()
			p.g = nil
			if err := p.send(ctx, GameEnd{Stop: msg.Stop}); err != nil {
				return rules.Move{}, err
			}
			return rules.Move{}, &GameEndError{End: msg, Ply: ply}
		default:
			p.notice("%s sent %s while we waited for its move: ignored", quote(p.opponent), msg.Kind())
		}
	}
}

// sameLegal finds m among pos's legal moves.
func sameLegal(pos *rules.Position, m *rules.Move) (rules.Move, bool) {
	if pos.Variant() == nil {
		return rules.Move{}, false
	}
	legal := pos.LegalMoves(nil)
	for i := range legal {
		if legal[i].SameAs(m) {
			return legal[i], true
		}
	}
	return rules.Move{}, false
}

// abort ends the game after a bad message from the engine: a CHAT naming
// it, GAMEEND reason 0, and a wait for the acknowledgement (whose failure
// is only noticed: the caller gets the original error).
func (p *Player) abort(ctx context.Context, why string) {
	p.notice("ending the game: %s", why)
	p.send(ctx, Chat{Text: fit(why, MaxChatBytes)})
	if err := p.End(ctx, EndUnknown); err != nil {
		p.notice("ending the game: %v", err)
	}
}

// Finish ends a game that the caller's move last ended (plies in all,
// counted from the start): the engine's copy of the game gets that move
// first, as it got every other, and when the move left the engine without
// a legal move (its loss; the caller says so with wait > 0) the engine is
// given wait to end the game itself ("I lose", which our server and Moby
// Dam send). Otherwise, or when it does not, End ends it with reason.
// Without a game in progress it does nothing. A match used to end such a
// game with GAMEEND alone: the engine's record missed the last move.
func (p *Player) Finish(ctx context.Context, plies int, last *rules.Move, reason EndReason, wait time.Duration) error {
	g := p.g
	if g == nil {
		return nil
	}
	if last == nil || g.ply()+1 != plies || g.pos.SideToMove() == p.engine {
		return p.End(ctx, reason)
	}
	m, ok := sameLegal(&g.pos, last)
	if !ok {
		p.End(ctx, reason) //nolint:errcheck // the desync is the error to report
		return fmt.Errorf("%w: our last move at ply %d is not legal in %s", ErrDesync, plies, g.pos.FEN())
	}
	g.play(m)
	secs := int(time.Since(p.since).Round(time.Second) / time.Second)
	if err := p.send(ctx, MoveOf(last, secs)); err != nil {
		return err
	}
	if wait > 0 {
		wctx, cancel := context.WithTimeout(ctx, wait)
		msg, err := p.receive(wctx, "GAMEEND")
		cancel()
		if ge, ok := msg.(GameEnd); err == nil && ok {
			p.g = nil
			return p.send(ctx, GameEnd{Stop: ge.Stop})
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return p.End(ctx, reason)
}

// End sends GAMEEND with reason (from our, the sender's, view: EndWin
// when the engine lost, EndLoss when we give up) and waits for the
// engine's acknowledgement; a move the engine sent meanwhile is dropped.
// Without a game in progress it does nothing.
func (p *Player) End(ctx context.Context, reason EndReason) error {
	if p.g == nil {
		return nil
	}
	p.g = nil
	if err := p.send(ctx, GameEnd{Reason: reason}); err != nil {
		return err
	}
	for {
		m, err := p.receive(ctx, "GAMEEND acknowledgement")
		var me *MessageError
		if errors.As(err, &me) {
			p.notice("while waiting for GAMEEND: %v", err)
			continue
		}
		if err != nil {
			return err
		}
		if _, ok := m.(GameEnd); ok {
			return nil
		}
		p.notice("%s sent %s while we waited for GAMEEND: ignored", quote(p.opponent), m.Kind())
	}
}

// TakeBack asks the engine to go back to where color is to move at move
// number n (BACKREQ) and returns its answer; when it accepts, the
// Player's game goes back too (ErrDesync if that is no point of the game).
func (p *Player) TakeBack(ctx context.Context, n int, color rules.Color) (BackCode, error) {
	if p.g == nil {
		return 0, ErrNoGame
	}
	if err := p.send(ctx, BackReq{MoveNumber: n, Color: color}); err != nil {
		return 0, err
	}
	for {
		m, err := p.receive(ctx, "BACKACC")
		if err != nil {
			return 0, err
		}
		acc, ok := m.(BackAcc)
		if !ok {
			p.notice("%s sent %s while we waited for BACKACC: ignored", quote(p.opponent), m.Kind())
			continue
		}
		if acc.Code == BackAccepted && p.g != nil && !p.g.takeBack(n, color) {
			return acc.Code, fmt.Errorf("%w: the engine took back to move %d (%s), which this game never reached", ErrDesync, n, color)
		}
		if acc.Code == BackAccepted && p.g != nil {
			p.since = time.Now()
		}
		return acc.Code, nil
	}
}

// Position is the game's current position as the Player has it (false
// outside a game).
func (p *Player) Position() (rules.Position, bool) {
	if p.g == nil {
		return rules.Position{}, false
	}
	return p.g.pos, true
}

// Chat sends text (cut to MaxChatBytes).
func (p *Player) Chat(ctx context.Context, text string) error {
	return p.send(ctx, Chat{Text: fit(text, MaxChatBytes)})
}
