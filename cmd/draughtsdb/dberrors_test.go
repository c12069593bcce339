package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgcluster"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5"
)

// importJSON runs `import --json` and returns its summary and error.
func importJSON(t *testing.T, args ...string) (ingest.Summary, error) {
	t.Helper()
	out, err := runCLIStdout(t, append([]string{"import", "--json", "--quiet"}, args...)...)
	var sum ingest.Summary
	if jerr := json.Unmarshal([]byte(out), &sum); jerr != nil {
		t.Fatalf("--json: %v: %q (import: %v)", jerr, out, err)
	}
	return sum, err
}

// smallDisk mounts a tmpfs of size bytes for the server user, or skips
// when this process may not mount (not root).
func smallDisk(t *testing.T, size int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small disk needs root")
	}
	dir, err := os.MkdirTemp("", "draughtsdb-smalldisk-")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+strconv.Itoa(size), "tmpfs", dir).CombinedOutput(); err != nil {
		os.Remove(dir)
		t.Skipf("mount tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() {
		_ = exec.Command("umount", dir).Run()
		os.Remove(dir)
	})
	if u, err := user.Lookup("postgres"); err == nil {
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestImportDiskFull: an import whose database runs out of disk says so
// ("no space left on device (the database's disk): ..."; it said
// "unexpected EOF"), and its --json summary counts the source it could not
// finish as failed, agreeing with exit status 1. The disk is a 2 MB tmpfs
// holding every table and index of the database (a tablespace).
func TestImportDiskFull(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	ctx := context.Background()
	disk := smallDisk(t, 2<<20)
	// The tablespace must outlive the database (dropped at its cleanup):
	// made with a connection of its own, dropped after.
	url := pgtest.NewDBURL(t)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	ts := fmt.Sprintf("small_%d", time.Now().UnixNano())
	if _, err := conn.Exec(ctx, "CREATE TABLESPACE "+ts+" LOCATION '"+disk+"'"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// After the database's own cleanup (cleanups run last first, and
		// this one was registered after NewDBURL's): drop it here first.
		c, err := pgx.Connect(context.Background(), url)
		if err == nil {
			var db string
			_ = c.QueryRow(context.Background(), "SELECT current_database()").Scan(&db)
			c.Close(context.Background())
			a, err := pgx.Connect(context.Background(), strings.Replace(url, "/"+db+"?", "/postgres?", 1))
			if err == nil {
				_, _ = a.Exec(context.Background(), "DROP DATABASE IF EXISTS "+pgx.Identifier{db}.Sanitize()+" WITH (FORCE)")
				_, _ = a.Exec(context.Background(), "DROP TABLESPACE IF EXISTS "+ts)
				a.Close(context.Background())
			}
		}
	})
	for _, q := range []string{"ALTER TABLE ALL IN TABLESPACE pg_default SET TABLESPACE " + ts,
		"ALTER INDEX ALL IN TABLESPACE pg_default SET TABLESPACE " + ts} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	games := filepath.Join(t.TempDir(), "games.pdn")
	if _, err := runCLI(t, "gen", "--games", "5000", "--out", games); err != nil {
		t.Fatal(err)
	}
	sum, err := importJSON(t, "--database-url", url, "--batch-size", "500", games)
	if err == nil {
		t.Fatalf("the import fitted in 2 MB: %+v", sum)
	}
	const want = "no space left on device (the database's disk): free space and run the same command again"
	if !errors.Is(err, schema.ErrDiskFull) || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("import on a full disk: %v\nwant %q", err, want)
	}
	if exitCode(err) != 1 || sum.SourcesFailed != 1 || len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0].Error, want) {
		t.Fatalf("exit %d, summary %+v: want the source failed with the cause", exitCode(err), sum)
	}
}

