package schema

import (
	"context"
	_ "embed"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// AppendPrefix starts the identity (sources.sha256) of every source made
// by ingest.Append, so that it can never equal the hash of a text that an
// import identifies sources by.
const AppendPrefix = "append:"

//go:embed append.sql
var appendText string

var (
	appendSQL       = storeSQL("append.sql", appendText)
	sqlFindAppend   = appendSQL.get("find")
	sqlCreateAppend = appendSQL.get("create")
	sqlFinishAppend = appendSQL.get("finish")
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
	s, ok, err := FindAppendSource(ctx, q, key)
	return s.ID, s.GamesRead, ok, err
}

// Execer is what a statement without rows needs: *pgxpool.Pool,
// *pgx.Conn, *pgxpool.Conn and pgx.Tx all are.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// AppendSource is the stored state of an appended source.
type AppendSource struct {
	ID        int64
	GamesRead int
	// OpeningDepth is the depth its opening statistics are counted at;
	// nil when none were.
	OpeningDepth *int16
}

// FindAppendSource returns the appended source of key; ok is false when
// there is none yet.
func FindAppendSource(ctx context.Context, q RowQuerier, key string) (s AppendSource, ok bool, err error) {
	err = q.QueryRow(ctx, sqlFindAppend, AppendPrefix+key).Scan(&s.ID, &s.GamesRead, &s.OpeningDepth)
	if errors.Is(err, pgx.ErrNoRows) {
		return AppendSource{}, false, nil
	}
	return s, err == nil, err
}

// CreateAppendSource makes the appended source of key, named name, its
// statistics at depth. Appended sources are engine matches (KindMatch),
// which the opening statistics and queries leave out unless asked.
func CreateAppendSource(ctx context.Context, q RowQuerier, key, name string, depth int16) (id int64, err error) {
	err = q.QueryRow(ctx, sqlCreateAppend, name, AppendPrefix+key, depth, KindMatch).Scan(&id)
	return id, err
}

// FinishAppendSource marks an appended source done, named name, after an
// append.
func FinishAppendSource(ctx context.Context, q Execer, id int64, name string) error {
	_, err := q.Exec(ctx, sqlFinishAppend, id, name)
	return err
}
