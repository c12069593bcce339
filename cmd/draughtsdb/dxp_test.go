package main

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
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

// dxpRun is a `draughtsdb dxp` running in the test.
type dxpRun struct {
	addr   string  // the address it serves on, from its first line
	stderr *dxpLog // its stderr
	done   chan error
	cancel context.CancelFunc
	ended  bool
	err    error
}

// stop cancels the command (what SIGINT does) and returns its error.
func (r *dxpRun) stop() error {
	r.cancel()
	if !r.ended {
		r.ended, r.err = true, <-r.done
	}
	return r.err
}

// waitLog waits until the command's stderr contains want; the command
// ending first fails the test (rather than waiting for ever).
func (r *dxpRun) waitLog(t *testing.T, want string) {
	t.Helper()
	for !strings.Contains(r.stderr.String(), want) {
		if r.ended {
			t.Fatalf("dxp ended (%v) before logging %q:\n%s", r.err, want, r.stderr.String())
		}
		select {
		case err := <-r.done:
			r.ended, r.err = true, err
		case <-r.stderr.wrote():
		}
	}
}

// startDXP runs `draughtsdb dxp args...` and returns once it serves. It
// listens where the environment says (DRAUGHTSDB_DXP_LISTEN, which
// startDXP sets to a free loopback port, 127.0.0.1:0, unless env says
// otherwise) or --listen in args says: never on a fixed port, which
// another program (a Moby Dam, another test run) may hold.
func startDXP(t *testing.T, env map[string]string, args ...string) *dxpRun {
	t.Helper()
	isolate(t)
	t.Setenv("DRAUGHTSDB_DXP_LISTEN", "127.0.0.1:0")
	for k, v := range env {
		t.Setenv(k, v)
	}
	cmd := newRootCommand()
	r := &dxpRun{stderr: newDXPLog(), done: make(chan error, 1)}
	cmd.SetOut(io.Discard)
	cmd.SetErr(r.stderr)
	cmd.SetArgs(append([]string{"dxp"}, args...))
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() { r.done <- cmd.ExecuteContext(ctx) }()
	t.Cleanup(func() { r.stop() })
	r.waitLog(t, "Ctrl-C stops it")
	m := regexp.MustCompile(`dxp on (127\.0\.0\.1:(\d+)):`).FindStringSubmatch(r.stderr.String())
	if m == nil || m[2] == "0" {
		t.Fatalf("no bound loopback address in the first line:\n%s", r.stderr.String())
	}
	r.addr = m[1]
	return r
}

// TestDXPCommand: `draughtsdb dxp --depth 2` plays our client over TCP,
// logs one line per game and stops cleanly when its context ends.
func TestDXPCommand(t *testing.T) {
	r := startDXP(t, nil, "--depth", "2", "--name", "cmd test")
	ctx := context.Background()
	p, err := dxp.Dial(ctx, r.addr, dxp.ClientOptions{Name: "tester"})
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
	r.waitLog(t, "game 1 with")
	if err := r.stop(); err != nil {
		t.Fatalf("dxp after SIGINT: %v", err)
	}
	out := r.stderr.String()
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
	r := startDXP(t, nil, "--initiate", "--color", "black", "--minutes", "3", "--moves", "50", "--games", "1", "--movetime", "10")
	nc, err := net.Dial("tcp", r.addr)
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
	r.waitLog(t, "game 1 with")
	if out := r.stderr.String(); !strings.Contains(out, `game 1 with "follower"`) || !strings.Contains(out, "we played Black, 0 plies, 0-1") {
		t.Errorf("stderr:\n%s", out)
	}
}

// TestDXPCommandFlags: bad flags are refused before anything is served.
// Each case runs with its context already cancelled and dxp.listen on a
// free port: a case that got past the checks would return at once (and
// fail) instead of serving for ever, and never touch DXP's port 27531.
func TestDXPCommandFlags(t *testing.T) {
	isolate(t)
	t.Setenv("DRAUGHTSDB_DXP_LISTEN", "127.0.0.1:0")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
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
		cmd := newRootCommand()
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		cmd.SetArgs(append([]string{"dxp"}, c.args...))
		err := cmd.ExecuteContext(ctx)
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

// TestDXPListenSetting: dxp.listen defaults to DXP's port on loopback,
// 127.0.0.1:27531, as `config` and `dxp --help` resolve it (checked there,
// not by binding it: another program may hold that port);
// DRAUGHTSDB_DXP_LISTEN overrides the default and --listen the
// environment, each seen by the command serving on a free port.
func TestDXPListenSetting(t *testing.T) {
	isolate(t)
	if got := configValue(t, "dxp.listen"); got != "127.0.0.1:27531" {
		t.Errorf("default dxp.listen %q, want 127.0.0.1:27531", got)
	}
	help, err := runCLI(t, "dxp", "--help")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`--listen string +.*\(default "127\.0\.0\.1:27531"\)`).MatchString(help) {
		t.Errorf("dxp --help does not give --listen's default 127.0.0.1:27531:\n%s", help)
	}
	t.Setenv("DRAUGHTSDB_DXP_LISTEN", "127.0.0.1:0")
	if got := configValue(t, "dxp.listen"); got != "127.0.0.1:0" {
		t.Errorf("dxp.listen from the environment %q, want 127.0.0.1:0", got)
	}
	if got := configValue(t, "dxp.listen", "--config", writeDXPConfig(t, "127.0.0.1:1")); got != "127.0.0.1:0" {
		t.Errorf("dxp.listen from the environment over a file: %q", got)
	}
	// The command serves where the environment says...
	r := startDXP(t, nil, "--depth", "1")
	if err := r.stop(); err != nil {
		t.Errorf("stop: %v", err)
	}
	// ... and where --listen says, over an environment it cannot use.
	r = startDXP(t, map[string]string{"DRAUGHTSDB_DXP_LISTEN": "nowhere"}, "--depth", "1", "--listen", "127.0.0.1:0")
	if err := r.stop(); err != nil {
		t.Errorf("stop: %v", err)
	}
	t.Setenv("DRAUGHTSDB_DXP_LISTEN", "nowhere")
	if _, err := runCLI(t, "dxp", "--depth", "1"); err == nil || !strings.Contains(err.Error(), `DRAUGHTSDB_DXP_LISTEN="nowhere" (setting dxp.listen)`) {
		t.Errorf("dxp.listen from the environment not used: %v", err)
	}
}

// writeDXPConfig writes a config file that sets dxp.listen.
func writeDXPConfig(t *testing.T, listen string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(f, []byte("dxp:\n  listen: "+listen+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}
