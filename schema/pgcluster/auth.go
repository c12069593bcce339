package pgcluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/jackc/pgx/v5"
)

// passwordLockKey serialises the processes that may set the TCP password of
// an older cluster at the same moment (an advisory lock in the server).
const passwordLockKey int64 = 0x6472617567687470

// makeDirs creates the data directory, any missing parent, and, once
// checkReachable accepts them, the socket directory in it (mode
// 0700, handed to the server user). As root the server runs as another
// user, who must be able to pass through every parent: the parents
// draughtsdb creates itself (XDG_DATA_HOME that does not exist yet, say)
// get mode 0711, search without listing. A data directory or parent that
// exists already keeps its owner and mode (checkReachable explains one the
// server user cannot enter); --data-dir naming an existing directory made
// it drwx------ postgres:postgres. The server user needs no write
// permission in the data directory: pgdata, the socket directory and the
// log file (ensureLogFile) are made for it.
func (c *Cluster) makeDirs() error {
	var missing []string
	for d := filepath.Dir(c.cfg.DataDir); ; d = filepath.Dir(d) {
		_, err := os.Stat(d)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		missing = append(missing, d)
		if d == filepath.Dir(d) {
			break
		}
	}
	parentMode := fs.FileMode(0o700)
	if c.runAs != nil {
		parentMode = 0o711
	}
	for i := len(missing) - 1; i >= 0; i-- {
		err := os.Mkdir(missing[i], parentMode)
		if errors.Is(err, fs.ErrExist) {
			continue // made meanwhile by another process: not ours to change
		}
		if err != nil {
			return err
		}
		if err := os.Chmod(missing[i], parentMode); err != nil { // past the umask
			return err
		}
	}
	if err := c.makeDataDir(); err != nil {
		return err
	}
	if err := c.checkReachable(); err != nil {
		return err // before making anything in a directory that is not ours
	}
	// pgdata is not made here: init renames it into place whole.
	if err := os.MkdirAll(c.socketDir(), 0o700); err != nil {
		return err
	}
	return c.own(c.socketDir(), 0o700)
}

// makeDataDir creates the data directory, unless it exists, with mode 0700
// and the server user's. It appears whole: it is made under a temporary
// name and renamed, so that another process starting the same data
// directory never finds it root's before it is handed over, and takes it
// for a directory that existed (which it must leave alone, and which the
// server user cannot enter).
func (c *Cluster) makeDataDir() error {
	dir := c.cfg.DataDir
	st, err := os.Stat(dir)
	if err == nil {
		if !st.IsDir() {
			return fmt.Errorf("data directory %s: not a directory", dir)
		}
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".new-")
	if err != nil {
		return err
	}
	if err := c.own(tmp, 0o700); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.Remove(tmp)
		// Made meanwhile by another process (and not empty: renaming a
		// directory replaces an empty one).
		if st, serr := os.Stat(dir); serr == nil && st.IsDir() {
			return nil
		}
		return err
	}
	return nil
}

// own gives path mode and hands it to the server user.
func (c *Cluster) own(path string, mode fs.FileMode) error {
	if err := os.Chmod(path, mode); err != nil { // past the umask
		return err
	}
	return c.runAs.chown(path)
}

// ensureLogFile creates the server log (mode 0600, the server user's)
// unless it exists: pg_ctl, run as the server user, appends to it, and
// may not be allowed to create files in a data directory that existed.
func (c *Cluster) ensureLogFile() error {
	f, err := os.OpenFile(c.logFile(), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return c.own(c.logFile(), 0o600)
}

// newPassword makes a random password and writes it to path.
func (c *Cluster) newPassword(path string) (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	pw := hex.EncodeToString(b) // nothing to escape in SQL or a URL
	return pw, c.writePassword(path, pw)
}

// writePassword replaces the password file path (mode 0600, owned by the
// server user, whose initdb reads it) in one rename, so a reader never
// sees half of it.
func (c *Cluster) writePassword(path, pw string) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".password-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename: nothing there
	if _, err := f.WriteString(pw + "\n"); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return err
	}
	if err := c.runAs.chown(tmp); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Password returns the superuser's password for TCP connections.
func (c *Cluster) Password() (string, error) {
	b, err := os.ReadFile(c.PasswordFile())
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	if line = strings.TrimSpace(line); line == "" {
		return "", fmt.Errorf("%s: empty", c.PasswordFile())
	}
	return line, nil
}

// PassFile is the password file in libpq's format (pgpass) that the URL of
// ClientURL names, in the data directory: mode 0600 and the calling
// user's, so that psql and draughtsdb read the password from it and it is
// never on a command line.
func (c *Cluster) PassFile() string { return filepath.Join(c.cfg.DataDir, "pgpass") }

// ClientURL is the URL commands connect with and `db url` prints: over TCP
// when the cluster listens on TCP, naming the password file (PassFile,
// written here) in its passfile parameter rather than holding the
// password, which would show in ps to every user while psql runs;
// otherwise URL (the socket, open to the server user and root only).
func (c *Cluster) ClientURL() (string, error) {
	host := tcpHost(c.cfg.ListenAddresses)
	if host == "" {
		return c.URL(), nil
	}
	pw, err := c.Password()
	if err != nil {
		return "", fmt.Errorf("the password for TCP connections: %w", err)
	}
	port := strconv.Itoa(c.cfg.Port)
	if err := c.writePassFile(pgpassLine(host, port, c.cfg.User, pw)); err != nil {
		return "", fmt.Errorf("password file %s: %w", c.PassFile(), err)
	}
	q := url.Values{}
	q.Set("sslmode", "disable")
	q.Set("passfile", c.PassFile())
	raw := strings.ReplaceAll(strings.ReplaceAll(q.Encode(), "+", "%20"), "%2F", "/") // as in urlFor
	u := &url.URL{Scheme: "postgres", User: url.User(c.cfg.User),
		Host: net.JoinHostPort(host, port), Path: "/" + c.cfg.Database, RawQuery: raw}
	return u.String(), nil
}

