package ingest

import (
	"context"
	"errors"
	"io"
	"runtime"
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
	PDN      *pdn.Game // nil for accepted games when Config.Prepare is set
	Accepted bool      // verified; Reject is nil
	Plies    int       // moves played (accepted games)
	Warnings int       // replay warnings (accepted games)
	// WarningTexts are those warnings (nil when none): what the reader and
	// the replay repaired or noticed, for validate --warnings.
	WarningTexts []string
	Game         *replay.Game // the verified game, with Config.Keep
	Prepared     any          // what Config.Prepare returned, for accepted games
	Reject       error        // a *replay.RejectError when rejected
	ReadErr      error        // the reader's error for this game, if any
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
	BatchSize int // games per batch; <= 0 means 256
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
	// Skip, when set, returns how many leading games of a source to skip
	// without replaying them (they are still read): a resumed import skips
	// what it had committed.
	Skip func(*source.Source) int
	// Stop, when set, is asked between batches whether to give up on a
	// source (the importer could not store it): the source then ends with
	// a SourceEnd whose Err unwraps to ErrSourceStopped.
	Stop func(*source.Source) bool
}

type job struct {
	seq   int
	ev    Event
	games []*pdn.Game
	errs  []error
	done  chan struct{}
}

// Run streams srcs through replay and calls sink with every event in input
// order. It stops at the first sink error or when ctx is done, and returns
// that error; a source that cannot be read is reported to the sink as a
// SourceEnd with Err, and the run goes on.
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
			for j := range work {
				j.ev.Items = make([]Item, len(j.games))
				for i, pg := range j.games {
					it := Item{Ordinal: pg.Ordinal, Offset: pg.Offset, Line: pg.Line, PDN: pg, ReadErr: j.errs[i]}
					if err := r.Replay(pg, j.errs[i], &scratch); err != nil {
						it.Reject = err
					} else {
						it.Accepted, it.Plies, it.Warnings = true, scratch.Plies(), len(scratch.Warnings)
						if len(scratch.Warnings) > 0 {
							it.WarningTexts = append([]string(nil), scratch.Warnings...)
						}
						if cfg.Keep {
							it.Game = scratch.Clone()
						}
						if cfg.Prepare != nil {
							it.Prepared = cfg.Prepare(&scratch)
							// The prepared form has all the sink needs: let
							// the parsed game (and its raw bytes) go, so that
							// batches in flight stay small.
							it.PDN = nil
							j.games[i] = nil
						}
					}
					j.ev.Items[i] = it
				}
				close(j.done)
			}
		}()
	}

	var readErr error
	go func() {
		defer close(ordered)
		defer close(work)
		readErr = readAll(ctx, srcs, batch, &cfg, ordered, work)
	}()

	var sinkErr error
	for j := range ordered {
		<-j.done
		if sinkErr != nil {
			continue // drain so the reader and workers can finish
		}
		if err := sink(&j.ev); err != nil {
			sinkErr = err
			cancel()
		}
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

// readAll reads every source in order, cutting its games into jobs.
func readAll(ctx context.Context, srcs []*source.Source, batch int, cfg *Config, ordered, work chan<- *job) error {
	seq := 0
	emit := func(j *job, withGames bool) error {
		j.seq = seq
		seq++
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
		n, consumed, err := readSource(ctx, src, batch, cfg, emit)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err := emit(&job{ev: Event{Kind: SourceEnd, Source: src, Err: err, Games: n, Consumed: consumed}}, false); err != nil {
			return err
		}
	}
	return nil
}

// readSource reads one source. It returns the games read, the bytes of the
// source consumed and the error that ended it early, if any: a
// *SourceError naming the source and, when the text broke off, the game.
//
// A text that breaks off (a truncated or corrupt .gz, an I/O error) keeps
// the games before the break: the PDN reader is shown the break as the end
// of the input, so it reports each game before it as usual (syntax errors
// included), and the last game, which ran into the break and may be cut
// short, is left out. Since a game is held back until the next one starts,
// every game handed on was complete in the text.
func readSource(ctx context.Context, src *source.Source, batch int, cfg *Config, emit func(*job, bool) error) (int, int64, error) {
	rd, err := src.Open()
	if err != nil {
		return 0, 0, sourceError(src.Name, 0, err)
	}
	defer rd.Close()
	rd.SkipHash() // the importer hashes sources beforehand; nothing here needs it
	toSkip := 0
	if cfg.Skip != nil {
		toSkip = cfg.Skip(src)
	}
	cut := &breakReader{r: rd}
	pr := pdn.NewReader(cut, src.Name)
	n := 0
	j := &job{ev: Event{Kind: Games, Source: src}}
	flush := func() error {
		if len(j.games) == 0 {
			return nil
		}
		j.ev.Consumed = rd.Consumed()
		err := emit(j, true)
		j = &job{ev: Event{Kind: Games, Source: src}}
		if err == nil && cfg.Stop != nil && cfg.Stop(src) {
			err = sourceError(src.Name, 0, ErrSourceStopped)
		}
		return err
	}
	add := func(g *pdn.Game, err error) error {
		n++
		if g.Ordinal <= toSkip {
			return nil
		}
		j.games = append(j.games, g)
		j.errs = append(j.errs, err)
		if len(j.games) == batch {
			return flush()
		}
		return nil
	}
	var held *pdn.Game
	var heldErr error
	for {
		g, err := pr.Next()
		if err == io.EOF {
			break
		}
		var se *pdn.SyntaxError
		if err != nil && !errors.As(err, &se) {
			// The reader's own failure (breakReader hides I/O errors).
			if ferr := flush(); ferr != nil {
				return n, rd.Consumed(), ferr
			}
			return n, rd.Consumed(), sourceError(src.Name, n+1, err)
		}
		if g == nil {
			continue
		}
		if held != nil {
			if err := add(held, heldErr); err != nil {
				return n, rd.Consumed(), err
			}
		}
		held, heldErr = g, err
		if ctx.Err() != nil {
			return n, rd.Consumed(), ctx.Err()
		}
	}
	if cut.err != nil {
		at := 0
		if held != nil {
			at = held.Ordinal // left out: it may be cut short
		}
		if err := flush(); err != nil {
			return n, rd.Consumed(), err
		}
		e := sourceError(src.Name, at, cut.err)
		if at > 0 {
			e.Note = "the text breaks off in this game; the games before it are kept"
		}
		return n, rd.Consumed(), e
	}
	if held != nil {
		if err := add(held, heldErr); err != nil {
			return n, rd.Consumed(), err
		}
	}
	if err := flush(); err != nil {
		return n, rd.Consumed(), err
	}
	return n, rd.Consumed(), nil
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
