package ingest

import (
	"bytes"
	"context"
	"io"
	"math"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
)

// Reading one source on several cores.
//
// The PDN reader decides where a game ends only by lexing everything
// before it (a comment may hide a tag, a game may lack its result), so a
// text cannot be cut into games without reading it. Instead the fetcher
// cuts it where a game very likely begins (split candidates: a tag at the
// start of a line after a blank line or a result, see findSplit) into
// chunks, and each chunk that begins at a candidate becomes a job: a
// worker reads it with its own pdn.Reader (NewSplitReader) while the
// other workers read the chunks after it. A worker's reader goes on past
// the end of its chunk until it stops at a later candidate (pdn.SplitAt:
// only where a new reader would read the rest the same) or at the end of
// the text.
//
// Jobs then resolve in order (settle): a job is valid when the valid job
// before it stopped exactly at its start, else void (the reader before it
// went past its start: the lexer's state there was not a fresh one; the
// games of the void job are dropped and that reader's are kept). Only a
// valid job learns how many games and lines precede it, so its games are
// renumbered (pdn.Rebase) before they are replayed. The result is exactly
// what one reader over the whole text gives (a test compares them).
//
// A job is resolved as soon as it is read and the job before it resolved,
// by whichever worker makes the second of these true (submit, cascade):
// the worker that read it need not come back for it. When each worker
// resolved only its own jobs, between reading and replaying them, a job
// read by one worker waited for the job before it to be resolved by the
// other, which was busy replaying a job of ~180 games (~1.5 ms), and so
// did every job after it: with 2 workers on 100,000 generated games the
// workers stood 235-253 ms waiting in resolve (of ~1.9 s of running),
// 27-31 ms with the cascade (go tool trace, the pipeline's other changes
// of that commit in both).
//
// Memory stays bounded by the chunks in flight: the fetcher reads ahead
// at most fetchAhead bytes past the frontier (where the next valid job
// starts), more only for a reader that runs out of text (one block at a
// time), and nothing keeps a chunk once every reader passed it, so a
// text without candidates (binary junk, a gap of a gigabyte) streams
// through one reader in constant memory; the games that reader finds are
// handed on as it goes (see early), not held until it stops. UTF-16 is
// decoded before the text is cut (pdn.UTF8Text), so it is cut as UTF-8 is.

const (
	// chunkBytes is the default size from which the fetcher looks for
	// the next candidate to cut a chunk at.
	chunkBytes = 128 << 10
	// blockBytes are read from the source at a time.
	blockBytes = 1 << 20
	// maxChunkBytes bounds a chunk without a candidate: the fetcher cuts
	// it anyway, and the chunk after it starts no job (only the reader
	// that runs into it reads it).
	maxChunkBytes = 4 << 20
)

// chunk is a piece of a source's text, cut by the fetcher.
type chunk struct {
	data     []byte
	start    int64 // offset of data[0] in the text
	consumed int64 // the source's Consumed once data was read (progress)
	// mark is set for a chunk that begins at a candidate (or the text's
	// start): a job reads from it. It is a separate allocation, so that
	// holding it pins no chunk.
	mark *mark
	next *chunk // under feed.mu
}

// mark is what the readers know of a candidate.
type mark struct {
	start  int64
	passed bool // under feed.mu: a valid reader went past it: its job is void

	// Under feed.mu: res is the job's reading from submit until the job
	// is decided; decided and valid say what resolving found.
	res            *lexed
	decided, valid bool
	flushed        int // games of the job handed on early (see early)
}

// feed is one source being read in chunks: the fetcher appends chunks,
// the emitter makes jobs of them, workers read them and resolve.
type feed struct {
	src  *source.Source
	skip int // games to skip (Config.Skip)

	mu       sync.Mutex
	cond     sync.Cond
	first    *chunk // the first chunk, until the emitter takes it
	tail     *chunk
	ended    bool  // no chunk follows tail
	broken   error // the text broke off after tail (breakReader's error)
	closed   bool  // stop fetching: the emitter gave up (Stop, ctx)
	starving int   // readers waiting for the next chunk
	fetched  int64 // end offset of tail

	// Resolution, in job order.
	frontier int64           // where the next valid job starts; MaxInt64 once a valid reader reached the end
	games    int             // games of the valid jobs so far (with skipped and dropped ones)
	lines    int             // line breaks before frontier
	dropped  int             // at a break, the ordinal of the last game, left out (0: none)
	readErr  error           // a reader's own failure, as a *SourceError
	failGame int             // the game a panic failed the source at (0: none; see fail)
	junk     int             // pieces of text that are not PDN the valid readers skipped
	notPDN   bool            // the collector found nothing PDN in the source and gave up on it (giveUp)
	pending  map[int64]*mark // jobs read, not yet resolved, by start (submit)

	// served counts the bytes the readers were given, every reader
	// together (a test checks an unclean start is read once).
	served atomic.Int64
}

