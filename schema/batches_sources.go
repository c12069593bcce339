package schema

import (
	"context"
	_ "embed"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// BrokenPrefix starts the identity (sources.sha256) of a source whose text
// broke off: "prefix:<bytes>:<sha256 of those bytes>", the text it could
// read, instead of the hash of a whole text. (A column of its own would be
// cleaner; this one needs no migration.)
const BrokenPrefix = "prefix:"

//go:embed batches_sources.sql
var batchesSourcesText string

var (
	importSourcesSQL      = storeSQL("batches_sources.sql", batchesSourcesText)
	sqlFindImportSource   = importSourcesSQL.get("find")
	sqlInsertImportSource = importSourcesSQL.get("insert")
	sqlMoveDuplicates     = importSourcesSQL.get("move-duplicates")
	sqlBrokenSources      = brokenSourcesSQL(importSourcesSQL.get("broken"))
	sqlTakeOverSource     = importSourcesSQL.get("take-over")
	sqlResumeImportSource = importSourcesSQL.get("resume")
	sqlSetOpeningDepth    = importSourcesSQL.get("set-opening-depth")
	sqlFinishImportSource = importSourcesSQL.get("finish")
)

// brokenSourcesSQL is stmt, checked to look for BrokenPrefix: the
// statement spells it out as a literal pattern.
func brokenSourcesSQL(stmt string) string {
	if !strings.Contains(stmt, "'"+BrokenPrefix+"%'") {
		panic("schema: batches_sources.sql: broken does not look for " + BrokenPrefix)
	}
	return stmt
}

// ImportSource is the stored state of a source an import found by its
// identity.
type ImportSource struct {
	ID                       int64
	Status                   string // importing, done or failed
	GamesRead, GamesImported int
	Duplicates, Rejected     int
	FinishedAt               *time.Time // nil until it ended
	OpeningDepth             *int16     // nil: not counted yet
}

// FindImportSource returns the source whose identity is sha; ok is false
// when there is none.
func FindImportSource(ctx context.Context, q RowQuerier, sha string) (s ImportSource, ok bool, err error) {
	err = q.QueryRow(ctx, sqlFindImportSource, sha).Scan(&s.ID, &s.Status, &s.GamesRead, &s.GamesImported,
		&s.Duplicates, &s.Rejected, &s.FinishedAt, &s.OpeningDepth)
	if errors.Is(err, pgx.ErrNoRows) {
		return ImportSource{}, false, nil
	}
	return s, err == nil, err
}

// NewImportSource is a source an import registers: its name, its size on
// disk (nil: not known), identity and the depth of its opening statistics.
type NewImportSource struct {
	Name         string
	Size         *int64
	SHA          string
	OpeningDepth int16
}

// InsertImportSource registers s, importing, and returns its id.
func InsertImportSource(ctx context.Context, q RowQuerier, s NewImportSource) (id int64, err error) {
	err = q.QueryRow(ctx, sqlInsertImportSource, s.Name, s.Size, s.SHA, s.OpeningDepth).Scan(&id)
	return id, err
}

// ReplaceImportSource deletes the source old with everything it holds and
// registers s in its place, in one transaction: the games of other
// sources recorded as duplicates of old's follow it to the new id (the
// same text: its ordinals hold the same games), and a crash leaves either
// the old source or the new one, never links to neither.
func ReplaceImportSource(ctx context.Context, db Beginner, old int64, s NewImportSource) (id int64, err error) {
	err = WithTx(ctx, db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, sqlDeleteSource, old); err != nil {
			return err
		}
		if id, err = InsertImportSource(ctx, tx, s); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, sqlMoveDuplicates, id, old)
		return err
	})
	return id, err
}

// BrokenSource is an unfinished source whose text broke off, as recorded.
type BrokenSource struct {
	ID     int64
	Name   string
	Length int64  // bytes of text read before the break
	SHA    string // their SHA-256, hex
}

// BrokenSources lists the unfinished sources whose text broke off; an
// identity that does not parse is left out.
func BrokenSources(ctx context.Context, q Querier) ([]BrokenSource, error) {
	rows, err := q.Query(ctx, sqlBrokenSources)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []BrokenSource
	for rows.Next() {
		var b BrokenSource
		var ident string
		if err := rows.Scan(&b.ID, &b.Name, &ident); err != nil {
			return nil, err
		}
		n, sha, ok := strings.Cut(strings.TrimPrefix(ident, BrokenPrefix), ":")
		length, perr := strconv.ParseInt(n, 10, 64)
		if !ok || perr != nil || length <= 0 {
			continue
		}
		b.Length, b.SHA = length, sha
		out = append(out, b)
	}
	return out, rows.Err()
}

// TakeOverSource gives source id, which broke off, the identity sha and
// size of the text that continues it, and returns its resume point and
// opening depth.
func TakeOverSource(ctx context.Context, q RowQuerier, id int64, sha string, size *int64) (gamesRead int, depth *int16, err error) {
	err = q.QueryRow(ctx, sqlTakeOverSource, id, sha, size).Scan(&gamesRead, &depth)
	return gamesRead, depth, err
}

// ResumeImportSource marks source id importing again, named name.
func ResumeImportSource(ctx context.Context, q Execer, id int64, name string) error {
	_, err := q.Exec(ctx, sqlResumeImportSource, id, name)
	return err
}

// SetOpeningDepth records the depth source id's opening statistics are
// counted at.
func SetOpeningDepth(ctx context.Context, q Execer, id int64, depth int16) error {
	_, err := q.Exec(ctx, sqlSetOpeningDepth, id, depth)
	return err
}

// FinishImportSource marks source id done after its last batch, or failed
// with failure when that is not nil.
func FinishImportSource(ctx context.Context, q Execer, id int64, failure *string) error {
	status := "done"
	if failure != nil {
		status = "failed"
	}
	_, err := q.Exec(ctx, sqlFinishImportSource, id, status, failure)
	return err
}
