//go:build unix

package pgcluster

import (
	"io/fs"
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
