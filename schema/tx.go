package schema

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Beginner is what WithTx needs to start a transaction: *pgxpool.Pool,
// *pgxpool.Conn and *pgx.Conn all are, and so is pgx.Tx (a savepoint).
type Beginner interface {
	Begin(ctx context.Context) (pgx.Tx, error)
}

// WithTx runs fn in a transaction on db and commits it when fn returns
// nil; when fn fails (or panics) the transaction is rolled back and fn's
// error returned. Every writer of the store goes through it, so the
// rollback is written once and right: it runs on a context that ignores
// ctx's cancellation, because the cancellation that made fn fail must not
// also stop the rollback, or a pooled connection would go back to the
// pool inside an aborted transaction (pgx closes a connection whose query
// was interrupted, and the rollback then only reports that).
func WithTx(ctx context.Context, db Beginner, fn func(tx pgx.Tx) error) error {
	tx, err := db.Begin(ctx)
	if err != nil {
		return err
	}
	return finish(ctx, tx, fn)
}

// OptionsBeginner is what WithReadOnlyTx needs: *pgxpool.Pool,
// *pgxpool.Conn and *pgx.Conn all are.
type OptionsBeginner interface {
	BeginTx(ctx context.Context, opts pgx.TxOptions) (pgx.Tx, error)
}

// WithReadOnlyTx is WithTx in a READ ONLY transaction, for the store's
// readers: a statement that would write fails rather than changing data.
func WithReadOnlyTx(ctx context.Context, db OptionsBeginner, fn func(tx pgx.Tx) error) error {
	tx, err := db.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return err
	}
	return finish(ctx, tx, fn)
}

// finish runs fn in tx and commits, or rolls back (see WithTx).
func finish(ctx context.Context, tx pgx.Tx, fn func(tx pgx.Tx) error) error {
	// After a commit the rollback does nothing.
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // fn's error is the one to report
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// WithLock runs fn holding the session advisory lock key on conn (see
// Lock), waiting for the lock first, and gives the lock back when fn
// returns, even after ctx is cancelled. The lock belongs to conn's
// session, so the work it guards belongs on conn (or on connections that
// work for the holder while it runs).
func WithLock(ctx context.Context, conn Locker, key int64, fn func() error) error {
	unlock, err := Lock(ctx, conn, key)
	if err != nil {
		return err
	}
	defer unlock()
	return fn()
}
