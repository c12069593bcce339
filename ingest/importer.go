package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Options control an import. The zero value is usable; Import checks
// them first (at most 1024 workers, 1,000,000 games a batch,
// openings.MaxDepth plies) and fills the defaults.
type Options struct {
	Workers   int            // replay workers; <= 0: DefaultImportWorkers()
	BatchSize int            // games per transaction; <= 0: 5000
	Force     bool           // re-import sources already imported
	Variant   *rules.Variant // force a variant; nil: per game
	// OpeningDepth is how many plies of each game the opening statistics
	// count (see analysis/openings); <= 0: openings.DefaultDepth. A resumed
	// source keeps the depth it was started with.
	OpeningDepth int
	// Progress, when set, is called as games are read with the bytes
	// consumed over all sources, their total size and the games read.
	Progress func(done, total int64, games int)
	// Committed, when set, is called as each batch is committed (or a
	// source ends) with the bytes of the sources up to that batch's last
	// game, their total size and the games committed so far: what a run
	// stopped then would keep. The reader runs batches ahead of the
	// database, so this is the progress to show and to estimate from.
	Committed func(done, total int64, games int)
	// Notice, when set, receives one line per source event worth telling
	// (already imported, resumed, failed).
	Notice func(string)
	// SpoolDir is where standard input is copied before it is imported;
	// "" means a directory of the user's in the system's temporary
	// directory (see spool.go).
	SpoolDir string
}

// DefaultImportWorkers is the import's number of replay workers when none
// is set: one per CPU but one, at least one. The import is as fast as the
// PostgreSQL backend that takes its COPY, a single process that needs a
// core of its own; one worker replays ~150,000 games/s, three times what
// that backend stores. With a worker on every core the backend waited for
// a CPU: on the 2-core machine, 250,000 generated games took 6.4-6.8 s
// with 2 workers and 5.9-6.6 s with 1 (quiet), and 7.7-8.3 s against
// 6.1-6.4 s with another process busy on one core, the backend waiting
// 1.2-1.8 s against 0.5-0.8 s in the run queue (BenchmarkImport,
// DRAUGHTSDB_BENCH_WORKERS, alternating runs). The writer's goroutine, too,
// then finds a Go processor free when PostgreSQL answers.
func DefaultImportWorkers() int { return max(1, runtime.NumCPU()-1) }

// maxBatchSize bounds Options.BatchSize: a batch is held in memory and
// written in one transaction.
const maxBatchSize = 1_000_000

// check validates o and fills its defaults.
func (o *Options) check() error {
	switch {
	case o.Workers > maxWorkers:
		return fmt.Errorf("import: %d workers: at most %d", o.Workers, maxWorkers)
	case o.BatchSize > maxBatchSize:
		return fmt.Errorf("import: batches of %d games: at most %d", o.BatchSize, maxBatchSize)
	case o.OpeningDepth > openings.MaxDepth:
		return fmt.Errorf("import: an opening depth of %d plies: at most %d", o.OpeningDepth, openings.MaxDepth)
	}
	if o.Notice == nil {
		o.Notice = func(string) {}
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 5000
	}
	if o.Workers <= 0 {
		o.Workers = DefaultImportWorkers()
	}
	if o.OpeningDepth <= 0 {
		o.OpeningDepth = openings.DefaultDepth
	}
	return nil
}

// Summary is what an import did.
type Summary struct {
	Sources          int            `json:"sources"`         // every source, the failed ones included
	SourcesSkipped   int            `json:"sources_skipped"` // already imported
	SourcesResumed   int            `json:"sources_resumed"`
	SourcesFailed    int            `json:"sources_failed"`
	GamesRead        int            `json:"games_read"`
	Imported         int            `json:"imported"`
	Duplicates       int            `json:"duplicates"`
	Rejected         int            `json:"rejected"`
	RejectedByReason map[string]int `json:"rejected_by_reason"`
	Seconds          float64        `json:"seconds"`
	GamesPerSecond   float64        `json:"games_per_second"`
	// Failures lists the sources that failed, in the order they failed.
	Failures []Failure `json:"failures,omitempty"`
	// SourceIDs are the sources this run imported or resumed.
	SourceIDs []int64 `json:"-"`
}

