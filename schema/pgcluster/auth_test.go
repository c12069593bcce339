package pgcluster

import (
	"context"
	"errors"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// givenPorts are the ports freePort has handed out: tests run in
// parallel, and a port one test has not bound yet looks free to another.
var givenPorts = struct {
	sync.Mutex
	m map[int]bool
}{m: map[int]bool{}}

// freePort returns a TCP port nobody listens on at the moment, and that
// no other test of this process was given.
func freePort(t *testing.T) int {
	t.Helper()
	givenPorts.Lock()
	defer givenPorts.Unlock()
	for {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if !givenPorts.m[port] {
			givenPorts.m[port] = true
			return port
		}
	}
}

// newTCPCluster is a test cluster listening on 127.0.0.1; notices collects
// what Start reports.
func newTCPCluster(t *testing.T) (*Cluster, *[]string) {
	t.Helper()
	c := newTestCluster(t)
	var mu sync.Mutex
	notices := &[]string{}
	c.cfg.Port = freePort(t)
	c.cfg.ListenAddresses = "127.0.0.1"
	c.cfg.Notice = func(s string) { mu.Lock(); *notices = append(*notices, s); mu.Unlock() }
	return c, notices
}

// tcpURL is the cluster's TCP URL with the given password ("" for none).
func tcpURL(t *testing.T, c *Cluster, password string) string {
	t.Helper()
	s, err := c.ClientURL()
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(s)
	if err != nil || u.Hostname() != "127.0.0.1" {
		t.Fatalf("client URL %q is not over TCP (%v)", s, err)
	}
	u.User = url.UserPassword(u.User.Username(), password)
	if password == "" {
		u.User = url.User(u.User.Username())
	}
	q := u.Query()
	q.Del("passfile") // the password it gives is what this URL stands without
	u.RawQuery = q.Encode()
	return u.String()
}

// connectTCP connects and runs a query, returning the error.
func connectTCP(ctx context.Context, url string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var one int
	return conn.QueryRow(ctx, "SELECT 1").Scan(&one)
}

// refused reports whether err is the server refusing the password.
func refused(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "28P01" // invalid_password
}

// TestTCPNeedsThePassword: a cluster listening on TCP refuses a connection
// without the password (or with a wrong one): before, any local user got in
// as the superuser and could run COPY ... TO PROGRAM. The URL draughtsdb
// prints (ClientURL) carries the password, kept 0600 in the data directory.
func TestTCPNeedsThePassword(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background() // no deadline: a loaded machine makes it slow, not failed
	c, _ := newTCPCluster(t)
	if _, err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for _, pw := range []string{"", "wrong"} {
		if err := connectTCP(ctx, tcpURL(t, c, pw)); !refused(err) {
			t.Errorf("TCP with password %q: err %v, want the password refused", pw, err)
		}
	}
	u, err := c.ClientURL()
	if err != nil {
		t.Fatal(err)
	}
	if err := connectTCP(ctx, u); err != nil {
		t.Fatalf("TCP with the password: %v", err)
	}
	st, err := os.Stat(c.PasswordFile())
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("password file: %v, %v", st, err)
	}
	// The socket stays open to the server user and root without a password.
	if err := connectTCP(ctx, c.URL()); err != nil {
		t.Fatalf("socket: %v", err)
	}
}

// TestOlderClusterIsSecuredOnStart: a cluster made by an older draughtsdb
// (initdb -A trust: TCP trusted, no password) is fixed by Start, whether
// the server was running (pg_hba.conf rewritten and reloaded) or not.
func TestOlderClusterIsSecuredOnStart(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background() // no deadline: a loaded machine makes it slow, not failed
	c, notices := newTCPCluster(t)
	if _, err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	hba := filepath.Join(c.pgdata(), "pg_hba.conf")
	for _, running := range []bool{true, false} {
		// Make it what an older version left.
		conn, err := pgx.Connect(ctx, c.URL())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, "ALTER ROLE draughtsdb PASSWORD NULL"); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(hba)
		if err != nil {
			t.Fatal(err)
		}
		old := strings.NewReplacer("scram-sha-256", "trust", "\t# was trust: changed by draughtsdb", "").Replace(string(b))
		if err := os.WriteFile(hba, []byte(old), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, "SELECT pg_reload_conf()"); err != nil {
			t.Fatal(err)
		}
		conn.Close(ctx)
		if err := os.Remove(c.PasswordFile()); err != nil {
			t.Fatal(err)
		}
		noPassword := strings.Replace(c.URL(), "host="+c.socketDir(), "host=127.0.0.1", 1)
		if err := connectTCP(ctx, noPassword); err != nil {
			t.Fatalf("running=%v: the older cluster should trust TCP: %v", running, err)
		}
		if !running {
			if _, err := c.Stop(ctx); err != nil {
				t.Fatal(err)
			}
		}
		*notices = nil
		if started, err := c.Start(ctx); err != nil || started == running {
			t.Fatalf("running=%v: start: started=%v err=%v", running, started, err)
		}
		if err := connectTCP(ctx, noPassword); !refused(err) {
			t.Errorf("running=%v: TCP without a password after Start: err %v, want refused", running, err)
		}
		u, err := c.ClientURL()
		if err != nil {
			t.Fatal(err)
		}
		if err := connectTCP(ctx, u); err != nil {
			t.Errorf("running=%v: TCP with the password: %v", running, err)
		}
		if len(*notices) != 2 {
			t.Errorf("running=%v: notices %q, want the pg_hba.conf change and the password", running, *notices)
		}
	}
}

