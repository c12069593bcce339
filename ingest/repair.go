package ingest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// RepairSummary is what RepairSources did.
type RepairSummary struct {
	Sources int `json:"sources"`
	Games   int `json:"games"`
	// Warned is the games given a warning that their result contradicts
	// their final position.
	Warned int `json:"warned"`
	// Named is the games given players from their P1/P2 tags.
	Named int `json:"named"`
}

// RepairSources finishes the repairs that a migration marked in
// sources.repair and that SQL alone cannot do (migration 0006, which swapped
// the results of English games read with the wrong first mover): for each
// marked source, it re-checks every game's result against its final
// position (replay.CheckFinal: the warning a fresh import would give), names
// the players of games tagged only P1/P2 (replay.Players), and recounts the
// source's opening statistics at its own depth (openings.CountSource). It
// is idempotent, holds the import lock (schema.ImportLock), and clears each
// source's mark in the transaction that recounts it, so an interrupted
// repair resumes where it stopped. Commands run it after migrating; it
// costs one query when nothing is marked.
func RepairSources(ctx context.Context, pool *pgxpool.Pool, progress func(done, total int)) (*RepairSummary, error) {
	sum := &RepairSummary{}
	var marked int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM sources WHERE repair`).Scan(&marked); err != nil {
		return nil, fmt.Errorf("repair: %w", err)
	}
	if marked == 0 {
		return sum, nil
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	unlock, err := schema.Lock(ctx, conn, schema.ImportLock)
	if err != nil {
		return nil, err
	}
	defer unlock()
	reader, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer reader.Release()

	type src struct {
		id    int64
		depth *int16
		games int
	}
	rows, err := conn.Query(ctx, `SELECT s.id, s.opening_depth, (SELECT count(*) FROM games g WHERE g.source_id = s.id)::int
		FROM sources s WHERE s.repair ORDER BY s.id`)
	if err != nil {
		return nil, err
	}
	srcs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (src, error) {
		var s src
		return s, r.Scan(&s.id, &s.depth, &s.games)
	})
	if err != nil {
		return nil, err
	}
	total := 0
	for _, s := range srcs {
		total += s.games
	}
	for _, s := range srcs {
		if err := repairGames(ctx, reader.Conn(), conn.Conn(), s.id, sum); err != nil {
			return sum, fmt.Errorf("repair source %d: %w", s.id, err)
		}
		if s.depth != nil {
			if err := recountSource(ctx, reader.Conn(), conn.Conn(), s.id, int(*s.depth), func(n int) {
				if progress != nil {
					progress(sum.Games+n, total)
				}
			}); err != nil {
				return sum, fmt.Errorf("repair source %d: %w", s.id, err)
			}
		} else if _, err := conn.Exec(ctx, `UPDATE sources SET repair = false WHERE id = $1`, s.id); err != nil {
			return sum, err
		}
		sum.Sources++
		sum.Games += s.games
	}
	return sum, nil
}

// recountSource recounts the opening statistics of a source at depth and
// clears its repair mark in one transaction on conn, so a repair that
// stops leaves the source marked with its old statistics or unmarked with
// new ones.
func recountSource(ctx context.Context, reader, conn *pgx.Conn, sourceID int64, depth int, progress func(int)) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck
	if _, _, err := openings.CountSource(ctx, reader, tx, sourceID, depth, progress); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE sources SET repair = false WHERE id = $1`, sourceID); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// repairGames re-checks the results of one source's games against their
// final positions and names players from P1/P2, in one transaction.
func repairGames(ctx context.Context, reader, conn *pgx.Conn, sourceID int64, sum *RepairSummary) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck
	rows, err := reader.Query(ctx, `SELECT id, variant, coalesce(start_fen, ''), moves, result, coalesce(warnings, '{}'),
			white_id IS NULL AND black_id IS NULL, tags->>'P1', tags->>'P2'
		FROM games WHERE source_id = $1 ORDER BY id`, sourceID)
	if err != nil {
		return err
	}
	defer rows.Close()
	type fix struct {
		id           int64
		warnings     []string
		white, black string
	}
	var fixes []fix
	for rows.Next() {
		var (
			id         int64
			gt, result int16
			fen        string
			moves      []byte
			warnings   []string
			unnamed    bool
			p1, p2     *string
		)
		if err := rows.Scan(&id, &gt, &fen, &moves, &result, &warnings, &unnamed, &p1, &p2); err != nil {
			return err
		}
		v, err := codec.VariantByID(gt)
		if err != nil {
			return err
		}
		f := fix{id: id}
		changed := false
		if res := codec.ResultOf(result); res == replay.WhiteWins || res == replay.BlackWins {
			g, err := codec.Decode(v, fen, moves)
			var bad *codec.DecodeError
			if err != nil && !errors.As(err, &bad) {
				return err
			}
			if err == nil {
				if _, _, w := replay.CheckFinal(v, g.Final(), res, res.Format(v)); w != "" && !slices.Contains(warnings, w) {
					// Where a fresh import puts it: before the date's remark.
					at := slices.IndexFunc(warnings, func(s string) bool { return strings.HasPrefix(s, "date ") })
					if at < 0 {
						at = len(warnings)
					}
					f.warnings = slices.Insert(warnings, at, w)
					changed = true
					sum.Warned++
				}
			}
		}
		if unnamed && (p1 != nil || p2 != nil) {
			first, second := playerName(deref(p1)), playerName(deref(p2))
			f.white, f.black = first, second
			if v.FirstToMove == rules.Black {
				f.white, f.black = second, first
			}
			if f.white != "" || f.black != "" {
				changed = true
				sum.Named++
			}
		}
		if changed {
			fixes = append(fixes, f)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, f := range fixes {
		if f.warnings != nil {
			if _, err := tx.Exec(ctx, `UPDATE games SET warnings = $2 WHERE id = $1`, f.id, f.warnings); err != nil {
				return err
			}
		}
		if f.white != "" || f.black != "" {
			if _, err := tx.Exec(ctx, `INSERT INTO players (name) SELECT n FROM unnest($1::text[]) AS n WHERE n <> '' ON CONFLICT (name) DO NOTHING`,
				[]string{f.white, f.black}); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE games SET white_id = (SELECT id FROM players WHERE name = $2),
					black_id = (SELECT id FROM players WHERE name = $3) WHERE id = $1`, f.id, f.white, f.black); err != nil {
				return err
			}
		}
	}
	return tx.Commit(ctx)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
