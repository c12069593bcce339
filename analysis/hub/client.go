package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Client errors. Analyze wraps them; test with errors.Is.
var (
	// ErrTimeout: the engine did not answer within the time allowed (the
	// handshake or one position). The engine has been killed and restarted.
	ErrTimeout = errors.New("hub: engine timed out")
	// ErrEngineExited: the engine process ended (crashed) during a request.
	// It has been restarted if possible.
	ErrEngineExited = errors.New("hub: engine exited")
	// ErrProtocol: the engine answered something unusable (for example an
	// illegal best move).
	ErrProtocol = errors.New("hub: protocol error")
	// ErrVariant: the engine declares the variants it plays (a "variant"
	// parameter) and the position's is not among them under any of its
	// names (VariantNames). Analysing it as another variant would store
	// evaluations of the wrong game.
	ErrVariant = errors.New("hub: the engine does not play this variant")
)

// Config describes how to run an external Hub engine.
type Config struct {
	// Path and Args start the engine (Scan needs Args = ["hub"]).
	Path string
	Args []string
	// Dir is the working directory (Scan looks for its data files there).
	Dir string
	// Env, if not nil, is the engine's environment.
	Env []string
	// Params are sent as set-param before init (for example the variant
	// name an engine expects: Scan calls International "normal").
	Params map[string]string
	// StartTimeout bounds the handshake (default 10 s).
	StartTimeout time.Duration
	// Timeout bounds one position beyond its move time: a depth search
	// gets Timeout, a move-time search MoveTime + Timeout (default 60 s).
	Timeout time.Duration
	// StopTimeout is how long a cancelled Analyze waits for the engine's
	// "done" after "stop" before treating it as hung (default 1 s).
	StopTimeout time.Duration
	// Stderr receives the engine's standard error (discarded if nil).
	Stderr io.Writer
	// Notice, if set, receives remarks on the engine's output: a line
	// longer than MaxLineBytes is skipped (read in pieces, never held)
	// and reported here, not taken for the engine's end. It is called in
	// the goroutine of the Start or Analyze that reads the line.
	Notice func(string)
}

// Analysis is an engine's verdict on one position.
type Analysis struct {
	// Score from the side to move's view in hundredths of a man (the
	// engine's "score" in men times 100).
	Score int
	// Mate: a draughtsdb forced win or loss (IsMateScore). Other engines
	// use other ranges (Scan: +-99.xx), left to the caller.
	Mate  bool
	Depth int
	// Best is the engine's move resolved against the legal moves;
	// BestText and Ponder are as the engine wrote them.
	Best     rules.Move
	BestText string
	Ponder   string
	// PV as the engine wrote it (Hub notation), from its last info line.
	PV    []string
	Nodes uint64
	// Time is the engine's reported time, or the wall time if it gave none.
	Time time.Duration
}

// Client talks to one engine process. It is safe for use by one goroutine
// at a time (calls are serialised by a mutex).
type Client struct {
	cfg Config
	mu  sync.Mutex

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan outLine // closed when the engine's stdout ends
	exited chan struct{}

	id       map[string]string
	params   map[string]Line // declared by the engine, by name
	variants []string        // values of the engine's "variant" parameter
	variant  string          // its current value
	restarts int
}

// Start runs the engine and performs the handshake (hub, set-param, init).
func Start(cfg Config) (*Client, error) {
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 10 * time.Second
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.StopTimeout <= 0 {
		cfg.StopTimeout = time.Second
	}
	c := &Client{cfg: cfg}
	if err := c.start(); err != nil {
		return nil, err
	}
	return c, nil
}

// ID returns the engine's id line arguments (name, version, ...).
func (c *Client) ID() map[string]string { return c.id }

// Restarts returns how many times the engine was restarted.
func (c *Client) Restarts() int { return c.restarts }

