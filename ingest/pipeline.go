package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay"
)

// Item is one game after replay.
type Item struct {
	// Ordinal, Offset and Line place the game in its source (as in
	// pdn.Game); they stay when PDN is dropped.
	Ordinal  int
	Offset   int64
	Line     int
	PDN      *pdn.Game // nil for accepted games when Config.Prepare or DropAccepted is set (see DropAccepted)
	Accepted bool      // verified; Reject is nil
	Plies    int       // moves played (accepted games)
	Warnings int       // replay warnings (accepted games)
	// GameWarnings are those warnings (nil when none): what the reader
	// and the replay repaired or noticed, with their kinds, for validate
	// (--warnings, the count by kind) and the source inference.
	GameWarnings []replay.Warning
	Game         *replay.Game // the verified game, with Config.Keep
	Prepared     any          // what Config.Prepare returned, for accepted games
	Reject       error        // a *replay.RejectError when rejected
	ReadErr      error        // the reader's error for this game, if any

	isPDN bool // the game shows its source is PDN (see notPDN)
}

// EventKind tells what an Event carries.
type EventKind int

const (
	SourceStart EventKind = iota // a source was opened
	Games                        // a batch of replayed games
	SourceEnd                    // a source was read to its end (or failed: Err)
)

// Event is what the sink receives, in input order.
type Event struct {
	Kind     EventKind
	Source   *source.Source
	Items    []Item // Games
	Consumed int64  // bytes of the source consumed so far (for progress)
	// SourceEnd: Err is why the source failed (nil: read completely).
	Err   error
	Games int // SourceEnd: games read from the source
}

// Config sets up a pipeline run.
type Config struct {
	Workers   int // replay workers; <= 0 means the number of CPUs
	BatchSize int // at most so many games per Games event; <= 0 means 256
	Replay    replay.Options
	// Keep hands each accepted game to the sink in Item.Game (a copy: it
	// costs an allocation per game, so only commands that need the moves
	// ask for it).
	Keep bool
	// Prepare, when set, runs on the worker for every accepted game, and
	// its result is handed to the sink in Item.Prepared: per-game work that
	// runs in parallel instead of in the sink (the importer encodes games
	// for COPY here). The game is only valid during the call.
	Prepare func(*replay.Game) any
	// DropAccepted, when set, drops the parsed text of the accepted games
	// (Item.PDN is nil) of every source but standard input, as Prepare
	// does: for a sink that only counts them (validate). Source inference
	// reads the text again where it needs it; standard input cannot be
	// read again, so its games keep theirs.
	DropAccepted bool
	// Skip, when set, returns how many leading games of a source to skip
	// without replaying them (they are still read): a resumed import skips
	// what it had committed.
	Skip func(*source.Source) int
	// Stop, when set, is asked between batches whether to give up on a
	// source (the importer could not store it): the source then ends with
	// a SourceEnd whose Err unwraps to ErrSourceStopped.
	Stop func(*source.Source) bool

	// chunkBytes, when set, is the size of the chunks a source is cut
	// into (tests make it small to cut often).
	chunkBytes int
}

// job is one event in the making. A Games job is a chunk of a source's
// text (see feed.go): the worker reads its games from ck on, resolves the
// job and replays them. The collector completes a SourceEnd job with feed
// from the feed's counts.
type job struct {
	ev    Event
	done  chan struct{}
	feed  *feed
	ck    *chunk
	games []*pdn.Game // the job's games and their errors, once read
	errs  []error
	void  bool // another job's reader read this chunk (see resolve): nothing to hand on
	// parts carries the Games events of games the job's reader handed on
	// before it was done (see early), for a Games job.
	parts chan Event
}

