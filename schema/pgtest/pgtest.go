// Package pgtest gives tests a real PostgreSQL: one throw-away cluster per
// test binary, and a fresh, migrated database per test.
//
// Use it from a package's TestMain and a test:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		pool := pgtest.NewDB(t) // empty database with every migration applied
//		...
//	}
//
// Main runs initdb and postgres in a temporary directory (fsync off, Unix
// socket only; as the postgres user when running as root), migrates a
// template database once, and removes everything when the tests end. NewDB
// copies the template (CREATE DATABASE ... TEMPLATE), which takes a few
// milliseconds, so tests never share state.
//
// Tests that need the same imported data use NewDBFrom: the import runs
// once per test binary, into a database each test then gets a copy of.
//
// Tests that use NewDB may call t.Parallel: the cluster is the only thing
// they share, and every connection pgtest opens itself goes to the
// "postgres" maintenance database, never to the template, because CREATE
// DATABASE ... TEMPLATE fails while any other session is connected to the
// template.
//
// Without PostgreSQL server binaries, database tests are skipped with the
// reason, except under CI=true, where that is a failure of the whole binary:
// CI must never pass by skipping.
package pgtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgcluster"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

const templateDB = "draughtsdb_template"

var (
	cluster     *pgcluster.Cluster
	unavailable string // why there is no cluster, when there is none
	dbCounter   atomic.Int64
)

// Main starts the cluster, runs the tests and tears the cluster down. It
// never returns.
func Main(m *testing.M) {
	os.Exit(run(m))
}

// Run is Main returning the exit code, for a TestMain with work of its
// own to do after the tests.
func Run(m *testing.M) int {
	return run(m)
}

func run(m *testing.M) int {
	dir, err := setup()
	if dir != "" {
		defer os.RemoveAll(dir)
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			fmt.Fprintf(os.Stderr, "pgtest: CI=true and no test database could be started: %v\n", err)
			return 1
		}
		unavailable = err.Error()
	}
	if cluster != nil {
		defer cluster.StopImmediate(context.Background()) //nolint:errcheck
	}
	code := m.Run()
	if os.Getenv("DRAUGHTSDB_PGTEST_CPU") != "" && cluster != nil {
		reportServerCPU()
	}
	return code
}

// reportServerCPU prints the CPU time the test cluster's server spent, to
// stderr. The server is no child of the test binary (pg_ctl starts it
// detached), so go test's and /usr/bin/time's figures leave it out, and
// for the database tests it is most of the work. The postmaster's own
// time and that of the backends it has reaped (the children's fields of
// /proc/PID/stat) count; backends still connected do not.
func reportServerCPU() {
	st, err := cluster.Status(context.Background())
	if err != nil || st.PID == 0 {
		return
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", st.PID))
	if err != nil {
		return
	}
	// The fields after the command name (which may hold spaces) in
	// parentheses: state is field 3, utime..cstime fields 14-17.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 15 {
		return
	}
	var ticks [4]float64
	for i := range ticks {
		fmt.Sscan(f[11+i], &ticks[i])
	}
	const hz = 100 // USER_HZ on Linux
	fmt.Fprintf(os.Stderr, "pgtest: server CPU %.2fs user %.2fs sys\n", (ticks[0]+ticks[2])/hz, (ticks[1]+ticks[3])/hz)
}

func setup() (string, error) {
	closeInheritedFiles()
	// A directory of our own (not t.TempDir, which is 0700 under a root-only
	// parent) that the postgres user can pass through when we run as root;
	// the data directory in it does not exist yet, so that pgcluster makes
	// it the server user's (it leaves an existing directory alone).
	dir, err := os.MkdirTemp("", "draughtsdb-pgtest-")
	if err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o711); err != nil {
		return dir, err
	}
	c, err := pgcluster.New(pgcluster.Config{
		DataDir:  filepath.Join(dir, "data"),
		Database: templateDB,
		Settings: map[string]string{
			"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
			"shared_buffers": "128MB", "max_connections": "200",
		},
	})
	if err != nil {
		return dir, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := c.Start(ctx); err != nil {
		return dir, err
	}
	cluster = c
	pool, err := pgxpool.New(ctx, c.URL())
	if err != nil {
		return dir, err
	}
	defer pool.Close()
	if _, err := schema.Migrate(ctx, pool); err != nil {
		return dir, fmt.Errorf("migrate template: %w", err)
	}
	return dir, nil
}

