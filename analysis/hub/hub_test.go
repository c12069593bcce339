package hub

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/draughtsdb/draughtsdb/analysis/engine/evalid"
	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// The test binary doubles as the engines of the client tests: with
// DRAUGHTSDB_HUB_TEST_ENGINE set it runs one of them on stdin/stdout
// instead of the tests.
const engineEnv = "DRAUGHTSDB_HUB_TEST_ENGINE"

func TestMain(m *testing.M) {
	switch os.Getenv(engineEnv) {
	case "":
		os.Exit(m.Run())
	case "serve":
		if err := Serve(os.Stdin, os.Stdout, Options{TTSizeMB: 4}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	case "hang": // a fake engine that never answers "go"
		fakeEngine(func() { time.Sleep(time.Hour) })
	case "crash": // one that exits in the middle of a search
		fakeEngine(func() { os.Stdout.WriteString("info depth=1 score=0.10\n"); os.Exit(3) })
	case "long-lines": // serves, with a line over MaxLineBytes before "wait" and every "done"
		if err := Serve(os.Stdin, &longLineWriter{w: os.Stdout}, Options{TTSizeMB: 4}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	case "scan-names": // serves, declaring Scan's variant names as Scan 3.1 does
		if err := Serve(os.Stdin, &scanParamWriter{w: os.Stdout}, Options{TTSizeMB: 4}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	case "crash-once": // crashes the first time only (a marker file remembers)
		marker := os.Getenv("DRAUGHTSDB_HUB_TEST_MARKER")
		if _, err := os.Stat(marker); err != nil {
			os.WriteFile(marker, nil, 0o644)
			fakeEngine(func() { os.Exit(3) })
		}
		if err := Serve(os.Stdin, os.Stdout, Options{TTSizeMB: 4}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(2)
}

// fakeEngine handshakes like a Hub engine and calls onGo at "go".
func fakeEngine(onGo func()) {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		switch ParseLine(sc.Text()).Cmd {
		case "hub":
			os.Stdout.WriteString("id name=fake version=0\nwait\n")
		case "init":
			os.Stdout.WriteString("ready\n")
		case "go":
			onGo()
		case "quit":
			os.Exit(0)
		}
	}
	os.Exit(0)
}

func engineConfig(t *testing.T, mode string, extraEnv ...string) Config {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), engineEnv+"="+mode)
	// The timeouts are hang detectors only, far above any run on a loaded
	// machine: no test here depends on how fast the engine is.
	return Config{Path: exe, Env: append(env, extraEnv...), StartTimeout: 5 * time.Minute, Timeout: 5 * time.Minute, StopTimeout: 5 * time.Minute}
}

var testPositions = []struct {
	variant *rules.Variant
	fen     string
}{
	{rules.International, ""},
	{rules.International, "W:W25,27,28,30,32,33,34,35,37,38,39,40,41,42,43,44,45,47:B3,6,7,8,9,11,12,13,14,16,17,18,19,20,22,23,24,26"},
	{rules.International, "W:W23,28,33,38,43,45,48:B2,9,11,13,15,34,35"}, // a shot: 23-18
	{rules.Russian, ""},
	{rules.Russian, "W:W18,19,22,25,28:B3,6,9,11,12"},
	{rules.Brazilian, ""},
	{rules.English, ""},
	{rules.Canadian, ""},
	{rules.International, "B:W28,K46:B19,23,K5"}, // Black to move, kings, a capture
}

func testPosition(t *testing.T, i int) rules.Position {
	tp := testPositions[i]
	if tp.fen == "" {
		return tp.variant.StartPosition()
	}
	pos, err := rules.ParseFEN(tp.variant, tp.fen)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

func TestNotation(t *testing.T) {
	pos, _ := rules.ParseFEN(rules.International, "W:W28,K46:B19,23,K5,K33")
	legal := pos.LegalMoves(nil)
	for i := range legal {
		txt := FormatMove(&legal[i])
		m, err := ParseMove(&pos, txt)
		if err != nil || !m.SameAs(&legal[i]) {
			t.Errorf("%s does not round-trip: %v", txt, err)
		}
	}
	// Captured squares in any order.
	p, _ := rules.ParseFEN(rules.International, "W:W32:B27,17")
	a, err1 := ParseMove(&p, "32x12x27x17")
	b, err2 := ParseMove(&p, "32x12x17x27")
	c, err3 := ParseMove(&p, "32x12")
	if err1 != nil || err2 != nil || err3 != nil || !a.SameAs(&b) || !a.SameAs(&c) {
		t.Errorf("capture in any order: %v %v %v", err1, err2, err3)
	}
	if _, err := ParseMove(&p, "32x12x27"); err == nil {
		t.Error("a wrong captured set was accepted")
	}
	if _, err := ParseMove(&p, "32-28"); err == nil {
		t.Error("an illegal move was accepted")
	}
	start := rules.International.StartPosition()
	s := FormatPosition(&start)
	if s != "W"+strings.Repeat("b", 20)+strings.Repeat("e", 10)+strings.Repeat("w", 20) {
		t.Errorf("start position string %s", s)
	}
	back, err := ParsePosition(rules.International, s)
	if err != nil || back.Hash() != start.Hash() {
		t.Errorf("position round trip: %v", err)
	}
	if _, err := ParsePosition(rules.Russian, s); err == nil {
		t.Error("a 10x10 string was accepted for Russian")
	}
	for _, sc := range []int{0, 25, -104, 29993, -29998, 5, -5} {
		if got, err := ParseScore(FormatScore(sc)); err != nil || got != sc {
			t.Errorf("score %d -> %s -> %d", sc, FormatScore(sc), got)
		}
	}
	l := ParseLine(`info depth=3 score=-0.12 pv="32-28 19-23" flag name=""`)
	if l.Cmd != "info" || l.Args["pv"] != "32-28 19-23" || l.Args["score"] != "-0.12" || l.Args["name"] != "" {
		t.Errorf("ParseLine: %+v", l)
	}
	if _, ok := l.Get("flag"); !ok {
		t.Error("flag argument lost")
	}
}

// session drives Serve over io.Pipe.
type session struct {
	t   *testing.T
	in  *io.PipeWriter
	out *bufio.Scanner
	err chan error
}

func newSession(t *testing.T, opts Options) *session {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, out: bufio.NewScanner(outR), err: make(chan error, 1)}
	go func() {
		err := Serve(inR, outW, opts)
		// Serve has stopped reading: a later send fails instead of
		// blocking, and reading the output ends.
		inR.CloseWithError(fmt.Errorf("Serve returned: %v", err))
		outW.Close()
		s.err <- err
	}()
	return s
}

func (s *session) send(lines ...string) {
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\n"); err != nil {
			s.t.Fatal(err)
		}
	}
}

