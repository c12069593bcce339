package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// faultSteps are every step at which creating and starting a new cluster
// can be interrupted, in order: those of init and start, and the moments
// while initdb and pg_ctl run.
func faultSteps() []string {
	var steps []string
	for _, s := range createSteps {
		if s == stepInitdb {
			steps = append(steps, "initdb -D running")
		}
		steps = append(steps, s)
	}
	for _, s := range startSteps {
		if s == stepServerUp {
			steps = append(steps, "pg_ctl start running")
		}
		steps = append(steps, s)
	}
	return steps
}

// stockListeners returns the pids of the processes listening on
// PostgreSQL's stock TCP port 5432 (from ss; none when it is missing).
func stockListeners() []int {
	out, err := exec.Command("ss", "-Hltnp", "sport = :5432").Output()
	if err != nil {
		return nil
	}
	var pids []int
	for _, f := range strings.Split(string(out), "pid=")[1:] {
		end := strings.IndexAny(f, ",)")
		if pid, err := strconv.Atoi(f[:max(end, 0)]); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// stockSocketServer returns the data directory of the server answering on
// PostgreSQL's stock socket (/var/run/postgresql, port 5432) with trust,
// "" when none does.
func stockSocketServer(c *Cluster) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, "postgres://"+c.cfg.User+"@/postgres?host=/var/run/postgresql&port=5432&sslmode=disable")
	if err != nil {
		return ""
	}
	defer conn.Close(ctx)
	var dir string
	_ = conn.QueryRow(ctx, "SHOW data_directory").Scan(&dir)
	return dir
}

// assertNoStockServer fails when a server of c's pgdata runs anywhere but
// on draughtsdb's private socket: by what its pid file says, by what its
// command line sets, by its listening on TCP port 5432, or by its
// answering on PostgreSQL's stock socket (others' servers there are not
// this test's concern).
func assertNoStockServer(t *testing.T, c *Cluster, when string) {
	t.Helper()
	ours := c.postmasters()
	for _, pid := range ours {
		sock, listen, ok := c.serverSockets()
		if ok && (sock != c.socketDir() || listen != "") {
			t.Fatalf("%s: server %d runs with socket %q, TCP %q", when, pid, sock, listen)
		}
		args, _ := cmdline(pid)
		for _, a := range args {
			if strings.Contains(a, "listen_addresses") || strings.Contains(a, "unix_socket") {
				t.Fatalf("%s: server %d started with %q", when, pid, args)
			}
		}
	}
	for _, pid := range stockListeners() {
		if slices.Contains(ours, pid) {
			t.Fatalf("%s: server %d of %s listens on TCP port 5432", when, pid, c.pgdata())
		}
	}
	if dir := stockSocketServer(c); dir == c.pgdata() {
		t.Fatalf("%s: the server of %s answers on /var/run/postgresql with trust", when, dir)
	}
}

