package pgcluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ErrNotDraughtsdbConfig marks a data directory whose cluster would run on
// settings that are not draughtsdb's (PostgreSQL's stock socket directory
// /var/run/postgresql and TCP on localhost, where every local user may
// reach it), or whose running server does. Start refuses it; Repair fixes
// it.
var ErrNotDraughtsdbConfig = errors.New("not draughtsdb's configuration")

// repairHint says what to do about ErrNotDraughtsdbConfig.
func (c *Cluster) repairHint() string {
	cmd := c.cfg.RepairCommand
	if cmd == "" {
		cmd = "draughtsdb db repair"
	}
	return "run `" + cmd + "` (it stops such a server and gives the cluster draughtsdb's settings, " +
		"keeping its data), or use a data directory that does not exist yet"
}

// Steps of creating and starting a cluster, in order, at which the fault
// hook of tests is called: createSteps in init, startSteps in start.
const (
	stepStaging   = "staging directory made"
	stepPassword  = "password file written"
	stepInitdb    = "initdb done"
	stepConfig    = "draughtsdb.conf and the include written"
	stepHBA       = "pg_hba.conf written"
	stepPlacePW   = "password file moved into place"
	stepCommitted = "pgdata renamed into place"
	stepSettings  = "settings written at start"
	stepServerUp  = "server started"
	stepReady     = "database ready"
)

var (
	createSteps = []string{stepStaging, stepPassword, stepInitdb, stepConfig, stepHBA, stepPlacePW, stepCommitted}
	startSteps  = []string{stepSettings, stepServerUp, stepReady}
)

// fault calls the test hook of c at step.
func (c *Cluster) fault(step string) error {
	if c.faultHook == nil {
		return nil
	}
	if err := c.faultHook(step); err != nil {
		return fmt.Errorf("at step %q: %w", step, err)
	}
	return nil
}

// stagingPrefix names the temporary directories, in the data directory, in
// which init builds a cluster before renaming its pgdata into place.
const stagingPrefix = ".pgdata-new-"

// includeLine makes the server load draughtsdb.conf, rewritten at each
// start. "include" (not include_if_exists): without that file the server
// refuses to start rather than run on the stock settings.
const includeLine = "include 'draughtsdb.conf'"

// hbaText is the authentication of a cluster draughtsdb makes: the Unix
// socket, in a directory only the server user (and root) can enter, is
// trusted; TCP, from loopback only, needs the password.
const hbaText = `# Written by draughtsdb. The Unix socket is in a directory (mode 0700) only
# the server user and root can enter; TCP needs the password.
# TYPE  DATABASE        USER            ADDRESS                 METHOD
local   all             all                                     trust
local   replication     all                                     trust
host    all             all             127.0.0.1/32            scram-sha-256
host    all             all             ::1/128                 scram-sha-256
host    replication     all             127.0.0.1/32            scram-sha-256
host    replication     all             ::1/128                 scram-sha-256
`

// init creates the cluster, under the lock, so that it never exists on
// settings other than draughtsdb's: initdb runs in a staging directory
// next to pgdata, which gets draughtsdb's configuration (the include of
// draughtsdb.conf, and draughtsdb.conf itself), its pg_hba.conf and the
// password file there; the password file is then moved into place, and
// last pgdata is renamed into place in one step. A process killed at any
// point leaves either no pgdata (the next start begins again, removing
// the staging directory) or a complete one.
func (c *Cluster) init(ctx context.Context) error {
	if c.Initialized() {
		return fmt.Errorf("pgcluster: %s is initialised already", c.pgdata())
	}
	// A pgdata without PG_VERSION is no cluster: the empty directory an
	// older draughtsdb made for initdb, or its initdb, which ran in place,
	// interrupted at its start.
	if _, err := os.Stat(c.pgdata()); err == nil {
		if err := os.RemoveAll(c.pgdata()); err != nil {
			return err
		}
	}
	if err := c.makeDirs(); err != nil {
		return err
	}
	c.removeStaging()
	staging, err := os.MkdirTemp(c.cfg.DataDir, stagingPrefix)
	if err != nil {
		return err
	}
	defer os.RemoveAll(staging) // empty after success; the leftovers of a failure
	if err := c.own(staging, 0o700); err != nil {
		return err
	}
	if err := c.fault(stepStaging); err != nil {
		return err
	}
	pwFile := filepath.Join(staging, "password")
	if _, err := c.newPassword(pwFile); err != nil {
		return err
	}
	if err := c.fault(stepPassword); err != nil {
		return err
	}
	pgdata := filepath.Join(staging, "pgdata")
	args := []string{"-D", pgdata, "-U", c.cfg.User, "--auth-local=trust", "--auth-host=scram-sha-256",
		"--pwfile=" + pwFile, "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"}
	if _, err := c.run(ctx, "initdb", args...); err != nil {
		return err
	}
	if err := c.fault(stepInitdb); err != nil {
		return err
	}
	if err := c.writeSettingsIn(pgdata); err != nil {
		return err
	}
	if err := appendFile(filepath.Join(pgdata, "postgresql.conf"),
		"\n# Settings managed by draughtsdb (rewritten at each start).\n"+includeLine+"\n"); err != nil {
		return err
	}
	if err := c.fault(stepConfig); err != nil {
		return err
	}
	if err := c.replaceFile(filepath.Join(pgdata, "pg_hba.conf"), hbaText); err != nil {
		return err
	}
	if err := c.fault(stepHBA); err != nil {
		return err
	}
	if err := os.Rename(pwFile, c.PasswordFile()); err != nil {
		return err
	}
	if err := c.fault(stepPlacePW); err != nil {
		return err
	}
	if err := os.Rename(pgdata, c.pgdata()); err != nil {
		return err
	}
	return c.fault(stepCommitted)
}

