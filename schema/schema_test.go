package schema_test

import (
	"context"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestMigrationNumberingIsContiguousAndUnique(t *testing.T) {
	t.Parallel()
	ms, err := schema.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 {
		t.Fatal("no embedded migrations")
	}
	if err := schema.CheckSequence(ms); err != nil {
		t.Fatal(err)
	}
}

func TestCheckSequenceRejectsGapsAndRepeats(t *testing.T) {
	t.Parallel()
	for name, vs := range map[string][]int{"gap": {1, 3}, "repeat": {1, 1, 2}, "not from one": {2, 3}} {
		var ms []schema.Migration
		for _, v := range vs {
			ms = append(ms, schema.Migration{Version: v, Name: "x"})
		}
		if err := schema.CheckSequence(ms); err == nil {
			t.Errorf("%s %v: accepted", name, vs)
		}
	}
}

func TestLoadRejectsBadNames(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"m/01_short.sql": {Data: []byte("SELECT 1")}}
	if _, err := schema.LoadMigrations(fsys, "m"); err == nil {
		t.Fatal("01_short.sql accepted")
	}
}

func newPool(t *testing.T) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), pgtest.NewEmptyDBURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

func TestMigrateTwiceIsNoOp(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	ctx := context.Background()
	pool := newPool(t)
	all, _ := schema.Migrations()
	first, err := schema.Migrate(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != len(all) {
		t.Fatalf("first run applied %d of %d", len(first), len(all))
	}
	second, err := schema.Migrate(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	if len(second) != 0 {
		t.Fatalf("second run applied %d migrations", len(second))
	}
	applied, err := schema.AppliedMigrations(ctx, pool)
	if err != nil || len(applied) != len(all) {
		t.Fatalf("recorded %d of %d (err %v)", len(applied), len(all), err)
	}
}

func TestConcurrentMigratorsDoNotCollide(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.NewEmptyDBURL(t)
	all, _ := schema.Migrations()
	const n = 4
	var wg sync.WaitGroup
	counts := make([]int, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pool, err := pgxpool.New(ctx, url) // a pool (and session) per migrator, as separate processes have
			if err != nil {
				errs[i] = err
				return
			}
			defer pool.Close()
			applied, err := schema.Migrate(ctx, pool)
			counts[i], errs[i] = len(applied), err
		}()
	}
	wg.Wait()
	total := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("migrator %d: %v", i, errs[i])
		}
		total += counts[i]
	}
	if total != len(all) {
		t.Fatalf("migrators applied %d migrations in all, want each of %d exactly once", total, len(all))
	}
}
