package export

import (
	"context"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// session is an export's view of the database: one REPEATABLE READ
// snapshot, on a main connection that streams the rows and, when needed,
// an auxiliary connection in the same snapshot (evaluation look-ups while
// the main one streams; the temporary table of distinct positions). So
// every row of an export comes from one consistent state of the database,
// whatever imports run meanwhile.
type session struct {
	pool     *pgxpool.Pool
	mainConn *pgxpool.Conn
	main     pgx.Tx
	snapshot string
	auxMu    sync.Mutex // the auxiliary connection serves one query at a time
	auxConn  *pgxpool.Conn
	aux      pgx.Tx

	engine, setting *string // evaluation filters (nil: any)
	hasEvals        bool    // some evaluation passes them
}

func openSession(ctx context.Context, pool *pgxpool.Pool, o *Options) (*session, error) {
	s := &session{pool: pool}
	if o.Engine != "" {
		s.engine = &o.Engine
	}
	if o.Setting != "" {
		s.setting = &o.Setting
	}
	var err error
	if s.mainConn, err = pool.Acquire(ctx); err != nil {
		return nil, err
	}
	if s.main, err = s.mainConn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}); err != nil {
		s.close(ctx)
		return nil, err
	}
	if err = s.main.QueryRow(ctx, `SELECT pg_export_snapshot()`).Scan(&s.snapshot); err != nil {
		s.close(ctx)
		return nil, err
	}
	if err = s.main.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM evaluations
		WHERE ($1::text IS NULL OR engine = $1) AND ($2::text IS NULL OR setting = $2))`, s.engine, s.setting).Scan(&s.hasEvals); err != nil {
		s.close(ctx)
		return nil, err
	}
	return s, nil
}

// auxTx returns the auxiliary transaction, opening it in the main one's
// snapshot on first use. It may write temporary tables. Callers on
// several goroutines hold auxMu.
func (s *session) auxTx(ctx context.Context) (pgx.Tx, error) {
	if s.aux != nil {
		return s.aux, nil
	}
	var err error
	if s.auxConn, err = s.pool.Acquire(ctx); err != nil {
		return nil, fmt.Errorf("a second connection (the pool needs at least two): %w", err)
	}
	tx, err := s.auxConn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead})
	if err != nil {
		return nil, err
	}
	if _, err := tx.Exec(ctx, "SET TRANSACTION SNAPSHOT '"+s.snapshot+"'"); err != nil {
		tx.Rollback(ctx) //nolint:errcheck
		return nil, err
	}
	s.aux = tx
	return tx, nil
}

// close ends both transactions (read only: nothing to commit; the
// temporary table goes with the rollback) and releases the connections.
func (s *session) close(ctx context.Context) {
	ctx = context.WithoutCancel(ctx)
	if s.aux != nil {
		s.aux.Rollback(ctx) //nolint:errcheck
	}
	if s.auxConn != nil {
		s.auxConn.Release()
	}
	if s.main != nil {
		s.main.Rollback(ctx) //nolint:errcheck
	}
	if s.mainConn != nil {
		s.mainConn.Release()
	}
}
