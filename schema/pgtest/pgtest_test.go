package pgtest

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { Main(m) }

func TestNewDBIsMigratedAndIsolated(t *testing.T) {
	t.Parallel()
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

// Parallel tests create their databases at the same time; CREATE DATABASE
// ... TEMPLATE refuses to copy a template another session is connected
// to, so this fails if pgtest's own connections went to the template.
func TestCreateDBConcurrently(t *testing.T) {
	if cluster == nil {
		t.Skipf("pgtest: no PostgreSQL server to test against: %s", unavailable)
	}
	t.Parallel()
	ctx := context.Background()
	const n = 8
	start := make(chan struct{})
	errs := make(chan error, n)
	for i := range n {
		go func() {
			<-start
			errs <- createDB(ctx, fmt.Sprintf("concurrent_%d", i), templateDB)
		}()
	}
	close(start)
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for i := range n {
		c, err := pgx.Connect(ctx, dbURL(fmt.Sprintf("concurrent_%d", i)))
		if err != nil {
			t.Error(err)
			continue
		}
		c.Close(ctx)
	}
}
