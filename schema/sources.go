package schema

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The kinds of source (sources.kind): imported PDN, and the games of an
// engine match. Opening statistics, named queries, export and the explorer
// count archive sources unless asked otherwise.
const (
	KindArchive = "archive"
	KindMatch   = "match"
)

// DefaultSources is the source selection used when none is given.
const DefaultSources = KindArchive

//go:embed sources.sql
var sourcesText string

var (
	sourcesSQL       = storeSQL("sources.sql", sourcesText)
	sqlListSources   = sourcesSQL.get("list")
	sqlOrphans       = sourcesSQL.get("orphans")
	sqlDeleteSource  = sourcesSQL.get("delete")
	sqlRenameSource  = sourcesSQL.get("rename")
	sqlResolveSource = sourcesSQL.get("resolve")
)

// Source is one row of sources with what it holds now.
type Source struct {
	ID         int64     `json:"id"`
	Name       string    `json:"name"`
	Kind       string    `json:"kind"`
	Games      int64     `json:"games"`
	Rejected   int64     `json:"rejected"`
	Duplicates int64     `json:"duplicates"`
	ImportedAt time.Time `json:"imported_at"`
}

// Querier is what the source functions need: *pgxpool.Pool, *pgx.Conn
// and pgx.Tx all are.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// ListSources returns every source, oldest first, with the games, rejected
// games and duplicates it holds.
func ListSources(ctx context.Context, q Querier) ([]Source, error) {
	rows, err := q.Query(ctx, sqlListSources)
	if err != nil {
		return nil, err
	}
	out := []Source{}
	for rows.Next() {
		var s Source
		if err := rows.Scan(&s.ID, &s.Name, &s.Kind, &s.Games, &s.Rejected, &s.Duplicates, &s.ImportedAt); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// ErrNoSource is matched by the error of a source reference that names no
// source, or more than one.
var ErrNoSource = errors.New("no such source")

// FindSource returns the source ref names: its id, or its exact name when
// exactly one source has it.
func FindSource(ctx context.Context, q Querier, ref string) (Source, error) {
	all, err := ListSources(ctx, q)
	if err != nil {
		return Source{}, err
	}
	if id, err := strconv.ParseInt(strings.TrimSpace(ref), 10, 64); err == nil {
		for _, s := range all {
			if s.ID == id {
				return s, nil
			}
		}
		return Source{}, fmt.Errorf("source %s: %w (draughtsdb sources lists them)", ref, ErrNoSource)
	}
	var found []Source
	for _, s := range all {
		if s.Name == ref {
			found = append(found, s)
		}
	}
	switch len(found) {
	case 0:
		return Source{}, fmt.Errorf("source %q: %w: not an id, and no source has that name (draughtsdb sources lists them)", ref, ErrNoSource)
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, s := range found {
		ids[i] = strconv.FormatInt(s.ID, 10)
	}
	return Source{}, fmt.Errorf("source %q: %w: %d sources have that name (ids %s); give the id", ref, ErrNoSource, len(found), strings.Join(ids, ", "))
}

// Removed is what RemoveSource deleted.
type Removed struct {
	Source Source
	// Orphans are the duplicates recorded in other sources of this
	// source's games: those games were never stored themselves, so they
	// leave the statistics with it; their rows stay in their own source's
	// duplicates (every game read is in exactly one table), and importing
	// that source again with --force stores them.
	Orphans int64
}

// RemoveSource deletes a source with its games, their position index and
// move annotations, its rejected games, its duplicates and its share of the
// opening statistics, in one transaction under ImportLock (no import runs
// meanwhile): a kill at any moment leaves the source whole or gone, and
// running it again finishes the job. Evaluations belong to positions, not
// games, and stay.
func RemoveSource(ctx context.Context, pool *pgxpool.Pool, id int64) (*Removed, error) {
	var r *Removed
	err := WithTx(ctx, pool, func(tx pgx.Tx) error {
		if err := LockTx(ctx, tx, ImportLock); err != nil {
			return err
		}
		s, err := FindSource(ctx, tx, strconv.FormatInt(id, 10))
		if err != nil {
			return err
		}
		r = &Removed{Source: s}
		if err := tx.QueryRow(ctx, sqlOrphans, id).Scan(&r.Orphans); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, sqlDeleteSource, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// RenameSource gives a source a new name.
func RenameSource(ctx context.Context, pool *pgxpool.Pool, id int64, name string) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("a source's new name must not be empty")
	}
	tag, err := pool.Exec(ctx, sqlRenameSource, id, name)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("source %d: %w (draughtsdb sources lists them)", id, ErrNoSource)
	}
	return nil
}

// ErrBadSources is matched by the error of a source selection that names
// no source.
var ErrBadSources = errors.New("bad source selection")

// ResolveSources returns the ids of the sources selection names (see
// draughtsdb_source_ids in migration 0016: archive, match, all, source ids
// and names, comma-separated; "" is DefaultSources). A token that names no
// source is an error matching ErrBadSources, with the database's
// explanation.
func ResolveSources(ctx context.Context, q Querier, selection string) ([]int64, error) {
	if selection == "" {
		selection = DefaultSources
	}
	var ids []int64
	err := q.QueryRow(ctx, sqlResolveSource, selection).Scan(&ids)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "P0001" {
		return nil, fmt.Errorf("%w: %s", ErrBadSources, pe.Message)
	}
	return ids, err
}