// TestImportServerStopped: the server stopped mid-import is named ("the
// database server stopped: ..."; it was "conn closed"), and --json counts
// the unfinished source as failed (it said sources_failed 0 while the
// command exited 1). The embedded cluster of a data directory of its own,
// stopped by another process's `db stop` once games are stored.
func TestImportServerStopped(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	// Not parallel: a lost connection is told apart by the server log the
	// process names (schema.SetServerLog), which every command sets.
	base, err := os.MkdirTemp("", "draughtsdb-stopped-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o711); err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(base, "data")
	c, err := pgcluster.New(pgcluster.Config{DataDir: dataDir, Settings: map[string]string{"fsync": "off"}})
	if errors.Is(err, pgcluster.ErrNoServer) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.StopImmediate(context.Background()) })
	games := filepath.Join(base, "games.pdn")
	if _, err := runCLI(t, "gen", "--games", "40000", "--out", games); err != nil {
		t.Fatal(err)
	}
	if _, err := runCLI(t, "db", "start", "--data-dir", dataDir); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan error, 1)
	go func() {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, c.URL())
		if err != nil {
			stopped <- err
			return
		}
		defer conn.Close(ctx)
		for {
			var n int
			if err := conn.QueryRow(ctx, "SELECT count(*) FROM games").Scan(&n); err != nil {
				stopped <- err
				return
			}
			if n > 0 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		_, err = c.Stop(ctx)
		stopped <- err
	}()
	sum, err := importJSON(t, "--data-dir", dataDir, "--batch-size", "500", games)
	if serr := <-stopped; serr != nil {
		t.Fatalf("stopping the server: %v", serr)
	}
	if err == nil {
		t.Fatalf("the import ended before the server stopped: %+v", sum)
	}
	const want = "the database server stopped: "
	if !errors.Is(err, schema.ErrServerStopped) || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("import with the server stopped: %v\nwant %q...", err, want)
	}
	if exitCode(err) != 1 || sum.SourcesFailed != 1 || len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0].Error, want) {
		t.Fatalf("exit %d, summary %+v: want the source failed with the cause", exitCode(err), sum)
	}
	// What was committed is kept: the same command finishes the import.
	sum, err = importJSON(t, "--data-dir", dataDir, games)
	if err != nil || sum.SourcesResumed != 1 || sum.SourcesFailed != 0 {
		t.Fatalf("re-run: %v, %+v", err, sum)
	}
}

// TestImportWALDiskFull: when the disk of the write-ahead log fills, the
// server itself stops (PANIC) and the client sees only a closed
// connection (what was reported as "unexpected EOF"); for the embedded
// cluster its log tells, and the import says the disk is full. pg_wal is
// moved to a 40 MB tmpfs (two segments and a little).
func TestImportWALDiskFull(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	// Not parallel: a lost connection is told apart by the server log the
	// process names (schema.SetServerLog), which every command sets.
	ctx := context.Background()
	disk := smallDisk(t, 40<<20)
	base, err := os.MkdirTemp("", "draughtsdb-walfull-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o711); err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(base, "data")
	c, err := pgcluster.New(pgcluster.Config{DataDir: dataDir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.StopImmediate(context.Background()) })
	if _, err := runCLI(t, "db", "start", "--data-dir", dataDir); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	wal := filepath.Join(dataDir, "pgdata", "pg_wal")
	if out, err := exec.Command("cp", "-a", wal+"/.", disk).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	if err := os.RemoveAll(wal); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(disk, wal); err != nil {
		t.Fatal(err)
	}
	games := filepath.Join(base, "games.pdn")
	if _, err := runCLI(t, "gen", "--games", "20000", "--out", games); err != nil {
		t.Fatal(err)
	}
	sum, err := importJSON(t, "--data-dir", dataDir, "--batch-size", "500", games)
	if err == nil {
		t.Fatalf("the import's WAL fitted in 40 MB: %+v", sum)
	}
	const want = "no space left on device (the database's disk): free space and run the same command again"
	if !errors.Is(err, schema.ErrDiskFull) || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("import with the WAL's disk full: %v\nwant %q", err, want)
	}
	if exitCode(err) != 1 || sum.SourcesFailed != 1 || len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0].Error, want) {
		t.Fatalf("exit %d, summary %+v: want the source failed with the cause", exitCode(err), sum)
	}
}