func TestSecureHBAText(t *testing.T) {
	t.Parallel()
	in := "# TYPE DATABASE USER ADDRESS METHOD\n" +
		"local   all   all                 trust\n" +
		"host    all   all   127.0.0.1/32  trust\n" +
		"host    all   all   ::1/128       trust # mine\n" +
		"hostssl all   all   10.0.0.1 255.255.255.255 trust\n" +
		"host    trust all   127.0.0.1/32  md5\n" +
		"host    replication all 127.0.0.1/32 trust"
	want := "# TYPE DATABASE USER ADDRESS METHOD\n" +
		"local   all   all                 trust\n" +
		"host\tall\tall\t127.0.0.1/32\tscram-sha-256\t# was trust: changed by draughtsdb\n" +
		"host\tall\tall\t::1/128\tscram-sha-256\t# was trust: changed by draughtsdb; mine\n" +
		"hostssl\tall\tall\t10.0.0.1\t255.255.255.255\tscram-sha-256\t# was trust: changed by draughtsdb\n" +
		"host    trust all   127.0.0.1/32  md5\n" +
		"host\treplication\tall\t127.0.0.1/32\tscram-sha-256\t# was trust: changed by draughtsdb"
	got, changed := secureHBAText(in)
	if got != want || !changed {
		t.Fatalf("changed=%v\n%s\nwant\n%s", changed, got, want)
	}
	if again, changed := secureHBAText(got); changed || again != got {
		t.Fatalf("second pass changed it:\n%s", again)
	}
}

func TestTCPHost(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "", " ": "", "127.0.0.1": "127.0.0.1", "*": "127.0.0.1",
		"localhost": "127.0.0.1", "::": "::1", "192.168.1.5": "192.168.1.5", "192.168.1.5, localhost": "127.0.0.1"} {
		if got := tcpHost(in); got != want {
			t.Errorf("tcpHost(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRootCreatesReachableParents: as root (the server runs as postgres),
// a data directory under parents that do not exist yet (XDG_DATA_HOME not
// created, as on a fresh machine) works: the parents draughtsdb creates let
// the server user pass (0711); before, they were 0700 and Start refused
// them.
func TestRootCreatesReachableParents(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("the case is root's: the server then runs as another user")
	}
	ctx := context.Background() // no deadline: a loaded machine makes it slow, not failed
	base, err := os.MkdirTemp("", "draughtsdb-xdg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o711); err != nil { // like /root/.. or /tmp: passable
		t.Fatal(err)
	}
	xdg := filepath.Join(base, "xdg", "share") // XDG_DATA_HOME, missing
	c, err := New(Config{DataDir: filepath.Join(xdg, "draughtsdb"), Settings: map[string]string{"fsync": "off"}})
	if errors.Is(err, ErrNoServer) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.StopImmediate(context.Background()) })
	if _, err := c.Start(ctx); err != nil {
		t.Fatalf("start under missing parents: %v", err)
	}
	for _, dir := range []string{filepath.Dir(xdg), xdg} {
		st, err := os.Stat(dir)
		if err != nil || st.Mode().Perm() != 0o711 {
			t.Errorf("%s: %v, %v; want mode 0711", dir, st.Mode().Perm(), err)
		}
	}
	if st, err := os.Stat(c.DataDir()); err != nil || st.Mode().Perm() != 0o700 || !ownedBy(st, c.runAs.uid) {
		t.Errorf("data dir: %v, %v; want 0700 owned by %s", st.Mode(), err, c.runAs.name)
	}
	if err := connectTCP(ctx, c.URL()); err != nil {
		t.Fatal(err)
	}
}

