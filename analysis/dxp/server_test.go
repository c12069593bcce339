package dxp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/annotate"
	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// testServer is Serve on a loopback port with the built-in engine at a
// fixed depth (deterministic, no clock), its games and notices collected.
type testServer struct {
	addr    string
	cancel  context.CancelFunc
	done    chan error
	records chan GameRecord
	mu      sync.Mutex
	notes   []string
	noted   chan struct{} // a notice came
}

func startServer(t *testing.T, o ServerOptions) *testServer {
	t.Helper()
	return startServerPool(t, o, engine.NewPool(nil, func() (engine.Engine, error) { return engine.NewBuiltin(1), nil }, 1))
}

func startServerPool(t *testing.T, o ServerOptions, eng *engine.Pool) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &testServer{addr: ln.Addr().String(), done: make(chan error, 1), records: make(chan GameRecord, 100), noted: make(chan struct{}, 1)}
	if o.Limit == (annotate.Limit{}) {
		o.Limit = annotate.Limit{Depth: 2}
	}
	o.Name = "test server"
	o.Log = func(r GameRecord) { s.records <- r }
	o.Notice = func(n string) {
		s.mu.Lock()
		s.notes = append(s.notes, n)
		s.mu.Unlock()
		select {
		case s.noted <- struct{}{}:
		default:
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	go func() { s.done <- Serve(ctx, ln, eng, o) }()
	t.Cleanup(func() {
		cancel()
		if err := <-s.done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return s
}

// waitNotice waits for a notice containing sub (the test's own timeout
// bounds it).
func (s *testServer) waitNotice(t *testing.T, sub string) string {
	t.Helper()
	for {
		s.mu.Lock()
		for _, n := range s.notes {
			if strings.Contains(n, sub) {
				s.mu.Unlock()
				return n
			}
		}
		s.mu.Unlock()
		<-s.noted
	}
}

func (s *testServer) record(t *testing.T) GameRecord {
	t.Helper()
	return <-s.records
}

func dial(t *testing.T, addr string) (*Player, *[]string) {
	t.Helper()
	var mu sync.Mutex
	notes := &[]string{}
	p, err := Dial(context.Background(), addr, ClientOptions{Name: "test client", Notice: func(s string) {
		mu.Lock()
		*notes = append(*notes, s)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, notes
}

// rawConn is a bare connection to the server for messages the Player
// would never send.
func rawConn(t *testing.T, addr string) *Conn {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return NewConn(nc)
}

func send(t *testing.T, c *Conn, m Message) {
	t.Helper()
	if err := c.Send(context.Background(), m); err != nil {
		t.Fatal(err)
	}
}

func sendRaw(t *testing.T, c *Conn, raw string) {
	t.Helper()
	if _, err := c.nc.Write([]byte(raw + "\x00")); err != nil {
		t.Fatal(err)
	}
}

func recv(t *testing.T, c *Conn) Message {
	t.Helper()
	m, err := c.Receive(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// recvKind skips CHATs (returned too) up to a message of kind k.
func recvKind(t *testing.T, c *Conn, k Kind) (Message, []string) {
	t.Helper()
	var chats []string
	for {
		m := recv(t, c)
		if ch, ok := m.(Chat); ok && k != KindChat {
			chats = append(chats, ch.Text)
			continue
		}
		if m.Kind() != k {
			t.Fatalf("got %s %#v, want %s", m.Kind(), m, k)
		}
		return m, chats
	}
}

// firstMove is a deterministic move for our side: the first legal one.
func firstMove(pos rules.Position) rules.Move { return pos.LegalMoves(nil)[0] }

// depth2 is the built-in engine's move at depth 2, as the server plays it.
func depth2(t *testing.T, pos rules.Position) rules.Move {
	t.Helper()
	e, err := annotate.NewBuiltin(annotate.Limit{Depth: 2}, 1).Evaluate(context.Background(), pos)
	if err != nil {
		t.Fatal(err)
	}
	m, err := hub.ParseMove(&pos, e.Best)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestPlayerAgainstServer: GAMEREQ accepted, moves both ways (the engine
// moving second and first), GAMEEND from the client acknowledged, CHAT
// from the client noticed, and each game logged with its moves.
func TestPlayerAgainstServer(t *testing.T) {
	srv := startServer(t, ServerOptions{})
	p, _ := dial(t, srv.addr)
	ctx := context.Background()

	// The engine plays Black: we move first.
	if err := p.Start(ctx, Game{Engine: rules.Black, Minutes: 5}); err != nil {
		t.Fatal(err)
	}
	if p.Opponent() != "test server" {
		t.Errorf("opponent %q", p.Opponent())
	}
	if err := p.Chat(ctx, "good luck"); err != nil {
		t.Fatal(err)
	}
	pos := rules.International.StartPosition()
	var played []rules.Move
	for range 3 {
		ours := firstMove(pos)
		pos.Play(&ours)
		reply, err := p.Move(ctx, pos, &ours)
		if err != nil {
			t.Fatal(err)
		}
		// The server answers with its engine's move at depth 2.
		if want := depth2(t, pos); !reply.SameAs(&want) {
			t.Errorf("engine played %s, depth 2 gives %s", hub.FormatMove(&reply), hub.FormatMove(&want))
		}
		pos.Play(&reply)
		played = append(played, ours, reply)
	}
	srv.waitNotice(t, `chat from "test client": "good luck"`)
	if err := p.End(ctx, EndDraw); err != nil {
		t.Fatal(err)
	}
	r := srv.record(t)
	if r.Result != "1/2-1/2" || r.Color != rules.Black || r.Opponent != "test client" || r.Number != 1 || len(r.Moves) != 6 {
		t.Errorf("record %v", r)
	}
	for i := range played {
		if !r.Moves[i].SameAs(&played[i]) {
			t.Errorf("ply %d: logged %s, played %s", i+1, hub.FormatMove(&r.Moves[i]), hub.FormatMove(&played[i]))
		}
	}

	// A second game on the same connection: the engine plays White and
	// moves first.
	if err := p.Start(ctx, Game{Engine: rules.White}); err != nil {
		t.Fatal(err)
	}
	start := rules.International.StartPosition()
	m, err := p.Move(ctx, start, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := depth2(t, start); !m.SameAs(&want) {
		t.Errorf("first move %s, want %s", hub.FormatMove(&m), hub.FormatMove(&want))
	}
	// Out of step: a position that is not the game's.
	if _, err := p.Move(ctx, start, nil); !errors.Is(err, ErrDesync) {
		t.Errorf("Move with the wrong position = %v", err)
	}
	if err := p.End(ctx, EndLoss); err != nil {
		t.Fatal(err)
	}
	if r := srv.record(t); r.Number != 2 || r.Result != "1-0" || r.Color != rules.White || len(r.Moves) != 1 {
		t.Errorf("second game: %v (we gave up as Black: 1-0)", r)
	}
	if err := p.End(ctx, EndLoss); err != nil {
		t.Errorf("End outside a game = %v", err)
	}
}

// TestServerEndsLostGame: the server, to move without a legal move, sends
// GAMEEND reason 1; the Player acknowledges it and reports it. The game
// starts from a set position (GAMEREQ 'B').
func TestServerEndsLostGame(t *testing.T) {
	srv := startServer(t, ServerOptions{})
	p, _ := dial(t, srv.addr)
	ctx := context.Background()
	start, err := rules.ParseFEN(rules.International, "W:W11,17,40:B6")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Start(ctx, Game{Start: start, Engine: rules.Black}); err != nil {
		t.Fatal(err)
	}
	m, ok := start.PlainMove(40, 34)
	if !ok {
		t.Fatal("40-34 is not legal")
	}
	pos := start
	pos.Play(&m)
	_, err = p.Move(ctx, pos, &m)
	var ge *GameEndError
	if !errors.As(err, &ge) || !errors.Is(err, ErrGameEnded) || ge.End.Reason != EndLoss || ge.Ply != 1 {
		t.Fatalf("Move = %v, want the engine's GAMEEND (it loses)", err)
	}
	r := srv.record(t)
	if r.Result != "1-0" || !strings.Contains(r.End, "no legal move") || r.Start.Hash() != start.Hash() {
		t.Errorf("record %v", r)
	}
	if p.InGame() {
		t.Error("the Player still has a game")
	}
}

// TestPlayerFinishSendsLastMove: a game that our last move ended reaches
// the engine whole. After a move that leaves the engine without a legal
// move, the engine says so itself (our server: "I lose"), and Finish only
// acknowledges; after one that ends the game by our arbiter's rule (a
// draw here), the move goes first, then our GAMEEND. A match sent GAMEEND
// alone: the engine's record missed the last move.
func TestPlayerFinishSendsLastMove(t *testing.T) {
	ctx := context.Background()
	start, err := rules.ParseFEN(rules.International, "W:W11,17,40:B6")
	if err != nil {
		t.Fatal(err)
	}
	m, ok := start.PlainMove(40, 34)
	if !ok {
		t.Fatal("40-34 is not legal")
	}
	// With a Black man on 2 too, Black has moves after 40-34.
	other, err := rules.ParseFEN(rules.International, "W:W11,17,40:B2,6")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		start  rules.Position
		reason EndReason
		wait   time.Duration
		result string
		end    string
	}{
		{"lost", start, EndWin, time.Minute, "1-0", "no legal move"},
		{"ended by us", other, EndDraw, 0, "1/2-1/2", "sent GAMEEND"},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := c.start
			srv := startServer(t, ServerOptions{})
			p, _ := dial(t, srv.addr)
			if err := p.Start(ctx, Game{Start: start, Engine: rules.Black}); err != nil {
				t.Fatal(err)
			}
			if err := p.Finish(ctx, 1, &m, c.reason, c.wait); err != nil {
				t.Fatal(err)
			}
			// The engine may have answered 40-34 before our GAMEEND came.
			r := srv.record(t)
			if len(r.Moves) == 0 || len(r.Moves) > 2 || !r.Moves[0].SameAs(&m) || r.Result != c.result || !strings.Contains(r.End, c.end) {
				t.Errorf("record: %d moves, %s, %q; want 40-34 first, %s, %q", len(r.Moves), r.Result, r.End, c.result, c.end)
			}
			if p.InGame() {
				t.Error("the Player still has a game")
			}
		})
	}
}

// TestServerRefusals: a GAMEREQ of another version is refused with code 1,
// an unplayable position and a request during a game with code 2, each
// with a CHAT saying why; the connection goes on.
func TestServerRefusals(t *testing.T) {
	srv := startServer(t, ServerOptions{})
	c := rawConn(t, srv.addr)
	req := GameReq{Version: 2, Name: "raw", Follower: rules.Black, Minutes: 1}
	send(t, c, req)
	m, chats := recvKind(t, c, KindGameAcc)
	if acc := m.(GameAcc); acc.Code != RefusedVer || acc.Name != "test server" || len(chats) != 1 || !strings.Contains(chats[0], "version 02") {
		t.Errorf("version 2: %v %q", acc, chats)
	}

	bad := rules.NewPosition(rules.International, rules.White)
	bad.SetPiece(3, rules.WhiteMan) // on its promotion row
	bad.SetPiece(40, rules.WhiteMan)
	bad.SetPiece(20, rules.BlackMan)
	req = GameReq{Version: 1, Name: "raw", Follower: rules.Black, Setup: true, Position: bad}
	send(t, c, req)
	m, chats = recvKind(t, c, KindGameAcc)
	if acc := m.(GameAcc); acc.Code != Refused || len(chats) != 1 || !strings.Contains(chats[0], "promotion row") {
		t.Errorf("white man on 3: %v %q", acc, chats)
	}

	req = GameReq{Version: 1, Name: "raw", Follower: rules.Black}
	send(t, c, req)
	if m, _ := recvKind(t, c, KindGameAcc); m.(GameAcc).Code != Accepted {
		t.Fatalf("a good request: %v", m)
	}
	send(t, c, req)
	m, chats = recvKind(t, c, KindGameAcc)
	if acc := m.(GameAcc); acc.Code != Refused || !strings.Contains(strings.Join(chats, " "), "in progress") {
		t.Errorf("during a game: %v %q", acc, chats)
	}
	// The game goes on: a move gets an answer.
	send(t, c, Move{From: 32, To: 28})
	if mv, _ := recvKind(t, c, KindMove); mv.(Move).From < 11 || mv.(Move).From > 20 {
		t.Errorf("black's answer %v", mv)
	}
}

// TestPlayerRefused: a Follower that refuses gives a *RefusedError, and
// its CHAT reaches Notice.
func TestPlayerRefused(t *testing.T) {
	addr := fakeEngine(t, func(c *Conn) {
		frecv(t, c)
		fsend(t, c, Chat{Text: "not today"})
		fsend(t, c, GameAcc{Name: "grumpy", Code: RefusedGames})
	})
	p, notes := dial(t, addr)
	err := p.Start(context.Background(), Game{Engine: rules.White})
	var re *RefusedError
	if !errors.As(err, &re) || !errors.Is(err, ErrRefused) || re.Acc.Code != RefusedGames || p.InGame() {
		t.Fatalf("Start = %v", err)
	}
	if len(*notes) != 1 || !strings.Contains((*notes)[0], "not today") {
		t.Errorf("notices %q", *notes)
	}
}

// fsend, fsendRaw and frecv are send, sendRaw and recv for a fake
// engine's goroutine, which must not call t.Fatal.
func fsend(t *testing.T, c *Conn, m Message) {
	if err := c.Send(context.Background(), m); err != nil {
		t.Errorf("fake engine: %v", err)
	}
}

func fsendRaw(t *testing.T, c *Conn, raw string) {
	if _, err := c.nc.Write([]byte(raw + "\x00")); err != nil {
		t.Errorf("fake engine: %v", err)
	}
}

func frecv(t *testing.T, c *Conn) Message {
	m, err := c.Receive(context.Background())
	if err != nil {
		t.Errorf("fake engine: %v", err)
	}
	return m
}

// fakeEngine serves one connection with script (in its own goroutine).
func fakeEngine(t *testing.T, script func(c *Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		nc, err := ln.Accept()
		ln.Close()
		if err != nil {
			return
		}
		defer nc.Close()
		script(NewConn(nc))
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	return ln.Addr().String()
}

// TestTakeBack: BACKREQ to an earlier point is accepted and both sides go
// back; to a point the game never reached it is refused; NoTakeBack
// answers "not supported".
func TestTakeBack(t *testing.T) {
	srv := startServer(t, ServerOptions{})
	p, _ := dial(t, srv.addr)
	ctx := context.Background()
	if err := p.Start(ctx, Game{Engine: rules.Black}); err != nil {
		t.Fatal(err)
	}
	start := rules.International.StartPosition()
	pos := start
	for range 2 {
		m := firstMove(pos)
		pos.Play(&m)
		r, err := p.Move(ctx, pos, &m)
		if err != nil {
			t.Fatal(err)
		}
		pos.Play(&r)
	}
	if code, err := p.TakeBack(ctx, 7, rules.White); err != nil || code != BackRefused {
		t.Errorf("back to move 7 (never reached) = %v %v", code, err)
	}
	if code, err := p.TakeBack(ctx, 2, rules.Black); err != nil || code != BackAccepted {
		t.Fatalf("back to move 2, Black to move = %v %v", code, err)
	}
	// Black (the engine) is to move again at move 2: it moves.
	now, _ := p.Position()
	afterFirst := start
	m1 := firstMove(afterFirst)
	afterFirst.Play(&m1)
	r1 := depth2(t, afterFirst)
	afterFirst.Play(&r1)
	m2 := firstMove(afterFirst)
	afterFirst.Play(&m2)
	if now.Hash() != afterFirst.Hash() {
		t.Fatalf("after the take-back the Player is at %s, want %s", now.FEN(), afterFirst.FEN())
	}
	r, err := p.Move(ctx, now, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := depth2(t, now); !r.SameAs(&want) {
		t.Errorf("after the take-back the engine played %s, want %s", hub.FormatMove(&r), hub.FormatMove(&want))
	}
	if code, err := p.TakeBack(ctx, 1, rules.White); err != nil || code != BackAccepted {
		t.Fatalf("back to the start = %v %v", code, err)
	}
	if now, _ := p.Position(); now.Hash() != start.Hash() {
		t.Errorf("back at move 1 the Player has %s", now.FEN())
	}
	m := firstMove(start)
	pos = start
	pos.Play(&m)
	if _, err := p.Move(ctx, pos, &m); err != nil {
		t.Fatalf("playing on after taking back everything: %v", err)
	}
	p.End(ctx, EndUnknown)
	if r := srv.record(t); len(r.Moves) != 2 {
		t.Errorf("the logged game has %d plies, want 2 (the rest was taken back)", len(r.Moves))
	}

	srv2 := startServer(t, ServerOptions{NoTakeBack: true})
	p2, _ := dial(t, srv2.addr)
	if err := p2.Start(ctx, Game{Engine: rules.White}); err != nil {
		t.Fatal(err)
	}
	if _, err := p2.Move(ctx, start, nil); err != nil {
		t.Fatal(err)
	}
	if code, err := p2.TakeBack(ctx, 1, rules.White); err != nil || code != BackNotSupported {
		t.Errorf("NoTakeBack: %v %v", code, err)
	}
	if _, err := p2.TakeBack(context.Background(), 0, rules.White); !errors.Is(err, ErrMalformed) {
		t.Errorf("BACKREQ to move 0 = %v", err)
	}
}

// TestServerMalformedAndIllegal: outside a game a malformed message gets a
// CHAT naming it; inside a game a malformed or illegal move ends the game
// with a CHAT and GAMEEND; the server serves the next connection.
func TestServerMalformedAndIllegal(t *testing.T) {
	srv := startServer(t, ServerOptions{})
	c := rawConn(t, srv.addr)
	sendRaw(t, c, "X123")
	if m, _ := recvKind(t, c, KindChat); !strings.Contains(m.(Chat).Text, "header") {
		t.Errorf("answer to X123: %v", m)
	}
	if n := srv.waitNotice(t, "malformed"); !strings.Contains(n, `"X123"`) {
		t.Errorf("notice %q does not quote the message", n)
	}

	send(t, c, GameReq{Version: 1, Name: "raw", Follower: rules.Black})
	recvKind(t, c, KindGameAcc)
	sendRaw(t, c, "M00x2322800")
	m, chats := recvKind(t, c, KindGameEnd)
	if len(chats) != 1 || !strings.Contains(chats[0], "MOVE") || !strings.Contains(chats[0], "time") || m.(GameEnd).Reason != EndUnknown {
		t.Errorf("malformed move: %v %q", m, chats)
	}
	send(t, c, GameEnd{}) // the acknowledgement
	if r := srv.record(t); r.Result != "*" || !strings.Contains(r.End, "malformed message at ply 1") {
		t.Errorf("record %v", r)
	}

	send(t, c, GameReq{Version: 1, Name: "raw", Follower: rules.Black})
	recvKind(t, c, KindGameAcc)
	send(t, c, Move{From: 32, To: 26})
	m, chats = recvKind(t, c, KindGameEnd)
	if len(chats) != 1 || !strings.Contains(chats[0], "illegal move 32-26 at ply 1") {
		t.Errorf("illegal move: %v %q", m, chats)
	}
	send(t, c, GameEnd{})
	if r := srv.record(t); !strings.Contains(r.End, "illegal move 32-26") {
		t.Errorf("record %v", r)
	}
	c.Close()

	// The next connection plays.
	p, _ := dial(t, srv.addr)
	if err := p.Start(context.Background(), Game{Engine: rules.White}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Move(context.Background(), rules.International.StartPosition(), nil); err != nil {
		t.Fatal(err)
	}
}

// TestPlayerChecksEngineMoves: an illegal or malformed move from the
// engine is an error, and the Player ends the game with a CHAT and
// GAMEEND; a BACKREQ from the engine is answered "not supported".
func TestPlayerChecksEngineMoves(t *testing.T) {
	for _, c := range []struct {
		name, raw string
		want      error
	}{
		{"illegal", "M0000322800", ErrIllegal}, // a white move for Black
		{"malformed", "M0000", ErrMalformed},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := make(chan []Message, 1)
			addr := fakeEngine(t, func(e *Conn) {
				frecv(t, e)
				fsend(t, e, GameAcc{Name: "cheat"})
				frecv(t, e) // our first move
				fsend(t, e, BackReq{MoveNumber: 1, Color: rules.White})
				fsendRaw(t, e, c.raw)
				var seen []Message
				for {
					m, err := e.Receive(context.Background())
					if err != nil {
						break
					}
					seen = append(seen, m)
					if _, ok := m.(GameEnd); ok {
						fsend(t, e, GameEnd{})
					}
				}
				got <- seen
			})
			p, _ := dial(t, addr)
			ctx := context.Background()
			if err := p.Start(ctx, Game{Engine: rules.Black}); err != nil {
				t.Fatal(err)
			}
			pos := rules.International.StartPosition()
			m := firstMove(pos)
			pos.Play(&m)
			_, err := p.Move(ctx, pos, &m)
			if !errors.Is(err, c.want) {
				t.Fatalf("Move = %v, want %v", err, c.want)
			}
			if p.InGame() {
				t.Error("the game is still on")
			}
			p.Close()
			seen := <-got
			var kinds []string
			for _, m := range seen {
				kinds = append(kinds, m.Kind().String())
			}
			if strings.Join(kinds, " ") != "BACKACC CHAT GAMEEND" || seen[0].(BackAcc).Code != BackNotSupported {
				t.Errorf("the engine saw %v", seen)
			}
		})
	}
}

// TestDroppedConnection: a client that vanishes mid-game leaves the server
// serving (the game is logged as dropped); a server that vanishes gives
// the Player ErrDisconnected, then and on every later call.
func TestDroppedConnection(t *testing.T) {
	srv := startServer(t, ServerOptions{})
	ctx := context.Background()
	p, _ := dial(t, srv.addr)
	if err := p.Start(ctx, Game{Engine: rules.White}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Move(ctx, rules.International.StartPosition(), nil); err != nil {
		t.Fatal(err)
	}
	p.Close()
	if r := srv.record(t); r.End != "connection dropped" || r.Result != "*" || len(r.Moves) != 1 {
		t.Errorf("record %v", r)
	}
	p2, _ := dial(t, srv.addr)
	if err := p2.Start(ctx, Game{Engine: rules.White}); err != nil {
		t.Fatalf("the server after a dropped connection: %v", err)
	}

	addr := fakeEngine(t, func(c *Conn) {
		frecv(t, c)
		fsend(t, c, GameAcc{Name: "fragile"})
		frecv(t, c) // our move; then the engine is gone
	})
	p3, _ := dial(t, addr)
	if err := p3.Start(ctx, Game{Engine: rules.Black}); err != nil {
		t.Fatal(err)
	}
	pos := rules.International.StartPosition()
	m := firstMove(pos)
	pos.Play(&m)
	_, err := p3.Move(ctx, pos, &m)
	if !errors.Is(err, ErrDisconnected) {
		t.Fatalf("Move when the engine is gone = %v", err)
	}
	if _, err := p3.Move(ctx, pos, nil); !errors.Is(err, ErrDisconnected) {
		t.Errorf("the next Move = %v", err)
	}
	if err := p3.Start(ctx, Game{}); !errors.Is(err, ErrDisconnected) {
		t.Errorf("Start after = %v", err)
	}
}

// TestCancelledMove: cancelling the context of Move returns at once with
// its error.
func TestCancelledMove(t *testing.T) {
	moved := make(chan struct{})
	addr := fakeEngine(t, func(c *Conn) {
		frecv(t, c)
		fsend(t, c, GameAcc{Name: "slow"})
		frecv(t, c) // our move, never answered
		close(moved)
		c.Receive(context.Background()) // until the Player closes
	})
	p, _ := dial(t, addr)
	if err := p.Start(context.Background(), Game{Engine: rules.Black}); err != nil {
		t.Fatal(err)
	}
	pos := rules.International.StartPosition()
	m := firstMove(pos)
	pos.Play(&m)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-moved // the Player now waits for the answer
		cancel()
	}()
	if _, err := p.Move(ctx, pos, &m); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Move = %v", err)
	}
	p.Close()
}

// TestFullGame: our Player with the built-in engine at depth 2 against our
// server at depth 2, to the end of the game; the logged game replays
// legally and equals the one the client saw, and its result fits its end.
func TestFullGame(t *testing.T) {
	srv := startServer(t, ServerOptions{})
	p, _ := dial(t, srv.addr)
	ctx := context.Background()
	ours := annotate.NewBuiltin(annotate.Limit{Depth: 2}, 1)
	for _, engine := range []rules.Color{rules.Black, rules.White} {
		if err := p.Start(ctx, Game{Engine: engine, Minutes: 10}); err != nil {
			t.Fatal(err)
		}
		g := newGame(rules.International.StartPosition())
		var last *rules.Move
		var how string
		for how == "" {
			if g.pos.SideToMove() == engine {
				m, err := p.Move(ctx, g.pos, last)
				var ge *GameEndError
				if errors.As(err, &ge) {
					how = fmt.Sprintf("engine ended: %s", ge.End.Reason)
					break
				}
				if err != nil {
					t.Fatalf("ply %d: %v", g.ply()+1, err)
				}
				g.play(m)
				last = nil
				continue
			}
			switch {
			case g.pos.IsLost():
				how = "we lost"
				p.End(ctx, EndLoss)
			case g.drawn() != "":
				how = "we claim " + g.drawn()
				p.End(ctx, EndDraw)
			default:
				e, err := ours.Evaluate(ctx, g.pos)
				if err != nil {
					t.Fatal(err)
				}
				m, err := hub.ParseMove(&g.pos, e.Best)
				if err != nil {
					t.Fatal(err)
				}
				g.play(m)
				last = &g.moves[len(g.moves)-1]
			}
		}
		r := srv.record(t)
		t.Logf("engine %s: %d plies, %s, %s; server: %s", engine, len(r.Moves), how, r.Result, r.End)
		if r.Color != engine || len(r.Moves) != g.ply() {
			t.Fatalf("record %v, the client played %d plies", r, g.ply())
		}
		replay := r.Start
		for i := range r.Moves {
			m, ok := sameLegal(&replay, &r.Moves[i])
			if !ok {
				t.Fatalf("ply %d %s is not legal in %s", i+1, hub.FormatMove(&r.Moves[i]), replay.FEN())
			}
			if !m.SameAs(&g.moves[i]) {
				t.Fatalf("ply %d: server logged %s, client played %s", i+1, hub.FormatMove(&m), hub.FormatMove(&g.moves[i]))
			}
			replay.Play(&m)
		}
		lost := replay.IsLost()
		switch r.Result {
		case "1-0", "0-1":
			winner := rules.White
			if r.Result == "0-1" {
				winner = rules.Black
			}
			if !lost || replay.SideToMove() == winner {
				t.Errorf("result %s, but the final position %s is not lost for the loser", r.Result, replay.FEN())
			}
		case "1/2-1/2":
			if lost || g.drawn() == "" {
				t.Errorf("a draw in %s, which no draw rule gives", replay.FEN())
			}
		default:
			t.Errorf("result %q", r.Result)
		}
	}
}

// TestMoveTime: Moby Dam's rule for a move's time from the GAMEREQ.
func TestMoveTime(t *testing.T) {
	for _, c := range []struct {
		req        GameReq
		n, made    int
		used, want time.Duration
	}{
		{GameReq{Minutes: 0}, 1, 0, 0, DefaultMoveTime},
		// 10 minutes, no move limit, move 1: 60+0-1 = 59 moves left.
		{GameReq{Minutes: 10}, 1, 0, 0, 10 * time.Minute / 61},
		// Move 50: 60+12-50 = 22 moves left; from move 70 on the estimate is 15.
		{GameReq{Minutes: 10}, 50, 49, 9 * time.Minute, time.Minute / 24},
		{GameReq{Minutes: 10}, 80, 79, 9 * time.Minute, time.Minute / 17},
		// 75 moves in 5 minutes, 35 made: 40 left, less a quarter: 30.
		{GameReq{Minutes: 5, Moves: 75}, 36, 35, 2 * time.Minute, 3 * time.Minute / 32},
		// Out of time: the floor.
		{GameReq{Minutes: 1, Moves: 10}, 9, 8, 2 * time.Minute, MinMoveTime},
	} {
		if got := moveTime(c.req, c.n, c.made, c.used); got != c.want {
			t.Errorf("moveTime(%+v, %d, %d, %v) = %v, want %v", c.req, c.n, c.made, c.used, got, c.want)
		}
	}
}

// TestServeStops: cancelling Serve's context ends it (nil) with a game in
// progress, which is logged as stopped; the Player sees the connection go.
// The server's engine plays Black, so it owes no move when it stops (as
// White, at depth 2, its first MOVE could be sent before the cancel and
// be read by the Move below: 35 failures in 200 runs).
func TestServeStops(t *testing.T) {
	srv := startServer(t, ServerOptions{})
	ctx := context.Background()
	p, _ := dial(t, srv.addr)
	if err := p.Start(ctx, Game{Engine: rules.Black}); err != nil {
		t.Fatal(err)
	}
	srv.cancel()
	if err := <-srv.done; err != nil {
		t.Fatalf("Serve = %v", err)
	}
	srv.done <- nil // for the cleanup
	if r := srv.record(t); r.End != "the server stopped" {
		t.Errorf("record %v", r)
	}
	pos := rules.International.StartPosition()
	ours := pos.LegalMoves(nil)[0]
	pos.Play(&ours)
	if _, err := p.Move(ctx, pos, &ours); !errors.Is(err, ErrDisconnected) {
		t.Errorf("Move after the server stopped = %v", err)
	}
}

// TestServerInitiates: with Initiate the server sends the GAMEREQ itself
// (colours alternating over Games games), plays, and ends with a GAMEEND
// of stop code 1.
func TestServerInitiates(t *testing.T) {
	srv := startServer(t, ServerOptions{Initiate: &Game{Engine: rules.Black, Minutes: 2}, Games: 2})
	c := rawConn(t, srv.addr)
	for game, follower := range []rules.Color{rules.Black, rules.White} {
		m := recv(t, c)
		req, ok := m.(GameReq)
		if !ok || req.Follower != follower || req.Minutes != 2 || req.Name != "test server" || req.Setup {
			t.Fatalf("game %d: %#v", game+1, m)
		}
		send(t, c, GameAcc{Name: "raw follower"})
		if follower == rules.Black { // the server, White, moves first
			mv := recv(t, c).(Move)
			start := rules.International.StartPosition()
			want := depth2(t, start)
			if mv.From != want.From() || mv.To != want.To() {
				t.Errorf("first move %v, want %s", mv, hub.FormatMove(&want))
			}
		}
		send(t, c, GameEnd{Reason: EndLoss})
		if e := recv(t, c).(GameEnd); e.Reason != EndUnknown || e.Stop {
			t.Errorf("acknowledgement %v", e)
		}
		r := srv.record(t)
		if !r.Initiator || r.Color != follower.Opponent() || r.Opponent != "raw follower" {
			t.Errorf("record %v", r)
		}
		if want := map[rules.Color]string{rules.White: "1-0", rules.Black: "0-1"}[r.Color]; r.Result != want {
			t.Errorf("we won as %s: result %s", r.Color, r.Result)
		}
	}
	if e, ok := recv(t, c).(GameEnd); !ok || !e.Stop {
		t.Errorf("after the last game: %v", e)
	}
	if _, err := c.Receive(context.Background()); !errors.Is(err, ErrDisconnected) {
		t.Errorf("the connection after the last game: %v", err)
	}
}

// TestPlayerTimeout: an engine that does not answer (Moby Dam ignores a
// GAMEREQ of 0 minutes) gives ErrTimeout naming what did not come, and the
// connection stays usable.
func TestPlayerTimeout(t *testing.T) {
	chat := make(chan string, 1)
	addr := fakeEngine(t, func(c *Conn) {
		frecv(t, c) // the GAMEREQ, never answered
		if m, ok := frecv(t, c).(Chat); ok {
			chat <- m.Text
		}
		close(chat)
	})
	p, err := Dial(context.Background(), addr, ClientOptions{Timeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	err = p.Start(context.Background(), Game{Engine: rules.Black})
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "no GAMEACC from \"127.0.0.1:") {
		t.Fatalf("Start = %v", err)
	}
	if err := p.Chat(context.Background(), "still here"); err != nil {
		t.Fatal(err)
	}
	if got := <-chat; got != "still here" {
		t.Errorf("the engine got %q after the timeout", got)
	}
}
