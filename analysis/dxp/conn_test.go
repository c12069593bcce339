package dxp

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
)

// tcpPair is a connected loopback pair: the client end as a Conn, the
// server end raw.
func tcpPair(t *testing.T) (*Conn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		nc, err := ln.Accept()
		if err != nil {
			accepted <- nil
			return
		}
		accepted <- nc
	}()
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	peer := <-accepted
	if peer == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { nc.Close(); peer.Close() })
	return NewConn(nc), peer
}

func TestConnFraming(t *testing.T) {
	c, peer := tcpPair(t)
	ctx := context.Background()
	// Two messages in one write, one message over two writes, an
	// over-long message (dropped, reported), a malformed one, then a good
	// one: each Receive gives the next.
	long := "C" + strings.Repeat("y", 300)
	go func() {
		peer.Write([]byte("E00\x00K0\x00M0012"))
		peer.Write([]byte("061100\x00" + long + "\x00M99\x00B005Z\x00"))
	}()
	want := []string{"E00", "K0", "M0012061100", "", "", "B005Z"}
	for i, w := range want {
		m, err := c.Receive(ctx)
		if w == "" {
			var me *MessageError
			if !errors.As(err, &me) {
				t.Fatalf("message %d: %v %v, want a *MessageError", i, m, err)
			}
			if i == 3 && (me.Field != "length" || me.Kind != KindChat || !strings.Contains(err.Error(), "301 bytes")) {
				t.Errorf("over-long message: %v", err)
			}
			if i == 4 && (me.Kind != KindMove || me.Field != "length") {
				t.Errorf("short MOVE: %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		b, _ := Marshal(m)
		if string(b) != w {
			t.Errorf("message %d = %q, want %q", i, b, w)
		}
	}

	// Send writes the message and its NUL.
	if err := c.Send(ctx, Chat{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := peer.Read(buf); err != nil || string(buf) != "Chi\x00" {
		t.Errorf("sent %q, %v", buf, err)
	}
	// A message that does not marshal is not sent.
	if err := c.Send(ctx, Move{}); !errors.Is(err, ErrMalformed) {
		t.Errorf("Send(bad move) = %v", err)
	}
}

// TestConnCancelKeepsPartialMessage: a Receive cancelled in the middle of
// a message gives ctx's error, and the next Receive completes the message.
func TestConnCancelKeepsPartialMessage(t *testing.T) {
	c, peer := tcpPair(t)
	reads := make(chan int, 10)
	c.nc = notifyConn{c.nc, reads}
	peer.Write([]byte("M00120"))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := c.Receive(ctx); done <- err }()
	if n := <-reads; n != 6 {
		t.Fatalf("read %d bytes", n)
	}
	cancel() // while Receive waits for the rest
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Receive = %v", err)
	}
	peer.Write([]byte("61100\x00"))
	m, err := c.Receive(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if mv, ok := m.(Move); !ok || mv.From != 6 || mv.To != 11 || mv.Seconds != 12 {
		t.Errorf("after the cancel: %#v", m)
	}
}

// notifyConn reports the size of every read that got bytes.
type notifyConn struct {
	net.Conn
	reads chan<- int
}

func (c notifyConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 {
		c.reads <- n
	}
	return n, err
}

func TestConnPeerClose(t *testing.T) {
	c, peer := tcpPair(t)
	peer.Close()
	if _, err := c.Receive(context.Background()); !errors.Is(err, ErrDisconnected) {
		t.Errorf("Receive after the peer closed = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Send(ctx, Chat{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Send with a cancelled context = %v", err)
	}
}
