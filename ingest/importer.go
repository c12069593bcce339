package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// importLock serialises imports into one database: duplicate detection
// compares each batch with the games already committed.
const importLock int64 = 0x6472617567687401

// Options control an import. The zero value is usable.
type Options struct {
	Workers   int            // replay workers; <= 0: the number of CPUs
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
	// Notice, when set, receives one line per source event worth telling
	// (already imported, resumed, failed).
	Notice func(string)
}

// Summary is what an import did.
type Summary struct {
	Sources          int            `json:"sources"`
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
	// SourceIDs are the sources this run imported or resumed.
	SourceIDs []int64 `json:"-"`
}

type sourceState struct {
	id           int64
	skip         int // games committed by an earlier, interrupted run
	openingDepth int // plies counted in the opening statistics
}

// Import reads, verifies and stores the games of paths (files,
// directories, .gz, .zip, "-"). A source that cannot be read fails alone;
// the others go on. The error is non-nil only when the run itself could not
// go on (the database, a cancelled context); failed sources are counted in
// the summary.
func Import(ctx context.Context, pool *pgxpool.Pool, paths []string, opts Options) (*Summary, error) {
	start := time.Now()
	sum := &Summary{RejectedByReason: map[string]int{}}
	notice := opts.Notice
	if notice == nil {
		notice = func(string) {}
	}
	batchSize := opts.BatchSize
	if batchSize <= 0 {
		batchSize = 5000
	}
	depth := opts.OpeningDepth
	if depth <= 0 {
		depth = openings.DefaultDepth
	}
	srcs, errs := source.Expand(paths)
	for _, e := range errs {
		sum.SourcesFailed++
		notice(fmt.Sprintf("failed: %v", e))
	}
	srcs, cleanup, err := spoolStdin(srcs)
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
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", importLock).Scan(&got); err != nil {
		return sum, err
	}
	if !got {
		notice("waiting for another import into this database to finish")
		if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", importLock); err != nil {
			return sum, err
		}
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", importLock) //nolint:errcheck

	// Decide per source: new, resumed, already imported (skipped) or failed.
	states := map[*source.Source]*sourceState{}
	seen := map[int64]string{} // source ids registered in this run
	var todo []*source.Source
	var total int64
	maxDepth := depth
	for _, s := range srcs {
		sum.Sources++
		st, msg, err := prepareSource(ctx, conn.Conn(), s, opts.Force, depth)
		if err != nil {
			if ctx.Err() != nil {
				return sum, ctx.Err()
			}
			var dbErr *dbError
			if errors.As(err, &dbErr) {
				return sum, dbErr.err
			}
			sum.SourcesFailed++
			notice(fmt.Sprintf("failed: %s: %v", s.Name, err))
			continue
		}
		if msg != "" {
			notice(msg)
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
	w := &writer{conn: conn.Conn(), players: map[string]int32{}}
	type message struct {
		st    *sourceState
		items []Item
		end   *Event // SourceEnd: mark the source done or failed after its last batch
	}
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
			if len(m.items) > 0 {
				c, err := w.writeBatch(runCtx, m.st, m.items)
				if err != nil {
					werr = err
					cancel()
					continue
				}
				sum.Imported += c.imported
				sum.Duplicates += c.duplicates
				sum.Rejected += c.rejected
				for r, n := range c.byReason {
					sum.RejectedByReason[r] += n
				}
			}
			if ev := m.end; ev != nil {
				status, errText := "done", (*string)(nil)
				if ev.Err != nil {
					status = "failed"
					e := ev.Err.Error()
					errText = &e
					sum.SourcesFailed++
					notice(fmt.Sprintf("failed: %v", ev.Err))
				}
				if _, err := w.conn.Exec(runCtx, `UPDATE sources SET status = $2, error = $3, finished_at = now() WHERE id = $1`,
					m.st.id, status, errText); err != nil {
					werr = err
					cancel()
				}
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
	cfg := Config{Workers: opts.Workers, Replay: replay.Options{Variant: opts.Variant}, Prepare: preparer(maxDepth),
		Skip: func(s *source.Source) int { return states[s].skip }}
	err = Run(runCtx, todo, cfg, func(ev *Event) error {
		st := states[ev.Source]
		switch ev.Kind {
		case Games:
			sum.GamesRead += len(ev.Items)
			pending = append(pending, ev.Items...)
			if len(pending) >= batchSize {
				if err := send(message{st: st, items: pending}); err != nil {
					return err
				}
				pending = make([]Item, 0, batchSize+256)
			}
			if opts.Progress != nil {
				opts.Progress(done+ev.Consumed, total, sum.GamesRead)
			}
		case SourceEnd:
			if err := send(message{st: st, items: pending, end: ev}); err != nil {
				return err
			}
			pending = make([]Item, 0, batchSize+256)
			done += max(ev.Source.Size, 0)
			if opts.Progress != nil {
				opts.Progress(done, total, sum.GamesRead)
			}
		}
		return nil
	})
	close(writes)
	if werr := <-writeDone; werr != nil {
		err = werr
	} else if err != nil && ctx.Err() != nil {
		err = ctx.Err()
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
// for a source imported already (and not forced).
func prepareSource(ctx context.Context, conn *pgx.Conn, s *source.Source, force bool, depth int) (*sourceState, string, error) {
	sha, err := hashSource(s)
	if err != nil {
		return nil, "", err
	}
	var id int64
	var status string
	var read int
	var finished *time.Time
	var oldDepth *int16
	err = conn.QueryRow(ctx, `SELECT id, status, games_read, finished_at, opening_depth FROM sources WHERE sha256 = $1`, sha).Scan(&id, &status, &read, &finished, &oldDepth)
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
		if _, err := conn.Exec(ctx, `DELETE FROM sources WHERE id = $1`, id); err != nil {
			return nil, "", &dbError{err}
		}
		msg := fmt.Sprintf("re-importing %s (--force): removed the %d games it had", s.Name, read)
		id, err = insertSource(ctx, conn, s, sha, depth)
		return &sourceState{id: id, openingDepth: depth}, msg, err
	default: // interrupted or failed before: go on after what was committed
		if _, err := conn.Exec(ctx, `UPDATE sources SET status = 'importing', name = $2, error = NULL, finished_at = NULL WHERE id = $1`, id, s.Name); err != nil {
			return nil, "", &dbError{err}
		}
		msg := ""
		if read > 0 {
			msg = fmt.Sprintf("resuming %s after game %d (an earlier import stopped there)", s.Name, read)
		}
		if oldDepth != nil {
			depth = int(*oldDepth)
		} else if _, err := conn.Exec(ctx, `UPDATE sources SET opening_depth = $2 WHERE id = $1`, id, depth); err != nil {
			return nil, "", &dbError{err}
		}
		return &sourceState{id: id, skip: read, openingDepth: depth}, msg, nil
	}
	id, err = insertSource(ctx, conn, s, sha, depth)
	return &sourceState{id: id, openingDepth: depth}, "", err
}

func insertSource(ctx context.Context, conn *pgx.Conn, s *source.Source, sha string, depth int) (int64, error) {
	var id int64
	var size *int64
	if s.Size >= 0 {
		size = &s.Size
	}
	err := conn.QueryRow(ctx, `INSERT INTO sources (name, size, sha256, opening_depth) VALUES ($1, $2, $3, $4) RETURNING id`, s.Name, size, sha, int16(depth)).Scan(&id)
	if err != nil {
		return 0, &dbError{err}
	}
	return id, nil
}

// hashSource reads a source once to compute the SHA-256 of its PDN text,
// which identifies it across runs (and catches a corrupt archive early).
func hashSource(s *source.Source) (string, error) {
	r, err := s.Open()
	if err != nil {
		return "", err
	}
	defer r.Close()
	if _, err := io.Copy(io.Discard, r); err != nil {
		return "", err
	}
	return r.SHA256(), nil
}

// spoolStdin copies standard input to a temporary file, so that it can be
// hashed first and read again like any file.
func spoolStdin(srcs []*source.Source) ([]*source.Source, func(), error) {
	cleanup := func() {}
	for i, s := range srcs {
		if s.Kind != source.StdIn {
			continue
		}
		f, err := os.CreateTemp("", "draughtsdb-stdin-*.pdn")
		if err != nil {
			return srcs, cleanup, err
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
			return srcs, cleanup, fmt.Errorf("standard input: %v", errs)
		}
		spooled[0].Name = "-"
		srcs[i] = spooled[0]
	}
	return srcs, cleanup, nil
}