// Failure is one failed source of a Summary.
type Failure struct {
	Source string `json:"source"`
	Game   int    `json:"game,omitempty"` // where it stopped; 0: none or not known
	Error  string `json:"error"`          // the whole message (SourceError.Error)
}

type sourceState struct {
	id           int64
	name         string
	skip         int // games committed by an earlier, interrupted run
	openingDepth int // plies counted in the opening statistics
	// failed is set by the writer when a batch of the source could not be
	// stored: the source ends there and the run goes on with the others.
	failed atomic.Pointer[SourceError]
}

// Notes added to a SourceError: what became of the source's games.
const (
	breakNote       = "the text breaks off in this game; the games before it are kept"
	breakNoteImport = "the text breaks off in this game; the games before it are stored, and importing a complete copy of the file resumes after them"
)

// Import reads, verifies and stores the games of paths (files,
// directories, .gz, .zip, "-"). A source that cannot be read or stored
// fails alone (a *SourceError in Summary.Failures, the source marked failed
// with its error); the others go on. The error is non-nil only when the run
// itself could not go on (the database, a cancelled context).
//
// A source whose text breaks off (a truncated .gz) keeps the complete games
// before the break and is recorded under the hash of the text it could read
// ("prefix:<bytes>:<sha256>" in sources.sha256, see hashSource): running the
// import again on the same file adds nothing, and a repaired file, whose
// text begins with those bytes, takes the source over and resumes after its
// last stored game.
func Import(ctx context.Context, pool *pgxpool.Pool, paths []string, opts Options) (sum *Summary, err error) {
	start := time.Now()
	if err := opts.check(); err != nil {
		return nil, err
	}
	r := &importRun{opts: opts, sum: &Summary{RejectedByReason: map[string]int{}},
		states: map[*source.Source]*sourceState{}, ended: map[*sourceState]bool{}, maxDepth: opts.OpeningDepth}
	srcs := r.expand(paths)
	defer lendProcessor()()
	srcs, cleanup, err := r.spool(srcs)
	defer cleanup()
	if err != nil {
		return r.sum, err
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return r.sum, err
	}
	defer conn.Release()
	unlock, err := lockImports(ctx, conn, opts.Notice)
	if err != nil {
		return r.sum, err
	}
	defer unlock()
	// A run stopped by the database (its disk, its server) fails every
	// source it had not finished, with the cause named, so that the
	// summary's counts agree with the exit status; a re-run resumes them.
	defer func() {
		if err != nil && ctx.Err() == nil {
			r.failUnfinished(err)
		}
	}()
	if err := r.register(ctx, conn.Conn(), srcs); err != nil {
		return r.sum, err
	}
	err = r.store(ctx, conn.Conn())
	r.finish(start, err)
	return r.sum, err
}

// importRun is one Import under way: its summary and the sources it
// stores.
type importRun struct {
	opts     Options
	sum      *Summary
	states   map[*source.Source]*sourceState
	todo     []*source.Source // the sources to read, in order
	total    int64            // their bytes
	maxDepth int              // the deepest opening depth of their statistics
	// ended holds the sources the writer marked done or failed; it and
	// committed (the games in committed batches) are the writer's, read
	// after it is done.
	ended     map[*sourceState]bool
	committed int
}

// message is a batch of a source's games for the writer; the last batch of
// a source (maybe empty) carries its end, SourceEnd, after which the
// writer marks the source done or failed.
type message struct {
	st    *sourceState
	items []Item
	end   *Event
	done  int64 // bytes of the sources up to the last item (Committed)
}

