package schema

import (
	"context"
	_ "embed"
	"errors"

	"github.com/jackc/pgx/v5"
)

// AppendPrefix starts the identity (sources.sha256) of every source made
// by ingest.Append, so that it can never equal the hash of a text that an
// import identifies sources by.
const AppendPrefix = "append:"

//go:embed append.sql
var appendText string

var (
	appendSQL         = storeSQL("append.sql", appendText)
	sqlAppendedSource = appendSQL.get("appended-source")
)

// RowQuerier is what a single-row lookup needs: *pgxpool.Pool, *pgx.Conn,
// *pgxpool.Conn and pgx.Tx all are.
type RowQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// AppendedSource returns the id of the source ingest.Append made for key
// and how many games it holds (its resume point); ok is false when there
// is none yet.
func AppendedSource(ctx context.Context, q RowQuerier, key string) (id int64, games int, ok bool, err error) {
	err = q.QueryRow(ctx, sqlAppendedSource, AppendPrefix+key).Scan(&id, &games)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, 0, false, nil
	}
	return id, games, err == nil, err
}
