package hub

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Options configure Serve. Both are also Hub parameters the GUI may change
// with set-param.
type Options struct {
	// Variant is the initial value of the "variant" parameter
	// (default "international").
	Variant string
	// TTSizeMB is the initial value of the "tt-size" parameter
	// (default search.DefaultTTSizeMB).
	TTSizeMB int
}

// Parameter limits of tt-size.
const (
	MinTTSizeMB = 1
	MaxTTSizeMB = 4096
)

// Serve runs the engine side of the Hub protocol: it reads commands from
// r and writes answers to w until "quit" or the end of r. It returns nil
// then, or a read/write error. See doc.go for the commands.
func Serve(r io.Reader, w io.Writer, opts Options) error {
	s := &server{out: &writer{w: w}, ttMB: opts.TTSizeMB}
	if s.ttMB <= 0 {
		s.ttMB = search.DefaultTTSizeMB
	}
	name := opts.Variant
	if name == "" {
		name = rules.International.Name
	}
	v, err := rules.VariantByName(name)
	if err != nil {
		return err
	}
	s.variant = v
	s.pos = v.StartPosition()
	return s.run(r)
}

type writer struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (o *writer) line(format string, a ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return
	}
	_, o.err = fmt.Fprintf(o.w, format+"\n", a...)
}

func (o *writer) failed() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

type server struct {
	out     *writer
	variant *rules.Variant
	ttMB    int
	engine  *search.Engine

	pos      rules.Position
	history  []uint64
	depth    int
	moveTime time.Duration
	infinite bool

	cancel context.CancelFunc
	done   chan struct{}
}

type readResult struct {
	line string
	eof  bool
	err  error
}

func (s *server) run(r io.Reader) error {
	lines := make(chan readResult)
	stopped := make(chan struct{})
	defer close(stopped)
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			select {
			case lines <- readResult{line: sc.Text()}:
			case <-stopped:
				return
			}
		}
		select {
		case lines <- readResult{eof: true, err: sc.Err()}:
		case <-stopped:
		}
	}()
	var queue []string
	for {
		var l string
		if len(queue) > 0 && s.done == nil {
			l, queue = queue[0], queue[1:]
		} else {
			select {
			case rr := <-lines:
				if rr.eof {
					// The GUI is gone: stop as directly as possible.
					s.stopSearch()
					if rr.err != nil {
						return rr.err
					}
					return s.out.failed()
				}
				l = strings.TrimSpace(rr.line)
				if l == "" {
					continue
				}
				if s.done == nil {
					break
				}
				// Searching: only stop, ping, ponder-hit and quit act now.
				switch ParseLine(l).Cmd {
				case "stop":
					s.cancel()
				case "ping":
					s.out.line("pong")
				case "ponder-hit":
				case "quit":
					s.stopSearch()
					return s.out.failed()
				default:
					queue = append(queue, l)
				}
				continue
			case <-s.doneChan():
				s.done, s.cancel = nil, nil
				continue
			}
		}
		if quit := s.handle(ParseLine(l)); quit {
			s.stopSearch()
			return s.out.failed()
		}
		if err := s.out.failed(); err != nil {
			s.stopSearch()
			return err
		}
	}
}

// doneChan returns the running search's done channel, or nil (blocks).
func (s *server) doneChan() chan struct{} { return s.done }

func (s *server) stopSearch() {
	if s.done != nil {
		s.cancel()
		<-s.done
		s.done, s.cancel = nil, nil
	}
}

func (s *server) variantValues() string {
	var names []string
	for _, v := range rules.Variants() {
		names = append(names, v.Name)
	}
	return strings.Join(names, " ")
}