// fail records a failed source.
func (r *importRun) fail(e *SourceError) {
	r.sum.SourcesFailed++
	r.sum.Failures = append(r.sum.Failures, Failure{Source: e.Source, Game: e.Game, Error: e.Error()})
	r.opts.Notice("failed: " + e.Error())
}

// expand lists the sources of paths. A path that cannot be opened
// (missing, an unreadable zip) is a source that failed: Sources counts it
// with the others.
func (r *importRun) expand(paths []string) []*source.Source {
	srcs, errs := source.Expand(paths)
	for _, e := range errs {
		name := "?"
		var se *source.Error
		if errors.As(e, &se) {
			name = se.Name
		}
		r.sum.Sources++
		r.fail(sourceError(name, 0, e))
	}
	return srcs
}

// lendProcessor gives the Go runtime one processor more than the CPUs
// while the import runs, and returns what gives it back. The replay worker
// keeps a processor busy, and the writer's side of the COPY (pgx's
// goroutine that sends a batch as the socket drains, and the writer
// waiting for PostgreSQL's answers) is woken by the network poller, which
// a busy processor only consults when it runs out of work or sysmon does
// (up to 10 ms): meanwhile PostgreSQL waited for the next bytes. With a
// processor more, one is idle in the poller. On 2 CPUs, 250,000 generated
// games (BenchmarkImport, PostgreSQL's backend schedstat, 3 alternating
// runs on a loaded machine): PostgreSQL slept 0.13-0.23 s waiting for the
// games' COPY data, against 0.32-0.67 s. Left alone when GOMAXPROCS was
// set, or already raised (by another Import in this process, which then
// restores it first: harmless, the other import merely loses the extra
// processor).
func lendProcessor() (restore func()) {
	p := runtime.GOMAXPROCS(0)
	if p != runtime.NumCPU() || os.Getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	runtime.GOMAXPROCS(p + 1)
	return func() { runtime.GOMAXPROCS(p) }
}

// spool removes the spool files of imports that died and copies standard
// input, when a source is "-", to a new one (see spoolStdin).
func (r *importRun) spool(srcs []*source.Source) ([]*source.Source, func(), error) {
	dir := r.opts.SpoolDir
	if dir == "" {
		dir = defaultSpoolDir()
	}
	removeStaleSpools(dir, r.opts.Notice)
	return spoolStdin(srcs, dir)
}

// lockImports takes schema.ImportLock on conn, saying so when it must
// wait for another import to finish first.
func lockImports(ctx context.Context, conn *pgxpool.Conn, notice func(string)) (unlock func(), err error) {
	unlock, ok, err := schema.TryLock(ctx, conn, schema.ImportLock)
	if err != nil || ok {
		return unlock, err
	}
	notice("waiting for another import into this database to finish")
	return schema.Lock(ctx, conn, schema.ImportLock)
}

// register decides per source: new, resumed, already imported (skipped)
// or failed, and registers the sources to read in the database and in r.
// Its error is the database's, or ctx's.
func (r *importRun) register(ctx context.Context, conn *pgx.Conn, srcs []*source.Source) error {
	seen := map[int64]string{} // source ids registered in this run
	for _, s := range srcs {
		r.sum.Sources++
		st, msg, err := prepareSource(ctx, conn, s, r.opts.Force, r.opts.OpeningDepth, seen)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			var dbErr *dbError
			if errors.As(err, &dbErr) {
				return dbErr.err
			}
			r.fail(sourceError(s.Name, 0, err))
			continue
		}
		if msg != "" {
			r.opts.Notice(msg)
		}
		if st == nil {
			r.sum.SourcesSkipped++
			continue
		}
		st.name = s.Name
		if first, dup := seen[st.id]; dup {
			r.sum.SourcesSkipped++
			r.opts.Notice(fmt.Sprintf("skipped: %s: the same text as %s in this run", s.Name, first))
			continue
		}
		seen[st.id] = s.Name
		r.sum.SourceIDs = append(r.sum.SourceIDs, st.id)
		if st.skip > 0 {
			r.sum.SourcesResumed++
		}
		r.states[s] = st
		r.maxDepth = max(r.maxDepth, st.openingDepth)
		r.todo = append(r.todo, s)
		r.total += max(s.Size, 0)
	}
	return nil
}