func newFeed(src *source.Source, skip int) *feed {
	f := &feed{src: src, skip: skip, pending: map[int64]*mark{}}
	f.cond.L = &f.mu
	return f
}

// close stops the fetcher and ends the text after the chunks fetched.
func (f *feed) close() {
	f.mu.Lock()
	f.closed = true
	f.cond.Broadcast()
	f.mu.Unlock()
}

func (f *feed) append(c *chunk) {
	f.mu.Lock()
	if f.tail == nil {
		f.first = c
	} else {
		f.tail.next = c
	}
	f.tail = c
	f.fetched = c.start + int64(len(c.data))
	f.cond.Broadcast()
	f.mu.Unlock()
}

// fetch reads the text from r into chunks until its end, a read error
// (the text broke off: r is a breakReader) or close. It reads ahead of
// the frontier at most ahead bytes, unless a reader waits for more.
func (f *feed) fetch(ctx context.Context, r *breakReader, consumed func() int64, target int, ahead int64) {
	defer func() {
		f.mu.Lock()
		f.ended = true
		if r.err != nil {
			f.broken = r.err
		}
		f.cond.Broadcast()
		f.mu.Unlock()
	}()
	var carry []byte // bytes after the last cut
	start := int64(0)
	fresh, first, noSplit := true, true, false
	for {
		f.mu.Lock()
		for !f.closed && f.fetched-f.frontier > ahead && f.starving == 0 {
			f.cond.Wait()
		}
		closed := f.closed
		f.mu.Unlock()
		if closed || ctx.Err() != nil {
			return
		}
		block := make([]byte, len(carry)+blockBytes)
		copy(block, carry)
		n, err := io.ReadFull(r, block[len(carry):])
		data := block[:len(carry)+n]
		eof := err != nil
		if first {
			first = false
			// A UTF-16 text that reached here undecoded (see
			// pdn.UTF8Text) is decoded by the reader of the first chunk:
			// offsets in the raw bytes mean nothing to it.
			noSplit = len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF)
		}
		cons := consumed()
		off := 0
		for !noSplit {
			cut := findSplit(data, off+target, eof)
			if cut < 0 {
				break
			}
			f.append(newChunk(data[off:cut:cut], start+int64(off), cons, fresh))
			off, fresh = cut, true
		}
		rest := data[off:]
		start += int64(off)
		if eof {
			if len(rest) > 0 || f.tail == nil {
				f.append(newChunk(rest, start, cons, fresh))
			}
			return
		}
		carry = rest
		if len(rest) > maxChunkBytes {
			f.append(newChunk(rest, start, cons, fresh))
			start += int64(len(rest))
			carry, fresh = nil, false
		}
	}
}

func newChunk(data []byte, start, consumed int64, fresh bool) *chunk {
	c := &chunk{data: data, start: start, consumed: consumed}
	if fresh {
		c.mark = &mark{start: start}
	}
	return c
}

// findSplit returns the first split candidate at or after from in data, or
// -1: the start of a line that begins with a well-formed tag [Name
// "value"] (so the game there has a tag, see pdn.SplitAt) after a line that
// is blank or ends with a result. A candidate needs its whole tag in data
// unless eof. It is only a guess, cheap to make; the readers check it.
func findSplit(data []byte, from int, eof bool) int {
	for i := max(from, 1); i < len(data); {
		k := indexNewlineTag(data[i-1:])
		if k < 0 {
			return -1
		}
		i += k // data[i-1] == '\n', data[i] == '['
		switch ok, complete := tagLine(data[i:]); {
		case !complete && !eof:
			return -1
		case ok && afterGame(data[:i-1]):
			return i
		}
		i++
	}
	return -1
}

// indexNewlineTag returns the index of the first "\n[" in b, or -1.
func indexNewlineTag(b []byte) int {
	for k := 0; ; {
		j := bytes.IndexByte(b[k:], '\n')
		if j < 0 || k+j+1 >= len(b) {
			return -1
		}
		k += j
		if b[k+1] == '[' {
			return k
		}
		k++
	}
}

