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
	"strings"
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
	sum = &Summary{RejectedByReason: map[string]int{}}
	notice := opts.Notice
	batchSize := opts.BatchSize
	depth := opts.OpeningDepth
	fail := func(e *SourceError) {
		sum.SourcesFailed++
		sum.Failures = append(sum.Failures, Failure{Source: e.Source, Game: e.Game, Error: e.Error()})
		notice("failed: " + e.Error())
	}
	srcs, errs := source.Expand(paths)
	for _, e := range errs {
		name := "?"
		var se *source.Error
		if errors.As(e, &se) {
			name = se.Name
		}
		// A path that cannot be opened (missing, an unreadable zip) is a
		// source that failed: Sources counts it with the others.
		sum.Sources++
		fail(sourceError(name, 0, e))
	}
	// One Go processor more than the CPUs while the import runs. The
	// replay worker keeps a processor busy, and the writer's side of the
	// COPY (pgx's goroutine that sends a batch as the socket drains, and the
	// writer waiting for PostgreSQL's answers) is woken by the network
	// poller, which a busy processor only consults when it runs out of
	// work or sysmon does (up to 10 ms): meanwhile PostgreSQL waited for
	// the next bytes. With a processor more, one is idle in the poller.
	// On 2 CPUs, 250,000 generated games (BenchmarkImport, PostgreSQL's
	// backend schedstat, 3 alternating runs on a loaded machine):
	// PostgreSQL slept 0.13-0.23 s waiting for the games' COPY data,
	// against 0.32-0.67 s. Left alone when GOMAXPROCS was set, or already
	// raised (by another Import in this process, which then restores it
	// first: harmless, the other import merely loses the extra processor).
	if p := runtime.GOMAXPROCS(0); p == runtime.NumCPU() && os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(p + 1)
		defer runtime.GOMAXPROCS(p)
	}
	spoolDir := opts.SpoolDir
	if spoolDir == "" {
		spoolDir = defaultSpoolDir()
	}
	removeStaleSpools(spoolDir, notice)
	srcs, cleanup, err := spoolStdin(srcs, spoolDir)
	defer cleanup()
	if err != nil {
		return sum, err
	}

	conn, err := pool.Acquire(ctx)
	if err != nil {
		return sum, err
	}
	defer conn.Release()
	var got bool
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", schema.ImportLock).Scan(&got); err != nil {
		return sum, err
	}
	if !got {
		notice("waiting for another import into this database to finish")
		if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", schema.ImportLock); err != nil {
			return sum, err
		}
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", schema.ImportLock) //nolint:errcheck

	// Decide per source: new, resumed, already imported (skipped) or failed.
	states := map[*source.Source]*sourceState{}
	seen := map[int64]string{} // source ids registered in this run
	var todo []*source.Source
	// A run stopped by the database (its disk, its server) fails every
	// source it had not finished, with the cause named, so that the
	// summary's counts agree with the exit status; a re-run resumes them.
	ended := map[*sourceState]bool{} // by the writer, read after it is done
	defer func() {
		if err == nil || ctx.Err() != nil {
			return
		}
		for _, s := range todo {
			if st := states[s]; st != nil && !ended[st] {
				fail(sourceError(st.name, 0, schema.DescribeError(err)))
			}
		}
	}()
	var total int64
	maxDepth := depth
	for _, s := range srcs {
		sum.Sources++
		st, msg, err := prepareSource(ctx, conn.Conn(), s, opts.Force, depth, seen)
		if err != nil {
			if ctx.Err() != nil {
				return sum, ctx.Err()
			}
			var dbErr *dbError
			if errors.As(err, &dbErr) {
				return sum, dbErr.err
			}
			fail(sourceError(s.Name, 0, err))
			continue
		}
		if msg != "" {
			notice(msg)
		}
		if st != nil {
			st.name = s.Name
		}
		if st == nil {
			sum.SourcesSkipped++
			continue
		}
		if first, dup := seen[st.id]; dup {
			sum.SourcesSkipped++
			notice(fmt.Sprintf("skipped: %s: the same text as %s in this run", s.Name, first))
			continue
		}
		seen[st.id] = s.Name
		sum.SourceIDs = append(sum.SourceIDs, st.id)
		if st.skip > 0 {
			sum.SourcesResumed++
		}
		states[s] = st
		maxDepth = max(maxDepth, st.openingDepth)
		todo = append(todo, s)
		total += max(s.Size, 0)
	}

	// The writer runs on its own goroutine, so that reading and replay go
	// on while PostgreSQL takes a batch: the import then costs little more
	// than the COPY itself. Batches are written strictly in order.
	widenSendBuffer(conn.Conn().PgConn().Conn())
	w := &writer{conn: conn.Conn(), players: map[string]int32{}}
	if err := w.useFilter(ctx); err != nil {
		return sum, err
	}
	type message struct {
		st    *sourceState
		items []Item
		end   *Event // SourceEnd: mark the source done or failed after its last batch
		done  int64  // bytes of the sources up to the last item (Committed)
	}
	committed := 0 // games in committed batches
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	writes := make(chan message, 2)
	writeDone := make(chan error, 1)
	go func() {
		var werr error
		for m := range writes {
			if werr != nil {
				continue // drain
			}
			if len(m.items) > 0 && m.st.failed.Load() == nil {
				c, err := w.writeBatch(runCtx, m.st, m.items)
				if err != nil {
					// Data the database refuses fails this source alone;
					// anything else (the connection, the disk) stops the
					// run, which a re-run resumes.
					se := storeFailure(m.st.name, m.items, err)
					if se == nil || runCtx.Err() != nil || w.conn.IsClosed() {
						werr = err
						cancel()
						continue
					}
					m.st.failed.Store(se)
				} else {
					committed += len(m.items)
					sum.Imported += c.imported
					sum.Duplicates += c.duplicates
					sum.Rejected += c.rejected
					for r, n := range c.byReason {
						sum.RejectedByReason[r] += n
					}
				}
			}
			if ev := m.end; ev != nil {
				status, errText := "done", (*string)(nil)
				fe := m.st.failed.Load()
				if fe == nil && ev.Err != nil {
					fe = sourceError(m.st.name, 0, ev.Err)
					if fe.Note == breakNote {
						fe.Note = breakNoteImport
					}
				}
				if fe != nil {
					status = "failed"
					e := capText(dbText(fe.Error()), maxMessage)
					errText = &e
					fail(fe)
					ended[m.st] = true
				}
				if _, err := w.conn.Exec(runCtx, `UPDATE sources SET status = $2, error = $3, finished_at = now() WHERE id = $1`,
					m.st.id, status, errText); err != nil {
					werr = err
					cancel()
				} else {
					ended[m.st] = true
				}
			}
			if opts.Committed != nil && werr == nil {
				opts.Committed(m.done, total, committed)
			}
		}
		writeDone <- werr
	}()
	var pending []Item
	var done int64
	send := func(m message) error {
		select {
		case writes <- m:
			return nil
		case <-runCtx.Done():
			return runCtx.Err()
		}
	}
	cfg := Config{Workers: opts.Workers, Replay: replay.Options{Variant: opts.Variant, NoSetups: true}, Prepare: preparer(maxDepth),
		Skip: func(s *source.Source) int { return states[s].skip },
		Stop: func(s *source.Source) bool { return states[s].failed.Load() != nil }}
	err = Run(runCtx, todo, cfg, inferSources(cfg, func(ev *Event) error {
		st := states[ev.Source]
		switch ev.Kind {
		case Games:
			sum.GamesRead += len(ev.Items)
			pending = append(pending, ev.Items...)
			if len(pending) >= batchSize {
				if err := send(message{st: st, items: pending, done: done + ev.Consumed}); err != nil {
					return err
				}
				pending = make([]Item, 0, batchSize+256)
			}
			if opts.Progress != nil {
				opts.Progress(done+ev.Consumed, total, sum.GamesRead)
			}
		case SourceEnd:
			if err := send(message{st: st, items: pending, end: ev, done: done + max(ev.Source.Size, 0)}); err != nil {
				return err
			}
			pending = make([]Item, 0, batchSize+256)
			done += max(ev.Source.Size, 0)
			if opts.Progress != nil {
				opts.Progress(done, total, sum.GamesRead)
			}
		}
		return nil
	}))
	close(writes)
	if werr := <-writeDone; werr != nil {
		err = werr
	} else if err != nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		// Stopped: the games read beyond the last committed batch are
		// not kept, and the next run reads them again; the summary counts
		// what this run did, not what its reader had run ahead to.
		sum.GamesRead = committed
	}
	sum.Seconds = time.Since(start).Seconds()
	if sum.Seconds > 0 {
		sum.GamesPerSecond = float64(sum.GamesRead) / sum.Seconds
	}
	return sum, err
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
		lengths[i] = c.length
	}
	h := hashSource(s, lengths)
	if h.err != nil && h.n == 0 {
		return nil, "", h.err // nothing read: nothing to identify or keep
	}
	sha := h.identity()
	var id int64
	var status string
	var read, stored, dups, rejected int
	var finished *time.Time
	var oldDepth *int16
	err = conn.QueryRow(ctx, `SELECT id, status, games_read, games_imported, duplicates, rejected, finished_at, opening_depth FROM sources WHERE sha256 = $1`, sha).Scan(&id, &status, &read, &stored, &dups, &rejected, &finished, &oldDepth)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return nil, "", &dbError{err}
	case status == "done" && !force:
		when := ""
		if finished != nil {
			when = " on " + finished.Format("2006-01-02 15:04")
		}
		return nil, fmt.Sprintf("skipped: %s: already imported%s (source %d, same SHA-256); --force re-imports it", s.Name, when, id), nil
	case status == "done" && force:
		// One transaction: the games of other sources recorded as
		// duplicates of this one's follow it to its new id (the same text:
		// its ordinals hold the same games), and a crash leaves either the
		// old source or the new one, never links to neither.
		tx, err := conn.Begin(ctx)
		if err != nil {
			return nil, "", &dbError{err}
		}
		defer tx.Rollback(ctx)
		if _, err := tx.Exec(ctx, `DELETE FROM sources WHERE id = $1`, id); err != nil {
			return nil, "", &dbError{err}
		}
		old := id
		if id, err = insertSource(ctx, tx, s, sha, depth); err != nil {
			return nil, "", err
		}
		if _, err := tx.Exec(ctx, `UPDATE duplicates SET of_source_id = $1 WHERE of_source_id = $2`, id, old); err != nil {
			return nil, "", &dbError{err}
		}
		if err := tx.Commit(ctx); err != nil {
			return nil, "", &dbError{err}
		}
		msg := fmt.Sprintf("re-importing %s (--force): removed the %d games it had stored (of %d read: %d duplicates, %d rejected)", s.Name, stored, read, dups, rejected)
		return &sourceState{id: id, openingDepth: depth}, msg, nil
	default: // interrupted or failed before: go on after what was committed
		return resumeSource(ctx, conn, s, id, read, oldDepth, depth, "")
	}
	// A text that begins with the whole readable text of a source that
	// broke off continues it (a repaired file): the longest such source
	// takes the new text and resumes after its last stored game.
	var best *brokenSource
	for i := range cands {
		c := &cands[i]
		if h.at[c.length] == c.sha && (best == nil || c.length > best.length) {
			best = c
		}
	}
	if best != nil {
		if err := conn.QueryRow(ctx, `UPDATE sources SET sha256 = $2, size = $3 WHERE id = $1 RETURNING games_read, opening_depth`,
			best.id, sha, sizeOf(s)).Scan(&read, &oldDepth); err != nil {
			return nil, "", &dbError{err}
		}
		return resumeSource(ctx, conn, s, best.id, read, oldDepth, depth,
			fmt.Sprintf("resuming %s after game %d: its text continues that of source %d (%s), which broke off", s.Name, read, best.id, best.name))
	}
	id, err = insertSource(ctx, conn, s, sha, depth)
	return &sourceState{id: id, openingDepth: depth}, "", err
}

