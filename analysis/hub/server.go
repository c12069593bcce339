package hub

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/draughtsdb/draughtsdb/analysis/endgame"
	"github.com/draughtsdb/draughtsdb/analysis/engine/evalid"
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
	// Book, if not nil, answers "go" in a position it has a move for
	// (allowed by the king-move limit) without a search: an opening book
	// (package engine/book).
	Book func(*rules.Position) (rules.Move, bool)
	// Endgame, if not nil, gives the endgame tables of a variant (nil for
	// none): the search then has the exact values of its positions of few
	// pieces (package endgame). It is asked before each search.
	Endgame func(*rules.Variant) *endgame.Tables
	// EndgamePieces is the tables' piece count, which the id line gives
	// (endgame=N) so that stored evaluations name them.
	EndgamePieces int
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
	s := &server{out: &writer{w: w}, ttMB: opts.TTSizeMB, book: opts.Book, endgame: opts.Endgame, egPieces: opts.EndgamePieces}
	if s.ttMB <= 0 {
		s.ttMB = search.DefaultTTSizeMB
	}
	name := opts.Variant
	if name == "" {
		name = rules.International.Name
	}
	v, err := VariantByName(name)
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
	out      *writer
	variant  *rules.Variant
	ttMB     int
	book     func(*rules.Position) (rules.Move, bool)
	endgame  func(*rules.Variant) *endgame.Tables
	egPieces int
	engine   *search.Engine

	pos      rules.Position
	history  []uint64
	kings    rules.KingMoveCounter // Frisian's king move limit over pos's moves=
	draw     rules.DrawCounter     // the king-move draw count over pos's moves=
	depth    int
	moveTime time.Duration
	infinite bool

	cancel context.CancelFunc
	done   chan struct{}
	// unbounded: the running search has no depth or move time and ends
	// only when stopped.
	unbounded bool
}

// MaxLineBytes is the longest input line Serve reads. A longer line is
// answered with an error line and skipped (its bytes are read and dropped,
// never held), so a runaway GUI cannot end the session or grow the
// engine's memory.
const MaxLineBytes = 1 << 20

// errLineTooLong marks an input line longer than MaxLineBytes.
var errLineTooLong = errors.New("line too long")

// lineReader reads newline-terminated lines of at most max bytes
// (without the terminator) from a bufio.Reader.
type lineReader struct {
	br  *bufio.Reader
	max int
	buf []byte
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64*1024), max: max}
}

// next returns the next line without its "\n" (or "\r\n") and its length
// in bytes. A line longer than max is read to its end but only its first
// headBytes are kept: it comes back as errLineTooLong with that start and
// its full length. Memory stays within the reader's buffer plus max bytes
// whatever the input. A last line without a newline counts as a line;
// io.EOF follows it.
func (lr *lineReader) next() (line []byte, size int64, err error) {
	lr.buf = lr.buf[:0]
	long := false
	add := func(frag []byte) {
		size += int64(len(frag))
		switch {
		case long:
		case len(lr.buf)+len(frag) > lr.max:
			long = true
			lr.buf = append(lr.buf, frag[:min(len(frag), max(0, headBytes-len(lr.buf)))]...)
			lr.buf = lr.buf[:min(len(lr.buf), headBytes)]
		default:
			lr.buf = append(lr.buf, frag...)
		}
	}
	for {
		frag, err := lr.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			add(frag)
			continue
		}
		if err != nil && (err != io.EOF || size == 0 && len(frag) == 0) {
			return nil, 0, err
		}
		add(bytes.TrimSuffix(frag, []byte("\n")))
		if long {
			return lr.buf, size, errLineTooLong
		}
		return bytes.TrimSuffix(lr.buf, []byte("\r")), size, nil
	}
}

// headBytes is how much of a too-long line its error message quotes.
const headBytes = 40

// headText returns the start of a line for a message: at most headBytes,
// cut on a rune boundary, control characters as '?', in single quotes
// (a Hub value cannot hold a double quote).
func headText(b []byte) string {
	cut := len(b) > headBytes
	if cut {
		i := headBytes
		for i > 0 && !utf8.RuneStart(b[i]) {
			i--
		}
		b = b[:i]
	}
	t := strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r == '"' {
			return '?'
		}
		return r
	}, string(b))
	if cut {
		t += "..."
	}
	return "'" + t + "'"
}