// Run streams srcs through replay and calls sink with every event in input
// order. It stops at the first sink error or when ctx is done, and returns
// that error; a source that cannot be read is reported to the sink as a
// SourceEnd with Err, and the run goes on.
//
// A source is read on the workers too, in chunks (see feed.go): the
// reader goroutine only cuts the text where games likely begin, so every
// stage but that cheap one runs on all workers.
func Run(ctx context.Context, srcs []*source.Source, cfg Config, sink func(*Event) error) error {
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	batch := cfg.BatchSize
	if batch <= 0 {
		batch = 256
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	ordered := make(chan *job, 4*workers) // jobs in input order, for the collector
	work := make(chan *job, 4*workers)    // jobs with games, for the workers
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := replay.NewReplayer(cfg.Replay)
			var scratch replay.Game
			// Jobs read but not yet replayed, in order. A job resolves
			// once the job before it is read and resolved (by whichever
			// worker finishes the second: feed.submit): rather than wait
			// for that, the worker reads the next job if one is waiting,
			// and only blocks when none is (then every job before its
			// own is read or being read, so it cannot wait for one that
			// no worker has taken). It holds at most maxHeld, so that a
			// reader that goes on far past its chunk does not make the
			// others read the whole file meanwhile.
			var held []*heldJob
			// service finishes the held jobs that are decided (with
			// wait, the oldest, once decided).
			service := func(wait bool) bool {
				did := false
				for len(held) > 0 {
					h := held[0]
					valid, decided := h.j.feed.resolve(h.m, wait)
					if !decided {
						break
					}
					held = held[1:]
					finishJob(h, valid, r, &scratch, &cfg)
					yieldToStages()
					did, wait = true, false
				}
				return did
			}
			e := &early{service: service, front: func() (*feed, *mark) {
				if len(held) == 0 {
					return nil, nil
				}
				return held[0].j.feed, held[0].m
			}}
			open := true
			for open || len(held) > 0 {
				service(false)
				var j *job
				if len(held) == 0 {
					if j, open = <-work; !open {
						continue
					}
				} else if open && len(held) < maxHeld {
					select {
					case j, open = <-work:
					default:
					}
				}
				if j == nil {
					// Nothing else to read: wait for the oldest job.
					h := held[0]
					held = held[1:]
					valid, _ := h.j.feed.resolve(h.m, true)
					finishJob(h, valid, r, &scratch, &cfg)
					yieldToStages()
					continue
				}
				c, m := j.ck, j.ck.mark
				j.ck = nil // the reader alone holds the chunks it has to read
				e.bytes = 0
				e.flush = func(games []*pdn.Game, errs []error, consumed int64) {
					items := replayItems(j, games, errs, r, &scratch, &cfg)
					if len(items) > 0 {
						j.parts <- Event{Kind: Games, Source: j.ev.Source, Items: items, Consumed: consumed}
					}
				}
				res, consumed := j.feed.lex(c, e)
				h := &heldJob{j: j, m: m, res: res, consumed: consumed}
				held = append(held, h)
				j.feed.submit(m, &h.res)
			}
		}()
	}

	var readErr error
	go func() {
		defer close(ordered)
		defer close(work)
		readErr = readAll(ctx, srcs, &cfg, workers, ordered, work)
	}()

	var sinkErr error
	var np notPDN // the source being handed on
	collect := func(j *job, ev *Event) {
		if f := j.feed; f != nil && ev.Kind == Games {
			ev.Items = f.dropFailed(ev.Items)
		}
		if sinkErr != nil || j.void || ev.Kind == Games && len(ev.Items) == 0 {
			return // drain so the reader and workers can finish; no empty batches
		}
		switch ev.Kind {
		case SourceStart:
			np = notPDN{}
		case Games:
			if !np.hold(j, ev) {
				return
			}
		case SourceEnd:
			if f := j.feed; f != nil {
				endFeed(j, f)
				np.end(j, f)
				if testFeed != nil {
					testFeed(f)
				}
			}
		}
		for _, ev := range np.release() {
			if err := sinkBatches(ev, batch, sink); err != nil {
				sinkErr = err
				cancel()
				return
			}
		}
		if err := sinkBatches(ev, batch, sink); err != nil {
			sinkErr = err
			cancel()
		}
	}
	for j := range ordered {
		if j.parts != nil {
			// Games the job's reader handed on early (see early) come
			// before the job's own; all are sent before done is closed.
			for done := false; !done; {
				select {
				case ev := <-j.parts:
					collect(j, &ev)
				case <-j.done:
					done = true
				}
			}
			for drained := false; !drained; {
				select {
				case ev := <-j.parts:
					collect(j, &ev)
				default:
					drained = true
				}
			}
		} else {
			<-j.done
		}
		collect(j, &j.ev)
	}
	wg.Wait()
	if sinkErr != nil {
		return sinkErr
	}
	if readErr != nil {
		return readErr
	}
	return ctx.Err()
}

// ErrNotPDN fails a source in which nothing is PDN (README.md, a binary
// file): no game with a tag pair, none with a move the rules accept. None of
// its games is handed on.
var ErrNotPDN = errors.New("not a PDN file")

