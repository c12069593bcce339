package main

import (
	"context"
	"errors"
	"io"
	"net"
	"regexp"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/dxp"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// dxpLog is the command's stderr, written by its goroutines while the test
// reads it; wrote wakes a reader after each write.
type dxpLog struct {
	lockedBuffer
	ch chan struct{}
}

func newDXPLog() *dxpLog { return &dxpLog{ch: make(chan struct{}, 1)} }

func (b *dxpLog) Write(p []byte) (int, error) {
	n, err := b.lockedBuffer.Write(p)
	select {
	case b.ch <- struct{}{}:
	default:
	}
	return n, err
}

func (b *dxpLog) wrote() <-chan struct{} { return b.ch }

// startDXP runs `draughtsdb dxp args...` on a free loopback port (given
// through the environment, as dxp.listen) and returns its address, its
// stderr and a stop function that cancels it (what SIGINT does) and
// returns its error.
func startDXP(t *testing.T, args ...string) (string, *dxpLog, func() error) {
	t.Helper()
	isolate(t)
	t.Setenv("DRAUGHTSDB_DXP_LISTEN", "127.0.0.1:0")
	cmd := newRootCommand()
	stderr := newDXPLog()
	cmd.SetOut(io.Discard)
	cmd.SetErr(stderr)
	cmd.SetArgs(append([]string{"dxp"}, args...))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	stopped := false
	stop := func() error {
		cancel()
		if stopped {
			return nil
		}
		stopped = true
		return <-done
	}
	t.Cleanup(func() { stop() })
	addrLine := regexp.MustCompile(`dxp on (127\.0\.0\.1:\d+):`)
	for {
		if m := addrLine.FindStringSubmatch(stderr.String()); m != nil {
			return m[1], stderr, stop
		}
		select {
		case err := <-done:
			stopped = true
			t.Fatalf("dxp ended: %v\n%s", err, stderr.String())
		case <-stderr.wrote():
		}
	}
}

// TestDXPCommand: `draughtsdb dxp --depth 2` plays our client over TCP,
// logs one line per game and stops cleanly when its context ends.
func TestDXPCommand(t *testing.T) {
	addr, stderr, stop := startDXP(t, "--depth", "2", "--name", "cmd test")
	ctx := context.Background()
	p, err := dxp.Dial(ctx, addr, dxp.ClientOptions{Name: "tester"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Start(ctx, dxp.Game{Engine: rules.White, Minutes: 1}); err != nil {
		t.Fatal(err)
	}
	if p.Opponent() != "cmd test" {
		t.Errorf("opponent %q", p.Opponent())
	}
	pos := rules.International.StartPosition()
	var last *rules.Move
	for range 4 {
		m, err := p.Move(ctx, pos, last)
		if err != nil {
			t.Fatal(err)
		}
		pos.Play(&m)
		ours := pos.LegalMoves(nil)[0]
		pos.Play(&ours)
		last = &ours
	}
	m, err := p.Move(ctx, pos, last)
	if err != nil {
		t.Fatal(err)
	}
	pos.Play(&m)
	if err := p.End(ctx, dxp.EndDraw); err != nil {
		t.Fatal(err)
	}
	for !strings.Contains(stderr.String(), "game 1 with") {
		<-stderr.wrote()
	}
	if err := stop(); err != nil {
		t.Fatalf("dxp after SIGINT: %v", err)
	}
	out := stderr.String()
	for _, want := range []string{
		`dxp on 127.0.0.1:`, "depth=2, following",
		`game 1 with "tester" (127.0.0.1:`, "we played White, 9 plies, 1/2-1/2", `"tester" sent GAMEEND: draw`,
		"dxp stopped",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stderr lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "game 1 with"); n != 1 {
		t.Errorf("%d lines for the game:\n%s", n, out)
	}
}

// TestDXPCommandInitiates: with --initiate the command sends the GAMEREQ
// on a connection it accepts (for programs that connect and wait).
func TestDXPCommandInitiates(t *testing.T) {
	addr, stderr, _ := startDXP(t, "--initiate", "--color", "black", "--minutes", "3", "--moves", "50", "--games", "1", "--movetime", "10")
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c := dxp.NewConn(nc)
	defer c.Close()
	ctx := context.Background()
	m, err := c.Receive(ctx)
	if err != nil {
		t.Fatal(err)
	}
	req, ok := m.(dxp.GameReq)
	if !ok || req.Follower != rules.White || req.Minutes != 3 || req.Moves != 50 || req.Setup {
		t.Fatalf("GAMEREQ %#v", m)
	}
	if err := c.Send(ctx, dxp.GameAcc{Name: "follower"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, dxp.GameEnd{Reason: dxp.EndLoss}); err != nil { // White gives up at once
		t.Fatal(err)
	}
	for _, want := range []dxp.GameEnd{{}, {Stop: true}} { // the acknowledgement, then "no more games"
		m, err := c.Receive(ctx)
		if e, ok := m.(dxp.GameEnd); err != nil || !ok || e != want {
			t.Fatalf("got %#v %v, want %#v", m, err, want)
		}
	}
	if _, err := c.Receive(ctx); !errors.Is(err, dxp.ErrDisconnected) {
		t.Errorf("after the last game: %v", err)
	}
	for !strings.Contains(stderr.String(), "game 1 with") {
		<-stderr.wrote()
	}
	if !strings.Contains(stderr.String(), `game 1 with "follower"`) || !strings.Contains(stderr.String(), "we played Black, 0 plies, 0-1") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}

func TestDXPCommandFlags(t *testing.T) {
	isolate(t)
	t.Setenv("DRAUGHTSDB_DXP_LISTEN", "127.0.0.1:0") // never DXP's own port, should a case serve
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--depth", "2", "--movetime", "100"}, "not both"},
		{[]string{"--depth", "0"}, "--depth/--movetime"},
		{[]string{"--engine", "uci:/bin/x"}, "--engine/--engine-arg"},
		{[]string{"--color", "black"}, "--color goes with --initiate"},
		{[]string{"--initiate", "--color", "red"}, "want white or black"},
		{[]string{"--initiate", "--minutes", "1000"}, "0..999"},
		{[]string{"--movetime", "-5"}, "--depth/--movetime"},
		{[]string{"--listen", "nowhere"}, "dxp.listen"},
	} {
		_, err := runCLI(t, append([]string{"dxp"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("dxp %s = %v, want %q", strings.Join(c.args, " "), err, c.want)
		}
	}
	help, err := runCLI(t, "dxp", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"--listen", "--engine", "--engine-arg", "--depth", "--movetime", "--initiate", "--color", "--minutes", "--moves", "--games", "--no-takeback", "--timeout", "--name", "--trace", "--tt-size"} {
		if !strings.Contains(help, flag) {
			t.Errorf("--help does not explain %s", flag)
		}
	}
}