func (s *server) handle(l Line) (quit bool) {
	switch l.Cmd {
	case "hub":
		s.out.line("id name=%s version=%s author=%s", quote(search.Name), quote(search.Version), quote("draughtsdb authors"))
		s.out.line("param name=variant value=%s type=enum values=%s", s.variant.Name, quote(s.variantValues()))
		s.out.line("param name=tt-size value=%d type=int min=%d max=%d", s.ttMB, MinTTSizeMB, MaxTTSizeMB)
		s.out.line("wait")
	case "set-param":
		name, _ := l.Get("name")
		val, _ := l.Get("value")
		switch name {
		case "variant":
			v, err := rules.VariantByName(val)
			if err != nil {
				s.out.line("error message=%s", quote(err.Error()))
				return false
			}
			if v != s.variant {
				s.variant = v
				s.pos = v.StartPosition()
				s.history = nil
			}
		case "tt-size":
			n, err := strconv.Atoi(val)
			if err != nil || n < MinTTSizeMB || n > MaxTTSizeMB {
				s.out.line("error message=%s", quote(fmt.Sprintf("tt-size %q: want %d..%d (MB)", val, MinTTSizeMB, MaxTTSizeMB)))
				return false
			}
			if n != s.ttMB {
				s.ttMB = n
				s.engine = nil
			}
		}
	case "init":
		s.ensureEngine()
		s.out.line("ready")
	case "new-game":
		// Every search starts with a cleared table; nothing to do.
	case "ping":
		s.out.line("pong")
	case "pos":
		s.setPosition(l)
	case "level":
		s.depth, s.moveTime, s.infinite = 0, 0, false
		if v, ok := l.Get("depth"); ok {
			s.depth, _ = strconv.Atoi(v)
		}
		if v, ok := l.Get("move-time"); ok {
			s.moveTime = seconds(v)
		}
		if v, ok := l.Get("time"); ok {
			left := seconds(v)
			moves := 30
			if m, ok := l.Get("moves"); ok {
				if n, err := strconv.Atoi(m); err == nil && n > 0 {
					moves = n
				}
			}
			inc := time.Duration(0)
			if i, ok := l.Get("inc"); ok {
				inc = seconds(i)
			}
			s.moveTime = left/time.Duration(moves) + inc
			if s.moveTime > left/2 {
				s.moveTime = left / 2
			}
			s.moveTime = max(s.moveTime, 10*time.Millisecond)
		}
		if _, ok := l.Get("infinite"); ok {
			s.infinite = true
		}
	case "go":
		s.startSearch()
	case "stop", "ponder-hit":
		// No search running.
	case "quit":
		return true
	}
	return false
}

func seconds(v string) time.Duration {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 {
		return 0
	}
	return time.Duration(f * float64(time.Second))
}

func (s *server) ensureEngine() {
	if s.engine == nil {
		s.engine = search.NewEngine(s.ttMB)
	}
}

func (s *server) setPosition(l Line) {
	str, _ := l.Get("pos")
	pos, err := ParsePosition(s.variant, str)
	if err != nil {
		s.out.line("error message=%s", quote(err.Error()))
		return
	}
	var hist []uint64
	if mv, ok := l.Get("moves"); ok {
		for _, t := range strings.Fields(mv) {
			m, err := ParseMove(&pos, t)
			if err != nil {
				s.out.line("error message=%s", quote(err.Error()))
				return
			}
			hist = append(hist, pos.Hash())
			pos.Play(&m)
		}
	}
	s.pos, s.history = pos, hist
}

func (s *server) startSearch() {
	s.ensureEngine()
	opts := search.Options{Depth: s.depth, MoveTime: s.moveTime, History: s.history}
	if s.infinite || s.depth == 0 && s.moveTime == 0 {
		opts.Depth, opts.MoveTime = search.MaxDepth, 0
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.done = make(chan struct{})
	pos, eng, out, done := s.pos, s.engine, s.out, s.done
	go func() {
		defer close(done)
		r := eng.Search(ctx, pos, opts, func(r search.Result) { out.line("%s", InfoLine(r)) })
		if len(r.PV) == 0 {
			out.line("error message=%s", quote("no legal move"))
			out.line("done")
			return
		}
		if len(r.PV) > 1 {
			out.line("done move=%s ponder=%s", FormatMove(&r.PV[0]), FormatMove(&r.PV[1]))
		} else {
			out.line("done move=%s", FormatMove(&r.Best))
		}
	}()
}

// InfoLine formats a search result as a Hub info line: depth, score (men,
// two decimals), nodes, time (seconds), nps (millions of nodes per second)
// and the PV in Hub notation.
func InfoLine(r search.Result) string {
	pv := make([]string, len(r.PV))
	for i := range r.PV {
		pv[i] = FormatMove(&r.PV[i])
	}
	secs := r.Time.Seconds()
	mnps := 0.0
	if secs > 0 {
		mnps = float64(r.Nodes) / secs / 1e6
	}
	return fmt.Sprintf("info depth=%d score=%s nodes=%d time=%.3f nps=%.2f pv=%s",
		r.Depth, FormatScore(r.Score), r.Nodes, secs, mnps, `"`+strings.Join(pv, " ")+`"`)
}
