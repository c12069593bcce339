package schema

import (
	"context"
	_ "embed"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

//go:embed locks.sql
var locksText string

var (
	locksSQL    = storeSQL("locks.sql", locksText)
	sqlLock     = locksSQL.get("lock")
	sqlTryLock  = locksSQL.get("try-lock")
	sqlUnlock   = locksSQL.get("unlock")
	sqlXactLock = locksSQL.get("xact-lock")
)

// ImportLock is the PostgreSQL advisory lock (pg_advisory_lock) that
// serialises the writers of games and their statistics in one database:
// imports (duplicate detection compares each batch with the games already
// committed, and ids are drawn in blocks), the opening statistics' rebuild
// and the repairs after a migration. It lives here, beside the schema, so
// that every package that writes those tables takes the same lock; every
// running draughtsdb of any version must agree on it, so it must never
// change.
const ImportLock int64 = 0x6472617567687401

// Locker is what Lock needs of a connection: a pooled or plain one. An
// advisory lock belongs to its session, so the same connection must be
// kept until the unlock.
type Locker interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Lock takes the session advisory lock key on conn, waiting for it, and
// returns the function that gives it back. The unlock runs even when ctx
// is cancelled (a lock left held would block every later writer of the
// same database until the connection closed).
func Lock(ctx context.Context, conn Locker, key int64) (unlock func(), err error) {
	if _, err := conn.Exec(ctx, sqlLock, key); err != nil {
		return nil, err
	}
	return func() {
		conn.Exec(context.WithoutCancel(ctx), sqlUnlock, key) //nolint:errcheck // the session ends the lock otherwise
	}, nil
}

// LockTx takes the transaction advisory lock key in tx, waiting for it; it
// is given back when tx ends, committed or not.
func LockTx(ctx context.Context, tx pgx.Tx, key int64) error {
	_, err := tx.Exec(ctx, sqlXactLock, key)
	return err
}

// TryLock takes the session advisory lock key on conn when no other
// session holds it, without waiting; ok is false when another does. The
// unlock, as Lock's, runs even when ctx is cancelled.
func TryLock(ctx context.Context, conn interface {
	Locker
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}, key int64) (unlock func(), ok bool, err error) {
	if err := conn.QueryRow(ctx, sqlTryLock, key).Scan(&ok); err != nil || !ok {
		return nil, false, err
	}
	return func() {
		conn.Exec(context.WithoutCancel(ctx), sqlUnlock, key) //nolint:errcheck // the session ends the lock otherwise
	}, true, nil
}
