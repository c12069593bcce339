package pgcluster

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func newTestCluster(t *testing.T) *Cluster {
	t.Helper()
	return newTestClusterNamed(t, "draughtsdb-pgcluster-")
}

// newTestClusterNamed is newTestCluster in a directory named by pattern
// (as os.MkdirTemp takes it).
func newTestClusterNamed(t *testing.T, pattern string) *Cluster {
	t.Helper()
	base, err := os.MkdirTemp("", pattern)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	// The data directory does not exist yet: draughtsdb leaves an existing
	// one's owner and mode alone, so root's 0700 from MkdirTemp would keep
	// the server user out. Its parent lets that user pass (0711).
	if err := os.Chmod(base, 0o711); err != nil {
		t.Fatal(err)
	}
	c, err := New(Config{DataDir: filepath.Join(base, "data"), Settings: map[string]string{"fsync": "off"}})
	if errors.Is(err, ErrNoServer) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.StopImmediate(context.Background()) })
	return c
}

func TestStartTwiceStopAndRecoverFromKill(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	// No deadline: a slow machine makes this test slow, not failed (go
	// test's own timeout catches a hang).
	ctx := context.Background()
	c := newTestCluster(t)

	if st, _ := c.Status(ctx); st.Initialized || st.Running {
		t.Fatalf("fresh dir: status %+v", st)
	}
	if started, err := c.Start(ctx); err != nil || !started {
		t.Fatalf("first start: started=%v err=%v", started, err)
	}
	if started, err := c.Start(ctx); err != nil || started {
		t.Fatalf("second start must be a no-op: started=%v err=%v", started, err)
	}
	st, err := c.Status(ctx)
	if err != nil || !st.Running || st.PID == 0 || st.Version == "" {
		t.Fatalf("status after start: %+v, %v", st, err)
	}

	// A crash: the postmaster dies with its pid file left behind.
	if err := syscall.Kill(st.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for isPostgresProcess(st.PID) { // until the kernel has removed it
		time.Sleep(20 * time.Millisecond)
	}
	if st2, _ := c.Status(ctx); st2.Running {
		t.Fatalf("status after kill -9 says running: %+v", st2)
	}
	if started, err := c.Start(ctx); err != nil || !started {
		t.Fatalf("start after kill -9: started=%v err=%v", started, err)
	}
	if st3, _ := c.Status(ctx); !st3.Running {
		t.Fatalf("not running after recovery: %+v", st3)
	}

	if stopped, err := c.Stop(ctx); err != nil || !stopped {
		t.Fatalf("stop: stopped=%v err=%v", stopped, err)
	}
	if stopped, err := c.Stop(ctx); err != nil || stopped {
		t.Fatalf("second stop must be a no-op: stopped=%v err=%v", stopped, err)
	}
	if st4, _ := c.Status(ctx); st4.Running {
		t.Fatalf("running after stop: %+v", st4)
	}
}

func TestFindBinDirRejectsDirWithoutServer(t *testing.T) {
	t.Parallel()
	if _, err := FindBinDir(t.TempDir()); !errors.Is(err, ErrNoServer) {
		t.Fatalf("err = %v, want ErrNoServer", err)
	}
}

// TestStalePIDFileNamingAnotherCluster: a postmaster.pid left by a crash
// whose pid now belongs to another cluster's server. Stop used to shut
// that other cluster down (pg_ctl signals the pid in the file), Status
// called this one running, and Start failed.
func TestStalePIDFileNamingAnotherCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	c1, c2 := newTestCluster(t), newTestCluster(t)
	if _, err := c1.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c1.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c2.Start(ctx); err != nil {
		t.Fatal(err)
	}
	st2, err := c2.Status(ctx)
	if err != nil || !st2.Running {
		t.Fatalf("c2: %+v, %v", st2, err)
	}
	// c2's pid file with c1's directory in it, as the crash would leave it.
	b, err := os.ReadFile(filepath.Join(c2.pgdata(), "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	stale := strings.ReplaceAll(string(b), c2.pgdata(), c1.pgdata())
	if err := os.WriteFile(filepath.Join(c1.pgdata(), "postmaster.pid"), []byte(stale), 0o600); err != nil {
		t.Fatal(err)
	}

	if st, _ := c1.Status(ctx); st.Running {
		t.Fatalf("c1 status says running (pid %d is c2's server)", st.PID)
	}
	if stopped, err := c1.Stop(ctx); err != nil || stopped {
		t.Fatalf("c1 stop must be a no-op: stopped=%v err=%v", stopped, err)
	}
	if st, _ := c2.Status(ctx); !st.Running || st.PID != st2.PID {
		t.Fatalf("c2 after stopping c1: %+v (was pid %d)", st, st2.PID)
	}
	if started, err := c1.Start(ctx); err != nil || !started {
		t.Fatalf("c1 start: started=%v err=%v", started, err)
	}
	for _, c := range []*Cluster{c1, c2} {
		conn, err := pgx.Connect(ctx, c.URL())
		if err != nil {
			t.Fatalf("%s: %v", c.DataDir(), err)
		}
		var dir string
		err = conn.QueryRow(ctx, "SHOW data_directory").Scan(&dir)
		conn.Close(ctx)
		if err != nil || dir != c.pgdata() {
			t.Fatalf("%s: server of %q (%v)", c.DataDir(), dir, err)
		}
	}
}

// TestOddDataDirNames: the URL names the socket directory in its host
// parameter, where a space written as '+' (as url.Values.Encode does) is
// read as a '+': Start failed to connect to "my+data/run" after starting
// the server, and so did every command.
func TestOddDataDirNames(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	for _, name := range []string{"my data-", "o'dd #%&+é=?-"} {
		c := newTestClusterNamed(t, name)
		cfg, err := pgx.ParseConfig(c.URL())
		if err != nil || cfg.Host != c.socketDir() {
			t.Fatalf("URL %s: host %q, want %q (%v)", c.URL(), cfg.Host, c.socketDir(), err)
		}
		if _, err := c.Start(ctx); err != nil {
			t.Fatalf("start in %q: %v", c.DataDir(), err)
		}
		conn, err := pgx.Connect(ctx, c.URL())
		if err != nil {
			t.Fatal(err)
		}
		var dir string
		err = conn.QueryRow(ctx, "SHOW data_directory").Scan(&dir)
		conn.Close(ctx)
		if err != nil || dir != c.pgdata() {
			t.Fatalf("connected to the server of %q, want %q (%v)", dir, c.pgdata(), err)
		}
		if _, err := c.Stop(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// TestConcurrentFirstStarts: two starts of one new data directory at once
// both succeed, one creating the cluster and the other using it. Before,
// both ran initdb, one removing the pgdata the other was filling: the
// second failed with initdb's "could not create directory" or "exists but
// is not empty", sometimes both did.
func TestConcurrentFirstStarts(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	base := newTestCluster(t) // for its directory and cleanup
	cs := make([]*Cluster, 3)
	for i := range cs {
		c, err := New(base.cfg)
		if err != nil {
			t.Fatal(err)
		}
		cs[i] = c
	}
	errs := make([]error, len(cs))
	started := make([]bool, len(cs))
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			started[i], errs[i] = c.Start(ctx)
		}()
	}
	wg.Wait()
	n := 0
	for i, err := range errs {
		if err != nil {
			t.Errorf("start %d: %v", i, err)
		}
		if started[i] {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d starts started the server, want 1", n)
	}
	if st, err := base.Status(ctx); err != nil || !st.Running {
		t.Fatalf("status: %+v, %v", st, err)
	}
}

// TestPermanentStartFailureIsNotRetried: Start retries only while a killed
// server's processes still hold its shared memory. A start that fails for
// good (here the TCP port is taken) was retried for 15 s, failing the
// same way every time; now it fails at once with the server's reason.
func TestPermanentStartFailureIsNotRetried(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, _ := newTCPCluster(t)
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(c.cfg.Port)))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, err = c.Start(ctx)
	if err == nil || !strings.Contains(err.Error(), "could not create any TCP/IP sockets") {
		t.Fatalf("start on a taken port: %v", err)
	}
	b, err := os.ReadFile(c.logFile())
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "could not create any TCP/IP sockets"); n != 1 {
		t.Fatalf("the server was started %d times, want 1:\n%s", n, b)
	}
}
