package openings

import (
	"context"
	"fmt"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
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
	counts, err := schema.MostPlayedFirstMoves(ctx, pool, sourceIDs)
	if err != nil {
		return nil, err
	}
	var out []FirstMove
	for _, c := range counts {
		from, to := c.From, c.To
		f := FirstMove{Games: c.Games, WhiteWins: c.WhiteWins, Draws: c.Draws, BlackWins: c.BlackWins, Unfinished: c.Unfinished}
		v, err := codec.VariantByID(c.Variant)
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
	return out, nil
}
