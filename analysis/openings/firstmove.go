package openings

import (
	"context"
	"fmt"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5/pgxpool"
)

// FirstMove is how the games that open with one move went.
type FirstMove struct {
	Variant    *rules.Variant
	Move       string // in the variant's notation, e.g. "32-28" or "c3-d4"
	Games      int
	WhiteWins  int
	Draws      int
	BlackWins  int
	Unfinished int // result unknown
}

// Score is White's score in percent over the decided and drawn games.
func (f *FirstMove) Score() float64 {
	n := f.WhiteWins + f.Draws + f.BlackWins
	if n == 0 {
		return 0
	}
	return 100 * (float64(f.WhiteWins) + float64(f.Draws)/2) / float64(n)
}

// MostPlayedFirstMoves returns, per variant, the most played first move of
// the games from the variant's initial position in the given sources.
func MostPlayedFirstMoves(ctx context.Context, pool *pgxpool.Pool, sourceIDs []int64) ([]FirstMove, error) {
	rows, err := pool.Query(ctx, `
		SELECT DISTINCT ON (variant) variant, get_byte(moves, 0), get_byte(moves, 1), count(*),
		       count(*) FILTER (WHERE result = 1), count(*) FILTER (WHERE result = 2),
		       count(*) FILTER (WHERE result = 3), count(*) FILTER (WHERE result IN (0, 4))
		FROM games
		WHERE source_id = ANY($1) AND start_fen IS NULL AND ply_count > 0
		GROUP BY 1, 2, 3
		ORDER BY variant, 4 DESC, 2, 3`, sourceIDs)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []FirstMove
	for rows.Next() {
		var gt, from, to int
		var f FirstMove
		if err := rows.Scan(&gt, &from, &to, &f.Games, &f.WhiteWins, &f.Draws, &f.BlackWins, &f.Unfinished); err != nil {
			return nil, err
		}
		v, err := codec.VariantByID(int16(gt))
		if err != nil {
			continue
		}
		f.Variant = v
		// The first move from the initial position is never a capture, so
		// it is two plain bytes: from, to.
		if v.DefaultNotation == rules.Algebraic {
			f.Move = v.Board.Algebraic(from) + "-" + v.Board.Algebraic(to)
		} else {
			f.Move = fmt.Sprintf("%d-%d", from, to)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}
