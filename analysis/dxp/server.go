package dxp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime/debug"
	"sync"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Move times derived from a GAMEREQ's thinking time.
const (
	// MinMoveTime is the least a derived move time gets.
	MinMoveTime = 20 * time.Millisecond
	// DefaultMoveTime is each move's time in a game of 0 minutes.
	DefaultMoveTime = time.Second
)

// Server defaults.
const (
	// DefaultMaxConnections is ServerOptions.MaxConnections' default:
	// each connection may hold an engine (a table, or a process).
	DefaultMaxConnections = 4
	// DefaultMaxMinutes is ServerOptions.MaxMinutes' default.
	DefaultMaxMinutes = 60
	// DefaultIdleTimeout is ServerOptions.IdleTimeout's default.
	DefaultIdleTimeout = 5 * time.Minute
)

// ServerOptions configure Serve.
type ServerOptions struct {
	// Name is ours in GAMEACC and GAMEREQ (at most 32 bytes; default the
	// engine's name and version).
	Name string
	// Limit is every move's search (a depth or a move time); the zero
	// Limit derives a move time from the GAMEREQ's thinking time (see the
	// package documentation).
	Limit engine.Limit
	// Timeout bounds the other side's silence when it owes a move or an
	// answer. 0: the game's thinking time plus a minute (10 minutes when
	// the GAMEREQ gives 0).
	Timeout time.Duration
	// IdleTimeout bounds the silence between games, a new connection's
	// before its first message included (0: DefaultIdleTimeout); then the
	// connection is closed and its engine given back.
	IdleTimeout time.Duration
	// MaxConnections bounds the connections served at once (0:
	// DefaultMaxConnections); one more is told so in a CHAT and closed.
	MaxConnections int
	// MaxMinutes caps the thinking time a GAMEREQ may give (0:
	// DefaultMaxMinutes): a request for more is played as if it gave
	// MaxMinutes (said in a CHAT), which bounds our engine's time per move
	// and the other side's silence alike.
	MaxMinutes int
	// NoTakeBack answers every BACKREQ with code 1 (not supported).
	NoTakeBack bool
	// Initiate, if not nil, makes the server the Initiator on every
	// connection: it sends this game's GAMEREQ (Initiate.Engine is the
	// colour of the program that connected) Games times, colours
	// alternating, then a GAMEEND with stop code 1 and closes.
	Initiate *Game
	// Games is the number of games per connection with Initiate (0: 1).
	Games int
	// Notice receives CHAT and remarks (each prefixed with the peer).
	Notice func(string)
	// Log receives every game when it ends.
	Log func(GameRecord)
	// Trace sees every message sent and received (Conn.Trace).
	Trace func(peer string, sent bool, raw []byte)
}

// GameRecord is one game played by Serve.
type GameRecord struct {
	Peer      string // the other program's address
	Number    int    // game number on its connection, from 1
	Opponent  string // its name from GAMEREQ or GAMEACC
	Initiator bool   // we sent the GAMEREQ
	Color     rules.Color
	Start     rules.Position
	Moves     []rules.Move
	// Result is "1-0", "0-1", "1/2-1/2" or "*": a side to move without a
	// legal move has lost, else the reason of the GAMEEND that ended it.
	Result string
	// End says how it ended ("Moby Dam sent GAMEEND: sender loses",
	// "illegal move ...", "connection dropped", ...).
	End string
}

// String is the record's log line.
func (r GameRecord) String() string {
	return fmt.Sprintf("game %d with %s (%s): we played %s, %d plies, %s: %s",
		r.Number, quote(r.Opponent), r.Peer, r.Color, len(r.Moves), r.Result, r.End)
}