// assertStartsSafely starts c after an interruption: it must work (the
// only outcome for a cluster this version made), on draughtsdb's socket
// and settings, with a database one can query.
func assertStartsSafely(t *testing.T, c *Cluster, when string) {
	t.Helper()
	ctx := context.Background()
	if _, err := c.Start(ctx); err != nil {
		t.Fatalf("%s: the next start: %v", when, err)
	}
	conn, err := pgx.Connect(ctx, c.URL())
	if err != nil {
		t.Fatalf("%s: connect: %v", when, err)
	}
	defer conn.Close(ctx)
	var listen, sockets, dir string
	if err := conn.QueryRow(ctx, "SELECT current_setting('listen_addresses'), current_setting('unix_socket_directories'), current_setting('data_directory')").
		Scan(&listen, &sockets, &dir); err != nil {
		t.Fatalf("%s: %v", when, err)
	}
	if listen != "" || sockets != c.socketDir() || dir != c.pgdata() {
		t.Fatalf("%s: server on listen_addresses %q, sockets %q, data %q", when, listen, sockets, dir)
	}
	if _, err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestCreateAbortedAtEveryStep: creating and starting a new cluster fails
// at each step in turn (an error, as from a full disk or Ctrl-C): no
// server is left running, none ever on stock settings, and the next
// start works.
func TestCreateAbortedAtEveryStep(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	for _, step := range faultSteps() {
		t.Run(step, func(t *testing.T) {
			t.Parallel() // each step has its own cluster and hook
			c := newTestCluster(t)
			hit := false
			c.faultHook = func(s string) error {
				if s == step {
					hit = true
					return errors.New("injected")
				}
				return nil
			}
			_, err := c.Start(context.Background())
			c.faultHook = nil
			if !hit {
				t.Fatalf("step %q never reached", step)
			}
			if err == nil || !strings.Contains(err.Error(), "injected") {
				t.Fatalf("start: %v, want the injected error", err)
			}
			if pids := c.postmasters(); len(pids) > 0 {
				t.Fatalf("the failed start left servers %v running", pids)
			}
			assertNoStockServer(t, c, "after the failed start")
			assertStartsSafely(t, c, "after the failed start")
		})
	}
}

// TestCreateCancelledAtEveryStep: the context of creating and starting a
// new cluster is cancelled (Ctrl-C) at each step in turn: the start fails
// as interrupted, or had nothing left to do; a failed one leaves no server
// running, and the next start works.
func TestCreateCancelledAtEveryStep(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	for _, step := range faultSteps() {
		t.Run(step, func(t *testing.T) {
			t.Parallel() // each step has its own cluster and hook
			c := newTestCluster(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c.faultHook = func(s string) error {
				if s == step {
					cancel()
				}
				return nil
			}
			_, err := c.Start(ctx)
			c.faultHook = nil
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Fatalf("start: %v, want it interrupted", err)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("an interrupted start says more than that: %q", err)
			}
			if pids := c.postmasters(); err != nil && len(pids) > 0 {
				t.Fatalf("the interrupted start left servers %v running", pids)
			}
			assertNoStockServer(t, c, "after the interrupted start")
			assertStartsSafely(t, c, "after the interrupted start")
		})
	}
}

// killEnv names the step at which the helper process kills itself, and
// the data directory it starts.
const (
	killStepEnv = "PGCLUSTER_TEST_KILL_AT"
	killDirEnv  = "PGCLUSTER_TEST_KILL_DIR"
)

// TestKillHelper is the process TestCreateKilledAtEveryStep kills: it
// starts the cluster of killDirEnv and SIGKILLs itself at killStepEnv.
func TestKillHelper(t *testing.T) {
	step, dir := os.Getenv(killStepEnv), os.Getenv(killDirEnv)
	if step == "" || dir == "" {
		t.Skip("run by TestCreateKilledAtEveryStep")
	}
	c, err := New(Config{DataDir: dir, Settings: map[string]string{"fsync": "off"}})
	if err != nil {
		t.Fatal(err)
	}
	c.faultHook = func(s string) error {
		if s == step {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
		return nil
	}
	_, err = c.Start(context.Background())
	t.Fatalf("start returned (%v) instead of being killed at %q", err, step)
}

// TestCreateKilledAtEveryStep: a process creating and starting a new
// cluster is killed (SIGKILL: no cleanup runs) at each step in turn; the
// next start works, and no server ever runs on stock settings.
func TestCreateKilledAtEveryStep(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	for _, step := range faultSteps() {
		t.Run(step, func(t *testing.T) {
			t.Parallel() // each step has its own cluster and hook
			c := newTestCluster(t)
			cmd := exec.Command(os.Args[0], "-test.run=^TestKillHelper$", "-test.count=1")
			cmd.Env = append(os.Environ(), killStepEnv+"="+step, killDirEnv+"="+c.DataDir())
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("helper: %v, want killed at %q:\n%s", err, step, out)
			}
			assertNoStockServer(t, c, "after the kill")
			assertStartsSafely(t, c, "after the kill")
			assertNoStockServer(t, c, "after the next start")
		})
	}
}

// olderHalfMadeCluster makes what an interrupted older draughtsdb left: a
// complete initdb whose postgresql.conf does not load draughtsdb.conf.
func olderHalfMadeCluster(t *testing.T, c *Cluster) {
	t.Helper()
	ctx := context.Background()
	if err := c.makeDirs(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.run(ctx, "initdb", "-D", c.pgdata(), "-U", c.cfg.User, "--auth-local=trust",
		"--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"); err != nil {
		t.Fatal(err)
	}
}

// TestStartRefusesStockConfiguration: a cluster whose configuration does
// not load draughtsdb.conf is refused, with the repair to run, and no
// server is started; Repair gives it draughtsdb's configuration, keeping
// the cluster, and starts it on draughtsdb's socket.
func TestStartRefusesStockConfiguration(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	c := newTestCluster(t)
	olderHalfMadeCluster(t, c)
	_, err := c.Start(ctx)
	if !errors.Is(err, ErrNotDraughtsdbConfig) || !strings.Contains(err.Error(), "draughtsdb db repair") ||
		!strings.Contains(err.Error(), "postgresql.conf does not load draughtsdb.conf") {
		t.Fatalf("start: %v, want the refusal with the repair", err)
	}
	if pids := c.postmasters(); len(pids) > 0 {
		t.Fatalf("a refused start left servers %v", pids)
	}
	marker := filepath.Join(c.pgdata(), "base", "kept")
	if err := os.WriteFile(marker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	done, err := c.Repair(ctx)
	if err != nil {
		t.Fatalf("repair: %v (%q)", err, done)
	}
	if len(done) != 1 || !strings.Contains(done[0], "gave "+c.pgdata()+" draughtsdb's configuration") {
		t.Fatalf("repair did %q", done)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("repair did not keep the cluster: %v", err)
	}
	assertStartsSafely(t, c, "after repair")
}

// TestRepairStopsStockServer: the state: a server of the data
// directory runs on settings that are not draughtsdb's. Start refuses it
// (and leaves it alone: it did not start it); Repair stops it and starts
// the cluster on draughtsdb's settings.
func TestRepairStopsStockServer(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	c := newTestCluster(t)
	olderHalfMadeCluster(t, c)
	// A stand-in for the stock settings that listens only where the test
	// may: another private socket directory, no TCP.
	other := filepath.Join(c.DataDir(), "elsewhere")
	if err := os.Mkdir(other, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := c.own(other, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := c.ensureLogFile(); err != nil {
		t.Fatal(err)
	}
	opts := fmt.Sprintf("-c listen_addresses='' -c unix_socket_directories='%s' -c fsync=off", other)
	if _, err := c.run(ctx, "pg_ctl", "start", "-D", c.pgdata(), "-l", c.logFile(), "-w", "-s", "-o", opts); err != nil {
		t.Fatal(err)
	}
	_, err := c.Start(ctx)
	if !errors.Is(err, ErrNotDraughtsdbConfig) || !strings.Contains(err.Error(), "socket in "+other) {
		t.Fatalf("start: %v, want the refusal naming the server's socket", err)
	}
	done, err := c.Repair(ctx)
	if err != nil {
		t.Fatalf("repair: %v (%q)", err, done)
	}
	if len(done) != 2 || !strings.HasPrefix(done[0], "stopped the server") {
		t.Fatalf("repair did %q", done)
	}
	assertStartsSafely(t, c, "after repair")
}

// TestRepairMovesIncompleteClusterAside: an initdb interrupted in place
// (no control file) cannot be given settings; Repair moves it aside,
// keeping it, and makes a new cluster.
func TestRepairMovesIncompleteClusterAside(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	c := newTestCluster(t)
	olderHalfMadeCluster(t, c)
	if err := os.Remove(filepath.Join(c.pgdata(), "global", "pg_control")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Start(ctx); !errors.Is(err, ErrNotDraughtsdbConfig) {
		t.Fatalf("start: %v", err)
	}
	done, err := c.Repair(ctx)
	if err != nil {
		t.Fatalf("repair: %v (%q)", err, done)
	}
	if len(done) != 2 || !strings.HasPrefix(done[0], "moved the unusable cluster aside to ") {
		t.Fatalf("repair did %q", done)
	}
	aside := strings.Fields(strings.TrimPrefix(done[0], "moved the unusable cluster aside to "))[0]
	if _, err := os.Stat(filepath.Join(aside, "PG_VERSION")); err != nil {
		t.Fatalf("the old cluster is not kept at %s: %v", aside, err)
	}
	assertStartsSafely(t, c, "after repair")
}

func TestScanConf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text     string
		included bool
		override string
	}{
		{"#listen_addresses = 'localhost'\nshared_buffers = 128MB\n", false, ""},
		{"port = 5433\n", false, "port"},
		{"x = 1\ninclude 'draughtsdb.conf'\n", true, ""},
		{"include_if_exists 'draughtsdb.conf'  # ours\n", true, ""},
		{"include 'draughtsdb.conf'\nlisten_addresses = '*'\n", true, "listen_addresses"},
		{"unix_socket_directories='/tmp'\ninclude 'draughtsdb.conf'\n", true, ""},
		{"# include 'draughtsdb.conf'\n", false, ""},
	} {
		path := filepath.Join(t.TempDir(), "postgresql.conf")
		if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
			t.Fatal(err)
		}
		inc, ov, err := scanConf(path)
		if err != nil || inc != tc.included || ov != tc.override {
			t.Errorf("%q: included %v, override %q, %v; want %v, %q", tc.text, inc, ov, err, tc.included, tc.override)
		}
	}
}
