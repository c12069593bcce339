package pgtest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
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

// NewDBFrom fills a key's database once, however many tests ask at the
// same time, and gives each test its own copy: what one test writes, the
// others and the next copies do not see.
func TestNewDBFromFillsOnceAndCopies(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var fills atomic.Int32
	fill := func(ctx context.Context, pool *pgxpool.Pool) error {
		fills.Add(1)
		_, err := pool.Exec(ctx, "CREATE TABLE filled AS SELECT 1 AS x")
		return err
	}
	const n = 4
	pools := make([]*pgxpool.Pool, n)
	var wg sync.WaitGroup
	for i := range pools {
		wg.Go(func() { pools[i] = NewDBFrom(t, "filled once", fill) })
	}
	wg.Wait()
	if got := fills.Load(); got != 1 {
		t.Fatalf("fill ran %d times, want once", got)
	}
	if _, err := pools[0].Exec(ctx, "INSERT INTO filled VALUES (2)"); err != nil {
		t.Fatal(err)
	}
	for i, p := range append(pools, NewDBFrom(t, "filled once", fill)) {
		var rows int
		if err := p.QueryRow(ctx, "SELECT count(*) FROM filled").Scan(&rows); err != nil {
			t.Fatal(err)
		}
		if want := 1 + btoi(i == 0); rows != want {
			t.Errorf("copy %d has %d rows, want %d", i, rows, want)
		}
	}
	if got := fills.Load(); got != 1 {
		t.Fatalf("fill ran %d times, want once", got)
	}
	failed := errors.New("no data")
	if _, err := fillTemplate("fails", func(context.Context, *pgxpool.Pool) error { return failed }); !errors.Is(err, failed) {
		t.Errorf("a failing fill: %v, want its error", err)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