// NewDB returns a pool on a new database with every migration applied. The
// database is dropped when the test ends.
func NewDB(t testing.TB) *pgxpool.Pool {
	t.Helper()
	url := NewDBURL(t)
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// NewDBURL creates a new migrated database and returns its URL, for tests
// that hand the database to another process or open it themselves.
func NewDBURL(t testing.TB) string {
	t.Helper()
	return newDB(t, templateDB)
}

// NewDBFrom returns a pool on a new database that starts as a copy of
// the one fill made. The first call with a key creates a migrated
// database and runs fill on it, once per test binary; every call then
// copies it (CREATE DATABASE ... TEMPLATE, milliseconds for the small
// archives tests import), so tests that need the same data pay for its
// import once and may still write to their copy, and may run in
// parallel. fill must close every connection it opens: a template cannot
// be copied while a session uses it. A failed fill fails every test that
// asks for that key.
func NewDBFrom(t testing.TB, key string, fill func(ctx context.Context, pool *pgxpool.Pool) error) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), NewDBURLFrom(t, key, fill))
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// NewDBURLFrom is NewDBFrom returning the new database's URL.
func NewDBURLFrom(t testing.TB, key string, fill func(ctx context.Context, pool *pgxpool.Pool) error) string {
	t.Helper()
	if cluster == nil {
		return NewDBURL(t) // skips, or fails without Main
	}
	v, _ := templates.LoadOrStore(key, &filled{})
	f := v.(*filled)
	f.once.Do(func() { f.name, f.err = fillTemplate(key, fill) })
	if f.err != nil {
		t.Fatalf("pgtest: the database of %q: %v", key, f.err)
	}
	return newDB(t, f.name)
}

// templates holds the databases NewDBFrom made, by key.
var templates sync.Map // string -> *filled

type filled struct {
	once sync.Once
	name string
	err  error
}

// fillTemplate makes the database of key: a copy of the migrated template
// that fill ran on. It stays until the cluster goes.
func fillTemplate(key string, fill func(ctx context.Context, pool *pgxpool.Pool) error) (string, error) {
	ctx := context.Background()
	name := fmt.Sprintf("tpl%d_%s", dbCounter.Add(1), sanitize(key))
	if err := createDB(ctx, name, templateDB); err != nil {
		return "", err
	}
	pool, err := pgxpool.New(ctx, dbURL(name))
	if err != nil {
		return "", err
	}
	err = fill(ctx, pool)
	pool.Close()
	return name, err
}

// NewEmptyDBURL creates a database with no migrations applied (for tests of
// the migration runner itself) and returns its URL.
func NewEmptyDBURL(t testing.TB) string {
	t.Helper()
	return newDB(t, "template0")
}

func newDB(t testing.TB, template string) string {
	t.Helper()
	if cluster == nil {
		if unavailable == "" {
			t.Fatal("pgtest: no cluster: call pgtest.Main(m) from TestMain")
		}
		t.Skipf("pgtest: no PostgreSQL server to test against: %s", unavailable)
	}
	name := fmt.Sprintf("t%d_%s", dbCounter.Add(1), sanitize(t.Name()))
	ctx := context.Background()
	if err := createDB(ctx, name, template); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	ident := pgx.Identifier{name}.Sanitize()
	t.Cleanup(func() {
		c, err := pgx.Connect(ctx, dbURL("postgres"))
		if err != nil {
			return
		}
		defer c.Close(ctx)
		_, _ = c.Exec(ctx, "DROP DATABASE IF EXISTS "+ident+" WITH (FORCE)")
	})
	return dbURL(name)
}

// createDB copies template to a new database name. It is safe to call
// from many goroutines at once.
func createDB(ctx context.Context, name, template string) error {
	admin, err := pgx.Connect(ctx, dbURL("postgres"))
	if err != nil {
		return err
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+" TEMPLATE "+template); err != nil {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}

// dbURL is the URL of database name in the cluster.
func dbURL(name string) string {
	return strings.Replace(cluster.URL(), "/"+templateDB+"?", "/"+name+"?", 1)
}

// sanitize makes a test name usable inside a database name (63 bytes max).
func sanitize(s string) string {
	b := []byte(strings.ToLower(s))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	if len(b) > 40 {
		b = b[:40]
	}
	return string(b)
}

// closeInheritedFiles marks every file this process inherited beyond
// standard input, output and error close-on-exec. A fuzz worker gets its
// pipes to the coordinator that way (descriptors 3 and 4, open across
// exec): the server started from it inherited them, outlived the worker
// when the coordinator stopped it, and the coordinator waited for the end
// of those pipes for ever (go test -fuzz hung after its -fuzztime). The
// process itself keeps using them; only the programs it starts lose them.
func closeInheritedFiles() {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return // not Linux: nothing known to inherit
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}
