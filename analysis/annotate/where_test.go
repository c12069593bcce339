package annotate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// whereDB is a migrated database holding the bundled International sample.
func whereDB(t *testing.T) *pgxpool.Pool {
	t.Helper()
	pool := pgtest.NewDB(t)
	sum, err := ingest.Import(context.Background(), pool, []string{"../../ingest/sample/babasy1-international.pdn"}, ingest.Options{})
	if err != nil || sum.Imported == 0 {
		t.Fatalf("import: %+v, %v", sum, err)
	}
	return pool
}

func runWhere(ctx context.Context, pool *pgxpool.Pool, where string) (*Summary, error) {
	return Run(ctx, pool, Options{
		Engine: "draughtsdb", EngineVersion: "test", Setting: "depth=1",
		NewEvaluator: func() (Evaluator, error) { return NewBuiltin(Limit{Depth: 1}, 1), nil },
		Where:        where, Limit: 2, MaxPly: 2,
	})
}

// TestWhereIsReadOnly: the --where text cannot act outside the games it
// reads, although the session is a superuser: creating a large object,
// killing another session, reloading the configuration, resetting the
// statistics, switching WAL and reading a server file are refused with
// ErrRefused, nothing is analysed, and nothing changed.
func TestWhereIsReadOnly(t *testing.T) {
	ctx := context.Background()
	pool := whereDB(t)
	other, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Release()
	var pid int
	if err := other.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "draughtsdb-where-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	secret := fmt.Sprintf("not-for-where-%d", time.Now().UnixNano())
	file := filepath.Join(dir, "secret")
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, where := range []string{
		"lo_from_bytea(0, 'x') > 0",
		fmt.Sprintf("pg_terminate_backend(%d)", pid),
		"pg_reload_conf()",
		"pg_stat_reset() IS NOT NULL",
		"pg_switch_wal() IS NOT NULL",
		"pg_read_file('" + file + "')::int > 0",
		"set_config('role', 'none', true) <> '' AND query_to_xml('SELECT pg_read_file(''" + file + "'')::int', true, false, '') IS NOT NULL",
	} {
		sum, err := runWhere(ctx, pool, where)
		if !errors.Is(err, schema.ErrRefused) {
			t.Errorf("--where %q: err %v, want ErrRefused", where, err)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("--where %q: the error shows the file: %v", where, err)
		}
		if sum.Games != 0 {
			t.Errorf("--where %q: %d games selected", where, sum.Games)
		}
	}
	var los, queued int
	if err := pool.QueryRow(ctx, "SELECT (SELECT count(*) FROM pg_largeobject_metadata), (SELECT count(*) FROM analysis_queue) + (SELECT count(*) FROM evaluations)").
		Scan(&los, &queued); err != nil || los != 0 || queued != 0 {
		t.Errorf("large objects %d, analysis rows %d (err %v)", los, queued, err)
	}
	if err := other.Ping(ctx); err != nil {
		t.Errorf("the other session died: %v", err)
	}

	// A condition that only reads still works, subqueries included.
	sum, err := runWhere(ctx, pool, "id IN (SELECT g.id FROM games g JOIN sources s ON s.id = g.source_id) -- a comment")
	if err != nil || sum.Games != 2 || sum.PositionsEvaluated == 0 {
		t.Fatalf("a reading condition: %+v, %v", sum, err)
	}
}