// A source shows it is PDN with its first game that has a tag pair that a
// program wrote (hasRealTag), or a move before its first defect
// (pdn.Game.LooksLikePDN), or is accepted with a move (Item.isPDN). Until then the collector holds its
// games back (notPDN), at most notPDNPieces games and pieces of skipped
// text, or notPDNBytes of the games' text: past that, or at the source's
// end, the source is not PDN and fails with ErrNotPDN, and nothing of it is
// handed on.
const (
	notPDNPieces = 1000
	notPDNBytes  = 16 << 20
)

// hasRealTag reports whether g has a tag pair that a program wrote: a name
// of ASCII letters, digits and '_' that starts with a letter, and a value
// without control characters. Random bytes make a tag pair now and then,
// never such a one.
func hasRealTag(g *pdn.Game) bool {
	for _, t := range g.Tags {
		if realTagName(t.Name) && !strings.ContainsFunc(t.Value, func(r rune) bool { return r < 0x20 || r == 0x7F || r >= 0x80 && r < 0xA0 }) {
			return true
		}
	}
	return false
}

func realTagName(n string) bool {
	if n == "" || !(n[0] >= 'A' && n[0] <= 'Z' || n[0] >= 'a' && n[0] <= 'z') {
		return false
	}
	for i := 1; i < len(n); i++ {
		if c := n[i]; !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// notPDN holds back the games of a source not yet shown to be PDN.
type notPDN struct {
	shown  bool
	held   []*Event
	games  int // in held
	bytes  int64
	ready  []*Event // to hand on before the current event (release)
	gaveUp bool
}

// hold takes the Games job j and reports whether to hand it on now (after
// what release returns).
func (np *notPDN) hold(j *job, e *Event) bool {
	f := j.feed
	if np.shown || f == nil || f.skip > 0 {
		np.shown = true
		return true
	}
	if np.gaveUp {
		return false
	}
	for i := range e.Items {
		if e.Items[i].isPDN {
			np.shown = true
			np.ready, np.held = np.held, nil
			return true
		}
	}
	ev := *e
	np.held = append(np.held, &ev)
	np.games += len(ev.Items)
	for _, it := range ev.Items {
		if it.PDN != nil {
			np.bytes += int64(len(it.PDN.Raw))
		}
	}
	f.mu.Lock()
	pieces := np.games + f.junk
	f.mu.Unlock()
	if pieces > notPDNPieces || np.bytes > notPDNBytes {
		np.gaveUp = true
		np.held = nil
		f.giveUp()
	}
	return false
}

// end completes the SourceEnd job j of the source read by f: a source not
// shown to be PDN fails (and its games held are dropped), unless it held
// nothing at all (an empty file) or failed already.
func (np *notPDN) end(j *job, f *feed) {
	f.mu.Lock()
	junk := f.junk
	f.mu.Unlock()
	if !np.shown && (np.gaveUp || len(np.held) > 0 || junk > 0) && (j.ev.Err == nil || np.gaveUp) {
		what := "no tag pair and no move the rules accept in it"
		if np.gaveUp {
			what = fmt.Sprintf("no tag pair and no move the rules accept in its first %d games and pieces of text; the rest is not read", notPDNPieces)
		}
		j.ev.Err = &SourceError{Source: f.src.Name, Err: fmt.Errorf("%w: %s; nothing of it is stored", ErrNotPDN, what)}
		j.ev.Games = 0
	}
	np.held = nil
	np.shown = true
}

// release returns the events held back that are to be handed on now.
func (np *notPDN) release() []*Event {
	r := np.ready
	np.ready = nil
	return r
}

// yieldToStages lets the goroutines a worker just woke run on its P: the
// collector (finishJob closed a job's done), the fetcher and the emitter
// (the frontier moved). Go puts a goroutine woken by a running one on that
// one's P, and with as many workers as Ps (validate's default) no P is idle
// to take it: it waited until its worker blocked or was preempted (10 ms),
// while the workers used up the jobs cut (a job is ~180 games, ~1.5 ms)
// and then stood waiting for more. With 2 workers on 100,000 generated
// games the workers stood 300-315 ms waiting (of ~1.85 s of running), 74-82
// ms with the yield (go tool trace, loaded machine). It costs a trip
// through the scheduler per job, well under a microsecond.
func yieldToStages() { runtime.Gosched() }

// maxHeld is how many read jobs a worker holds before it waits for the
// oldest to resolve.
const maxHeld = 4

// testFeed, when set, sees each source's feed at its end (tests).
var testFeed func(*feed)

// heldJob is a job a worker has read, waiting to be resolved.
type heldJob struct {
	j        *job
	m        *mark
	res      lexed
	consumed int64
}

// finishJob replays the games of a resolved job (nothing for a void one)
// and hands it to the collector.
func finishJob(h *heldJob, valid bool, r *replay.Replayer, scratch *replay.Game, cfg *Config) {
	j := h.j
	defer close(j.done)
	if !valid {
		j.void = true
		return
	}
	j.games, j.errs, j.ev.Consumed = h.res.games, h.res.errs, h.consumed
	h.res = lexed{}
	j.ev.Items = replayItems(j, j.games, j.errs, r, scratch, cfg)
	j.games, j.errs = nil, nil
}

// replayItems replays games (with their read errors errs) of the job j,
// leaving out those Config.Skip skips, and returns their items. games is
// cleared of what it hands on without its parsed text.
func replayItems(j *job, games []*pdn.Game, errs []error, r *replay.Replayer, scratch *replay.Game, cfg *Config) []Item {
	if skip := j.feed.skip; skip > 0 {
		k := 0
		for k < len(games) && games[k].Ordinal <= skip {
			k++
		}
		games, errs = games[k:], errs[k:]
	}
	items := make([]Item, len(games))
	for i, pg := range games {
		it := Item{Ordinal: pg.Ordinal, Offset: pg.Offset, Line: pg.Line, PDN: pg, ReadErr: errs[i]}
		err, pe := replaySafe(r, pg, errs[i], scratch)
		if pe != nil {
			// The source fails at this game; the games before it stay.
			// The replayer's state is not to be trusted after a panic.
			j.feed.fail(pg.Ordinal, pe)
			*r = *replay.NewReplayer(cfg.Replay)
			*scratch = replay.Game{}
			return items[:i]
		}
		it.isPDN = hasRealTag(pg) || len(pg.Tags) == 0 && pg.LooksLikePDN()
		if err != nil {
			it.Reject = err
		} else {
			it.isPDN = it.isPDN || scratch.Plies() > 0
			it.Accepted, it.Plies, it.Warnings = true, scratch.Plies(), len(scratch.Warnings)
			if len(scratch.Warnings) > 0 {
				it.GameWarnings = append([]replay.Warning(nil), scratch.Warnings...)
			}
			if cfg.Keep {
				it.Game = scratch.Clone()
			}
			if cfg.Prepare != nil {
				it.Prepared = cfg.Prepare(scratch)
			}
			// The prepared form has all the sink needs, or the sink needs
			// no parsed text of an accepted game: let the parsed game (and
			// its raw bytes) go, so that batches in flight stay small, and
			// its moves to the next game read.
			if cfg.Prepare != nil || cfg.DropAccepted && !cfg.Keep && j.ev.Source.Kind != source.StdIn {
				it.PDN = nil
				games[i] = nil
				pg.ReleaseMoves()
			}
		}
		items[i] = it
	}
	return items
}

// replaySafe replays pg, turning a panic of the replay (a bug: no game
// should cause one) into a *PanicError.
func replaySafe(r *replay.Replayer, pg *pdn.Game, readErr error, scratch *replay.Game) (err error, pe *PanicError) {
	defer func() {
		if v := recover(); v != nil {
			pe = &PanicError{Stage: "replaying", Offset: pg.Offset, Value: v, Stack: debug.Stack()}
		}
	}()
	if testReplayHook != nil {
		testReplayHook(pg)
	}
	return r.Replay(pg, readErr, scratch), nil
}

// testReplayHook, when set, sees each game before it is replayed (tests
// inject a panic with it).
var testReplayHook func(*pdn.Game)

// PanicError is a panic met while reading or replaying a source's games: a
// bug, since no input should cause one. It fails that source alone (a
// *SourceError naming the source and the game wraps it); the games before
// it are kept and the other sources go on.
type PanicError struct {
	Stage  string // "reading" or "replaying"
	Offset int64  // byte offset in the source's text: where the reader was, or the replayed game's start
	Value  any    // what was passed to panic
	Stack  []byte // the goroutine's stack at the panic
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("internal error while %s, at byte offset %d: panic: %v (a bug in draughtsdb; the games before it are kept, the rest of the source is not read)",
		e.Stage, e.Offset, e.Value)
}

// sinkBatches hands ev to sink, its games in events of at most batch.
func sinkBatches(ev *Event, batch int, sink func(*Event) error) error {
	if ev.Kind != Games || len(ev.Items) <= batch {
		return sink(ev)
	}
	items := ev.Items
	for len(items) > 0 {
		n := min(batch, len(items))
		part := *ev
		part.Items = items[:n:n]
		items = items[n:]
		if err := sink(&part); err != nil {
			return err
		}
	}
	return nil
}

// endFeed fills in the SourceEnd of a source read in chunks, once all its
// jobs are resolved: the games read and why it ended early, if it did.
func endFeed(j *job, f *feed) {
	f.mu.Lock()
	defer f.mu.Unlock()
	j.ev.Games = f.games
	if f.dropped > 0 {
		j.ev.Games-- // left out
	}
	if f.failGame > 0 {
		j.ev.Games = min(j.ev.Games, f.failGame-1)
	}
	switch {
	case j.ev.Err != nil: // stopped (Config.Stop)
	case f.readErr != nil:
		j.ev.Err = f.readErr
	case f.broken != nil:
		e := sourceError(f.src.Name, f.dropped, f.broken)
		if f.dropped > 0 {
			e.Note = "the text breaks off in this game; the games before it are kept"
		}
		j.ev.Err = e
	}
}

// readAll reads every source in order, cutting it into jobs.
func readAll(ctx context.Context, srcs []*source.Source, cfg *Config, workers int, ordered, work chan<- *job) error {
	emit := func(j *job, withGames bool) error {
		j.done = make(chan struct{})
		select {
		case ordered <- j:
		case <-ctx.Done():
			return ctx.Err()
		}
		if !withGames {
			close(j.done)
			return nil
		}
		select {
		case work <- j:
			return nil
		case <-ctx.Done():
			close(j.done)
			return ctx.Err()
		}
	}
	for _, src := range srcs {
		if err := emit(&job{ev: Event{Kind: SourceStart, Source: src}}, false); err != nil {
			return err
		}
		end, err := readSource(ctx, src, cfg, workers, emit)
		if err != nil {
			return err
		}
		if err := emit(end, false); err != nil {
			return err
		}
	}
	return nil
}

// readSource cuts one source into jobs (see feed.go) and returns its
// SourceEnd job, which the collector completes (endFeed) when the source
// could be opened. The error is ctx's.
//
// A text that breaks off (a truncated or corrupt .gz, an I/O error) keeps
// the games before the break: the PDN readers are shown the break as the
// end of the input, so they report each game before it as usual (syntax
// errors included), and the last game, which ran into the break and may be
// cut short, is left out (resolve).
func readSource(ctx context.Context, src *source.Source, cfg *Config, workers int, emit func(*job, bool) error) (*job, error) {
	rd, err := src.Open()
	if err != nil {
		return &job{ev: Event{Kind: SourceEnd, Source: src, Err: sourceError(src.Name, 0, err)}}, nil
	}
	defer rd.Close()
	rd.SkipHash() // the importer hashes sources beforehand; nothing here needs it
	skip := 0
	if cfg.Skip != nil {
		skip = cfg.Skip(src)
	}
	target := cfg.chunkBytes
	if target <= 0 {
		target = chunkBytes
	}
	f := newFeed(src, skip)
	fetched := make(chan struct{})
	go func() {
		defer close(fetched)
		// UTF-16 is decoded before the text is cut, so that it is cut
		// where games begin, as UTF-8 is.
		f.fetch(ctx, &breakReader{r: pdn.UTF8Text(rd)}, rd.Consumed, target, int64(4*workers+4)*int64(target))
	}()
	defer func() {
		f.close()
		<-fetched
	}()
	f.mu.Lock()
	for f.first == nil && !f.ended {
		f.cond.Wait()
	}
	c := f.first
	f.first = nil
	f.mu.Unlock()
	var stopErr error
	for c != nil {
		f.mu.Lock()
		void := c.mark != nil && c.mark.passed
		f.mu.Unlock()
		if c.mark != nil && !void {
			if err := emit(&job{ev: Event{Kind: Games, Source: src}, feed: f, ck: c, parts: make(chan Event, 2)}, true); err != nil {
				return nil, err
			}
			if cfg.Stop != nil && cfg.Stop(src) {
				stopErr = sourceError(src.Name, 0, ErrSourceStopped)
				break
			}
		}
		f.mu.Lock()
		for c.next == nil && !f.ended {
			f.cond.Wait()
		}
		c = c.next
		f.mu.Unlock()
	}
	f.close()
	<-fetched
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return &job{ev: Event{Kind: SourceEnd, Source: src, Err: stopErr, Consumed: rd.Consumed()}, feed: f}, nil
}

// breakReader passes r on until r fails; from then on it reports the end
// of the input and keeps the failure in err.
type breakReader struct {
	r   io.Reader
	err error
}

func (b *breakReader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, io.EOF
	}
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		b.err = err
		err = io.EOF
	}
	return n, err
}
