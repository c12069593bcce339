//go:build unix

package pgcluster

import (
	"io/fs"
	"os"
	"syscall"
)

func processExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

func ownedBy(st fs.FileInfo, uid uint32) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && sys.Uid == uid
}

// tryLock takes an exclusive flock on f without waiting; false when
// another holds it. The lock belongs to the open file: another open of the
// same file, even in this process, waits for it.
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == syscall.EWOULDBLOCK {
		return false, nil
	}
	return err == nil, err
}