// TestDBRepairCommand: a data directory whose postgresql.conf no longer
// loads draughtsdb.conf is refused by every command with the exact repair
// to run, its --data-dir included; `db repair` fixes it and starts it.
func TestDBRepairCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	base, err := os.MkdirTemp("", "draughtsdb-repair-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o711); err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(base, "data")
	c, err := pgcluster.New(pgcluster.Config{DataDir: dataDir})
	if errors.Is(err, pgcluster.ErrNoServer) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.StopImmediate(context.Background()) })
	if _, err := runCLI(t, "db", "start", "--data-dir", dataDir); err != nil {
		t.Fatal(err)
	}
	if _, err := runCLI(t, "db", "stop", "--data-dir", dataDir); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dataDir, "pgdata", "postgresql.conf")
	b, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	stock := strings.ReplaceAll(string(b), "include 'draughtsdb.conf'", "")
	if stock == string(b) {
		t.Fatalf("%s has no include of draughtsdb.conf", conf)
	}
	if err := os.WriteFile(conf, []byte(stock), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"db", "start"}, {"db", "url"}, {"openings"}} {
		_, err := runCLI(t, append(args, "--data-dir", dataDir)...)
		if err == nil || !strings.Contains(err.Error(), "run `draughtsdb db repair --data-dir "+dataDir+"`") {
			t.Fatalf("%v on a stock configuration: %v", args, err)
		}
	}
	if st, err := c.Status(context.Background()); err != nil || st.Running {
		t.Fatalf("a refused start left the server running: %+v, %v", st, err)
	}
	out, err := runCLI(t, "db", "repair", "--data-dir", dataDir)
	if err != nil || !strings.Contains(out, "draughtsdb's configuration (postgresql.conf loads draughtsdb.conf) and started it") {
		t.Fatalf("db repair: %v\n%s", err, out)
	}
	if out, err := runCLI(t, "db", "repair", "--data-dir", dataDir); err != nil || !strings.Contains(out, "needed no repair") {
		t.Fatalf("db repair again: %v\n%s", err, out)
	}
	if _, err := runCLI(t, "openings", "--data-dir", dataDir); err != nil {
		t.Fatalf("openings after the repair: %v", err)
	}
}

// TestWhereBoundedByTempFileLimit: the user_sql settings reach the SQL
// of analyze --where: a condition that sorts far more than work_mem (set
// through DRAUGHTSDB_USER_SQL_WORK_MEM) into temporary files past
// user_sql.temp_file_limit fails, naming the setting.
func TestWhereBoundedByTempFileLimit(t *testing.T) {
	isolate(t)
	url := pgtest.NewDBURL(t)
	if _, err := runCLI(t, "import", "--database-url", url, "--quiet", "testdata/mixed.pdn"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = schema.SetUserSQLLimits(schema.DefaultUserSQLLimits) })
	t.Setenv("DRAUGHTSDB_USER_SQL_WORK_MEM", "64kB")
	where := "(SELECT count(*) FROM (SELECT g FROM generate_series(1, 2000000) g ORDER BY g DESC OFFSET 1) s) > 0"
	t.Setenv("DRAUGHTSDB_USER_SQL_TEMP_FILE_LIMIT", "1MB")
	_, err := runCLI(t, "analyze", "--database-url", url, "--quiet", "--depth", "1", "--where", where)
	if !errors.Is(err, schema.ErrTempFileLimit) || !strings.Contains(err.Error(), "temp_file_limit allows (1MB, setting user_sql.temp_file_limit)") {
		t.Fatalf("analyze --where over temp_file_limit: %v", err)
	}
	t.Setenv("DRAUGHTSDB_USER_SQL_TEMP_FILE_LIMIT", "1 GB")
	_, err = runCLI(t, "config")
	if err == nil || !strings.Contains(err.Error(), `DRAUGHTSDB_USER_SQL_TEMP_FILE_LIMIT="1 GB" (setting user_sql.temp_file_limit)`) {
		t.Fatalf("a bad user_sql.temp_file_limit: %v", err)
	}
}