func (c *Client) start() error {
	cmd := exec.Command(c.cfg.Path, c.cfg.Args...)
	cmd.Dir = c.cfg.Dir
	cmd.Env = c.cfg.Env
	cmd.Stderr = c.cfg.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("hub: starting %s: %w", c.cfg.Path, err)
	}
	c.cmd, c.stdin = cmd, stdin
	lines := make(chan outLine, 64)
	exited := make(chan struct{})
	c.lines, c.exited = lines, exited
	go func() {
		// The server's reader: an over-long line is one outLine with
		// its start and size, and the reading goes on.
		lr := newLineReader(stdout, MaxLineBytes)
		for {
			b, n, err := lr.next()
			if err == errLineTooLong {
				lines <- outLine{text: string(b), long: true, size: n}
				continue
			}
			if err != nil {
				break
			}
			lines <- outLine{text: string(b)}
		}
		close(lines)
		cmd.Wait()
		close(exited)
	}()

	deadline := time.Now().Add(c.cfg.StartTimeout)
	c.id, c.params, c.variants, c.variant = map[string]string{}, map[string]Line{}, nil, ""
	if err := c.send("hub"); err != nil {
		c.kill()
		return err
	}
	for {
		l, err := c.read(context.Background(), deadline)
		if err != nil {
			c.kill()
			return fmt.Errorf("hub: handshake with %s: %w", c.cfg.Path, err)
		}
		switch l.Cmd {
		case "id":
			c.id = l.Args
		case "param":
			name := l.Args["name"]
			c.params[name] = l
			if name == "variant" {
				c.variants = strings.Fields(l.Args["values"])
				c.variant = l.Args["value"]
			}
		}
		if l.Cmd == "wait" {
			break
		}
	}
	for name, val := range c.cfg.Params {
		if err := c.send("set-param name=" + quote(name) + " value=" + quote(val)); err != nil {
			c.kill()
			return err
		}
		if name == "variant" {
			c.variant = val
		}
	}
	if err := c.send("init"); err != nil {
		c.kill()
		return err
	}
	if _, err := c.waitFor(context.Background(), "ready", deadline); err != nil {
		c.kill()
		return fmt.Errorf("hub: init of %s: %w", c.cfg.Path, err)
	}
	return nil
}

func (c *Client) send(s string) error {
	if _, err := io.WriteString(c.stdin, s+"\n"); err != nil {
		return fmt.Errorf("%w: writing %q: %v", ErrEngineExited, s, err)
	}
	return nil
}

// outLine is a line of the engine's output; long marks one over
// MaxLineBytes, of which text holds the start and size the length.
type outLine struct {
	text string
	long bool
	size int64
}

// read returns the next line, ErrEngineExited at the end of output,
// ErrTimeout at the deadline or ctx's error. Over-long lines are skipped
// with a notice.
func (c *Client) read(ctx context.Context, deadline time.Time) (Line, error) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				return Line{}, ErrEngineExited
			}
			if l.long {
				c.notice(fmt.Sprintf("hub: %s wrote a line of %d bytes, longer than %d; skipped: %s",
					c.cfg.Path, l.size, MaxLineBytes, headText([]byte(l.text))))
				continue
			}
			return ParseLine(l.text), nil
		case <-t.C:
			return Line{}, ErrTimeout
		case <-ctx.Done():
			return Line{}, ctx.Err()
		}
	}
}

func (c *Client) notice(s string) {
	if c.cfg.Notice != nil {
		c.cfg.Notice(s)
	}
}

func (c *Client) waitFor(ctx context.Context, cmd string, deadline time.Time) (Line, error) {
	for {
		l, err := c.read(ctx, deadline)
		if err != nil || l.Cmd == cmd {
			return l, err
		}
	}
}

// kill ends the engine process and waits (briefly) for its output to end.
func (c *Client) kill() {
	if c.cmd == nil {
		return
	}
	c.stdin.Close()
	c.cmd.Process.Kill()
	go func(lines chan outLine) {
		for range lines { // unblock the reader so that it reaps the process
		}
	}(c.lines)
	select {
	case <-c.exited:
	case <-time.After(5 * time.Second):
	}
	c.cmd = nil
}

func (c *Client) restart() error {
	c.kill()
	c.restarts++
	return c.start()
}

// Close asks the engine to quit and kills it if it does not within a
// second.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		return nil
	}
	c.send("quit")
	c.stdin.Close()
	select {
	case <-c.exited:
	case <-time.After(time.Second):
	}
	c.kill()
	return nil
}

// Analyze has the engine search pos to depth plies (if depth > 0) or for
// moveTime, and returns its last info and its move. On a timeout or a
// crash the engine is killed and restarted before Analyze returns the
// error (ErrTimeout, ErrEngineExited), so the next call finds a fresh
// engine; AnalyzeRetry retries once. If ctx is cancelled, the engine is
// sent "stop" (and restarted if it does not finish within
// Config.StopTimeout).
func (c *Client) Analyze(ctx context.Context, pos rules.Position, depth int, moveTime time.Duration) (Analysis, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		if err := c.restart(); err != nil {
			return Analysis{}, err
		}
	}
	a, err := c.analyze(ctx, pos, depth, moveTime)
	if err != nil && (errors.Is(err, ErrTimeout) || errors.Is(err, ErrEngineExited)) {
		if rerr := c.restart(); rerr != nil {
			err = fmt.Errorf("%w (restart failed: %v)", err, rerr)
		}
	}
	return a, err
}

