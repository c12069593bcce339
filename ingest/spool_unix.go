//go:build unix

package ingest

import (
	"fmt"
	"os"
	"syscall"
)

// processAlive reports whether a process with this pid exists (EPERM: it
// does, as another user's).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

// checkSpoolDir refuses a spool directory that is not a directory of ours,
// only ours to write: one in the shared temporary directory could have been
// made by someone else first.
func checkSpoolDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() || fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("spool directory %s is not a directory that only this user can write", dir)
	}
	return nil
}