// tagLine reports whether b starts with a well-formed tag pair, [Name
// "value"] (a subset of what pdn reads as one), and whether b held enough
// bytes to tell.
func tagLine(b []byte) (ok, complete bool) {
	i := 1
	if i >= len(b) {
		return false, false
	}
	if c := b[i]; !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
		return false, true
	}
	for i < len(b) && (isNameChar(b[i])) {
		i++
	}
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	if i >= len(b) {
		return false, false
	}
	if b[i] != '"' {
		return false, true
	}
	for i++; i < len(b) && b[i] != '"'; i++ {
		if c := b[i]; c == '\\' || c == '\n' || c == '\r' {
			return false, true
		}
	}
	for i++; i < len(b) && (b[i] == ' ' || b[i] == '\t'); i++ {
	}
	if i >= len(b) {
		return false, false
	}
	return b[i] == ']', true
}

func isNameChar(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
}

// afterGame reports whether the last line of b (b ends just before a line
// break) is blank or ends with a result: where games usually end.
func afterGame(b []byte) bool {
	e := len(b)
	for e > 0 && (b[e-1] == ' ' || b[e-1] == '\t' || b[e-1] == '\r') {
		e--
	}
	if e == 0 || b[e-1] == '\n' {
		return true
	}
	s := e - 1
	for s > 0 && b[s-1] != ' ' && b[s-1] != '\t' && b[s-1] != '\n' {
		s--
	}
	switch string(b[s:e]) {
	case "1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0":
		return true
	}
	return false
}

// chainReader reads a source's text from a chunk on, waiting for the
// fetcher when it runs out. It ends at the end of the text, or when its
// own job turns out void (own.passed), and records the candidates it
// enters (for the split function of its pdn.Reader).
type chainReader struct {
	f     *feed
	c     *chunk
	off   int
	own   *mark
	cands []*mark // candidates entered, not yet passed to the split function
}

func (r *chainReader) Read(p []byte) (int, error) {
	for {
		if r.off < len(r.c.data) {
			n := copy(p, r.c.data[r.off:])
			r.off += n
			r.f.served.Add(int64(n))
			return n, nil
		}
		f := r.f
		f.mu.Lock()
		for r.c.next == nil && !f.ended && !r.own.passed {
			f.starving++
			f.cond.Broadcast()
			f.cond.Wait()
			f.starving--
		}
		next := r.c.next
		if r.own.passed || next == nil {
			f.mu.Unlock()
			return 0, io.EOF
		}
		f.mu.Unlock()
		r.c, r.off = next, 0
		if next.mark != nil {
			r.cands = append(r.cands, next.mark)
		}
	}
}

// testSplitLocked, when set, is called each time a reader's split function
// takes feed.mu (tests).
var testSplitLocked func()

// lexed is what a worker's reader found in its job.
type lexed struct {
	games []*pdn.Game
	errs  []error
	split int64 // where it stopped; -1: at the end of the text
	line  int   // the reader's line there
	err   error // the reader's own failure (not a syntax error)
	junk  int   // pieces of text that are not PDN the reader skipped (pdn.Reader.Skipped)
	// junkLast: the last piece the reader read was such text (it may be a
	// game cut short by a break).
	junkLast bool
}

