package schema_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgcluster"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// userSQL evaluates text, a user's expression, through schema.ReadOnly
// (in the select list: a WHERE over an empty table would never run it).
func userSQL(ctx context.Context, pool *pgxpool.Pool, text string) error {
	return schema.ReadOnly(ctx, pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, "SELECT (\n"+text+"\n)")
		if err != nil {
			return err
		}
		rows.Close()
		return rows.Err()
	})
}

// secretFile writes a file the server user can read and returns its path
// and the text in it.
func secretFile(t *testing.T) (string, string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "draughtsdb-secret-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	text := "draughtsdb-secret-" + fmt.Sprint(time.Now().UnixNano())
	path := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, text
}

// TestReadOnlyRefusesSideEffects: every function that acts outside the
// transaction is refused to user SQL with an error saying so, even though
// the session is a superuser, and nothing changes: no large object, the
// other session lives, the file's text is not in the error.
func TestReadOnlyRefusesSideEffects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	other, err := pool.Acquire(ctx) // a session the text tries to kill
	if err != nil {
		t.Fatal(err)
	}
	defer other.Release()
	var pid int
	if err := other.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	var super bool
	if err := pool.QueryRow(ctx, "SELECT rolsuper FROM pg_roles WHERE rolname = session_user").Scan(&super); err != nil || !super {
		t.Fatalf("the test session must be a superuser, as the embedded cluster's is (super=%v, err %v)", super, err)
	}
	var statsReset *time.Time
	if err := pool.QueryRow(ctx, "SELECT stats_reset FROM pg_stat_database WHERE datname = current_database()").Scan(&statsReset); err != nil {
		t.Fatal(err)
	}
	path, secret := secretFile(t)
	lit := "'" + path + "'"
	for _, where := range []string{
		"lo_from_bytea(0, 'x') > 0",
		"lo_create(0) > 0",
		"lo_creat(-1) > 0",
		"lo_import(" + lit + ") > 0",
		fmt.Sprintf("pg_terminate_backend(%d)", pid),
		fmt.Sprintf("pg_cancel_backend(%d)", pid),
		"pg_reload_conf()",
		"pg_stat_reset() IS NOT NULL",
		"pg_switch_wal() IS NOT NULL",
		"pg_read_file(" + lit + ") IS NOT NULL",
		"pg_read_file(" + lit + ")::int > 0", // the old leak: the text in a cast error
		"pg_read_binary_file(" + lit + ") IS NOT NULL",
		"pg_logical_emit_message(false, 'draughtsdb', 'x') IS NOT NULL",
		// Leaving the role: a superuser session may SET ROLE to anyone, and
		// query_to_xml runs text as whoever is current then.
		"set_config('role', 'none', true) IS NOT NULL AND query_to_xml('SELECT pg_read_file(''" + path + "'')', true, false, '') IS NOT NULL",
		"set_config('session_authorization', session_user, true) IS NOT NULL",
		"query_to_xml('SELECT lo_from_bytea(0, ''x'')', true, false, '') IS NOT NULL",
		"EXISTS (SELECT 1 FROM draughtsdb_migrations)", // bookkeeping: not granted
	} {
		err := userSQL(ctx, pool, where)
		if !errors.Is(err, schema.ErrRefused) {
			t.Errorf("%s: err %v, want ErrRefused", where, err)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("%s: the error shows the file's text: %v", where, err)
		}
		t.Logf("%s: %v", where, err)
	}
	var los int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM pg_largeobject_metadata").Scan(&los); err != nil || los != 0 {
		t.Errorf("%d large objects (err %v)", los, err)
	}
	if err := other.Ping(ctx); err != nil {
		t.Errorf("the other session died: %v", err)
	}
	var statsReset2 *time.Time
	if err := pool.QueryRow(ctx, "SELECT stats_reset FROM pg_stat_database WHERE datname = current_database()").Scan(&statsReset2); err != nil {
		t.Fatal(err)
	}
	if (statsReset == nil) != (statsReset2 == nil) || statsReset != nil && !statsReset.Equal(*statsReset2) {
		t.Errorf("statistics reset: %v -> %v", statsReset, statsReset2)
	}
}