// Serve plays DXP games with engines from eng on every connection ln
// accepts, until ctx ends; then it closes ln and every connection, waits
// for them, closes the pool and returns nil. Another failure of ln is
// returned. A connection takes an engine from the pool when its first game
// begins and gives it back when it closes. See the package documentation
// for the protocol as served.
func Serve(ctx context.Context, ln net.Listener, eng *engine.Pool, o ServerOptions) error {
	if eng == nil {
		return errors.New("dxp: Serve needs an engine pool (engine.NewPool)")
	}
	defer eng.Close()
	if o.Name == "" {
		o.Name = eng.Name()
		if o.Name == "" {
			o.Name = "draughtsdb"
		}
	}
	if o.MaxConnections <= 0 {
		o.MaxConnections = DefaultMaxConnections
	}
	if o.MaxMinutes <= 0 {
		o.MaxMinutes = DefaultMaxMinutes
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	o.Name = fit(o.Name, NameBytes)
	if o.Limit != (engine.Limit{}) {
		if err := o.Limit.Check(); err != nil {
			return err
		}
	}
	if o.Games <= 0 {
		o.Games = 1
	}
	if o.Initiate != nil {
		start := o.Initiate.Start
		if start.Variant() == nil {
			start = rules.International.StartPosition()
		}
		if why := checkStart(&start); why != "" {
			return fmt.Errorf("dxp: start position %s: %s", start.FEN(), why)
		}
	}
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	slots := make(chan struct{}, o.MaxConnections)
	for {
		nc, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("dxp: accept: %w", err)
		}
		select {
		case slots <- struct{}{}:
		default:
			wg.Add(1)
			go func() {
				defer wg.Done()
				refuseBusy(ctx, nc, &o)
			}()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			s := newSession(&o, nc, eng)
			s.run(ctx)
		}()
	}
}

// refuseBusy tells a connection beyond MaxConnections so and closes it.
func refuseBusy(ctx context.Context, nc net.Conn, o *ServerOptions) {
	peer := nc.RemoteAddr().String()
	if o.Notice != nil {
		o.Notice(fmt.Sprintf("%s: refused: %d connections are being served (dxp.max_connections)", peer, o.MaxConnections))
	}
	c := NewConn(nc)
	sctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	c.Send(sctx, Chat{Text: fmt.Sprintf("busy: %d connections are being served, try again later", o.MaxConnections)}) //nolint:errcheck // closing anyway
	c.Close()
}

// moveTime is the time for the next move of a game under req, at move
// number n, having made made moves in used time (Moby Dam's rule: the time
// left over the moves left plus two).
func moveTime(req GameReq, n, made int, used time.Duration) time.Duration {
	if req.Minutes == 0 {
		return DefaultMoveTime
	}
	var left int
	if req.Moves > 0 {
		left = req.Moves - made
		left -= left / 4 // some will be forced captures that take no time
	} else {
		left = max(60+n*n/196-n, 15)
	}
	left = max(left, 1)
	t := (time.Duration(req.Minutes)*time.Minute - used) / time.Duration(left+2)
	return max(t, MinMoveTime)
}

type sessionState int

const (
	idle      sessionState = iota
	requested              // we sent GAMEREQ, waiting for GAMEACC
	playing
	ending // we sent GAMEEND, waiting for its acknowledgement
)

type inbound struct {
	m   Message
	err error
}

type thought struct {
	r    engine.Result
	err  error
	took time.Duration
}

// session is one connection.
type session struct {
	o    *ServerOptions
	c    *Conn
	peer string
	pool *engine.Pool
	eng  engine.Engine // taken from pool when the first game begins
	msgs chan inbound
	quit chan struct{}

	state    sessionState
	number   int // games begun on this connection
	req      GameReq
	g        *game
	our      rules.Color
	opponent string
	used     time.Duration // our thinking time in this game
	made     int           // our moves in this game
	ender    rules.Color   // who sent the GAMEEND that is ending the game
	reason   EndReason
	how      string
	left     int  // games still to request (Initiate)
	closing  bool // the connection is done after the current step

	thinking bool
	cancel   context.CancelFunc
	done     chan thought
}

