package schema

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

var (
	// ErrDiskFull is a statement or the server stopped by a full disk of
	// the database (its data files or its write-ahead log).
	ErrDiskFull = errors.New("no space left on device (the database's disk): free space and run the same command again")
	// ErrServerStopped is a database server that went away under a
	// command: shut down, crashed or killed.
	ErrServerStopped = errors.New("the database server stopped")
)

// CauseError is a database error with the cause a person acts on:
// ErrDiskFull or ErrServerStopped, and the server's or the connection's
// own words.
type CauseError struct {
	Cause  error  // ErrDiskFull or ErrServerStopped
	Detail string // what the server or the connection said
	Err    error  // the error as it came
}

func (e *CauseError) Error() string {
	if e.Cause == ErrDiskFull {
		return e.Cause.Error() + " (" + e.Detail + ")"
	}
	return e.Cause.Error() + ": " + e.Detail +
		"; run the same command again once it runs (`draughtsdb db start` starts the embedded cluster): what was committed is kept"
}

func (e *CauseError) Unwrap() []error { return []error{e.Cause, e.Err} }

// serverLog is the log of the embedded cluster, where a server that
// stopped itself says why (see SetServerLog).
var serverLog atomic.Pointer[string]

// SetServerLog names the log file of the database server this process
// uses, when it is the embedded cluster: DescribeError reads its end when
// the connection is lost, to tell a server stopped by a full disk (a
// PANIC when its write-ahead log cannot grow, which clients see only as a
// closed connection) from one stopped otherwise. "" forgets it.
func SetServerLog(path string) { serverLog.Store(&path) }

// diskFullText is in the server's and the kernel's words for ENOSPC.
const diskFullText = "No space left on device"

// DescribeError names the cause of a database error when it is the
// database's full disk or a lost server (returning a *CauseError that
// matches ErrDiskFull or ErrServerStopped and still the original error);
// any other error, nil and a cancelled context come back as they are.
// Commands report their database errors through it, so that a full disk
// is not an "unexpected EOF" nor a stopped server "conn closed".
func DescribeError(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, ErrDiskFull) || errors.Is(err, ErrServerStopped) {
		return err
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case pgErr.Code == "53100" || strings.Contains(pgErr.Message, diskFullText): // disk_full
			return &CauseError{Cause: ErrDiskFull, Detail: "the server said: " + pgErr.Message, Err: err}
		case pgErr.Code == "57P01" || pgErr.Code == "57P02" || pgErr.Code == "57P03" || strings.HasPrefix(pgErr.Code, "08"):
			// admin_shutdown, crash_shutdown, cannot_connect_now, connection_exception
			return lostServer(pgErr.Message, err)
		}
		return err
	}
	if lost, detail := connectionLost(err); lost {
		return lostServer(detail, err)
	}
	return err
}

// lostServer is ErrServerStopped, or ErrDiskFull when the embedded
// server's log ends with a full disk.
func lostServer(detail string, err error) error {
	if p := serverLog.Load(); p != nil && *p != "" {
		if line := lastDiskFull(*p); line != "" {
			return &CauseError{Cause: ErrDiskFull, Detail: "the server stopped: " + line, Err: err}
		}
	}
	return &CauseError{Cause: ErrServerStopped, Detail: detail, Err: err}
}

// lastDiskFull returns the server log's last line about a full disk
// among its last 16 kB, when that is the last thing the server said before
// it stopped (no later start since: "database system is ready").
func lastDiskFull(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	const tail = 16 << 10
	if st, err := f.Stat(); err == nil && st.Size() > tail {
		if _, err := f.Seek(st.Size()-tail, io.SeekStart); err != nil {
			return ""
		}
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return ""
	}
	found := ""
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.Contains(line, diskFullText):
			found = strings.TrimSpace(line)
		case strings.Contains(line, "database system is ready to accept connections"):
			found = ""
		}
	}
	return found
}

// connectionLost reports whether err is a connection that broke or could
// not be made again (the server gone), with words for it.
func connectionLost(err error) (bool, string) {
	var connErr *pgconn.ConnectError
	if errors.As(err, &connErr) {
		switch {
		case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ENOENT):
			return true, "nothing accepts connections at its address any more"
		}
		return false, ""
	}
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return true, "the connection closed unexpectedly"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return true, "the connection was reset"
	case pgconn.Timeout(err):
		return false, ""
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		return true, "the connection broke: " + opErr.Err.Error()
	}
	// pgx's words for a connection it closed after an error on it.
	if strings.HasSuffix(err.Error(), "conn closed") {
		return true, "the connection closed"
	}
	return false, ""
}