// until reads lines up to one starting with cmd and returns them all.
func (s *session) until(cmd string) []string {
	var got []string
	for s.out.Scan() {
		got = append(got, s.out.Text())
		if ParseLine(s.out.Text()).Cmd == cmd {
			return got
		}
	}
	s.t.Fatalf("output ended before %q; got %q", cmd, got)
	return nil
}

func TestServeInProcess(t *testing.T) {
	s := newSession(t, Options{TTSizeMB: 4})
	s.send("hub")
	hello := s.until("wait")
	// Every variant by its name, then Scan's names for International,
	// antidraughts and breakthrough.
	var names, scan []string
	for _, v := range rules.Variants() {
		names = append(names, v.Name)
		if n, ok := map[string]string{"international": "normal", "antidraughts": "losing", "breakthrough": "bt"}[v.Name]; ok {
			scan = append(scan, n)
		}
	}
	names = append(names, scan...)
	if !strings.HasPrefix(hello[0], "id name=draughtsdb version=") ||
		!strings.Contains(strings.Join(hello, "\n"), `param name=variant value=international type=enum values="`+strings.Join(names, " ")+`"`) ||
		!strings.Contains(strings.Join(hello, "\n"), `values="russian international brazilian canadian english`) {
		t.Errorf("handshake: %q", hello)
	}
	s.send("set-param name=tt-size value=4", "init")
	s.until("ready")
	s.send("ping")
	s.until("pong")

	for i := range testPositions {
		pos := testPosition(t, i)
		want := search.Search(pos, search.Options{Depth: 5, TTSizeMB: 4}, nil)
		s.send("set-param name=variant value="+pos.Variant().Name, "new-game",
			"pos pos="+FormatPosition(&pos), "level depth=5", "go think")
		out := s.until("done")
		var last Line
		infos := 0
		for _, l := range out {
			if pl := ParseLine(l); pl.Cmd == "info" {
				last = pl
				infos++
			}
		}
		done := ParseLine(out[len(out)-1])
		m, err := ParseMove(&pos, done.Args["move"])
		if err != nil || !m.SameAs(&want.Best) {
			t.Errorf("%s: done %q, want %s (%v)", pos.FEN(), out[len(out)-1], FormatMove(&want.Best), err)
		}
		if sc, _ := ParseScore(last.Args["score"]); sc != want.Score || last.Args["depth"] != strconv.Itoa(want.Depth) || infos != want.Depth {
			t.Errorf("%s: last info %q, want score %d depth %d after as many infos", pos.FEN(), out[len(out)-2], want.Score, want.Depth)
		}
		if len(want.PV) > 1 && done.Args["ponder"] != FormatMove(&want.PV[1]) {
			t.Errorf("ponder %q, want %s", done.Args["ponder"], FormatMove(&want.PV[1]))
		}
	}

	// moves= plays moves (a capture given with its captured square) first.
	s.send("set-param name=variant value=international",
		"pos pos="+FormatPosition(ptr(rules.International.StartPosition()))+` moves="32-28 19-23 28x19x23"`,
		"level depth=2", "go analyze")
	out := s.until("done")
	if d := ParseLine(out[len(out)-1]); d.Args["move"] == "" || !strings.HasPrefix(d.Args["move"], "14x23") && !strings.HasPrefix(d.Args["move"], "13x24") {
		t.Errorf("after 32-28 19-23 28x19: %q (Black must recapture)", out)
	}

	// An infinite search ends on stop, answering ping meanwhile.
	s.send("level infinite", "go analyze")
	time.Sleep(30 * time.Millisecond)
	s.send("ping")
	s.until("pong")
	s.send("stop")
	s.until("done")

	// A move-time search ends by itself with a move (the first iteration
	// always completes; see package search for the time control).
	s.send("level move-time=0.1", "go think")
	if out := s.until("done"); ParseLine(out[len(out)-1]).Args["move"] == "" {
		t.Errorf("move-time 0.1: %q", out)
	}

	// A level value it cannot read is an error, and the level before it
	// stays: "move-time=0,5" (a decimal comma) searched without limit.
	for _, bad := range []string{"move-time=0,5", "move-time=fast", "move-time=0", "depth=abc", "depth=-3", "time=60 moves=x", "time=-1"} {
		s.send("level " + bad)
		if l := s.until("error"); !strings.Contains(l[len(l)-1], strings.Fields(bad)[len(strings.Fields(bad))-1]) {
			t.Errorf("level %s: %q", bad, l)
		}
	}
	s.send("level depth=2", "level depth=x", "go think")
	out = s.until("done")
	if ParseLine(out[len(out)-1]).Args["move"] == "" || len(out) < 2 || ParseLine(out[len(out)-2]).Args["depth"] != "2" {
		t.Errorf("depth 2 kept after a bad level: %q", out)
	}

	// A man on its own promotion row is not a position (as in a FEN).
	s.send("set-param name=variant value=international", "pos pos=Ww"+strings.Repeat("e", 48)+"b")
	if l := s.until("error"); !strings.Contains(l[len(l)-1], "White man on square 1") {
		t.Errorf("white man on 1: %q", l)
	}

	s.send("set-param name=variant value=shogi")
	if l := s.until("error"); !strings.Contains(l[len(l)-1], "shogi") {
		t.Errorf("bad variant: %q", l)
	}
	s.send("quit")
	if err := <-s.err; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func ptr(p rules.Position) *rules.Position { return &p }

// TestServeEOF: the end of input while searching ends Serve promptly.
func TestServeEOF(t *testing.T) {
	s := newSession(t, Options{})
	go func() {
		for s.out.Scan() {
		}
	}()
	s.send("hub", "init", "level infinite", "go think")
	time.Sleep(20 * time.Millisecond)
	s.in.Close()
	// An infinite search: Serve returns only because the input ended (a
	// hang is caught by go test's own timeout).
	if err := <-s.err; err != nil {
		t.Error(err)
	}
}

// TestServePipedInput: input that ends right after its commands (a pipe
// or a file) is answered as on a terminal: every "go" gets its "done",
// each search with a limit runs to it (the depth searched is the level's),
// and one without a limit ends with a move.
func TestServePipedInput(t *testing.T) {
	in := strings.Join([]string{"hub", "init", "set-param name=variant value=international",
		"level depth=5", "go think", "go think", "level depth=3", "go think", "level infinite", "go think"}, "\n") + "\n"
	var out strings.Builder
	if err := Serve(strings.NewReader(in), &out, Options{TTSizeMB: 4}); err != nil {
		t.Fatal(err)
	}
	var dones, lastDepth []string
	depth := ""
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		p := ParseLine(l)
		switch p.Cmd {
		case "info":
			depth = p.Args["depth"]
		case "done":
			dones = append(dones, p.Args["move"])
			lastDepth = append(lastDepth, depth)
			depth = ""
		}
	}
	if len(dones) != 4 {
		t.Fatalf("%d answers to 4 go commands:\n%s", len(dones), out.String())
	}
	for i, m := range dones {
		if m == "" {
			t.Errorf("answer %d has no move", i+1)
		}
	}
	if want := []string{"5", "5", "3"}; !reflect.DeepEqual(lastDepth[:3], want) {
		t.Errorf("depths searched %v, want %v", lastDepth[:3], want)
	}
}