// store reads, replays and stores the sources registered. The writer runs
// on its own goroutine, so that reading and replay go on while PostgreSQL
// takes a batch: the import then costs little more than the COPY itself.
// Batches are written strictly in order.
func (r *importRun) store(ctx context.Context, conn *pgx.Conn) error {
	widenSendBuffer(conn.PgConn().Conn())
	w := &writer{conn: conn, players: map[string]int32{}}
	if err := w.useFilter(ctx); err != nil {
		return err
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	writes := make(chan message, 2)
	writeDone := make(chan error, 1)
	go func() { writeDone <- r.write(runCtx, cancel, w, writes) }()
	err := r.read(runCtx, writes)
	close(writes)
	if werr := <-writeDone; werr != nil {
		err = werr
	} else if err != nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return err
}

// read runs the pipeline over the sources registered and sends their
// games to the writer in batches of opts.BatchSize; a source's last batch
// carries its end.
func (r *importRun) read(ctx context.Context, writes chan<- message) error {
	batchSize := r.opts.BatchSize
	var pending []Item
	var done int64 // bytes of the sources read to their end
	send := func(m message) error {
		select {
		case writes <- m:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	progress := func(n int64) {
		if r.opts.Progress != nil {
			r.opts.Progress(n, r.total, r.sum.GamesRead)
		}
	}
	cfg := Config{Workers: r.opts.Workers, Replay: replay.Options{Variant: r.opts.Variant, NoSetups: true}, Prepare: preparer(r.maxDepth),
		Skip: func(s *source.Source) int { return r.states[s].skip },
		Stop: func(s *source.Source) bool { return r.states[s].failed.Load() != nil }}
	return Run(ctx, r.todo, cfg, inferSources(cfg, func(ev *Event) error {
		st := r.states[ev.Source]
		switch ev.Kind {
		case Games:
			r.sum.GamesRead += len(ev.Items)
			pending = append(pending, ev.Items...)
			if len(pending) >= batchSize {
				if err := send(message{st: st, items: pending, done: done + ev.Consumed}); err != nil {
					return err
				}
				pending = make([]Item, 0, batchSize+256)
			}
			progress(done + ev.Consumed)
		case SourceEnd:
			if err := send(message{st: st, items: pending, end: ev, done: done + max(ev.Source.Size, 0)}); err != nil {
				return err
			}
			pending = make([]Item, 0, batchSize+256)
			done += max(ev.Source.Size, 0)
			progress(done)
		}
		return nil
	}))
}

// write is the writer's loop over the messages of read. An error that
// stops the run cancels it (read then stops) and is returned after the
// messages still sent are drained.
func (r *importRun) write(ctx context.Context, cancel func(), w *writer, writes <-chan message) error {
	var werr error
	for m := range writes {
		if werr != nil {
			continue // drain
		}
		if werr = r.writeMessage(ctx, w, m); werr != nil {
			cancel()
			continue
		}
		if r.opts.Committed != nil {
			r.opts.Committed(m.done, r.total, r.committed)
		}
	}
	return werr
}

// writeMessage stores m's batch unless its source failed already, then
// ends the source when m carries its end. Data the database refuses fails
// this source alone; anything else (the connection, the disk) stops the
// run, which a re-run resumes: that is the error returned.
func (r *importRun) writeMessage(ctx context.Context, w *writer, m message) error {
	if len(m.items) > 0 && m.st.failed.Load() == nil {
		c, err := w.writeBatch(ctx, m.st, m.items)
		if err != nil {
			se := storeFailure(m.st.name, m.items, err)
			if se == nil || ctx.Err() != nil || w.conn.IsClosed() {
				return err
			}
			m.st.failed.Store(se)
		} else {
			r.committed += len(m.items)
			r.sum.Imported += c.imported
			r.sum.Duplicates += c.duplicates
			r.sum.Rejected += c.rejected
			for reason, n := range c.byReason {
				r.sum.RejectedByReason[reason] += n
			}
		}
	}
	if m.end != nil {
		return r.endSource(ctx, w, m.st, m.end)
	}
	return nil
}

// endSource marks st done after its last batch, or failed: a batch the
// database refused, or the source's own error (ev.Err: it could not be
// read to its end).
func (r *importRun) endSource(ctx context.Context, w *writer, st *sourceState, ev *Event) error {
	fe := st.failed.Load()
	if fe == nil && ev.Err != nil {
		fe = sourceError(st.name, 0, ev.Err)
		if fe.Note == breakNote {
			fe.Note = breakNoteImport
		}
	}
	var errText *string
	if fe != nil {
		e := capText(dbText(fe.Error()), maxMessage)
		errText = &e
		r.fail(fe)
		r.ended[st] = true
	}
	if err := schema.FinishImportSource(ctx, w.conn, st.id, errText); err != nil {
		return err
	}
	r.ended[st] = true
	return nil
}

// failUnfinished fails the sources registered that the writer did not
// end, with err (the database's) named.
func (r *importRun) failUnfinished(err error) {
	for _, s := range r.todo {
		if st := r.states[s]; st != nil && !r.ended[st] {
			r.fail(sourceError(st.name, 0, schema.DescribeError(err)))
		}
	}
}

// finish completes the summary of a run that ended with err.
func (r *importRun) finish(start time.Time, err error) {
	if err != nil {
		// Stopped: the games read beyond the last committed batch are
		// not kept, and the next run reads them again; the summary counts
		// what this run did, not what its reader had run ahead to.
		r.sum.GamesRead = r.committed
	}
	r.sum.Seconds = time.Since(start).Seconds()
	if r.sum.Seconds > 0 {
		r.sum.GamesPerSecond = float64(r.sum.GamesRead) / r.sum.Seconds
	}
}

// dbError marks a database failure during preparation (fatal for the run,
// unlike a source that cannot be read).
type dbError struct{ err error }

func (e *dbError) Error() string { return e.err.Error() }

// prepareSource hashes the source and registers it. It returns nil state
// for a source imported already (and not forced). claimed holds the sources
// this run took already, which a text that broke off must not take over.
func prepareSource(ctx context.Context, conn *pgx.Conn, s *source.Source, force bool, depth int, claimed map[int64]string) (*sourceState, string, error) {
	cands, err := brokenSources(ctx, conn, claimed)
	if err != nil {
		return nil, "", &dbError{err}
	}
	lengths := make([]int64, len(cands))
	for i, c := range cands {
		lengths[i] = c.Length
	}
	h := hashSource(s, lengths)
	if h.err != nil && h.n == 0 {
		return nil, "", h.err // nothing read: nothing to identify or keep
	}
	sha := h.identity()
	reg := schema.NewImportSource{Name: dbText(s.Name), Size: sizeOf(s), SHA: sha, OpeningDepth: int16(depth)}
	old, found, err := schema.FindImportSource(ctx, conn, sha)
	switch {
	case err != nil:
		return nil, "", &dbError{err}
	case !found:
	case old.Status == "done" && !force:
		when := ""
		if old.FinishedAt != nil {
			when = " on " + old.FinishedAt.Format("2006-01-02 15:04")
		}
		return nil, fmt.Sprintf("skipped: %s: already imported%s (source %d, same SHA-256); --force re-imports it", s.Name, when, old.ID), nil
	case old.Status == "done" && force:
		id, err := schema.ReplaceImportSource(ctx, conn, old.ID, reg)
		if err != nil {
			return nil, "", &dbError{err}
		}
		msg := fmt.Sprintf("re-importing %s (--force): removed the %d games it had stored (of %d read: %d duplicates, %d rejected)",
			s.Name, old.GamesImported, old.GamesRead, old.Duplicates, old.Rejected)
		return &sourceState{id: id, openingDepth: depth}, msg, nil
	default: // interrupted or failed before: go on after what was committed
		return resumeSource(ctx, conn, s, old.ID, old.GamesRead, old.OpeningDepth, depth, "")
	}
	if best := h.continues(cands); best != nil {
		read, oldDepth, err := schema.TakeOverSource(ctx, conn, best.ID, sha, sizeOf(s))
		if err != nil {
			return nil, "", &dbError{err}
		}
		return resumeSource(ctx, conn, s, best.ID, read, oldDepth, depth,
			fmt.Sprintf("resuming %s after game %d: its text continues that of source %d (%s), which broke off", s.Name, read, best.ID, best.Name))
	}
	id, err := schema.InsertImportSource(ctx, conn, reg)
	if err != nil {
		return nil, "", &dbError{err}
	}
	return &sourceState{id: id, openingDepth: depth}, "", nil
}

// continues returns the source of cands whose text the hashed text
// continues, or nil. A text that begins with the whole readable text of a
// source that broke off continues it (a repaired file): the longest such
// source takes the new text and resumes after its last stored game.
func (h *sourceHash) continues(cands []schema.BrokenSource) *schema.BrokenSource {
	var best *schema.BrokenSource
	for i := range cands {
		c := &cands[i]
		if h.at[c.Length] == c.SHA && (best == nil || c.Length > best.Length) {
			best = c
		}
	}
	return best
}

// resumeSource marks a source that did not finish as importing again and
// returns the state that skips the games it committed.
func resumeSource(ctx context.Context, conn *pgx.Conn, s *source.Source, id int64, read int, oldDepth *int16, depth int, msg string) (*sourceState, string, error) {
	if err := schema.ResumeImportSource(ctx, conn, id, dbText(s.Name)); err != nil {
		return nil, "", &dbError{err}
	}
	if msg == "" && read > 0 {
		msg = fmt.Sprintf("resuming %s after game %d (an earlier import stopped there)", s.Name, read)
	}
	if oldDepth != nil {
		depth = int(*oldDepth)
	} else if err := schema.SetOpeningDepth(ctx, conn, id, int16(depth)); err != nil {
		return nil, "", &dbError{err}
	}
	return &sourceState{id: id, skip: read, openingDepth: depth}, msg, nil
}

func sizeOf(s *source.Source) *int64 {
	if s.Size < 0 {
		return nil
	}
	size := s.Size
	return &size
}

// brokenSources lists the unfinished sources whose text broke off, except
// those claimed by this run.
func brokenSources(ctx context.Context, conn *pgx.Conn, claimed map[int64]string) ([]schema.BrokenSource, error) {
	all, err := schema.BrokenSources(ctx, conn)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, b := range all {
		if _, taken := claimed[b.ID]; !taken {
			out = append(out, b)
		}
	}
	return out, nil
}

// sourceHash is what hashSource found.
type sourceHash struct {
	sha string           // SHA-256 of the text read, hex
	n   int64            // bytes of text read
	err error            // why the text broke off; nil: read to its end
	at  map[int64]string // SHA-256 of the first bytes, at the lengths asked for
}

// identity is the sources.sha256 of the text: its hash, or for a text that
// broke off, its length and the hash of what could be read.
func (h *sourceHash) identity() string {
	if h.err == nil {
		return h.sha
	}
	return schema.BrokenPrefix + strconv.FormatInt(h.n, 10) + ":" + h.sha
}

// hashSource reads a source once to compute the SHA-256 of its PDN text,
// which identifies it across runs, and the hashes of its first bytes at
// each of lengths (to recognise a repaired copy of a text that broke off).
// A text that breaks off is hashed as far as it could be read.
func hashSource(s *source.Source, lengths []int64) sourceHash {
	r, err := s.Open()
	if err != nil {
		return sourceHash{err: err}
	}
	defer r.Close()
	r.SkipHash()
	ph := &prefixHasher{h: sha256.New(), at: map[int64]string{}}
	ph.want = slices.Compact(slices.Sorted(slices.Values(lengths)))
	_, err = io.Copy(ph, r)
	ph.snapshot() // the hashes at lengths read exactly
	return sourceHash{sha: hex.EncodeToString(ph.h.Sum(nil)), n: ph.n, err: err, at: ph.at}
}

// prefixHasher hashes what is written to it, noting the hash when the
// length reaches each of want (ascending).
type prefixHasher struct {
	h    hash.Hash
	n    int64
	want []int64
	at   map[int64]string
}

func (p *prefixHasher) Write(b []byte) (int, error) {
	total := len(b)
	for len(p.want) > 0 && p.n+int64(len(b)) > p.want[0] {
		k := p.want[0] - p.n
		p.h.Write(b[:k])
		p.n += k
		b = b[k:]
		p.snapshot()
	}
	p.h.Write(b)
	p.n += int64(len(b))
	return total, nil
}

// snapshot notes the hash at the lengths reached exactly.
func (p *prefixHasher) snapshot() {
	for len(p.want) > 0 && p.want[0] <= p.n {
		if p.want[0] == p.n {
			p.at[p.n] = hex.EncodeToString(p.h.Sum(nil))
		}
		p.want = p.want[1:]
	}
}

// spoolStdin copies standard input to a file in dir, so that it can be
// hashed first and read again like any file. The file is named after this
// process (spool.go), so that when the process dies without removing it,
// the next import does.
func spoolStdin(srcs []*source.Source, dir string) ([]*source.Source, func(), error) {
	cleanup := func() {}
	for i, s := range srcs {
		if s.Kind != source.StdIn {
			continue
		}
		f, err := createSpool(dir)
		if err != nil {
			return srcs, cleanup, fmt.Errorf("spool standard input: %w", err)
		}
		cleanup = func() { os.Remove(f.Name()) }
		if _, err := io.Copy(f, source.Stdin); err != nil {
			f.Close()
			return srcs, cleanup, fmt.Errorf("read standard input: %w", err)
		}
		if err := f.Close(); err != nil {
			return srcs, cleanup, err
		}
		spooled, errs := source.Expand([]string{f.Name()})
		if len(errs) > 0 || len(spooled) != 1 {
			return srcs, cleanup, fmt.Errorf("standard input: %v", errors.Join(errs...))
		}
		spooled[0].Name = "-"
		srcs[i] = spooled[0]
	}
	return srcs, cleanup, nil
}

// importSendBuffer is the socket send buffer the import asks for: more than
// a batch's COPY of games (about 1.6 MB for 5,000 generated games).
const importSendBuffer = 4 << 20

// widenSendBuffer asks for importSendBuffer bytes of send buffer on the
// import's connection (the kernel caps it at net.core.wmem_max; 212,992
// bytes by default on Linux, 4 MB on this project's machine). With the
// default buffer PostgreSQL drained it faster than pgx's COPY goroutine,
// which then waited to be scheduled beside the replay worker, and
// PostgreSQL slept meanwhile: 250,000 generated games, 3 alternating
// rounds, PostgreSQL asleep 0.48-0.56 s of the import against 0.34-0.37 s
// with 4 MB, waiting for a CPU 0.36-0.39 s against 0.26-0.29 s, and the
// import 5.30-5.74 s against 5.30-5.54 s. A connection that is not a
// socket (or refuses) keeps its buffer: this only saves time.
func widenSendBuffer(c net.Conn) {
	if sc, ok := c.(interface{ SetWriteBuffer(int) error }); ok {
		_ = sc.SetWriteBuffer(importSendBuffer)
	}
}