// lex reads the job that starts at c with a reader of its own, until a
// split at a later candidate or the end of the text.
//
// It also returns the Consumed of the last chunk it read, for progress.
//
// With e, a job that grows past flushBytes hands its games on early (see
// early), all but the last read, once it is known to be valid.
func (f *feed) lex(c *chunk, e *early) (res lexed, consumed int64) {
	// Only cr holds c from here on: c pins every chunk after it (see
	// chunk.next), which the reader must let go as it passes them.
	cr := &chainReader{f: f, c: c, own: c.mark}
	var rd *pdn.Reader
	if c.start == 0 {
		rd = pdn.NewReader(cr, f.src.Name)
	} else {
		rd = pdn.NewSplitReader(cr, f.src.Name)
	}
	base := c.start
	stopAt := int64(-1)
	rd.SplitAt(func(rel int64) bool {
		off := base + rel
		// Nothing to decide before the next candidate entered, at most a
		// few per job: the reader asks at every game, and taking f.mu
		// each time made the workers (and the fetcher and emitter) queue
		// for it once per game: 5-28 ms of waiting for it per 100,000
		// generated games with 2 workers (go tool trace). cr.cands is the
		// reader's own (chainReader.Read runs on this goroutine).
		if len(cr.cands) == 0 || cr.cands[0].start > off {
			return false
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if testSplitLocked != nil {
			testSplitLocked()
		}
		owner := f.frontier == base // this job is valid: what it passes is void
		for len(cr.cands) > 0 && cr.cands[0].start <= off {
			m := cr.cands[0]
			cr.cands = cr.cands[1:]
			if m.start == off {
				if m.passed {
					return false
				}
				stopAt = off
				return true
			}
			if owner {
				m.passed = true
				f.cond.Broadcast()
			}
		}
		return false
	})
	res = lexed{split: -1}
	junkBefore := 0 // pieces skipped before the last game read
	// A panic of the reader (a bug: no input should cause one) fails this
	// source alone, naming where the reader was; the games before it stay.
	defer func() {
		if v := recover(); v != nil {
			res.split = -1
			res.err = &PanicError{Stage: "reading", Offset: base + rd.Offset(), Value: v, Stack: debug.Stack()}
			consumed = cr.c.consumed
		}
	}()
	for {
		g, err := rd.Next()
		if g != nil && testReadHook != nil {
			testReadHook(g)
		}
		if err == io.EOF {
			break
		}
		if err == pdn.ErrSplit {
			res.split = stopAt
			res.line = rd.Line()
			break
		}
		if g == nil {
			res.err = err
			break
		}
		res.games = append(res.games, g)
		res.errs = append(res.errs, err)
		junkBefore, _ = rd.Skipped()
		if e == nil {
			continue
		}
		e.bytes += int64(len(g.Raw)) + gameOverhead
		if e.bytes <= flushBytes || len(res.games) < 2 {
			continue
		}
		if !f.awaitFrontier(cr.own, e) {
			// Void: another reader reads this text; this one stops at
			// its next read (chainReader), and its games are not needed.
			res.games, res.errs, e.bytes = nil, nil, 0
			continue
		}
		n := len(res.games) - 1
		f.handOn(cr.own, res.games[:n], res.errs[:n])
		e.flush(res.games[:n], res.errs[:n], cr.c.consumed)
		res.games = append([]*pdn.Game(nil), res.games[n:]...)
		res.errs = append([]error(nil), res.errs[n:]...)
		e.bytes = int64(len(g.Raw)) + gameOverhead
	}
	res.junk, _ = rd.Skipped()
	res.junkLast = res.junk > junkBefore
	return res, cr.c.consumed
}

// early lets a job's reader hand its games on before it is done: a job
// runs until its reader stops at a later candidate, which a text without
// candidates (UTF-16 that was not decoded first, binary junk, a gigabyte
// of one comment) puts off to its end, and the games read meanwhile are
// held. Past flushBytes of them, the reader waits until its job is at the
// frontier (valid: every game before it is handed on or is being handed on
// by its worker, which it helps with: service), then hands them on (flush),
// all but the last, which may still be dropped (a break in the text, see
// settle). Memory then stays bounded by flushBytes per worker.
type early struct {
	// flush replays games and hands them on as a Games event before the
	// job's own (consumed: the progress).
	flush func(games []*pdn.Game, errs []error, consumed int64)
	// service finishes the worker's held jobs that are decided, in order
	// (with wait, the oldest one, waiting until it is decided); it
	// reports whether it finished any.
	service func(wait bool) bool
	// front returns the feed and mark of the worker's oldest held job, or
	// nils.
	front func() (*feed, *mark)
	bytes int64 // held by the job's reader since it last handed games on
}

// flushBytes is how much of its games' text a job's reader holds before
// it hands them on early (a variable so that tests can lower it).
var flushBytes int64 = 8 << 20

// gameOverhead is what a game costs beyond its text, roughly.
const gameOverhead = 512

// awaitFrontier waits until the job at m is at the frontier (it reports
// true: the job is valid) or void (false), finishing the worker's decided
// held jobs meanwhile, which the jobs before m may wait for.
func (f *feed) awaitFrontier(m *mark, e *early) bool {
	for {
		if hf, _ := e.front(); hf != nil && hf != f {
			// A job of an earlier source: it depends on nothing of
			// this one, so waiting for it is safe.
			e.service(true)
			continue
		}
		f.mu.Lock()
		for f.frontier < m.start && !m.passed && !f.decidable(e.front()) {
			f.cond.Wait()
		}
		valid, void := f.frontier == m.start && !m.passed, m.passed || f.frontier > m.start
		f.mu.Unlock()
		if valid {
			// Every held job is before this one: the collector hands
			// them on first, so finish them all, waiting if need be.
			for e.service(true) {
			}
			return true
		}
		if void {
			return false
		}
		e.service(false)
	}
}

// decidable reports whether resolve would decide the held job at m of
// this feed now (nil: none). f.mu is held.
func (f *feed) decidable(_ *feed, m *mark) bool {
	return m != nil && (m.decided || f.frontier >= m.start || m.passed)
}

// handOn renumbers games, the first games of the valid job at m not yet
// handed on, and counts them: they are handed on early (see early).
func (f *feed) handOn(m *mark, games []*pdn.Game, errs []error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if m.start > 0 {
		for i, g := range games {
			pdn.Rebase(g, errs[i], f.games-m.flushed, m.start, f.lines)
		}
	}
	f.games += len(games)
	m.flushed += len(games)
}

// testReadHook, when set, sees each game a reader returns (tests inject a
// panic with it).
var testReadHook func(*pdn.Game)

// submit records the reading of the job at m (res is the worker's until
// the job is decided) and resolves what it can (cascade).
func (f *feed) submit(m *mark, res *lexed) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m.res = res
	f.pending[m.start] = m
	f.cascade()
}