type readResult struct {
	line string
	// long is set for a line over MaxLineBytes: line holds its start and
	// size its length in bytes.
	long bool
	size int64
	eof  bool
	err  error
}

func (s *server) run(r io.Reader) error {
	lines := make(chan readResult)
	stopped := make(chan struct{})
	defer close(stopped)
	go func() {
		lr := newLineReader(r, MaxLineBytes)
		for {
			b, n, err := lr.next()
			var rr readResult
			switch {
			case err == errLineTooLong:
				rr = readResult{line: string(b), long: true, size: n}
			case err != nil:
				if err == io.EOF {
					err = nil
				}
				rr = readResult{eof: true, err: err}
			default:
				rr = readResult{line: string(b)}
			}
			select {
			case lines <- rr:
			case <-stopped:
				return
			}
			if rr.eof {
				return
			}
		}
	}()
	var queue []readResult
	// eof: the input has ended cleanly (a pipe or file fed to the engine).
	// What was read is answered as it would be on a terminal: a search
	// with a limit (depth, move time) runs to it and the lines after it
	// are handled in turn; a search without one, which only "stop" would
	// end, ends now with its best move. Then Serve returns.
	eof := false
	for {
		var rr readResult
		if len(queue) > 0 && s.done == nil {
			rr, queue = queue[0], queue[1:]
		} else if eof {
			if s.done == nil {
				return s.out.failed()
			}
			<-s.done
			s.done, s.cancel = nil, nil
			continue
		} else {
			select {
			case rr = <-lines:
				if rr.eof {
					if rr.err != nil {
						// The GUI is gone: stop as directly as possible.
						s.stopSearch()
						return rr.err
					}
					eof = true
					if s.done != nil && s.unbounded {
						s.cancel()
					}
					continue
				}
				if !rr.long {
					rr.line = strings.TrimSpace(rr.line)
					if rr.line == "" {
						continue
					}
				}
				if s.done == nil {
					break
				}
				// Searching: only stop, ping, ponder-hit and quit act now.
				cmd := ""
				if !rr.long {
					cmd = ParseLine(rr.line).Cmd
				}
				switch cmd {
				case "stop":
					s.cancel()
				case "ping":
					s.out.line("pong")
				case "ponder-hit":
				case "quit":
					s.stopSearch()
					return s.out.failed()
				default:
					queue = append(queue, rr)
				}
				continue
			case <-s.doneChan():
				s.done, s.cancel = nil, nil
				continue
			}
		}
		if rr.long {
			// Like any other bad line: say so and go on.
			s.out.line("error message=%s", quote(fmt.Sprintf("input line of %d bytes is longer than %d; ignored: %s",
				rr.size, MaxLineBytes, headText([]byte(rr.line)))))
		} else if quit := s.handle(ParseLine(rr.line)); quit {
			s.stopSearch()
			return s.out.failed()
		}
		if eof && s.done != nil && s.unbounded {
			s.cancel() // no "stop" can come after the end of input
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

func (s *server) variantValues() string { return strings.Join(allVariantNames(), " ") }

func (s *server) handle(l Line) (quit bool) {
	switch l.Cmd {
	case "hub":
		eg := ""
		if s.endgame != nil && s.egPieces > 0 {
			eg = fmt.Sprintf(" endgame=%d", s.egPieces)
		}
		s.out.line("id name=%s version=%s eval=%s%s author=%s", quote(search.Name), quote(search.Version), quote(evalid.Fingerprint()), eg, quote("draughtsdb authors"))
		s.out.line("param name=variant value=%s type=enum values=%s", s.variant.Name, quote(s.variantValues()))
		s.out.line("param name=tt-size value=%d type=int min=%d max=%d", s.ttMB, MinTTSizeMB, MaxTTSizeMB)
		s.out.line("wait")
	case "set-param":
		name, _ := l.Get("name")
		val, _ := l.Get("value")
		switch name {
		case "variant":
			v, err := VariantByName(val)
			if err != nil {
				s.out.line("error message=%s", quote(err.Error()))
				return false
			}
			if v != s.variant {
				s.variant = v
				s.pos = v.StartPosition()
				s.history, s.kings, s.draw = nil, rules.KingMoveCounter{}, rules.DrawCounter{}
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
		// A value it cannot read is an error, and the level stays as it
		// was: a "move-time=0,5" read as no limit searched until stopped.
		if err := s.setLevel(l); err != nil {
			s.out.line("error message=%s", quote(err.Error()))
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

// setLevel reads a level line: depth, move-time, or time (with moves and
// inc), or infinite. It changes nothing when a value is not understood.
func (s *server) setLevel(l Line) error {
	depth, moveTime, infinite := 0, time.Duration(0), false
	if v, ok := l.Get("depth"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > search.MaxDepth {
			return fmt.Errorf("level depth=%s: want a whole number of plies 1..%d", v, search.MaxDepth)
		}
		depth = n
	}
	if v, ok := l.Get("move-time"); ok {
		d, err := seconds("move-time", v)
		if err != nil {
			return err
		}
		if d <= 0 {
			return fmt.Errorf("level move-time=%s: want more than 0 seconds", v)
		}
		moveTime = d
	}
	if v, ok := l.Get("time"); ok {
		left, err := seconds("time", v)
		if err != nil {
			return err
		}
		moves := 30
		if m, ok := l.Get("moves"); ok {
			n, err := strconv.Atoi(m)
			if err != nil || n < 1 {
				return fmt.Errorf("level moves=%s: want a whole number of moves, 1 or more", m)
			}
			moves = n
		}
		inc := time.Duration(0)
		if i, ok := l.Get("inc"); ok {
			if inc, err = seconds("inc", i); err != nil {
				return err
			}
		}
		moveTime = left/time.Duration(moves) + inc
		if moveTime > left/2 {
			moveTime = left / 2
		}
		moveTime = max(moveTime, 10*time.Millisecond)
	}
	if _, ok := l.Get("infinite"); ok {
		infinite = true
	}
	s.depth, s.moveTime, s.infinite = depth, moveTime, infinite
	return nil
}

// seconds reads a Hub time: seconds, a decimal point for fractions.
func seconds(name, v string) (time.Duration, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || f > 1e6 {
		return 0, fmt.Errorf("level %s=%s: want seconds, e.g. 0.5", name, v)
	}
	return time.Duration(f * float64(time.Second)), nil
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
	var kings rules.KingMoveCounter
	var draw rules.DrawCounter
	if mv, ok := l.Get("moves"); ok {
		for _, t := range strings.Fields(mv) {
			m, err := ParseMove(&pos, t)
			if err != nil {
				s.out.line("error message=%s", quote(err.Error()))
				return
			}
			hist = append(hist, pos.Hash())
			kings.Update(&pos, &m)
			draw.Update(&pos, &m)
			pos.Play(&m)
		}
		// The search's repetition check compares its lines against the
		// history up to and including the root.
		if len(hist) > 0 {
			hist = append(hist, pos.Hash())
		}
	}
	s.pos, s.history, s.kings, s.draw = pos, hist, kings, draw
}

func (s *server) startSearch() {
	if s.book != nil {
		if m, ok := s.book(&s.pos); ok && s.kings.Allowed(&s.pos, &m) {
			s.out.line("done move=%s", FormatMove(&m)) // no search runs
			return
		}
	}
	s.ensureEngine()
	kings := s.kings
	opts := search.Options{Depth: s.depth, MoveTime: s.moveTime, History: s.history, KingMoves: &kings, KingPlies: s.draw.Plies}
	if s.endgame != nil {
		opts.Endgame = s.endgame(s.variant)
	}
	s.unbounded = s.infinite || s.depth == 0 && s.moveTime == 0
	if s.unbounded {
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
			// No legal move, or the variant's Win rule has decided the
			// game (breakthrough: a king is on the board).
			out.line("error message=%s", quote("the game is over: no move to search"))
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