// TestReadOnlyReadsAndCleansUp: the role reads the data tables; the
// transaction is read only and rolled back; a session advisory lock taken by
// the text does not stay with the pooled connection; the timeout applies.
func TestReadOnlyReadsAndCleansUp(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	for _, table := range []string{"sources", "players", "games", "position_index", "rejected_games", "duplicates",
		"games_same_moves", "evaluations", "move_annotations", "opening_index", "opening_names"} {
		err := schema.ReadOnly(ctx, pool, func(tx pgx.Tx) error {
			var n int
			return tx.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n)
		})
		if err != nil {
			t.Errorf("%s: %v", table, err)
		}
	}
	var user string
	var readOnly string
	if err := schema.ReadOnly(ctx, pool, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, "SELECT current_user, current_setting('transaction_read_only')").Scan(&user, &readOnly)
	}); err != nil || user != schema.ReaderRole || readOnly != "on" {
		t.Fatalf("ran as %q, read only %q, err %v", user, readOnly, err)
	}
	if err := userSQL(ctx, pool, "(SELECT count(*) FROM games g JOIN players p ON p.id = g.white_id) >= 0"); err != nil {
		t.Fatal(err)
	}

	const key = 0x64726175
	if err := userSQL(ctx, pool, fmt.Sprintf("pg_advisory_lock(%d) IS NOT NULL", key)); err != nil {
		t.Fatal(err)
	}
	other, err := pgx.Connect(ctx, pool.Config().ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	var got bool
	if err := other.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&got); err != nil || !got {
		t.Fatalf("the advisory lock taken by user SQL is still held (got=%v, err %v)", got, err)
	}

	err = schema.ReadOnlyTimeout(ctx, pool, 50*time.Millisecond, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "SELECT pg_sleep(30)")
		return err
	})
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "57014" {
		t.Fatalf("pg_sleep past the timeout: %v, want query_canceled", err)
	}
	// The session settings are back after the rollback.
	if err := pool.QueryRow(ctx, "SELECT current_user").Scan(&user); err != nil || user == schema.ReaderRole {
		t.Fatalf("pool session left as %q (err %v)", user, err)
	}
}

// TestReadOnlyRefusesAnUnsecuredReader: when the role may still run
// set_config (migration 0007's REVOKEs did not take), a superuser session
// does not run user SQL at all.
func TestReadOnlyRefusesAnUnsecuredReader(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	if _, err := pool.Exec(ctx, "GRANT EXECUTE ON FUNCTION pg_catalog.set_config(text, text, boolean) TO PUBLIC"); err != nil {
		t.Fatal(err)
	}
	ran := false
	err := schema.ReadOnly(ctx, pool, func(pgx.Tx) error { ran = true; return nil })
	if !errors.Is(err, schema.ErrReaderUnsafe) || ran {
		t.Fatalf("err %v, ran %v: want ErrReaderUnsafe before running", err, ran)
	}
}

// TestReaderRoleOnceAcrossDatabases: the role belongs to the cluster;
// migrating several new databases of a fresh cluster at the same moment
// creates it once and fails none of them.
func TestReaderRoleOnceAcrossDatabases(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a cluster of its own")
	}
	pgtest.NewDBURL(t) // skips when there is no server
	// No deadline: a loaded machine makes it slow, not failed.
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "draughtsdb-roles-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o711); err != nil { // the server user passes through
		t.Fatal(err)
	}
	c, err := pgcluster.New(pgcluster.Config{DataDir: filepath.Join(dir, "data"), Port: 5433,
		Settings: map[string]string{"fsync": "off", "shared_buffers": "32MB"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer c.StopImmediate(context.Background()) //nolint:errcheck
	admin, err := pgx.Connect(ctx, c.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	const n = 4
	urls := make([]string, n)
	for i := range n {
		name := fmt.Sprintf("roles_%d", i)
		if _, err := admin.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE template0"); err != nil {
			t.Fatal(err)
		}
		urls[i] = strings.Replace(c.URL(), "/draughtsdb?", "/"+name+"?", 1)
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pool, err := pgxpool.New(ctx, urls[i])
			if err != nil {
				errs[i] = err
				return
			}
			defer pool.Close()
			if _, errs[i] = schema.Migrate(ctx, pool); errs[i] == nil {
				errs[i] = userSQL(ctx, pool, "lo_from_bytea(0, 'x') > 0")
				if errors.Is(errs[i], schema.ErrRefused) {
					errs[i] = nil
				} else if errs[i] == nil {
					errs[i] = errors.New("lo_from_bytea ran")
				}
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("database %d: %v", i, err)
		}
	}
	var roles int
	if err := admin.QueryRow(ctx, "SELECT count(*) FROM pg_roles WHERE rolname = $1 AND NOT rolcanlogin AND NOT rolsuper",
		schema.ReaderRole).Scan(&roles); err != nil || roles != 1 {
		t.Fatalf("%d reader roles (err %v)", roles, err)
	}
}

// BenchmarkReadOnly is the cost ReadOnly adds to a query: BEGIN, the
// settings, the role check, ROLLBACK and the lock release (compare
// BenchmarkPlainQuery, the same SELECT 1 on the pool).
func BenchmarkReadOnly(b *testing.B) {
	ctx := context.Background()
	pool := pgtest.NewDB(b)
	for b.Loop() {
		if err := schema.ReadOnly(ctx, pool, func(tx pgx.Tx) error {
			var one int
			return tx.QueryRow(ctx, "SELECT 1").Scan(&one)
		}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlainQuery(b *testing.B) {
	ctx := context.Background()
	pool := pgtest.NewDB(b)
	for b.Loop() {
		var one int
		if err := pool.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
			b.Fatal(err)
		}
	}
}
