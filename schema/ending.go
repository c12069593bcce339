package schema

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// GamesEnding counts, for each of the hashes, the games of variant
// (games.variant) in the sources a selection names (draughtsdb_source_ids:
// archive, match, all, ids or names) whose final position has that hash:
// the games that ended there, which an opening tree (moves played at a
// position) never counts. Hashes no game ends at are absent. A minRating
// above 0 counts only the games whose players are both rated at least
// that, as the filtered opening trees do.
func GamesEnding(ctx context.Context, q interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}, variant int16, hashes []int64, sources string, minRating int) (map[int64]int64, error) {
	if sources == "" {
		sources = DefaultSources
	}
	sql := `SELECT t.h, draughtsdb_games_ending($1, t.h, s.ids)
		FROM (SELECT draughtsdb_source_ids($3) AS ids) s, unnest($2::bigint[]) AS t(h)`
	args := []any{variant, hashes, sources}
	if minRating > 0 {
		sql = `SELECT t.h, (SELECT count(*) FROM games g
			WHERE g.final_hash = t.h AND g.variant = $1
			  AND (s.ids IS NULL OR g.source_id = ANY (s.ids))
			  AND g.white_rating >= $4 AND g.black_rating >= $4)
		FROM (SELECT draughtsdb_source_ids($3) AS ids) s, unnest($2::bigint[]) AS t(h)`
		args = append(args, int32(minRating))
	}
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]int64{}
	for rows.Next() {
		var h, n int64
		if err := rows.Scan(&h, &n); err != nil {
			return nil, err
		}
		if n > 0 {
			out[h] = n
		}
	}
	return out, rows.Err()
}