func newSession(o *ServerOptions, nc net.Conn, pool *engine.Pool) *session {
	s := &session{o: o, c: NewConn(nc), peer: nc.RemoteAddr().String(), pool: pool,
		msgs: make(chan inbound), quit: make(chan struct{}), left: o.Games}
	if o.Trace != nil {
		s.c.Trace = func(sent bool, raw []byte) { o.Trace(s.peer, sent, raw) }
	}
	return s
}

func (s *session) notice(format string, args ...any) {
	if s.o.Notice != nil {
		s.o.Notice(s.peer + ": " + fmt.Sprintf(format, args...))
	}
}

// read feeds s.msgs until the connection fails (its last inbound carries
// that error).
func (s *session) read(ctx context.Context) {
	for {
		m, err := s.c.Receive(ctx)
		select {
		case s.msgs <- inbound{m, err}:
		case <-s.quit:
			return
		}
		var me *MessageError
		if err != nil && !errors.As(err, &me) {
			return
		}
	}
}

func (s *session) run(ctx context.Context) {
	var rwg sync.WaitGroup
	rwg.Add(1)
	go func() { defer rwg.Done(); s.read(ctx) }()
	defer func() {
		s.stopThinking()
		close(s.quit)
		s.c.Close()
		rwg.Wait()
		if s.eng != nil {
			if !s.pool.Put(s.eng) {
				// A closed built-in engine leaves its table to the
				// collector; give the memory back to the system now
				// rather than keep it for the next connection's table.
				debug.FreeOSMemory()
			}
			s.eng = nil
		}
	}()
	if s.o.Initiate != nil {
		s.request(ctx)
	}
	for !s.closing {
		if s.state == playing && s.g.pos.SideToMove() == s.our && !s.thinking {
			s.ourTurn(ctx)
			continue
		}
		var timeout <-chan time.Time
		var timer *time.Timer
		if d := s.timeout(); d > 0 {
			timer = time.NewTimer(d)
			timeout = timer.C
		}
		if !s.wait(ctx, timeout) {
			return
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// wait handles the next event; false when the connection is done.
func (s *session) wait(ctx context.Context, timeout <-chan time.Time) bool {
	{
		select {
		case <-ctx.Done():
			s.finish("*", "the server stopped")
			return false
		case r := <-s.done:
			s.thinking = false
			s.played(ctx, r)
		case in := <-s.msgs:
			var me *MessageError
			if in.err != nil && !errors.As(in.err, &me) {
				if ctx.Err() != nil {
					s.finish("*", "the server stopped")
				} else {
					s.notice("%v", in.err)
					s.finish("*", "connection dropped")
				}
				return false
			}
			s.handle(ctx, in)
		case <-timeout:
			s.notice("no message for %v (%s): closing the connection", s.timeout(), s.waitingFor())
			s.finish("*", "the other side was silent for "+s.timeout().String())
			return false
		}
	}
	return true
}

// timeout is how long the other side may stay silent now (0: no bound,
// while our engine thinks).
func (s *session) timeout() time.Duration {
	switch s.state {
	case idle:
		return s.o.IdleTimeout
	case playing:
		if s.g.pos.SideToMove() == s.our {
			return 0
		}
	}
	if s.o.Timeout > 0 {
		return s.o.Timeout
	}
	if s.req.Minutes == 0 {
		return 10 * time.Minute
	}
	return time.Duration(s.req.Minutes)*time.Minute + time.Minute
}

func (s *session) waitingFor() string {
	switch s.state {
	case idle:
		return "between games"
	case requested:
		return "waiting for GAMEACC"
	case ending:
		return "waiting for the GAMEEND acknowledgement"
	}
	return fmt.Sprintf("waiting for the move of ply %d", s.g.ply()+1)
}

func (s *session) send(ctx context.Context, m Message) bool {
	if err := s.c.Send(ctx, m); err != nil {
		s.notice("%v", err)
		if errors.Is(err, ErrDisconnected) || errors.Is(err, ErrTimeout) {
			s.finish("*", "connection dropped")
			s.closing = true
		}
		return false
	}
	return true
}

// request sends the next GAMEREQ of Initiate, or when none is left a
// GAMEEND with stop code 1, and then the connection is done.
func (s *session) request(ctx context.Context) {
	gm := s.o.Initiate
	if s.left <= 0 {
		s.send(ctx, GameEnd{Stop: true})
		s.closing = true
		return
	}
	if !s.takeEngine() {
		s.send(ctx, GameEnd{Stop: true})
		s.closing = true
		return
	}
	s.left--
	follower := gm.Engine
	if s.number%2 == 1 {
		follower = follower.Opponent()
	}
	req := GameReq{Version: Version, Name: s.o.Name, Follower: follower, Minutes: gm.Minutes, Moves: gm.Moves}
	normal := rules.International.StartPosition()
	if gm.Start.Variant() != nil && gm.Start.Hash() != normal.Hash() {
		req.Setup, req.Position = true, gm.Start
	}
	s.req = req
	s.state = requested
	s.send(ctx, req)
}

// begin starts a game with s.req.
func (s *session) begin(initiator bool) {
	s.number++
	s.state = playing
	s.g = newGame(s.req.Start())
	s.our = s.req.Follower
	if initiator {
		s.our = s.our.Opponent()
	}
	s.used, s.made = 0, 0
}

func (s *session) ourTurn(ctx context.Context) {
	g := s.g
	switch {
	case g.pos.IsLost():
		s.endGame(ctx, EndLoss, "we have no legal move")
	case g.drawn() != "":
		s.endGame(ctx, EndDraw, "draw by "+g.drawn())
	case s.req.Moves > 0 && s.made >= s.req.Moves:
		s.endGame(ctx, EndUnknown, fmt.Sprintf("the %d moves of the game are played", s.req.Moves))
	default:
		lim := s.o.Limit
		if lim == (engine.Limit{}) {
			n, _ := g.numberAt(g.ply())
			lim = engine.Limit{MoveTime: moveTime(s.req, n, s.made, s.used)}
		}
		tctx, cancel := context.WithCancel(ctx)
		s.cancel, s.done, s.thinking = cancel, make(chan thought, 1), true
		// The whole game goes to the engine, so that it sees repetitions.
		eg := engine.Game{Start: g.start, Moves: append([]rules.Move(nil), g.moves...)}
		eng, done := s.eng, s.done
		go func() {
			t0 := time.Now()
			r, err := eng.Search(tctx, eg, lim)
			done <- thought{r: r, err: err, took: time.Since(t0)}
		}()
	}
}

// stopThinking cancels a search under way and waits for it (the evaluator
// serves one search at a time).
func (s *session) stopThinking() {
	if s.thinking {
		s.cancel()
		<-s.done
		s.thinking = false
	}
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
}

// played sends the engine's move.
func (s *session) played(ctx context.Context, r thought) {
	s.cancel()
	s.cancel = nil
	if s.state != playing {
		return
	}
	g := s.g
	if r.err != nil {
		s.notice("engine: %v", r.err)
		s.endGame(ctx, EndUnknown, fmt.Sprintf("our engine failed at ply %d: %v", g.ply()+1, r.err))
		return
	}
	m, ok := legal(&g.pos, &r.r.Move)
	if !ok {
		s.endGame(ctx, EndUnknown, fmt.Sprintf("our engine's move %s at ply %d is not legal in %s", hub.FormatMove(&r.r.Move), g.ply()+1, g.pos.FEN()))
		return
	}
	s.used += r.took
	s.made++
	g.play(m)
	s.send(ctx, MoveOf(&m, int(r.took.Round(time.Second)/time.Second)))
}

// endGame sends our GAMEEND and waits for the acknowledgement.
func (s *session) endGame(ctx context.Context, reason EndReason, how string) {
	s.stopThinking()
	s.ender, s.reason, s.how = s.our, reason, how
	s.state = ending
	s.send(ctx, GameEnd{Reason: reason})
}

// finish logs the game in progress (if any) with how it ended; result "*"
// is decided from the position or the GAMEEND's reason.
func (s *session) finish(result, how string) {
	if s.g == nil || s.state == idle || s.state == requested {
		s.state = idle
		return
	}
	g := s.g
	if result == "*" {
		result = resultOf(g, s.ender, s.reason, s.state == ending || s.how != "")
	}
	if s.o.Log != nil {
		s.o.Log(GameRecord{Peer: s.peer, Number: s.number, Opponent: s.opponent, Initiator: s.o.Initiate != nil,
			Color: s.our, Start: g.start, Moves: append([]rules.Move(nil), g.moves...), Result: result, End: how})
	}
	s.g, s.state, s.how, s.reason = nil, idle, "", EndUnknown
}

// resultOf is the result of a game that ended at g's position: the side to
// move without a legal move has lost; else, if a GAMEEND ended it
// (byEnd), its reason from its sender's view; else unknown.
func resultOf(g *game, sender rules.Color, reason EndReason, byEnd bool) string {
	win := func(c rules.Color) string {
		if c == rules.White {
			return "1-0"
		}
		return "0-1"
	}
	if g.pos.IsLost() {
		return win(g.pos.SideToMove().Opponent())
	}
	if !byEnd {
		return "*"
	}
	switch reason {
	case EndDraw:
		return "1/2-1/2"
	case EndLoss:
		return win(sender.Opponent())
	case EndWin:
		return win(sender)
	}
	return "*"
}

func (s *session) handle(ctx context.Context, in inbound) {
	if in.err != nil { // malformed
		s.notice("%v", in.err)
		var me *MessageError
		errors.As(in.err, &me)
		if s.state == playing && me.Kind != KindChat {
			s.send(ctx, Chat{Text: fit(in.err.Error(), MaxChatBytes)})
			s.endGame(ctx, EndUnknown, fmt.Sprintf("malformed message at ply %d: %v", s.g.ply()+1, in.err))
			return
		}
		s.send(ctx, Chat{Text: fit(in.err.Error(), MaxChatBytes)})
		return
	}
	switch m := in.m.(type) {
	case Chat:
		s.notice("chat from %s: %s", quote(s.opponent), quote(m.Text))
	case GameReq:
		s.gameReq(ctx, m)
	case GameAcc:
		if s.state != requested {
			s.notice("GAMEACC from %s without a GAMEREQ: ignored", quote(m.Name))
			return
		}
		s.opponent = m.Name
		if m.Code != Accepted {
			s.notice("%s refused the game: %s", quote(m.Name), m.Code)
			s.state = idle
			s.closing = true
			return
		}
		s.begin(true)
	case Move:
		if s.state != playing || s.g.pos.SideToMove() == s.our {
			if s.state != ending {
				s.notice("MOVE %s while not expecting one: ignored", m)
				s.send(ctx, Chat{Text: "move received while not expecting one"})
			}
			return
		}
		mv, err := m.Resolve(&s.g.pos)
		if err != nil {
			var ie *IllegalMoveError
			if errors.As(err, &ie) {
				ie.Ply = s.g.ply() + 1
			}
			s.notice("%v", err)
			s.send(ctx, Chat{Text: fit(err.Error(), MaxChatBytes)})
			s.endGame(ctx, EndUnknown, err.Error())
			return
		}
		s.g.play(mv)
	case GameEnd:
		ended := true
		switch s.state {
		case playing:
			s.stopThinking()
			s.ender, s.reason = s.our.Opponent(), m.Reason
			s.how = fmt.Sprintf("%s sent GAMEEND: %s", quote(s.opponent), m.Reason)
			s.send(ctx, GameEnd{Stop: m.Stop})
			s.finish("*", s.how)
		case ending:
			s.finish("*", s.how)
		default:
			ended = false
			s.notice("GAMEEND outside a game: ignored")
		}
		if m.Stop {
			s.notice("%s wants no further game: closing", quote(s.opponent))
			s.closing = true
			return
		}
		if ended && s.o.Initiate != nil && !s.closing {
			s.request(ctx)
		}
	case BackReq:
		switch {
		case s.o.NoTakeBack:
			s.send(ctx, BackAcc{Code: BackNotSupported})
		case s.state == playing:
			s.stopThinking()
			if !s.g.takeBack(m.MoveNumber, m.Color) {
				s.notice("BACKREQ to move %d (%s): not a point of this game", m.MoveNumber, m.Color)
				s.send(ctx, BackAcc{Code: BackRefused})
				return
			}
			s.notice("took back to move %d (%s) at %s's request", m.MoveNumber, m.Color, quote(s.opponent))
			s.made = 0
			for i := range s.g.ply() {
				if _, side := s.g.numberAt(i); side == s.our {
					s.made++
				}
			}
			s.send(ctx, BackAcc{Code: BackAccepted})
		default:
			s.send(ctx, BackAcc{Code: BackRefused})
		}
	case BackAcc:
		s.notice("BACKACC without a BACKREQ: ignored")
	}
}

func (s *session) gameReq(ctx context.Context, r GameReq) {
	refuse := func(code AccCode, why string) {
		s.notice("GAMEREQ from %s refused (%s): %s", quote(r.Name), code, why)
		s.send(ctx, Chat{Text: fit("gamereq refused: "+why, MaxChatBytes)})
		s.send(ctx, GameAcc{Name: s.o.Name, Code: code})
	}
	if s.state == ending { // no acknowledgement came: the game is over anyway
		s.finish("*", s.how)
	}
	switch {
	case s.o.Initiate != nil:
		refuse(Refused, "this side initiates the games here")
		return
	case r.Version != Version:
		refuse(RefusedVer, fmt.Sprintf("protocol version %02d, this program speaks 01", r.Version))
		return
	case s.state != idle:
		refuse(Refused, "a game is in progress")
		return
	}
	start := r.Start()
	if why := checkStart(&start); why != "" {
		refuse(Refused, why)
		return
	}
	if !s.takeEngine() {
		refuse(RefusedGames, "no engine is available")
		return
	}
	if r.Minutes > s.o.MaxMinutes {
		s.notice("GAMEREQ from %s asks for %d minutes: played as %d (dxp.max_minutes)", quote(r.Name), r.Minutes, s.o.MaxMinutes)
		if !s.send(ctx, Chat{Text: fmt.Sprintf("thinking time capped: %d minutes asked, %d played", r.Minutes, s.o.MaxMinutes)}) {
			return
		}
		r.Minutes = s.o.MaxMinutes
	}
	s.req = r
	s.opponent = r.Name
	s.begin(false)
	if !s.send(ctx, GameAcc{Name: s.o.Name, Code: Accepted}) {
		return
	}
}

// legal finds m among the legal moves of pos.
func legal(pos *rules.Position, m *rules.Move) (rules.Move, bool) {
	moves := pos.LegalMoves(nil)
	for i := range moves {
		if moves[i].SameAs(m) {
			return moves[i], true
		}
	}
	return rules.Move{}, false
}

// takeEngine gives the session an engine from the pool for its games
// (kept until the connection closes); false, after saying why, when none
// can be had.
func (s *session) takeEngine() bool {
	if s.eng != nil {
		return true
	}
	e, err := s.pool.Get()
	if err != nil {
		s.notice("no engine for this connection: %v", err)
		return false
	}
	s.eng = e
	return true
}
