package schema

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

var (
	sqlExportSnapshot = exportsSQL.get("export-snapshot")
	sqlSetSnapshot    = exportsSQL.get("set-snapshot")
)

// snapshotMark is where set-snapshot's literal goes.
const snapshotMark = "/* snapshot */"

// ReadSnapshot is one consistent state of the database for a long reader
// (an export): a REPEATABLE READ READ ONLY transaction on a connection of
// its own (Main) and, on first use, a second REPEATABLE READ transaction
// on another connection in the same snapshot (Aux), for the look-ups made
// while Main streams, and for temporary tables. Whatever commits
// meanwhile, both see the same rows.
type ReadSnapshot struct {
	pool     *pgxpool.Pool
	mainConn *pgxpool.Conn
	main     pgx.Tx
	id       string

	auxMu   sync.Mutex
	auxConn *pgxpool.Conn
	aux     pgx.Tx
}

// WithReadSnapshot runs fn on a ReadSnapshot of pool and ends it when fn
// returns: both transactions are rolled back (nothing was written but
// temporary tables, which go with them) on a context that outlives ctx's
// cancellation, as WithTx's rollback does, and the connections go back to
// the pool. fn's error is returned.
func WithReadSnapshot(ctx context.Context, pool *pgxpool.Pool, fn func(s *ReadSnapshot) error) error {
	s := &ReadSnapshot{pool: pool}
	defer s.close(ctx)
	var err error
	if s.mainConn, err = pool.Acquire(ctx); err != nil {
		return err
	}
	if s.main, err = s.mainConn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}); err != nil {
		return err
	}
	if err = s.main.QueryRow(ctx, sqlExportSnapshot).Scan(&s.id); err != nil {
		return err
	}
	return fn(s)
}

// Main is the snapshot's read only transaction.
func (s *ReadSnapshot) Main() pgx.Tx { return s.main }

// Aux returns the second transaction, opening it in Main's snapshot on
// first use; it may write temporary tables. It is safe for concurrent
// use, but the transaction it returns serves one query at a time: callers
// on several goroutines take turns (a mutex of their own).
func (s *ReadSnapshot) Aux(ctx context.Context) (pgx.Tx, error) {
	s.auxMu.Lock()
	defer s.auxMu.Unlock()
	if s.aux != nil {
		return s.aux, nil
	}
	var err error
	if s.auxConn, err = s.pool.Acquire(ctx); err != nil {
		return nil, fmt.Errorf("a second connection (the pool needs at least two): %w", err)
	}
	tx, err := s.auxConn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead})
	if err != nil {
		s.auxConn.Release()
		s.auxConn = nil
		return nil, err
	}
	// SET TRANSACTION SNAPSHOT takes no parameter; the id, from
	// pg_export_snapshot, is quoted all the same.
	lit := "'" + strings.ReplaceAll(s.id, "'", "''") + "'"
	if _, err := tx.Exec(ctx, strings.Replace(sqlSetSnapshot, snapshotMark, lit, 1)); err != nil {
		tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // the error to report is Exec's
		s.auxConn.Release()
		s.auxConn = nil
		return nil, err
	}
	s.aux = tx
	return tx, nil
}

// close ends both transactions and releases the connections (see
// WithReadSnapshot).
func (s *ReadSnapshot) close(ctx context.Context) {
	ctx = context.WithoutCancel(ctx)
	s.auxMu.Lock()
	defer s.auxMu.Unlock()
	if s.aux != nil {
		s.aux.Rollback(ctx) //nolint:errcheck // read only but temporary tables: nothing to keep
	}
	if s.auxConn != nil {
		s.auxConn.Release()
	}
	if s.main != nil {
		s.main.Rollback(ctx) //nolint:errcheck // read only: nothing to keep
	}
	if s.mainConn != nil {
		s.mainConn.Release()
	}
}
