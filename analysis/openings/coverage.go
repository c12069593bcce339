package openings

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Coverage says how far the stored opening statistics reach: Depth, the
// fewest plies any counted source was counted to (0 when none is), and
// Uncounted, the sources imported before draughtsdb kept statistics (or
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

// ReadCoverage reads the Coverage of the database.
func ReadCoverage(ctx context.Context, q RowQuerier) (Coverage, error) {
	var depth *int16
	var c Coverage
	if err := q.QueryRow(ctx, `SELECT min(opening_depth), count(*) FILTER (WHERE opening_depth IS NULL)::int FROM sources`).Scan(&depth, &c.Uncounted); err != nil {
		return c, err
	}
	if depth != nil {
		c.Depth = int(*depth)
	}
	return c, nil
}
