package schema_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5"
)

// TestUserSQLLimits: user SQL runs with the configured work_mem and
// temp_file_limit (set before the role changes: the reader may not set
// temp_file_limit itself), and a statement that needs more temporary files
// than the limit fails with an error naming the limit and its setting;
// the session's own SQL keeps the server's values.
func TestUserSQLLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	t.Cleanup(func() { _ = schema.SetUserSQLLimits(schema.DefaultUserSQLLimits) })

	show := func() (workMem, tempLimit string) {
		t.Helper()
		err := schema.ReadOnly(ctx, pool, func(tx pgx.Tx) error {
			return tx.QueryRow(ctx, "SELECT current_setting('work_mem'), current_setting('temp_file_limit')").Scan(&workMem, &tempLimit)
		})
		if err != nil {
			t.Fatal(err)
		}
		return workMem, tempLimit
	}
	if w, l := show(); w != "32MB" || l != "1GB" {
		t.Errorf("defaults: work_mem %s, temp_file_limit %s; want 32MB, 1GB", w, l)
	}
	if err := schema.SetUserSQLLimits(schema.UserSQLLimits{WorkMem: "64kB", TempFileLimit: "1MB"}); err != nil {
		t.Fatal(err)
	}
	if w, l := show(); w != "64kB" || l != "1MB" {
		t.Errorf("set: work_mem %s, temp_file_limit %s; want 64kB, 1MB", w, l)
	}
	var outside string
	if err := pool.QueryRow(ctx, "SHOW temp_file_limit").Scan(&outside); err != nil || outside != "-1" {
		t.Errorf("the session's own temp_file_limit: %q, %v; want the server's -1", outside, err)
	}

	// A sort of 2M integers (tens of MB) spills far past 1MB at 64kB of memory.
	err := schema.ReadOnly(ctx, pool, func(tx pgx.Tx) error {
		var n int64
		return tx.QueryRow(ctx, "SELECT count(*) FROM (SELECT g FROM generate_series(1, 2000000) g ORDER BY g DESC OFFSET 1) s").Scan(&n)
	})
	if !errors.Is(err, schema.ErrTempFileLimit) || !strings.Contains(err.Error(), "temp_file_limit allows (1MB, setting user_sql.temp_file_limit)") {
		t.Fatalf("a query over temp_file_limit: %v", err)
	}
	// The reader may not lift the limit itself.
	err = schema.ReadOnly(ctx, pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "SET LOCAL temp_file_limit = -1")
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("the reader set temp_file_limit: %v", err)
	}
	// The pool's connections are fine afterwards.
	if w, l := show(); w != "64kB" || l != "1MB" {
		t.Errorf("after the failures: work_mem %s, temp_file_limit %s", w, l)
	}
}

func TestCheckMemoryValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s         string
		unlimited bool
		ok        bool
	}{
		{"32MB", false, true}, {"1GB", true, true}, {"64kB", false, true}, {"1TB", false, true},
		{"-1", true, true}, {"-1", false, false}, {"32mb", false, false}, {"32", false, false},
		{"1kB", false, false}, {"2TB", false, false}, {"1GB'; DROP", true, false}, {"", true, false},
		{"99999999999GB", false, false},
	} {
		if err := schema.CheckMemoryValue(tc.s, tc.unlimited); (err == nil) != tc.ok {
			t.Errorf("CheckMemoryValue(%q, %v) = %v, want ok=%v", tc.s, tc.unlimited, err, tc.ok)
		}
	}
	if err := schema.SetUserSQLLimits(schema.UserSQLLimits{WorkMem: "1GB", TempFileLimit: "x"}); err == nil || !strings.Contains(err.Error(), `temp_file_limit "x"`) {
		t.Errorf("SetUserSQLLimits with a bad value: %v", err)
	}
}
