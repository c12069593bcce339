package schema

import (
	"context"

	"github.com/jackc/pgx/v5/pgconn"
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
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", key); err != nil {
		return nil, err
	}
	return func() {
		conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", key) //nolint:errcheck // the session ends the lock otherwise
	}, nil
}
