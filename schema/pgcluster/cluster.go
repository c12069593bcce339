package pgcluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// Config describes one cluster. Only DataDir is required.
type Config struct {
	DataDir         string            // holds pgdata/, run/ and server.log
	BinDir          string            // server binaries; empty = search (see FindBinDir)
	Port            int               // socket name and TCP port; 0 = 5432
	ListenAddresses string            // TCP addresses; empty = Unix socket only
	Database        string            // created on first start; empty = "draughtsdb"
	User            string            // the cluster's superuser; empty = "draughtsdb"
	Settings        map[string]string // extra postgresql.conf settings (tests turn fsync off)
	// RepairCommand is the command that errors about a configuration that
	// is not draughtsdb's tell to run; empty = "draughtsdb db repair".
	RepairCommand string
	// Notice, if set, receives what Start changed on its own in a cluster
	// made by an older draughtsdb (TCP authentication made to need the
	// password).
	Notice func(string)
}

// Cluster is a PostgreSQL cluster under one data directory.
type Cluster struct {
	cfg    Config
	binDir string
	runAs  *account

	// faultHook, when set (by tests), is called at each step; an error
	// aborts the operation there, as a crash would (a hook may also kill
	// the process). A field, not a package variable, so that tests of
	// different clusters can run in parallel.
	faultHook func(step string) error
}

// Status describes a cluster as `db status` reports it.
type Status struct {
	Initialized bool
	Running     bool
	PID         int
	DataDir     string
	SocketDir   string
	BinDir      string
	Version     string // of the server binaries, e.g. "PostgreSQL 15.18"
	URL         string
}