// removeStaging deletes the staging directories of interrupted inits
// (under the lock: none is in use).
func (c *Cluster) removeStaging() {
	old, _ := filepath.Glob(filepath.Join(c.cfg.DataDir, stagingPrefix+"*"))
	for _, d := range old {
		_ = os.RemoveAll(d)
	}
}

func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// replaceFile replaces path with text (mode 0600, the server user's) in
// one rename.
func (c *Cluster) replaceFile(path, text string) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename: nothing there
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := c.own(tmp, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// managedKeys are the settings that decide who can reach the server; a
// configuration that sets them after draughtsdb.conf (or in
// postgresql.auto.conf, read last) is not draughtsdb's.
var managedKeys = []string{"listen_addresses", "port", "unix_socket_directories", "unix_socket_permissions",
	"unix_socket_group", "hba_file", "ident_file", "config_file"}

// confLine parses one postgresql.conf line into its name and value ("" for
// blanks and comments); include directives come back as the name.
func confLine(line string) (name, value string) {
	line = strings.TrimSpace(line)
	if line == "" || line[0] == '#' {
		return "", ""
	}
	name, value, ok := strings.Cut(line, "=")
	if !ok {
		name, value, _ = strings.Cut(line, " ")
	}
	name = strings.ToLower(strings.TrimSpace(name))
	value = strings.TrimSpace(value)
	if strings.HasPrefix(value, "'") {
		if end := strings.Index(value[1:], "'"); end >= 0 {
			value = value[:end+2]
		}
	} else if i := strings.Index(value, "#"); i >= 0 {
		value = strings.TrimSpace(value[:i])
	}
	return name, value
}

// checkConfig reports, as ErrNotDraughtsdbConfig, a pgdata whose
// configuration does not load draughtsdb.conf, or overrides what it
// manages after it.
func (c *Cluster) checkConfig() error {
	conf := filepath.Join(c.pgdata(), "postgresql.conf")
	included, override, err := scanConf(conf)
	if err != nil {
		return err
	}
	switch {
	case !included:
		return c.notOurs(fmt.Sprintf("%s does not load draughtsdb.conf, so the server would run on PostgreSQL's stock settings "+
			"(a socket in /var/run/postgresql and TCP on localhost, with trust on the socket)", conf))
	case override != "":
		return c.notOurs(fmt.Sprintf("%s sets %s after loading draughtsdb.conf", conf, override))
	}
	auto := filepath.Join(c.pgdata(), "postgresql.auto.conf")
	if _, override, err := scanConf(auto); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	} else if override != "" {
		return c.notOurs(fmt.Sprintf("%s (ALTER SYSTEM) sets %s, which draughtsdb manages", auto, override))
	}
	return nil
}

// scanConf reads a postgresql.conf: whether it includes draughtsdb.conf,
// and the first managed key set after that include (for a file without
// it, the first set at all).
func scanConf(path string) (included bool, override string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return false, "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value := confLine(sc.Text())
		switch name {
		case "":
		case "include", "include_if_exists":
			if strings.Trim(value, "'\"") == "draughtsdb.conf" {
				included, override = true, ""
			}
		default:
			for _, k := range managedKeys {
				if name == k && override == "" {
					override = k
				}
			}
		}
	}
	return included, override, sc.Err()
}

func (c *Cluster) notOurs(why string) error {
	return fmt.Errorf("%w: %s; %s", ErrNotDraughtsdbConfig, why, c.repairHint())
}

// serverSockets reads what the running server's postmaster.pid says it
// listens on: its first socket directory and first TCP address.
func (c *Cluster) serverSockets() (socketDir, listen string, ok bool) {
	b, err := os.ReadFile(filepath.Join(c.pgdata(), "postmaster.pid"))
	if err != nil {
		return "", "", false
	}
	// The server fills the socket and address lines in as it opens them,
	// and then writes its status (line 8): only then are they final.
	lines := strings.Split(string(b), "\n")
	if len(lines) < 8 || strings.TrimSpace(lines[7]) == "" {
		return "", "", false
	}
	return strings.TrimSpace(lines[4]), strings.TrimSpace(lines[5]), true
}