// cascade resolves, in order, every job read whose start the frontier
// reaches: a valid job's games are renumbered and taken into the feed's
// counts (settle), and the frontier moves to where its reader stopped,
// which may be the start of a job read already. f.mu is held.
func (f *feed) cascade() {
	moved := false
	for {
		m := f.pending[f.frontier]
		if m == nil || m.passed {
			break
		}
		delete(f.pending, m.start)
		f.settle(m, m.res)
		m.res, m.decided, m.valid = nil, true, true
		moved = true
	}
	if moved {
		f.cond.Broadcast()
	}
}

// resolve tells whether the job at m, submitted, is valid, once the jobs
// before it are resolved. (It takes the job's mark, not its chunk: holding
// the chunk would keep every chunk after it.) A job the frontier went past
// (or a valid reader read past) is void.
//
// With wait false it does not wait: decided is false when the jobs before
// are not resolved yet.
func (f *feed) resolve(m *mark, wait bool) (valid, decided bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for !m.decided && f.frontier < m.start && !m.passed {
		if !wait {
			return false, false
		}
		f.cond.Wait()
	}
	if m.decided {
		return m.valid, true
	}
	// Void: the frontier is past m's start, or a valid reader read past it
	// (m.passed; then the frontier will go past it). A submitted job at
	// the frontier would have been resolved by cascade.
	if f.pending[m.start] == m {
		delete(f.pending, m.start)
	}
	m.res, m.decided = nil, true
	return false, true
}

// fail ends the source at game (its ordinal) with err, a panic of the
// replay: nothing after it is read, and the collector drops the games from
// it on (dropFailed), which other workers may have replayed meanwhile.
func (f *feed) fail(game int, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failGame == 0 || game < f.failGame {
		f.failGame = game
		f.readErr = &SourceError{Source: f.src.Name, Game: game, Err: err}
	}
	f.frontier = math.MaxInt64
	f.closed = true
	f.cond.Broadcast()
}

// giveUp stops reading the source: nothing after what was read is read,
// and the collector hands none of its games on (see notPDN).
func (f *feed) giveUp() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.notPDN = true
	f.frontier = math.MaxInt64
	f.closed = true
	f.cond.Broadcast()
}

// dropFailed returns items without the games from the one a panic failed
// the source at.
func (f *feed) dropFailed(items []Item) []Item {
	f.mu.Lock()
	fg := f.failGame
	f.mu.Unlock()
	if fg == 0 {
		return items
	}
	k := 0
	for k < len(items) && items[k].Ordinal < fg {
		k++
	}
	return items[:k]
}

// settle takes the valid job at m, read as res, into the feed: its games
// are renumbered and counted, and the frontier moves to where its reader
// stopped. f.mu is held.
func (f *feed) settle(m *mark, res *lexed) {
	if m.start > 0 {
		for i, g := range res.games {
			pdn.Rebase(g, res.errs[i], f.games-m.flushed, m.start, f.lines)
		}
	}
	f.games += len(res.games)
	f.junk += res.junk
	switch {
	case res.err != nil:
		f.readErr = sourceError(f.src.Name, f.games+1, res.err)
		f.frontier = math.MaxInt64
		f.closed = true // nothing after the failure is read
		f.cond.Broadcast()
	case res.split >= 0:
		f.frontier = res.split
		f.lines += res.line - 1
	default:
		f.frontier = math.MaxInt64
		switch {
		case f.broken != nil && res.junkLast:
			// What ran into the break read as no game; it may be one cut
			// short: it counts as one, left out.
			f.games++
			f.dropped = f.games
		case f.broken != nil && len(res.games) > 0:
			// The last game ran into the break and may be cut short.
			f.dropped = f.games
			res.games, res.errs = res.games[:len(res.games)-1], res.errs[:len(res.errs)-1]
		}
	}
}