// New checks the configuration and finds the server binaries; it does not
// touch the data directory.
func New(cfg Config) (*Cluster, error) {
	if cfg.DataDir == "" {
		return nil, errors.New("pgcluster: empty data directory")
	}
	abs, err := filepath.Abs(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	cfg.DataDir = abs
	if cfg.Port == 0 {
		cfg.Port = 5432
	}
	if cfg.Database == "" {
		cfg.Database = "draughtsdb"
	}
	if cfg.User == "" {
		cfg.User = "draughtsdb"
	}
	bin, err := FindBinDir(cfg.BinDir)
	if err != nil {
		return nil, err
	}
	runAs, err := runAsAccount()
	if err != nil {
		return nil, err
	}
	return &Cluster{cfg: cfg, binDir: bin, runAs: runAs}, nil
}

func (c *Cluster) pgdata() string    { return filepath.Join(c.cfg.DataDir, "pgdata") }
func (c *Cluster) socketDir() string { return filepath.Join(c.cfg.DataDir, "run") }
func (c *Cluster) logFile() string   { return filepath.Join(c.cfg.DataDir, "server.log") }

// LogFile is the server's log, in the data directory.
func (c *Cluster) LogFile() string { return c.logFile() }

// PasswordFile is the file, in the data directory (mode 0600), holding the
// password of the cluster's superuser for TCP connections.
func (c *Cluster) PasswordFile() string { return filepath.Join(c.cfg.DataDir, "password") }

// DataDir returns the absolute data directory.
func (c *Cluster) DataDir() string { return c.cfg.DataDir }

// BinDir returns the directory of the server binaries in use.
func (c *Cluster) BinDir() string { return c.binDir }

// URL returns the connection URL of the cluster's database over its socket.
func (c *Cluster) URL() string { return c.urlFor(c.cfg.Database) }

func (c *Cluster) urlFor(db string) string {
	q := url.Values{}
	q.Set("host", c.socketDir())
	q.Set("port", strconv.Itoa(c.cfg.Port))
	q.Set("sslmode", "disable")
	// Encode writes a space as '+', which pgx and libpq take literally in
	// host (a data directory "/tmp/my data" became the socket directory
	// "/tmp/my+data/run"): a space must be %20. A '+' of the value itself is
	// %2B by then, so every '+' left is a space.
	raw := strings.ReplaceAll(q.Encode(), "+", "%20")
	// Slashes need no escaping in a query value; unescaped, the socket path
	// stays readable for people who copy the URL into psql.
	raw = strings.ReplaceAll(raw, "%2F", "/")
	u := &url.URL{Scheme: "postgres", User: url.User(c.cfg.User), Path: "/" + db, RawQuery: raw}
	return u.String()
}

// Initialized reports whether initdb has run in the data directory.
func (c *Cluster) Initialized() bool {
	_, err := os.Stat(filepath.Join(c.pgdata(), "PG_VERSION"))
	return err == nil
}

// lockFile is the file, in the data directory, whose flock serialises
// Init and Start across processes.
func (c *Cluster) lockFile() string { return filepath.Join(c.cfg.DataDir, "start.lock") }

// lock creates the data directory if needed and takes the lock of Init and
// Start, waiting for another process (or goroutine) that holds it: two
// commands starting a new data directory at once ran initdb together, and
// one removed the pgdata the other's initdb was filling. The returned
// function releases it.
func (c *Cluster) lock(ctx context.Context) (unlock func(), err error) {
	if _, err := os.Stat(c.cfg.DataDir); errors.Is(err, fs.ErrNotExist) {
		if err := c.makeDirs(); err != nil {
			return nil, err
		}
	} else if err := c.checkReachable(); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(c.lockFile(), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		ok, err := tryLock(f)
		if ok {
			return func() { f.Close() }, nil // closing releases the lock
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", c.lockFile(), err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Init creates the cluster (initdb). It fails if one exists already.
func (c *Cluster) Init(ctx context.Context) error {
	unlock, err := c.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	return c.init(ctx)
}

// settings returns the server settings draughtsdb manages.
func (c *Cluster) settings() map[string]string {
	s := map[string]string{
		"listen_addresses":        quote(c.cfg.ListenAddresses),
		"port":                    strconv.Itoa(c.cfg.Port),
		"unix_socket_directories": quote(c.socketDir()),
		"unix_socket_permissions": "0700",
		// Sized for bulk imports on a workstation; override in Settings.
		"shared_buffers":       "256MB",
		"maintenance_work_mem": "256MB",
		"max_wal_size":         "4GB",
		"checkpoint_timeout":   "15min",
		"logging_collector":    "off",
	}
	for k, v := range c.cfg.Settings {
		s[k] = v
	}
	return s
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// writeSettingsIn writes draughtsdb.conf into the cluster directory
// pgdata.
func (c *Cluster) writeSettingsIn(pgdata string) error {
	s := c.settings()
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("# Written by draughtsdb at each start: edit the draughtsdb configuration instead.\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "%s = %s\n", k, s[k])
	}
	return c.replaceFile(filepath.Join(pgdata, "draughtsdb.conf"), b.String())
}

// Start initialises the cluster if needed, starts the server unless it is
// running, and creates the database. It reports whether it started the
// server (false: it was running already). Concurrent Starts of one data
// directory, in any processes, take turns (a lock file in it): the first
// creates and starts the cluster, the others find it running. A data
// directory whose configuration is not draughtsdb's, or whose running
// server is on other settings, is refused with ErrNotDraughtsdbConfig
// (see Repair). A start that fails after starting the server stops it.
func (c *Cluster) Start(ctx context.Context) (started bool, err error) {
	unlock, err := c.lock(ctx)
	if err != nil {
		return false, err
	}
	defer unlock()
	if !c.Initialized() {
		if err := c.init(ctx); err != nil {
			return false, err
		}
	}
	return c.start(ctx)
}

// start is Start of an initialised cluster, under the lock.
func (c *Cluster) start(ctx context.Context) (started bool, err error) {
	// A server still starting (its pg_ctl's caller was killed): wait for
	// it rather than start a second one, which the first's lock refuses,
	// and until its pid file says where it listens.
	c.waitStarting(ctx)
	if pid, running := c.runningPID(); running {
		if err := c.checkRunning(pid); err != nil {
			return false, err
		}
	}
	if err := c.checkConfig(); err != nil {
		return false, err
	}
	hbaChanged, err := c.secureHBA()
	if err != nil {
		return false, fmt.Errorf("pg_hba.conf: %w", err)
	}
	if hbaChanged {
		c.notice(fmt.Sprintf("%s: TCP connections trusted every local user; they now need the password", filepath.Join(c.pgdata(), "pg_hba.conf")))
	}
	if pid, running := c.runningPID(); running {
		if err := c.checkRunning(pid); err != nil {
			return false, err
		}
		return false, c.afterStart(ctx, hbaChanged)
	}
	if err := c.writeSettingsIn(c.pgdata()); err != nil {
		return false, err
	}
	if err := c.ensureLogFile(); err != nil {
		return false, err
	}
	if err := c.fault(stepSettings); err != nil {
		return false, err
	}
	c.removeStaleLocks()
	defer func() {
		if err != nil {
			c.stopAfterFailure()
		}
	}()
	// After a kill -9 the old server's backends may still hold its shared
	// memory for a moment; the new server refuses to start until they exit.
	// That alone is worth waiting for: any other failure (the port taken,
	// pgdata unwritable) fails the same way every time, and was retried
	// for 15 s with the same error.
	deadline := time.Now().Add(15 * time.Second)
	for {
		from := c.logSize()
		_, err = c.run(ctx, "pg_ctl", "start", "-D", c.pgdata(), "-l", c.logFile(), "-w", "-t", "60", "-s")
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return false, err
		}
		log := c.logSince(from)
		if !strings.Contains(log, shmemInUse) || time.Now().After(deadline) {
			return false, fmt.Errorf("%w\n%s", err, c.logReason(log, 15))
		}
		time.Sleep(500 * time.Millisecond)
		c.removeStaleLocks()
	}
	if err := c.fault(stepServerUp); err != nil {
		return false, err
	}
	if err := c.afterStart(ctx, false); err != nil {
		return false, err
	}
	return true, c.fault(stepReady)
}

// stopAfterFailure stops the server a failed start may have left running
// (pg_ctl gave up waiting, or the start was interrupted, or the database
// could not be made), even when the start's context is done.
//
// It signals the postmasters of this pgdata directly (SIGINT: a fast
// shutdown) rather than through pg_ctl, which needs the pid file that a
// server interrupted early in its start has not written yet.
func (c *Cluster) stopAfterFailure() {
	pids := c.postmasters()
	if pid, ok := c.pidFromFile(); ok && isServerOf(pid, c.pgdata()) {
		pids = append(pids, pid)
	}
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGINT)
	}
	deadline := time.Now().Add(60 * time.Second)
	for _, pid := range pids {
		for isPostgresProcess(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// postmasters returns the processes that are, or are about to become,
// the postmaster of this pgdata: postgres started with -D pgdata (its
// children have other command lines), and pg_ctl start and the shell it
// runs postgres through, which name pgdata too. They are found in /proc
// (none where there is none). Under the lock no other start of this
// pgdata runs, so any such pg_ctl is what an interrupted start left.
func (c *Cluster) postmasters() []int {
	dir, err := os.Stat(c.pgdata())
	if err != nil {
		return nil
	}
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		args, ok := cmdline(pid)
		if !ok {
			continue
		}
		switch prog := filepath.Base(args[0]); {
		case strings.HasPrefix(prog, "postgres"):
			for i, a := range args {
				if a == "-D" && i+1 < len(args) {
					if st, err := os.Stat(args[i+1]); err == nil && os.SameFile(st, dir) {
						pids = append(pids, pid)
					}
					break
				}
			}
		case prog == "sh" || prog == "pg_ctl":
			all := strings.Join(args, " ")
			if strings.Contains(all, "\""+c.pgdata()+"\"") || (prog == "pg_ctl" && strings.Contains(all, " start ") && strings.Contains(all, c.pgdata())) {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// waitStarting waits, for at most a minute, while a postmaster of this
// pgdata runs but has not yet said it is ready in its pid file.
func (c *Cluster) waitStarting(ctx context.Context) {
	deadline := time.Now().Add(60 * time.Second)
	for len(c.postmasters()) > 0 && time.Now().Before(deadline) && ctx.Err() == nil {
		if _, running := c.runningPID(); running && c.pidStatus() == "ready" {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// pidStatus is the status line of postmaster.pid ("starting", "ready",
// "stopping", "standby"; "" when there is none yet).
func (c *Cluster) pidStatus() string {
	b, err := os.ReadFile(filepath.Join(c.pgdata(), "postmaster.pid"))
	if err != nil {
		return ""
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 8 {
		return ""
	}
	return strings.TrimSpace(lines[7])
}

// shmemInUse is in the server's refusal to start while processes of a
// killed server still hold its shared memory ("pre-existing shared memory
// block (key %lu, ID %lu) is still in use"); initdb makes the server's
// messages English (--locale=C).
const shmemInUse = "pre-existing shared memory block"

// Stop shuts the server down ("fast" mode: sessions are ended, work is
// rolled back, the data is flushed). Stopping a stopped cluster is a no-op.
func (c *Cluster) Stop(ctx context.Context) (stopped bool, err error) {
	if _, running := c.runningPID(); !running {
		return false, nil
	}
	_, err = c.run(ctx, "pg_ctl", "stop", "-D", c.pgdata(), "-m", "fast", "-w", "-t", "60", "-s")
	return err == nil, err
}

// StopImmediate kills the server without a checkpoint (for throw-away test
// clusters: crash recovery is never needed because the data is deleted).
func (c *Cluster) StopImmediate(ctx context.Context) error {
	if _, running := c.runningPID(); !running {
		return nil
	}
	_, err := c.run(ctx, "pg_ctl", "stop", "-D", c.pgdata(), "-m", "immediate", "-w", "-s")
	return err
}

// Status inspects the cluster without changing it.
func (c *Cluster) Status(ctx context.Context) (Status, error) {
	st := Status{Initialized: c.Initialized(), DataDir: c.cfg.DataDir, SocketDir: c.socketDir(),
		BinDir: c.binDir, URL: c.URL()}
	st.PID, st.Running = c.runningPID()
	out, err := exec.CommandContext(ctx, filepath.Join(c.binDir, "postgres"), "--version").Output()
	if err != nil {
		return st, fmt.Errorf("postgres --version: %w", err)
	}
	// "postgres (PostgreSQL) 15.18 (Debian ...)" -> "PostgreSQL 15.18 (Debian ...)"
	v := strings.TrimSpace(string(out))
	v = strings.TrimPrefix(v, "postgres ")
	v = strings.Replace(v, "(PostgreSQL)", "PostgreSQL", 1)
	st.Version = v
	return st, nil
}

// runningPID reads postmaster.pid and checks that the process it names is
// alive and is this cluster's server (see isServerOf).
func (c *Cluster) runningPID() (int, bool) {
	pid, ok := c.pidFromFile()
	if !ok {
		return 0, false
	}
	return pid, isServerOf(pid, c.pgdata())
}

func (c *Cluster) pidFromFile() (int, bool) {
	b, err := os.ReadFile(filepath.Join(c.pgdata(), "postmaster.pid"))
	if err != nil {
		return 0, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	return pid, err == nil && pid > 0
}

// isPostgresProcess reports whether pid is a live postgres process. Checking
// the executable (not just that the pid exists) keeps a pid reused by another
// program after a crash from being mistaken for our server.
func isPostgresProcess(pid int) bool {
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		if _, statErr := os.Stat("/proc/self"); statErr != nil {
			return processExists(pid) // no /proc (not Linux)
		}
		if !os.IsPermission(err) {
			return false
		}
		// Another user's process: its command line is readable.
		args, ok := cmdline(pid)
		if !ok {
			return processExists(pid)
		}
		return len(args) > 0 && strings.HasPrefix(filepath.Base(args[0]), "postgres")
	}
	return strings.HasPrefix(filepath.Base(exe), "postgres")
}

// isServerOf reports whether pid is a live postgres process serving the
// data directory pgdata. A postmaster.pid can name another cluster's
// server: its pid was reused after a crash or reboot, or the data
// directory was copied from a running cluster. Believing it, Stop shut
// that other cluster down and Status called this one running. Every
// postgres process works in its data directory (the postmaster changes
// into it before it writes postmaster.pid), so on Linux /proc/PID/cwd
// names it; when that cannot be read (another user's process, as
// non-root), the -D of its command line does. When neither tells (no
// /proc, or no -D), it trusts the pid file, as the server itself does.
func isServerOf(pid int, pgdata string) bool {
	if !isPostgresProcess(pid) {
		return false
	}
	if _, err := os.Stat("/proc/self"); err != nil {
		return true // not Linux: cannot tell more
	}
	dir, err := os.Stat(pgdata)
	if err != nil {
		return false
	}
	cwd, err := os.Stat(fmt.Sprintf("/proc/%d/cwd", pid))
	if err == nil {
		return os.SameFile(cwd, dir)
	}
	if !os.IsPermission(err) {
		return false // gone meanwhile
	}
	args, _ := cmdline(pid)
	for i, a := range args {
		d := ""
		switch {
		case a == "-D" && i+1 < len(args):
			d = args[i+1]
		case strings.HasPrefix(a, "-D") && len(a) > 2:
			d = a[2:]
		default:
			continue
		}
		if !filepath.IsAbs(d) {
			return true // relative to a directory we cannot read
		}
		st, err := os.Stat(d)
		return err == nil && os.SameFile(st, dir)
	}
	return true
}

// cmdline returns the arguments of process pid (Linux).
func cmdline(pid int) ([]string, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(b) == 0 {
		return nil, false
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00"), true
}

// removeStaleLocks deletes a postmaster.pid that names no server of this
// data directory (a crash left it, and its pid is gone or now another
// process's, even another cluster's server), and the socket lock files
// next to it, so the cluster starts again: the server would refuse while
// the pid it names is alive. A server that does run in the directory
// keeps its pid file; the server also checks, on start, that no process
// still uses the directory's shared memory.
func (c *Cluster) removeStaleLocks() {
	if pid, ok := c.pidFromFile(); ok && !isServerOf(pid, c.pgdata()) {
		_ = os.Remove(filepath.Join(c.pgdata(), "postmaster.pid"))
		locks, _ := filepath.Glob(filepath.Join(c.socketDir(), ".s.PGSQL.*.lock"))
		for _, l := range locks {
			_ = os.Remove(l)
		}
	}
}

// afterStart finishes a start over the socket: it reloads the
// configuration of a server that was running when pg_hba.conf changed,
// gives a cluster without one a TCP password, and creates the configured
// database if it does not exist.
func (c *Cluster) afterStart(ctx context.Context, reload bool) error {
	conn, err := pgx.Connect(ctx, c.urlFor("postgres"))
	if err != nil {
		return fmt.Errorf("connect to local cluster: %w", err)
	}
	defer conn.Close(ctx)
	if reload {
		if _, err := conn.Exec(ctx, "SELECT pg_reload_conf()"); err != nil {
			return fmt.Errorf("reload pg_hba.conf: %w", err)
		}
	}
	if err := c.ensurePassword(ctx, conn); err != nil {
		return err
	}
	return c.ensureDatabase(ctx, conn)
}

// ensureDatabase creates the configured database if it does not exist.
func (c *Cluster) ensureDatabase(ctx context.Context, conn *pgx.Conn) error {
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", c.cfg.Database).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	_, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{c.cfg.Database}.Sanitize())
	var pgErr interface{ SQLState() string }
	if errors.As(err, &pgErr) && pgErr.SQLState() == "42P04" { // created meanwhile by another process
		return nil
	}
	return err
}

// run runs a server program as the server user, returning its output; a
// failure carries the program's own words.
func (c *Cluster) run(ctx context.Context, prog string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(c.binDir, prog), args...)
	cmd.SysProcAttr = c.runAs.sysProcAttr()
	cmd.Dir = c.cfg.DataDir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if c.runAs != nil {
		cmd.Env = append(cmd.Env, "HOME="+c.runAs.home, "USER="+c.runAs.name)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Start()
	if err == nil {
		if err = c.fault(prog + " " + args[0] + " running"); err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return out.Bytes(), err
		}
		err = cmd.Wait()
	}
	if err != nil && ctx.Err() != nil {
		// Killed because the caller was interrupted: its output says nothing.
		return out.Bytes(), fmt.Errorf("%s %s: %w", prog, args[0], ctx.Err())
	}
	if err != nil {
		return out.Bytes(), fmt.Errorf("%s %s: %w: %s", prog, args[0], err, strings.TrimSpace(out.String()))
	}
	return out.Bytes(), nil
}

// logSize is the size of the server log (0 when there is none).
func (c *Cluster) logSize() int64 {
	st, err := os.Stat(c.logFile())
	if err != nil {
		return 0
	}
	return st.Size()
}

// logSince returns what the server log gained after offset from (all of
// it if it shrank).
func (c *Cluster) logSince(from int64) string {
	b, err := os.ReadFile(c.logFile())
	if err != nil {
		return ""
	}
	if from > int64(len(b)) {
		from = 0
	}
	return string(b[from:])
}

// logReason returns the last n lines of log (the server's words for one
// failed start), for error messages.
func (c *Cluster) logReason(log string, n int) string {
	if strings.TrimSpace(log) == "" {
		return ""
	}
	lines := strings.Split(strings.TrimRight(log, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "server log (" + c.logFile() + "):\n" + strings.Join(lines, "\n")
}

// checkReachable verifies that the server user can enter the data
// directory and every parent: a root-owned home such as /root (mode 0700)
// is closed to the postgres user, and so is an existing data directory
// of root's that draughtsdb leaves as it is; the server would fail with a
// less helpful message.
func (c *Cluster) checkReachable() error {
	if c.runAs == nil {
		return nil
	}
	for dir := c.cfg.DataDir; ; dir = filepath.Dir(dir) {
		st, err := os.Stat(dir)
		if err != nil {
			return err
		}
		if !canEnter(st, c.runAs.uid, c.runAs.gid) {
			if dir == c.cfg.DataDir {
				return fmt.Errorf("data directory %s: the server runs as the %q user, which cannot enter it (mode %04o); "+
					"draughtsdb leaves the owner and mode of a directory that exists alone: let that user in "+
					"(chmod o+x %s, or hand it over: chown %s %s), or choose a data directory that does not exist yet",
					dir, c.runAs.name, st.Mode().Perm(), dir, c.runAs.name, dir)
			}
			return fmt.Errorf("data directory %s: the server runs as the %q user, which cannot enter %s (mode %04o); "+
				"choose a data directory outside it (for example /var/lib/draughtsdb)", c.cfg.DataDir, c.runAs.name, dir, st.Mode().Perm())
		}
		if dir == filepath.Dir(dir) {
			return nil
		}
	}
}