func (c *Client) analyze(ctx context.Context, pos rules.Position, depth int, moveTime time.Duration) (Analysis, error) {
	// Drop anything left over from an earlier request.
	for drained := false; !drained; {
		select {
		case _, ok := <-c.lines:
			if !ok {
				return Analysis{}, ErrEngineExited
			}
		default:
			drained = true
		}
	}
	if len(c.variants) > 0 {
		name, err := engineVariantName(c.variants, pos.Variant())
		if err != nil {
			return Analysis{}, err
		}
		if c.variant != name {
			if err := c.send("set-param name=variant value=" + name); err != nil {
				return Analysis{}, err
			}
			c.variant = name
		}
	}
	level := "level depth=" + strconv.Itoa(depth)
	limit := c.cfg.Timeout
	if depth <= 0 {
		if moveTime <= 0 {
			return Analysis{}, errors.New("hub: Analyze needs a depth or a move time")
		}
		level = "level move-time=" + strconv.FormatFloat(moveTime.Seconds(), 'f', 3, 64)
		limit += moveTime
	}
	start := time.Now()
	for _, s := range []string{"pos pos=" + FormatPosition(&pos), level, "go analyze"} {
		if err := c.send(s); err != nil {
			return Analysis{}, err
		}
	}
	deadline := start.Add(limit)
	var a Analysis
	stopped := false
	for {
		l, err := c.read(ctx, deadline)
		if err == ctx.Err() && err != nil && !stopped {
			// Cancelled: ask for the move now, give it StopTimeout.
			c.send("stop")
			stopped = true
			deadline = time.Now().Add(c.cfg.StopTimeout)
			ctx = context.Background()
			continue
		}
		if err != nil {
			return a, err
		}
		switch l.Cmd {
		case "info":
			parseInfo(l, &a)
		case "done":
			if stopped {
				return a, context.Canceled
			}
			a.BestText = l.Args["move"]
			a.Ponder = l.Args["ponder"]
			if a.Time == 0 {
				a.Time = time.Since(start)
			}
			m, err := ParseMove(&pos, a.BestText)
			if err != nil {
				return a, fmt.Errorf("%w: best move: %v", ErrProtocol, err)
			}
			a.Best = m
			return a, nil
		case "error":
			// Reported but not fatal: the engine still owes a done.
		}
	}
}

func parseInfo(l Line, a *Analysis) {
	if v, ok := l.Args["depth"]; ok {
		if n, err := strconv.Atoi(v); err == nil {
			a.Depth = n
		}
	}
	if v, ok := l.Args["score"]; ok {
		if n, err := ParseScore(v); err == nil {
			a.Score = n
			a.Mate = IsMateScore(n)
		}
	}
	if v, ok := l.Args["nodes"]; ok {
		if n, err := strconv.ParseUint(v, 10, 64); err == nil {
			a.Nodes = n
		}
	}
	if v, ok := l.Args["time"]; ok {
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			a.Time = time.Duration(f * float64(time.Second))
		}
	}
	if v, ok := l.Args["pv"]; ok {
		a.PV = strings.Fields(v)
	}
}

// AnalyzeRetry is the retry policy for batch annotation: it calls Analyze
// and, if the engine timed out or crashed (it has then been restarted),
// tries the position once more. A second failure is returned as the
// position's failure (wrapping ErrTimeout or ErrEngineExited); the client
// is left with a fresh engine for the next position. Protocol errors and
// cancellation are not retried.
func AnalyzeRetry(ctx context.Context, c *Client, pos rules.Position, depth int, moveTime time.Duration) (Analysis, error) {
	a, err := c.Analyze(ctx, pos, depth, moveTime)
	if err == nil || !(errors.Is(err, ErrTimeout) || errors.Is(err, ErrEngineExited)) || ctx.Err() != nil {
		return a, err
	}
	a, err2 := c.Analyze(ctx, pos, depth, moveTime)
	if err2 != nil {
		return a, fmt.Errorf("hub: position failed twice: %w (first: %v)", err2, err)
	}
	return a, nil
}
