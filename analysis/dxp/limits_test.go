package dxp

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// countedEngines opens built-in engines and counts the engines open.
type countedEngines struct {
	mu           sync.Mutex
	opened, open int
}

type countedEngine struct {
	engine.Engine
	c *countedEngines
}

func (e *countedEngine) Close() error {
	e.c.mu.Lock()
	e.c.open--
	e.c.mu.Unlock()
	return e.Engine.Close()
}

func (c *countedEngines) new() (engine.Engine, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.opened++
	c.open++
	return &countedEngine{Engine: engine.NewBuiltin(1), c: c}, nil
}

func (c *countedEngines) counts() (opened, open int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opened, c.open
}

// waitFor polls cond (the test's own timeout bounds it).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for i := 0; !cond(); i++ {
		if i == 20000 {
			t.Fatalf("still waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestServerConnectionLimit: beyond MaxConnections a connection is told
// so in a CHAT and closed; once a connection closes, its slot serves the
// next one.
func TestServerConnectionLimit(t *testing.T) {
	srv := startServer(t, ServerOptions{MaxConnections: 2})
	a, b := rawConn(t, srv.addr), rawConn(t, srv.addr)
	// Each of the two is served: a malformed message is answered.
	for _, c := range []*Conn{a, b} {
		sendRaw(t, c, "Q")
		if m, ok := recv(t, c).(Chat); !ok || !strings.Contains(m.Text, "header") {
			t.Fatalf("served connection: %#v", m)
		}
	}
	c := rawConn(t, srv.addr)
	m, ok := recv(t, c).(Chat)
	if !ok || !strings.Contains(m.Text, "busy: 2 connections") {
		t.Fatalf("third connection: %#v, want a CHAT saying busy", m)
	}
	if _, err := c.Receive(context.Background()); !errors.Is(err, ErrDisconnected) {
		t.Errorf("third connection after the CHAT: %v, want it closed", err)
	}
	srv.waitNotice(t, "refused: 2 connections are being served (dxp.max_connections)")
	a.Close()
	// The freed slot serves a new connection (it may take a moment for
	// the server to see a's end).
	waitFor(t, "a freed slot", func() bool {
		d := rawConn(t, srv.addr)
		defer d.Close()
		sendRaw(t, d, "Q")
		m, err := d.Receive(context.Background())
		ch, _ := m.(Chat)
		return err == nil && strings.Contains(ch.Text, "header")
	})
}

// TestServerReleasesEngines: a connection takes an engine when its game
// begins (not when it connects) and gives it back when it closes; one is
// kept for the next connection, the others are closed, so after any number
// of connections at most one engine is open.
func TestServerReleasesEngines(t *testing.T) {
	ce := &countedEngines{}
	// Room for every connection of the test at once: a closed one holds
	// its slot until its session has ended, a moment after its engine is
	// given back, and this test is about engines, not the limit.
	srv := startServerPool(t, ServerOptions{MaxConnections: 16}, engine.NewPool(nil, ce.new, 1))
	// Silent connections take no engine.
	var silent []*Conn
	for range 3 {
		silent = append(silent, rawConn(t, srv.addr))
	}
	for _, c := range silent {
		send(t, c, Chat{Text: "hello"})
	}
	srv.waitNotice(t, `chat from "": "hello"`)
	if opened, _ := ce.counts(); opened != 0 {
		t.Fatalf("3 silent connections opened %d engines", opened)
	}
	for _, c := range silent {
		c.Close()
	}
	// Rounds of 3 connections playing at once, each then closed.
	for round := range 3 {
		var players []*Player
		for range 3 {
			p, _ := dial(t, srv.addr)
			if err := p.Start(context.Background(), Game{Engine: rules.White, Minutes: 1}); err != nil {
				t.Fatal(err)
			}
			if _, err := p.Move(context.Background(), rules.International.StartPosition(), nil); err != nil {
				t.Fatal(err)
			}
			players = append(players, p)
		}
		if _, open := ce.counts(); open != 3 {
			t.Fatalf("round %d: %d engines open during 3 games", round, open)
		}
		for _, p := range players {
			p.Close()
		}
		waitFor(t, "the engines given back", func() bool { _, open := ce.counts(); return open == 1 })
	}
	if opened, open := ce.counts(); opened > 7 || open != 1 {
		t.Errorf("after 3 rounds: %d opened, %d open; want at most 7 and 1", opened, open)
	}
}

// TestServerCapsMinutes: a GAMEREQ asking for more than MaxMinutes is
// played as MaxMinutes, said in a CHAT before the GAMEACC.
func TestServerCapsMinutes(t *testing.T) {
	srv := startServer(t, ServerOptions{MaxMinutes: 5})
	c := rawConn(t, srv.addr)
	send(t, c, GameReq{Version: 1, Name: "greedy", Follower: rules.Black, Minutes: 999})
	m, chats := recvKind(t, c, KindGameAcc)
	if acc := m.(GameAcc); acc.Code != Accepted {
		t.Fatalf("GAMEACC %+v", acc)
	}
	if len(chats) != 1 || chats[0] != "thinking time capped: 999 minutes asked, 5 played" {
		t.Errorf("chats %q", chats)
	}
	srv.waitNotice(t, `GAMEREQ from "greedy" asks for 999 minutes: played as 5 (dxp.max_minutes)`)
}

// TestServerIdleTimeout: a connection silent outside a game (a new one
// too) is closed after IdleTimeout.
func TestServerIdleTimeout(t *testing.T) {
	srv := startServer(t, ServerOptions{IdleTimeout: 50 * time.Millisecond})
	c := rawConn(t, srv.addr)
	if m, err := c.Receive(context.Background()); !errors.Is(err, ErrDisconnected) {
		t.Fatalf("silent connection: %#v %v, want it closed", m, err)
	}
	srv.waitNotice(t, "no message for 50ms (between games): closing the connection")
}

// TestMessagesEscapeBytes: what a peer sent is quoted with every byte
// outside printable ASCII escaped, in errors, in the CHAT that answers a
// malformed message and in notices.
func TestMessagesEscapeBytes(t *testing.T) {
	ascii := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if s[i] < 0x20 || s[i] >= 0x7f {
				return false
			}
		}
		return true
	}
	for _, raw := range []string{"\xfc", "Mü0010611", "E\xff0", "R0\xc3\xbc", "B0\x01\x02W", "Cok"[:1] + "\x00x", "K\xe2\x80\xa6"} {
		_, err := Parse([]byte(raw))
		if err == nil {
			continue
		}
		if !ascii(err.Error()) {
			t.Errorf("%q: %q has bytes outside printable ASCII", raw, err.Error())
		}
	}
	if _, err := Parse([]byte("M\xfc\xfc\xfc\xfc061100")); err == nil || !strings.Contains(err.Error(), `"\xfc\xfc\xfc\xfc" is not four digits`) {
		t.Errorf("time field: %v", err)
	}
	srv := startServer(t, ServerOptions{})
	c := rawConn(t, srv.addr)
	sendRaw(t, c, "\xfcber")
	m, ok := recv(t, c).(Chat)
	if !ok || !ascii(m.Text) || !strings.Contains(m.Text, `'\xfc'`) {
		t.Errorf("CHAT answering a malformed message: %#v", m)
	}
	send(t, c, Chat{Text: "grüße"})
	if n := srv.waitNotice(t, "chat from"); !ascii(n) || !strings.Contains(n, `"gr\xc3\xbc\xc3\x9fe"`) {
		t.Errorf("notice %q", n)
	}
}