// pgpassLine is the password file line for host, port and user, any
// database, its fields escaped as libpq reads them.
func pgpassLine(host, port, user, pw string) string {
	esc := strings.NewReplacer(`\`, `\\`, ":", `\:`)
	return strings.Join([]string{esc.Replace(host), esc.Replace(port), "*", esc.Replace(user), esc.Replace(pw)}, ":") + "\n"
}

// writePassFile makes PassFile hold line (mode 0600, the calling user's),
// replacing it in one rename when it differs.
func (c *Cluster) writePassFile(line string) error {
	if b, err := os.ReadFile(c.PassFile()); err == nil && string(b) == line {
		if st, err := os.Stat(c.PassFile()); err == nil && st.Mode().Perm() == 0o600 {
			return nil
		}
	}
	f, err := os.CreateTemp(c.cfg.DataDir, ".pgpass-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename: nothing there
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.WriteString(line); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, c.PassFile())
}

// tcpHost picks the address to reach a server listening on listen (a
// listen_addresses value): loopback when it listens there or everywhere
// (pg_hba.conf, as initdb writes it, admits TCP from loopback only), else
// the first address; "" when it does not listen on TCP.
func tcpHost(listen string) string {
	first := ""
	for _, a := range strings.Split(listen, ",") {
		switch a = strings.TrimSpace(a); a {
		case "":
			continue
		case "*", "0.0.0.0", "localhost", "127.0.0.1":
			return "127.0.0.1"
		case "::", "::1":
			return "::1"
		}
		if first == "" {
			first = a
		}
	}
	return first
}

// secureHBA makes every TCP line of pg_hba.conf that trusts its client
// ask for the password instead (scram-sha-256). Clusters made by a
// draughtsdb before TCP passwords trusted everyone (initdb -A trust): any
// local user could connect over TCP as the superuser. It reports whether
// it changed the file.
func (c *Cluster) secureHBA() (bool, error) {
	path := filepath.Join(c.pgdata(), "pg_hba.conf")
	b, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	out, changed := secureHBAText(string(b))
	if !changed {
		return false, nil
	}
	f, err := os.CreateTemp(c.pgdata(), ".pg_hba-*")
	if err != nil {
		return false, err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if _, err := f.WriteString(out); err != nil {
		f.Close()
		return false, err
	}
	if err := f.Close(); err != nil {
		return false, err
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return false, err
	}
	if err := c.runAs.chown(tmp); err != nil {
		return false, err
	}
	return true, os.Rename(tmp, path)
}

// secureHBAText rewrites the auth method "trust" of host, hostssl,
// hostnossl, hostgssenc and hostnogssenc records to scram-sha-256, leaving
// local records, comments and other methods alone.
func secureHBAText(text string) (string, bool) {
	lines := strings.SplitAfter(text, "\n")
	changed := false
	for i, line := range lines {
		body, comment, _ := strings.Cut(strings.TrimRight(line, "\n"), "#")
		f := strings.Fields(body)
		if len(f) < 5 || !strings.HasPrefix(f[0], "host") {
			continue
		}
		// host DATABASE USER ADDRESS METHOD, or ... IP-ADDRESS IP-MASK METHOD.
		m := 4
		if !strings.Contains(f[3], "/") && net.ParseIP(f[3]) != nil {
			m = 5
		}
		if m >= len(f) || f[m] != "trust" {
			continue
		}
		f[m] = "scram-sha-256"
		nl := ""
		if strings.HasSuffix(line, "\n") {
			nl = "\n"
		}
		lines[i] = strings.Join(f, "\t") + "\t# was trust: changed by draughtsdb" + trimComment(comment) + nl
		changed = true
	}
	return strings.Join(lines, ""), changed
}

func trimComment(c string) string {
	if c = strings.TrimSpace(c); c != "" {
		return "; " + c
	}
	return ""
}

// ensurePassword gives the superuser a password for TCP when the data
// directory has none (a cluster made before TCP passwords), under an
// advisory lock so that concurrent starts agree on one. The password is set
// first and written second: a crash in between leaves no file, and the next
// start sets a new one.
func (c *Cluster) ensurePassword(ctx context.Context, conn *pgx.Conn) error {
	if _, err := os.Stat(c.PasswordFile()); err == nil {
		return nil
	}
	unlock, err := schema.Lock(ctx, conn, passwordLockKey)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := os.Stat(c.PasswordFile()); err == nil {
		return nil // set meanwhile by another process
	}
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return err
	}
	pw := hex.EncodeToString(b)
	// A scram verifier whatever the server's default (md5 before 14).
	if _, err := conn.Exec(ctx, "SET password_encryption = 'scram-sha-256'"); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, "ALTER ROLE "+pgx.Identifier{c.cfg.User}.Sanitize()+" PASSWORD '"+pw+"'"); err != nil {
		return fmt.Errorf("set the password for TCP connections: %w", err)
	}
	if err := c.writePassword(c.PasswordFile(), pw); err != nil {
		return err
	}
	c.notice(fmt.Sprintf("set a password for TCP connections as %q (in %s)", c.cfg.User, c.PasswordFile()))
	return nil
}

func (c *Cluster) notice(msg string) {
	if c.cfg.Notice != nil {
		c.cfg.Notice(msg)
	}
}
