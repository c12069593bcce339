package queries_test

import (
	"context"
	"errors"
	"testing"

	"github.com/draughtsdb/draughtsdb/queries"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestRunIsReadOnly: a query file is SQL text a person may write, so Run
// gives it the powers of draughtsdb_reader only: a file that creates a large
// object, reads a server file or reads the migration bookkeeping is refused
// and leaves nothing behind, while every bundled query still runs.
func TestRunIsReadOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	for _, sql := range []string{
		"SELECT lo_from_bytea(0, 'x')",
		"SELECT pg_read_file('/etc/hostname')",
		"SELECT set_config('role', 'none', true)",
		"SELECT count(*) FROM draughtsdb_migrations",
		"SELECT pg_terminate_backend(pg_backend_pid())",
	} {
		q := &queries.Query{Name: "mine", File: "mine.sql", SQL: "-- name: mine\n" + sql + ";\n"}
		if _, err := queries.Run(ctx, pool, q, nil); !errors.Is(err, schema.ErrRefused) {
			t.Errorf("%s: err %v, want ErrRefused", sql, err)
		}
	}
	var los int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM pg_largeobject_metadata").Scan(&los); err != nil || los != 0 {
		t.Fatalf("%d large objects (err %v)", los, err)
	}

	all, err := queries.All()
	if err != nil {
		t.Fatal(err)
	}
	required := map[string]string{"hash": "0", "moves": "32-28", "player": "Tinsley, M."}
	for _, q := range all {
		values := map[string]string{}
		for _, p := range q.Params {
			if p.Default == nil {
				values[p.Name] = required[p.Name]
			}
		}
		if q.Has("fen") {
			values["variant"] = "international" // the FEN (the initial position by default) reads with its rules
		}
		if _, err := queries.Run(ctx, pool, q, values); err != nil {
			t.Errorf("%s as %s: %v", q.Name, schema.ReaderRole, err)
		}
	}
}