// resumeSource marks a source that did not finish as importing again and
// returns the state that skips the games it committed.
func resumeSource(ctx context.Context, conn *pgx.Conn, s *source.Source, id int64, read int, oldDepth *int16, depth int, msg string) (*sourceState, string, error) {
	if _, err := conn.Exec(ctx, `UPDATE sources SET status = 'importing', name = $2, error = NULL, finished_at = NULL WHERE id = $1`, id, dbText(s.Name)); err != nil {
		return nil, "", &dbError{err}
	}
	if msg == "" && read > 0 {
		msg = fmt.Sprintf("resuming %s after game %d (an earlier import stopped there)", s.Name, read)
	}
	if oldDepth != nil {
		depth = int(*oldDepth)
	} else if _, err := conn.Exec(ctx, `UPDATE sources SET opening_depth = $2 WHERE id = $1`, id, depth); err != nil {
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

func insertSource(ctx context.Context, conn interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, s *source.Source, sha string, depth int) (int64, error) {
	var id int64
	err := conn.QueryRow(ctx, `INSERT INTO sources (name, size, sha256, opening_depth) VALUES ($1, $2, $3, $4) RETURNING id`, dbText(s.Name), sizeOf(s), sha, int16(depth)).Scan(&id)
	if err != nil {
		return 0, &dbError{err}
	}
	return id, nil
}

// brokenPrefix marks the identity of a source whose text broke off: its
// sha256 column holds "prefix:<bytes>:<sha256 of those bytes>", the text it
// could read, instead of the hash of a whole text. (A column of its own
// would be cleaner; this one needs no migration.)
const brokenPrefix = "prefix:"

// brokenSource is a source whose text broke off, as recorded.
type brokenSource struct {
	id     int64
	name   string
	length int64  // bytes of text read before the break
	sha    string // their SHA-256, hex
}

// brokenSources lists the unfinished sources whose text broke off, except
// those claimed by this run.
func brokenSources(ctx context.Context, conn *pgx.Conn, claimed map[int64]string) ([]brokenSource, error) {
	rows, err := conn.Query(ctx, `SELECT id, name, sha256 FROM sources WHERE sha256 LIKE 'prefix:%' AND status <> 'done'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []brokenSource
	for rows.Next() {
		var b brokenSource
		var ident string
		if err := rows.Scan(&b.id, &b.name, &ident); err != nil {
			return nil, err
		}
		n, sha, ok := strings.Cut(strings.TrimPrefix(ident, brokenPrefix), ":")
		length, perr := strconv.ParseInt(n, 10, 64)
		if _, taken := claimed[b.id]; !ok || perr != nil || length <= 0 || taken {
			continue
		}
		b.length, b.sha = length, sha
		out = append(out, b)
	}
	return out, rows.Err()
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
	return brokenPrefix + strconv.FormatInt(h.n, 10) + ":" + h.sha
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