// checkRunning reports, as ErrNotDraughtsdbConfig, a running server of
// this pgdata that is not on draughtsdb's socket directory or listens on
// TCP where it should not.
func (c *Cluster) checkRunning(pid int) error {
	sock, listen, ok := c.serverSockets()
	if !ok {
		return nil // its pid file is not complete yet (Start waits for it first)
	}
	if sock != c.socketDir() || (c.settings()["listen_addresses"] == "''" && listen != "") {
		where := "socket in " + sock
		if listen != "" {
			where += ", TCP on " + listen
		}
		return c.notOurs(fmt.Sprintf("a server (pid %d) runs from %s on settings that are not draughtsdb's (%s)", pid, c.pgdata(), where))
	}
	return nil
}

// looksComplete reports whether pgdata holds what a finished initdb
// leaves: the version, the control file and the databases' directory.
func (c *Cluster) looksComplete() bool {
	for _, f := range []string{"PG_VERSION", "global/pg_control", "base", "postgresql.conf", "pg_hba.conf"} {
		if _, err := os.Stat(filepath.Join(c.pgdata(), f)); err != nil {
			return false
		}
	}
	dbs, err := os.ReadDir(filepath.Join(c.pgdata(), "base"))
	return err == nil && len(dbs) >= 3 // template1, template0, postgres
}

// Repair makes the data directory start on draughtsdb's settings again:
// it stops a server of it that runs on other settings, and gives a
// cluster that lacks draughtsdb's configuration (made by an interrupted
// older draughtsdb, or edited) the include of draughtsdb.conf, removing
// the settings that override it. A cluster that never had draughtsdb's
// configuration and cannot be started with it (an interrupted initdb) is
// moved aside, never deleted, and a new one made. Then it starts the
// server. It returns what it did, one line per action.
func (c *Cluster) Repair(ctx context.Context) (done []string, err error) {
	unlock, err := c.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	c.removeStaging()
	c.waitStarting(ctx)
	if pid, running := c.runningPID(); running {
		if err := c.checkRunning(pid); err != nil {
			if _, err := c.run(ctx, "pg_ctl", "stop", "-D", c.pgdata(), "-m", "fast", "-w", "-t", "60", "-s"); err != nil {
				return done, err
			}
			done = append(done, fmt.Sprintf("stopped the server (pid %d) that ran from %s on settings that are not draughtsdb's", pid, c.pgdata()))
		}
	}
	if _, err := os.Stat(c.pgdata()); err == nil && c.Initialized() {
		if err := c.checkConfig(); err != nil {
			if !errors.Is(err, ErrNotDraughtsdbConfig) {
				return done, err
			}
			fixed := false
			if c.looksComplete() {
				if err := c.fixConfig(); err != nil {
					return done, err
				}
				if _, err := c.start(ctx); err == nil {
					fixed = true
					done = append(done, "gave "+c.pgdata()+" draughtsdb's configuration (postgresql.conf loads draughtsdb.conf) and started it")
				} else {
					done = append(done, fmt.Sprintf("%s did not start with draughtsdb's configuration: %v", c.pgdata(), err))
				}
			}
			if !fixed {
				aside := fmt.Sprintf("%s.broken-%s", c.pgdata(), time.Now().UTC().Format("20060102T150405Z"))
				if err := os.Rename(c.pgdata(), aside); err != nil {
					return done, err
				}
				done = append(done, "moved the unusable cluster aside to "+aside+" (delete it when you no longer need it)")
			}
		}
	}
	if !c.Initialized() {
		if err := c.init(ctx); err != nil {
			return done, err
		}
		done = append(done, "created a new cluster in "+c.pgdata())
	}
	if _, err := c.start(ctx); err != nil {
		return done, err
	}
	return done, nil
}

// fixConfig appends the include of draughtsdb.conf to postgresql.conf,
// comments out the managed settings after it (there are none yet) and in
// postgresql.auto.conf, and writes draughtsdb.conf.
func (c *Cluster) fixConfig() error {
	if err := c.writeSettingsIn(c.pgdata()); err != nil {
		return err
	}
	conf := filepath.Join(c.pgdata(), "postgresql.conf")
	if included, override, err := scanConf(conf); err != nil {
		return err
	} else if !included || override != "" {
		if err := appendFile(conf, "\n# Settings managed by draughtsdb (rewritten at each start).\n"+includeLine+"\n"); err != nil {
			return err
		}
	}
	auto := filepath.Join(c.pgdata(), "postgresql.auto.conf")
	b, err := os.ReadFile(auto)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	lines := strings.SplitAfter(string(b), "\n")
	changed := false
	for i, l := range lines {
		name, _ := confLine(l)
		for _, k := range managedKeys {
			if name == k {
				lines[i] = "# draughtsdb manages " + k + ": " + l
				changed = true
			}
		}
	}
	if !changed {
		return nil
	}
	return c.replaceFile(auto, strings.Join(lines, ""))
}
