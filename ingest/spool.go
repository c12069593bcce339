package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Spool files. Standard input is copied to a file before it is imported
// (it is hashed first, then read). A process killed with SIGKILL cannot
// remove its file, which used to stay in the temporary directory for good
// (tens of megabytes each time). So spools live in one directory, named
// stdin-<pid>-<random>.pdn after the process that writes them, and every
// import first removes the spools of processes that no longer exist. A
// spool of a live process (another import running now) is left alone.

// defaultSpoolDir is the user's spool directory in the temporary
// directory: one per user, so that users do not share (or block) it.
func defaultSpoolDir() string {
	return filepath.Join(os.TempDir(), "draughtsdb-spool-"+strconv.Itoa(os.Getuid()))
}

// createSpool creates this process's spool file in dir, making dir (mode
// 0700) if needed.
func createSpool(dir string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := checkSpoolDir(dir); err != nil {
		return nil, err
	}
	return os.CreateTemp(dir, "stdin-"+strconv.Itoa(os.Getpid())+"-*.pdn")
}

// spoolPID returns the pid in a spool file's name.
func spoolPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "stdin-")
	if !ok || !strings.HasSuffix(rest, ".pdn") {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	return pid, err == nil && pid > 0
}

// removeStaleSpools removes the spool files in dir of processes that no
// longer exist, telling notice about each. A missing dir is fine.
func removeStaleSpools(dir string, notice func(string)) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, ok := spoolPID(e.Name())
		if !ok || e.IsDir() || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		var size int64
		if fi, err := e.Info(); err == nil {
			size = fi.Size()
		}
		if err := os.Remove(path); err == nil {
			notice(fmt.Sprintf("removed %s (%d bytes), the standard input spooled by an import (pid %d) that did not finish", path, size, pid))
		}
	}
}