// TestClientMatchesSearch: the test binary as a real engine process; the
// client's verdicts equal analysis/search's at the same depth.
func TestClientMatchesSearch(t *testing.T) {
	c, err := Start(engineConfig(t, "serve"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.ID()["name"] != search.Name || c.ID()["version"] != search.Version || c.ID()["eval"] != evalid.Fingerprint() {
		t.Errorf("id %v", c.ID())
	}
	ctx := context.Background()
	for i := range testPositions {
		pos := testPosition(t, i)
		want := search.Search(pos, search.Options{Depth: 6, TTSizeMB: 4}, nil)
		a, err := c.Analyze(ctx, pos, 6, 0)
		if err != nil {
			t.Fatalf("%s: %v", pos.FEN(), err)
		}
		if a.Score != want.Score || !a.Best.SameAs(&want.Best) || a.Depth != want.Depth || a.Nodes != want.Nodes || a.Mate != want.Mate {
			t.Errorf("%s: client %d %s depth %d nodes %d, search %d %s nodes %d", pos.FEN(),
				a.Score, a.BestText, a.Depth, a.Nodes, want.Score, FormatMove(&want.Best), want.Nodes)
		}
		if len(a.PV) != len(want.PV) {
			t.Errorf("%s: PV %v, want %d moves", pos.FEN(), a.PV, len(want.PV))
		}
		for j := range want.PV {
			if j < len(a.PV) && a.PV[j] != FormatMove(&want.PV[j]) {
				t.Errorf("%s: PV[%d] %s, want %s", pos.FEN(), j, a.PV[j], FormatMove(&want.PV[j]))
			}
		}
	}
	// A forced win comes back as a mate score.
	pos, _ := rules.ParseFEN(rules.Russian, "W:W16,18,22,23:B7,12")
	a, err := c.Analyze(ctx, pos, 5, 0)
	if err != nil || !a.Mate || a.Score != search.Win-5 || a.BestText != "23-19" {
		t.Errorf("forced win: %+v %v", a, err)
	}
	// Move time.
	a, err = c.Analyze(ctx, rules.International.StartPosition(), 0, 100*time.Millisecond)
	if err != nil || a.Depth < 1 || a.BestText == "" {
		t.Errorf("move time: %+v %v", a, err)
	}
	if c.Restarts() != 0 {
		t.Errorf("%d restarts", c.Restarts())
	}
}

func TestClientHangingEngine(t *testing.T) {
	cfg := engineConfig(t, "hang")
	cfg.Timeout = 300 * time.Millisecond
	c, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// The engine never answers "go": every attempt times out, whatever
	// the machine's load.
	_, err = AnalyzeRetry(context.Background(), c, rules.International.StartPosition(), 4, 0)
	if !errors.Is(err, ErrTimeout) {
		t.Errorf("want ErrTimeout, got %v", err)
	}
	if c.Restarts() != 2 {
		t.Errorf("%d restarts, want 2 (one per attempt)", c.Restarts())
	}
}

func TestClientCrashingEngine(t *testing.T) {
	c, err := Start(engineConfig(t, "crash"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = AnalyzeRetry(context.Background(), c, rules.Russian.StartPosition(), 4, 0)
	if !errors.Is(err, ErrEngineExited) {
		t.Errorf("want ErrEngineExited, got %v", err)
	}
	if c.Restarts() != 2 {
		t.Errorf("%d restarts, want 2", c.Restarts())
	}
}

func TestClientRetrySucceeds(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "crashed")
	c, err := Start(engineConfig(t, "crash-once", "DRAUGHTSDB_HUB_TEST_MARKER="+marker))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pos := rules.Russian.StartPosition()
	a, err := AnalyzeRetry(context.Background(), c, pos, 4, 0)
	want := search.Search(pos, search.Options{Depth: 4}, nil)
	if err != nil || a.Score != want.Score || !a.Best.SameAs(&want.Best) || c.Restarts() != 1 {
		t.Errorf("retry: %+v %v, %d restarts", a, err, c.Restarts())
	}
}

func TestClientCancel(t *testing.T) {
	c, err := Start(engineConfig(t, "serve"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// A search to MaxDepth never ends by itself: only the cancellation
	// (stop, then the engine's done) ends it.
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	_, err = c.Analyze(ctx, rules.International.StartPosition(), search.MaxDepth, 0)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: %v", err)
	}
	if c.Restarts() != 0 {
		t.Errorf("the engine answered stop, yet was restarted %d times", c.Restarts())
	}
	// The engine is still usable.
	if _, err := c.Analyze(context.Background(), rules.Russian.StartPosition(), 3, 0); err != nil {
		t.Error(err)
	}
}

// TestServeLongLines: a line over MaxLineBytes is answered with an error
// line and skipped; the session goes on (it used to end Serve with
// "bufio.Scanner: token too long"). During a search it waits in the queue
// like any other command.
func TestServeLongLines(t *testing.T) {
	s := newSession(t, Options{TTSizeMB: 4})
	s.send("hub")
	s.until("wait")
	s.send("init")
	s.until("ready")

	errorsBefore := func(cmd string) []string {
		t.Helper()
		var errs []string
		for _, l := range s.until(cmd) {
			if ParseLine(l).Cmd == "error" {
				errs = append(errs, l)
			}
		}
		return errs
	}
	// Two-byte runes, so that the quoted start is cut on a rune boundary.
	long := "pos pos=" + strings.Repeat("é", MaxLineBytes)
	s.send(long, "ping")
	errs := errorsBefore("pong")
	if len(errs) != 1 {
		t.Fatalf("a %d-byte line: %d error lines before pong, want 1: %q", len(long), len(errs), errs)
	}
	msg := ParseLine(errs[0]).Args["message"]
	if !strings.Contains(msg, strconv.Itoa(len(long))) || !strings.Contains(msg, "'pos pos=éééé") || !utf8.ValidString(msg) || len(msg) > 200 {
		t.Errorf("error for the long line: %q", errs[0])
	}

	// Exactly MaxLineBytes is still a line (an unknown command, ignored);
	// one byte more is not. A CR before the newline does not count.
	s.send(strings.Repeat("x", MaxLineBytes-1)+"\r", "ping")
	if errs := errorsBefore("pong"); len(errs) != 0 {
		t.Errorf("a line of MaxLineBytes: %q", errs)
	}
	s.send(strings.Repeat("x", MaxLineBytes+1), "ping")
	if errs := errorsBefore("pong"); len(errs) != 1 || !strings.Contains(errs[0], strconv.Itoa(MaxLineBytes+1)) {
		t.Errorf("a line of MaxLineBytes+1: %q", errs)
	}

	// During a search: ping is answered at once, the long line after done.
	s.send("level infinite", "go analyze", long, "ping")
	if errs := errorsBefore("pong"); len(errs) != 0 {
		t.Errorf("during a search, before its done: %q", errs)
	}
	s.send("stop")
	out := s.until("error")
	if len(out) < 2 || ParseLine(out[len(out)-2]).Cmd != "done" {
		t.Errorf("after stop: %q, want the search's done, then the long line's error", out)
	}

	// The session still works.
	pos := rules.Russian.StartPosition()
	want := search.Search(pos, search.Options{Depth: 3, TTSizeMB: 4}, nil)
	s.send("set-param name=variant value=russian", "pos pos="+FormatPosition(&pos), "level depth=3", "go think")
	out = s.until("done")
	if got := ParseLine(out[len(out)-1]).Args["move"]; got != FormatMove(&want.Best) {
		t.Errorf("after long lines: done %q, want %s", out[len(out)-1], FormatMove(&want.Best))
	}
	s.send("quit")
	if err := <-s.err; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// repeatReader yields n copies of b, without holding them.
type repeatReader struct {
	b byte
	n int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := int(min(int64(len(p)), r.n))
	for i := range p[:k] {
		p[i] = r.b
	}
	r.n -= int64(k)
	return k, nil
}

// TestLineReaderMemory: a 256 MB line is dropped in pieces; what the
// reader allocates does not grow with it.
func TestLineReaderMemory(t *testing.T) {
	const huge = 256 << 20
	in := io.MultiReader(strings.NewReader("pos "), &repeatReader{'w', huge}, strings.NewReader("\r\nping\r\nlast"))
	lr := newLineReader(in, MaxLineBytes)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	head, n, err := lr.next()
	runtime.ReadMemStats(&after)
	if err != errLineTooLong || n != huge+5 || !strings.HasPrefix(string(head), "pos ww") || len(head) > headBytes {
		t.Fatalf("huge line: %q, %d bytes, %v", head, n, err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("reading a %d MB line allocated %d MB", huge>>20, alloc>>20)
	}
	for _, want := range []string{"ping", "last"} {
		if l, _, err := lr.next(); err != nil || string(l) != want {
			t.Errorf("next: %q %v, want %q", l, err, want)
		}
	}
	if _, _, err := lr.next(); err != io.EOF {
		t.Errorf("at the end: %v, want io.EOF", err)
	}
}

// longLineWriter writes an info line of MaxLineBytes+100 bytes (a PV of
// é, two bytes each, cut nowhere near a line end) before each "wait" and
// "done" line that Serve writes (one Write per line).
type longLineWriter struct{ w io.Writer }

func (l *longLineWriter) Write(p []byte) (int, error) {
	if bytes.HasPrefix(p, []byte("wait")) || bytes.HasPrefix(p, []byte("done")) {
		long := `info depth=99 score=9.99 pv="` + strings.Repeat("é", MaxLineBytes/2+50) + "\"\n"
		if _, err := io.WriteString(l.w, long); err != nil {
			return 0, err
		}
	}
	return l.w.Write(p)
}

// TestClientLongLines: an engine line over MaxLineBytes is skipped with a
// notice naming its size, in the handshake and in a search; the client
// neither fails nor restarts the engine (its 1 MB bufio.Scanner took such
// a line for the engine's exit), and the search's verdict is the
// engine's.
func TestClientLongLines(t *testing.T) {
	cfg := engineConfig(t, "long-lines")
	var notices []string
	cfg.Notice = func(s string) { notices = append(notices, s) }
	c, err := Start(cfg)
	if err != nil {
		t.Fatalf("handshake with an over-long line: %v", err)
	}
	defer c.Close()
	pos := rules.Russian.StartPosition()
	want := search.Search(pos, search.Options{Depth: 4, TTSizeMB: 4}, nil)
	for range 2 {
		a, err := c.Analyze(context.Background(), pos, 4, 0)
		if err != nil || a.Score != want.Score || !a.Best.SameAs(&want.Best) || a.Depth != want.Depth || a.Nodes != want.Nodes {
			t.Fatalf("analyze: %+v %v, want score %d %s depth %d", a, err, want.Score, FormatMove(&want.Best), want.Depth)
		}
	}
	if c.Restarts() != 0 {
		t.Errorf("%d restarts", c.Restarts())
	}
	size := strconv.Itoa(len(`info depth=99 score=9.99 pv=""`) + 2*(MaxLineBytes/2+50))
	if len(notices) != 3 {
		t.Fatalf("%d notices, want 3 (wait, two dones): %q", len(notices), notices)
	}
	for _, n := range notices {
		if !strings.Contains(n, "line of "+size+" bytes") || !strings.Contains(n, "skipped: 'info depth=99") || len(n) > 300 || !utf8.ValidString(n) {
			t.Errorf("notice %q", n)
		}
	}
}
