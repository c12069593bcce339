package pgcluster

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ErrNoServer means no PostgreSQL server binaries were found on this machine.
var ErrNoServer = errors.New("no PostgreSQL server binaries found (initdb, pg_ctl, postgres): " +
	"install the server package (Debian/Ubuntu: apt-get install postgresql; Fedora: dnf install postgresql-server; " +
	"macOS: brew install postgresql), or point draughtsdb at an existing server with a database URL " +
	"(DRAUGHTSDB_DATABASE_URL or --database-url), for example the one `docker compose up -d` starts")

// serverPrograms are the programs a usable bin directory must hold.
var serverPrograms = []string{"initdb", "pg_ctl", "postgres"}

// FindBinDir returns the directory holding initdb, pg_ctl and postgres.
// A non-empty preferred directory is used as is (and must hold them);
// otherwise PATH, `pg_config --bindir` and /usr/lib/postgresql/*/bin are
// searched, in that order.
func FindBinDir(preferred string) (string, error) {
	if preferred != "" {
		if !hasServer(preferred) {
			return "", fmt.Errorf("bin dir %s: %w", preferred, ErrNoServer)
		}
		return preferred, nil
	}
	for _, dir := range candidateBinDirs() {
		if hasServer(dir) {
			return dir, nil
		}
	}
	return "", ErrNoServer
}

func candidateBinDirs() []string {
	var dirs []string
	// On PATH: Debian links only some programs into /usr/bin or /usr/local/bin,
	// so follow the link to the directory that really holds the server.
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			dirs = append(dirs, filepath.Dir(real))
		}
		dirs = append(dirs, filepath.Dir(p))
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		dirs = append(dirs, strings.TrimSpace(string(out)))
	}
	return append(dirs, debianBinDirs()...)
}

// debianBinDirs lists /usr/lib/postgresql/<major>/bin, newest major first.
func debianBinDirs() []string {
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	major := func(dir string) float64 {
		v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(dir)), 64)
		return v
	}
	sort.Slice(matches, func(i, j int) bool { return major(matches[i]) > major(matches[j]) })
	return matches
}

func hasServer(dir string) bool {
	for _, prog := range serverPrograms {
		st, err := os.Stat(filepath.Join(dir, prog))
		if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			return false
		}
	}
	return true
}
