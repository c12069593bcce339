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

// canEnter reports whether the user uid, of group gid (and no other
// group: server programs run without supplementary groups), may search
// the directory st.
func canEnter(st fs.FileInfo, uid, gid uint32) bool {
	perm := st.Mode().Perm()
	sys, ok := st.Sys().(*syscall.Stat_t)
	switch {
	case !ok:
		return perm&0o001 != 0
	case sys.Uid == uid:
		return perm&0o100 != 0
	case sys.Gid == gid:
		return perm&0o010 != 0
	}
	return perm&0o001 != 0
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