// TestExistingDataDirKeepsOwnerAndMode: --data-dir naming a directory that
// exists used it with its owner and mode changed (as root: drwx------
// postgres:postgres). Now only what draughtsdb creates in it (pgdata, the
// socket directory) gets the server user and mode 0700; as root, a
// directory the server user cannot enter is refused, named, unchanged.
func TestExistingDataDirKeepsOwnerAndMode(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	base := newTestCluster(t).DataDir() // made by Start below; its parent is passable
	if err := os.Mkdir(base, 0o711); err != nil {
		t.Fatal(err)
	}
	newAt := func(dir string, mode os.FileMode) *Cluster {
		t.Helper()
		if err := os.Mkdir(dir, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, mode); err != nil { // past the umask
			t.Fatal(err)
		}
		c, err := New(Config{DataDir: dir, Settings: map[string]string{"fsync": "off"}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.StopImmediate(context.Background()) })
		return c
	}
	c := newAt(filepath.Join(base, "existing"), 0o755)
	if _, err := c.Start(ctx); err != nil {
		t.Fatalf("start in an existing directory: %v", err)
	}
	st, err := os.Stat(c.DataDir())
	if err != nil || st.Mode().Perm() != 0o755 || !ownedBy(st, uint32(os.Geteuid())) {
		t.Errorf("existing data dir after start: %v (%v); want drwxr-xr-x, owner unchanged", st.Mode(), err)
	}
	for _, dir := range []string{c.pgdata(), c.socketDir()} {
		st, err := os.Stat(dir)
		if err != nil || st.Mode().Perm() != 0o700 || (c.runAs != nil && !ownedBy(st, c.runAs.uid)) {
			t.Errorf("%s: %v (%v); want 0700, the server user's", dir, st.Mode(), err)
		}
	}
	if err := connectTCP(ctx, c.URL()); err != nil {
		t.Fatal(err)
	}

	if os.Geteuid() != 0 {
		return // the rest is root's: the server runs as another user
	}
	closed := newAt(filepath.Join(base, "closed"), 0o700)
	_, err = closed.Start(ctx)
	if err == nil || !strings.Contains(err.Error(), "data directory "+closed.DataDir()+": ") ||
		!strings.Contains(err.Error(), "cannot enter it") {
		t.Errorf("start in a directory closed to the server user: %v", err)
	}
	if st, err := os.Stat(closed.DataDir()); err != nil || st.Mode().Perm() != 0o700 || !ownedBy(st, 0) {
		t.Errorf("closed data dir after start: %v (%v); want drwx------ root's", st.Mode(), err)
	}
}

// TestClientURLNamesPassFile: the TCP URL holds no password (it would show
// in ps while psql runs) but names a password file, mode 0600 and the
// caller's, from which pgx and psql read it, through the URL's passfile
// parameter or PGPASSFILE.
func TestClientURLNamesPassFile(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	c, _ := newTCPCluster(t)
	if _, err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	pw, err := c.Password()
	if err != nil {
		t.Fatal(err)
	}
	u, err := c.ClientURL()
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(u, pw) {
		t.Fatalf("client URL %q holds the password", u)
	}
	if _, has := parsed.User.Password(); has || parsed.Query().Get("passfile") != c.PassFile() {
		t.Fatalf("client URL %q: want no password and passfile=%s", u, c.PassFile())
	}
	st, err := os.Stat(c.PassFile())
	if err != nil || st.Mode().Perm() != 0o600 || !ownedBy(st, uint32(os.Geteuid())) {
		t.Fatalf("password file: %v, %v", st, err)
	}
	if err := connectTCP(ctx, u); err != nil {
		t.Fatalf("pgx with the URL: %v", err)
	}
	psql := filepath.Join(c.BinDir(), "psql")
	if _, err := os.Stat(psql); err != nil {
		t.Skipf("no psql next to the server: %v", err)
	}
	noFile := tcpURL(t, c, "")
	for _, tc := range []struct {
		name, url string
		env       []string
	}{
		{"passfile parameter", u, nil},
		{"PGPASSFILE", noFile, []string{"PGPASSFILE=" + c.PassFile()}},
	} {
		cmd := exec.Command(psql, "-w", "-X", "-At", "-d", tc.url, "-c", "SELECT current_user")
		cmd.Env = append(os.Environ(), tc.env...)
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != c.cfg.User {
			t.Errorf("psql with %s: %v: %s", tc.name, err, out)
		}
	}
	// Without the file, psql has no password: the file is what lets it in.
	cmd := exec.Command(psql, "-w", "-X", "-At", "-d", noFile, "-c", "SELECT 1")
	cmd.Env = append(os.Environ(), "PGPASSFILE=/nonexistent")
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("psql without the password file connected: %s", out)
	}
}
