package pgtest

import (
	"context"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

func TestNewDBIsMigratedAndIsolated(t *testing.T) {
	ctx := context.Background()
	a, b := NewDB(t), NewDB(t)
	var n int
	if err := a.QueryRow(ctx, "SELECT count(*) FROM draughtsdb_migrations").Scan(&n); err != nil || n == 0 {
		t.Fatalf("template not migrated: n=%d err=%v", n, err)
	}
	if _, err := a.Exec(ctx, "CREATE TABLE only_in_a (x int)"); err != nil {
		t.Fatal(err)
	}
	var exists bool
	if err := b.QueryRow(ctx, "SELECT to_regclass('only_in_a') IS NOT NULL").Scan(&exists); err != nil || exists {
		t.Fatalf("databases are not isolated: exists=%v err=%v", exists, err)
	}
}
