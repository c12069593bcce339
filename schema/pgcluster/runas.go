package pgcluster

import (
	"fmt"
	"os"
	"os/user"
	"strconv"
	"syscall"
)

// serverUser is the system account the server runs as when we are root.
const serverUser = "postgres"

// account is the identity server programs run under. A nil *account means
// "as the current user".
type account struct {
	name     string
	uid, gid uint32
	home     string
}

// runAsAccount decides who runs the server: the current user, or the
// postgres system user when the current user is root (PostgreSQL refuses to
// run as root).
func runAsAccount() (*account, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup(serverUser)
	if err != nil {
		return nil, fmt.Errorf("running as root: PostgreSQL will not run as root and the %q system user "+
			"(created by the postgresql package) was not found: %w", serverUser, err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("user %s: unexpected uid/gid %q/%q", serverUser, u.Uid, u.Gid)
	}
	return &account{name: u.Username, uid: uint32(uid), gid: uint32(gid), home: u.HomeDir}, nil
}

// sysProcAttr returns the process attributes that run a program as a.
// Setsid puts the server in a session of its own, so a Ctrl-C aimed at
// draughtsdb does not also shut the database down.
func (a *account) sysProcAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setsid: true}
	if a != nil {
		attr.Credential = &syscall.Credential{Uid: a.uid, Gid: a.gid, NoSetGroups: true}
	}
	return attr
}

// chown hands path to a (no-op when a is nil).
func (a *account) chown(path string) error {
	if a == nil {
		return nil
	}
	return os.Lchown(path, int(a.uid), int(a.gid))
}
