package openings

import (
	"context"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5"
)

// Coverage says how far the stored opening statistics of a variant reach:
// Depth, the fewest plies any counted source holding games of the variant
// was counted to (0 when none is), and Uncounted, the sources holding games
// of the variant that were imported before draughtsdb kept statistics (or
// marked for a recount), which no tree includes until
// `draughtsdb db rebuild-openings` counts them.
type Coverage struct {
	Depth     int `json:"depth"`
	Uncounted int `json:"uncounted"`
}

// RowQuerier is what ReadCoverage needs of a connection: *pgxpool.Pool,
// *pgx.Conn and pgx.Tx all are (the explorer reads it inside
// schema.ReadOnly's transaction).
type RowQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// ReadCoverage reads the Coverage of variant v's statistics. Only the
// sources holding games of v count: a tree of v reads nothing else, so an
// International source counted to 4 plies says nothing of an English tree
// whose sources were all counted to 40.
//
// A counted source holds games of v when its statistics hold v's initial
// position: every game of v played from it writes that entry, and the
// entries of one position are in one bucket, which the (variant, bucket)
// index finds in a few rows per source. Looking for the games themselves
// reads every game of a large source that holds none of v (a request of
// the explorer took 56 ms for 300,000 International games when asked of
// English). A source whose games of v all start from a set-up position is
// left out; the depth matters to the lines from the initial position (the
// note of `draughtsdb openings`). An uncounted source has no statistics:
// its games say (there are few such sources, imported before draughtsdb
// kept statistics or marked for a recount).
func ReadCoverage(ctx context.Context, q RowQuerier, v *rules.Variant) (Coverage, error) {
	var c Coverage
	start := v.StartPosition()
	depth, uncounted, err := schema.OpeningCoverage(ctx, q, codec.VariantID(v), start.Hash())
	c.Uncounted = uncounted
	if err != nil {
		return c, err
	}
	if depth != nil {
		c.Depth = int(*depth)
	}
	return c, nil
}
