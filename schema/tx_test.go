package schema_test

import (
	"context"
	"errors"
	"testing"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestWithTx: fn's work is committed when it returns nil and rolled back
// when it fails, panics, or its context is cancelled; in each case the
// connection comes back idle, outside any transaction and still open
// (a rollback on the cancelled context would fail and leave pgx to close
// it).
func TestWithTx(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	if _, err := pool.Exec(ctx, `CREATE TABLE tx_probe (n int)`); err != nil {
		t.Fatal(err)
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	insert := func(n int) func(pgx.Tx) error {
		return func(tx pgx.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO tx_probe VALUES ($1)`, n)
			return err
		}
	}
	idle := func(what string) {
		t.Helper()
		if conn.Conn().IsClosed() {
			t.Fatalf("%s: the connection was closed", what)
		}
		if st := conn.Conn().PgConn().TxStatus(); st != 'I' {
			t.Fatalf("%s: transaction status %q, want idle", what, st)
		}
	}

	if err := schema.WithTx(ctx, conn, insert(1)); err != nil {
		t.Fatal(err)
	}
	idle("commit")

	boom := errors.New("boom")
	err = schema.WithTx(ctx, conn, func(tx pgx.Tx) error {
		if err := insert(2)(tx); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("fn's error: got %v", err)
	}
	idle("error")

	cctx, cancel := context.WithCancel(ctx)
	err = schema.WithTx(cctx, conn, func(tx pgx.Tx) error {
		if err := insert(3)(tx); err != nil {
			return err
		}
		cancel()
		return cctx.Err()
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: got %v", err)
	}
	idle("cancelled")

	func() {
		defer func() {
			if r := recover(); r != "panic in fn" {
				t.Fatalf("recovered %v", r)
			}
		}()
		schema.WithTx(ctx, conn, func(tx pgx.Tx) error { //nolint:errcheck // it panics
			if err := insert(4)(tx); err != nil {
				return err
			}
			panic("panic in fn")
		})
	}()
	idle("panic")

	// A failed commit (a deferred constraint) is WithTx's error.
	err = schema.WithTx(ctx, conn, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `CREATE TABLE tx_unique (n int UNIQUE DEFERRABLE INITIALLY DEFERRED); INSERT INTO tx_unique VALUES (1), (1)`)
		return err
	})
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "23505" {
		t.Fatalf("commit failing on a deferred unique constraint: got %v", err)
	}
	idle("failed commit")

	// A read-only transaction refuses writes and leaves the connection idle.
	err = schema.WithReadOnlyTx(ctx, conn, insert(5))
	if !errors.As(err, &pe) || pe.Code != "25006" {
		t.Fatalf("a write in WithReadOnlyTx: got %v, want read_only_sql_transaction", err)
	}
	idle("read-only")

	var got []int32
	rows, _ := pool.Query(ctx, `SELECT n FROM tx_probe ORDER BY n`)
	got, err = pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil || len(got) != 1 || got[0] != 1 {
		t.Fatalf("rows kept %v, %v; want only the committed 1", got, err)
	}
}

// TestWithLock: fn runs holding the lock (another session cannot take
// it), and the lock is given back when fn returns, fails or its context is
// cancelled.
func TestWithLock(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	const key int64 = 0x7465737401
	holder, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Release()
	other, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Release()
	free := func() bool {
		t.Helper()
		var got bool
		if err := other.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got {
			if _, err := other.Exec(ctx, `SELECT pg_advisory_unlock($1)`, key); err != nil {
				t.Fatal(err)
			}
		}
		return got
	}
	ran := false
	if err := schema.WithLock(ctx, holder, key, func() error {
		ran = true
		if free() {
			t.Error("another session took the lock while fn ran")
		}
		return nil
	}); err != nil || !ran {
		t.Fatalf("WithLock: %v, ran %v", err, ran)
	}
	if !free() {
		t.Fatal("lock still held after fn returned")
	}
	boom := errors.New("boom")
	if err := schema.WithLock(ctx, holder, key, func() error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("fn's error: got %v", err)
	}
	if !free() {
		t.Fatal("lock still held after fn failed")
	}
	cctx, cancel := context.WithCancel(ctx)
	err = schema.WithLock(cctx, holder, key, func() error {
		cancel()
		return cctx.Err()
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: got %v", err)
	}
	if !free() {
		t.Fatal("lock still held after fn's context was cancelled")
	}
	// Waiting for a lock held elsewhere ends with the context.
	if _, err := other.Exec(ctx, `SELECT pg_advisory_lock($1)`, key); err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 200*1e6)
	defer wcancel()
	if err := schema.WithLock(wctx, holder, key, func() error { t.Error("fn ran without the lock"); return nil }); err == nil {
		t.Fatal("WithLock returned nil while another session held the lock")
	}
}
