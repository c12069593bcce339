package openings

import (
	"context"
	"errors"
	"fmt"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// MaxDepth bounds the plies the statistics count (import.opening_depth's
// range): beyond it an import would index every position of most games.
const MaxDepth = 1000

// RebuildOptions control Rebuild.
type RebuildOptions struct {
	// Depth is the plies to count; <= 0: DefaultDepth; at most MaxDepth.
	Depth int
	// All rebuilds every source; otherwise only the sources without
	// statistics at Depth (imported before they existed, or at another
	// depth).
	All bool
	// Progress, when set, is called after each batch with the games done
	// and the games to do.
	Progress func(done, total int)
}

// check validates o and fills its defaults.
func (o *RebuildOptions) check() error {
	if o.Depth > MaxDepth {
		return fmt.Errorf("openings: a depth of %d plies: at most %d", o.Depth, MaxDepth)
	}
	if o.Depth <= 0 {
		o.Depth = DefaultDepth
	}
	return nil
}

// RebuildSummary is what Rebuild did.
type RebuildSummary struct {
	Sources int `json:"sources"`
	Games   int `json:"games"`
	// Undecodable games (a mid-game position setup in their moves) are
	// left out of the statistics; re-importing their source with --force
	// counts them.
	Undecodable int `json:"undecodable"`
}

// Rebuild recomputes the opening statistics (opening_index) of stored
// games from their compact moves: for sources imported before the
// statistics existed, or to count another number of plies. Each source is
// rebuilt in one transaction, so the statistics are never half rebuilt; it
// holds the import lock (schema.ImportLock), so no import runs meanwhile.
func Rebuild(ctx context.Context, pool *pgxpool.Pool, opts RebuildOptions) (*RebuildSummary, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	var sum *RebuildSummary
	err = schema.WithLock(ctx, conn, schema.ImportLock, func() error {
		var err error
		sum, err = rebuildLocked(ctx, pool, conn, opts)
		return err
	})
	return sum, err
}

// rebuildLocked is Rebuild once conn holds the import lock; the summary
// it returns with an error counts the sources rebuilt before it.
func rebuildLocked(ctx context.Context, pool *pgxpool.Pool, conn *pgxpool.Conn, opts RebuildOptions) (*RebuildSummary, error) {
	depth := opts.Depth
	srcs, err := schema.OpeningSourcesToCount(ctx, conn, opts.All, int16(depth))
	if err != nil {
		return nil, err
	}
	total := 0
	for _, s := range srcs {
		total += s.Games
	}

	// The games are read on a second connection while the first writes,
	// batch by batch, in the source's transaction.
	reader, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer reader.Release()
	sum := &RebuildSummary{}
	for _, s := range srcs {
		n, bad, err := rebuildSource(ctx, reader.Conn(), conn.Conn(), s.ID, depth, func(n int) {
			if opts.Progress != nil {
				opts.Progress(sum.Games+n, total)
			}
		})
		if err != nil {
			return sum, fmt.Errorf("source %d: %w", s.ID, err)
		}
		sum.Sources++
		sum.Games += n
		sum.Undecodable += bad
	}
	return sum, nil
}

// rebuildSource recounts one source in one transaction on conn.
func rebuildSource(ctx context.Context, reader, conn *pgx.Conn, sourceID int64, depth int, progress func(int)) (games, undecodable int, err error) {
	err = schema.WithTx(ctx, conn, func(tx pgx.Tx) error {
		games, undecodable, err = CountSource(ctx, reader, tx, sourceID, depth, progress)
		return err
	})
	if err != nil {
		return 0, 0, err
	}
	return games, undecodable, nil
}

// CountSource replaces the opening statistics of one source, in tx, with a
// count of its stored games' first depth plies, and records the depth in
// sources.opening_depth. The games are read on reader, a connection other
// than tx's. A game whose moves do not decode (a mid-game position setup
// in its moves) is left out and counted in undecodable. progress, when
// set, gets the games counted so far after each batch and at the end,
// before the caller commits: the caller's transaction may do more (the
// repair after a migration clears the source's mark in it), and the
// statistics are never half rebuilt.
func CountSource(ctx context.Context, reader *pgx.Conn, tx pgx.Tx, sourceID int64, depth int, progress func(games int)) (games, undecodable int, err error) {
	if progress == nil {
		progress = func(int) {}
	}
	if err := schema.DeleteOpeningRows(ctx, tx, sourceID); err != nil {
		return 0, 0, err
	}
	// Write a batch of rows per 5,000 games, as the import does.
	var (
		batch   Batch
		entries []Entry
		hashes  []uint64
		inBatch int
	)
	flush := func() error {
		err := WriteRows(ctx, tx, sourceID, batch.Rows())
		batch.Reset()
		inBatch = 0
		return err
	}
	err = schema.ForEachSourceGameResult(ctx, reader, sourceID, func(sg *schema.StoredGame, result int16) error {
		v, err := codec.VariantByID(sg.Variant)
		if err != nil {
			return err
		}
		g, err := codec.Decode(v, sg.StartFEN, sg.Moves)
		if err != nil {
			var bad *codec.DecodeError
			if errors.As(err, &bad) {
				undecodable++
				return nil
			}
			return err
		}
		hashes = hashes[:0]
		for i := 0; i <= len(g.Moves) && i <= depth; i++ {
			hashes = append(hashes, g.Positions[i].Hash())
		}
		entries = GameEntries(entries[:0], hashes, g.Moves, depth)
		batch.Add(sg.Variant, result, entries, depth)
		games++
		if inBatch++; inBatch == 5000 {
			if err := flush(); err != nil {
				return err
			}
			progress(games)
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	if err := flush(); err != nil {
		return 0, 0, err
	}
	if err := schema.SetOpeningDepth(ctx, tx, sourceID, int16(depth)); err != nil {
		return 0, 0, err
	}
	progress(games)
	return games, undecodable, nil
}

// WriteRows writes the rows of a Batch (Batch.Rows) as opening_index rows
// of the source, in tx, with COPY. The import calls it for every batch it
// stores and the rebuild for every 5,000 games it counts, so the table's
// rows are written in one place.
func WriteRows(ctx context.Context, tx pgx.Tx, sourceID int64, rows []Row) error {
	if len(rows) == 0 {
		return nil
	}
	copyRows := make([]schema.OpeningRow, len(rows))
	for i, r := range rows {
		copyRows[i] = schema.OpeningRow{SourceID: sourceID, Variant: r.Variant, Bucket: r.Bucket, Entries: r.Entries}
	}
	if err := schema.CopyOpeningRows(ctx, tx, copyRows); err != nil {
		return fmt.Errorf("copy opening statistics: %w", err)
	}
	return nil
}
