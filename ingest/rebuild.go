package ingest

import (
	"context"
	"fmt"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// RebuildOptions control RebuildOpenings.
type RebuildOptions struct {
	// Depth is the plies to count; <= 0: openings.DefaultDepth.
	Depth int
	// All rebuilds every source; otherwise only the sources without
	// statistics at Depth (imported before they existed, or at another
	// depth).
	All bool
	// Progress, when set, is called after each batch with the games done
	// and the games to do.
	Progress func(done, total int)
}

// RebuildSummary is what RebuildOpenings did.
type RebuildSummary struct {
	Sources int `json:"sources"`
	Games   int `json:"games"`
	// Undecodable games (a mid-game position setup in their moves) are
	// left out of the statistics; re-importing their source with --force
	// counts them.
	Undecodable int `json:"undecodable"`
}

// RebuildOpenings recomputes the opening statistics (opening_index) of
// stored games from their compact moves: for sources imported before the
// statistics existed, or to count another number of plies. Each source is
// rebuilt in one transaction, so the statistics are never half rebuilt; it
// holds the import lock, so no import runs meanwhile.
func RebuildOpenings(ctx context.Context, pool *pgxpool.Pool, opts RebuildOptions) (*RebuildSummary, error) {
	depth := opts.Depth
	if depth <= 0 {
		depth = openings.DefaultDepth
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", importLock); err != nil {
		return nil, err
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", importLock) //nolint:errcheck

	type src struct {
		id    int64
		games int
	}
	var srcs []src
	total := 0
	rows, err := conn.Query(ctx, `SELECT s.id, (SELECT count(*) FROM games g WHERE g.source_id = s.id)::int
		FROM sources s WHERE $1 OR s.opening_depth IS DISTINCT FROM $2 ORDER BY s.id`, opts.All, int16(depth))
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var s src
		if err := rows.Scan(&s.id, &s.games); err != nil {
			rows.Close()
			return nil, err
		}
		srcs = append(srcs, s)
		total += s.games
	}
	if err := rows.Err(); err != nil {
		return nil, err
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
		n, bad, err := rebuildSource(ctx, reader.Conn(), conn.Conn(), s.id, depth, false, func(n int) {
			if opts.Progress != nil {
				opts.Progress(sum.Games+n, total)
			}
		})
		if err != nil {
			return sum, fmt.Errorf("source %d: %w", s.id, err)
		}
		sum.Sources++
		sum.Games += n
		sum.Undecodable += bad
	}
	return sum, nil
}

// rebuildSource replaces one source's statistics in one transaction on
// conn, reading its games on reader; clearRepair also clears the source's
// repair mark in that transaction (see RepairSources).
func rebuildSource(ctx context.Context, reader, conn *pgx.Conn, sourceID int64, depth int, clearRepair bool, progress func(int)) (games, undecodable int, err error) {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck
	if _, err := tx.Exec(ctx, `DELETE FROM opening_index WHERE source_id = $1`, sourceID); err != nil {
		return 0, 0, err
	}
	// Write a batch of rows per 5,000 games, as the import does.
	rows, err := reader.Query(ctx, `SELECT variant, coalesce(start_fen, ''), moves, result FROM games WHERE source_id = $1 ORDER BY id`, sourceID)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	var (
		batch   openings.Batch
		entries []openings.Entry
		hashes  []uint64
		inBatch int
	)
	flush := func() error {
		var copyRows [][]any
		for _, r := range batch.Rows() {
			copyRows = append(copyRows, []any{sourceID, r.Variant, r.Prefix, nonNil(r.Singles), nonNil(r.Keys), nonNil(r.Counts)})
		}
		batch.Reset()
		inBatch = 0
		if len(copyRows) == 0 {
			return nil
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"opening_index"}, openingColumns, pgx.CopyFromRows(copyRows)); err != nil {
			return fmt.Errorf("copy opening statistics: %w", err)
		}
		return nil
	}
	for rows.Next() {
		var (
			gt, result int16
			fen        string
			moves      []byte
		)
		if err := rows.Scan(&gt, &fen, &moves, &result); err != nil {
			return 0, 0, err
		}
		v, err := rules.VariantByGameType(int(gt))
		if err != nil {
			return 0, 0, err
		}
		start := v.StartPosition()
		if fen != "" {
			if start, err = rules.ParseFEN(v, fen); err != nil {
				return 0, 0, err
			}
		}
		ms, err := DecodeMoves(v, start, moves)
		if err != nil {
			undecodable++
			continue
		}
		hashes = append(hashes[:0], start.Hash())
		pos := start
		for i := 0; i < len(ms) && i < depth; i++ {
			pos.Play(&ms[i])
			hashes = append(hashes, pos.Hash())
		}
		entries = openings.GameEntries(entries[:0], hashes, ms, depth)
		batch.Add(gt, result, entries, depth)
		games++
		if inBatch++; inBatch == 5000 {
			if err := flush(); err != nil {
				return 0, 0, err
			}
			progress(games)
		}
	}
	if err := rows.Err(); err != nil {
		return 0, 0, err
	}
	if err := flush(); err != nil {
		return 0, 0, err
	}
	if _, err := tx.Exec(ctx, `UPDATE sources SET opening_depth = $2, repair = repair AND NOT $3 WHERE id = $1`, sourceID, int16(depth), clearRepair); err != nil {
		return 0, 0, err
	}
	progress(games)
	return games, undecodable, tx.Commit(ctx)
}
