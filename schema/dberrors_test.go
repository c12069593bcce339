package schema_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestDescribeError: the classification of database errors by their
// codes and kinds; the real cases (a full tablespace, a full WAL disk, a
// stopped server) are cmd/draughtsdb's import tests.
func TestDescribeError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "server.log")
	schema.SetServerLog("")
	t.Cleanup(func() { schema.SetServerLog("") })
	plain := errors.New("syntax error")
	for _, tc := range []struct {
		err  error
		want error // nil: returned as it is
		text string
	}{
		{&pgconn.PgError{Code: "53100", Message: `could not extend file "base/1/2": No space left on device`}, schema.ErrDiskFull,
			`no space left on device (the database's disk): free space and run the same command again (the server said: could not extend file "base/1/2": No space left on device)`},
		{&pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}, schema.ErrServerStopped,
			"the database server stopped: terminating connection due to administrator command; run the same command again"},
		{fmt.Errorf("write batch: %w", io.ErrUnexpectedEOF), schema.ErrServerStopped, "the database server stopped: the connection closed unexpectedly;"},
		{&pgconn.PgError{Code: "23505", Message: "duplicate key"}, nil, ""},
		{plain, nil, ""},
		{fmt.Errorf("x: %w", context.Canceled), nil, ""},
	} {
		got := schema.DescribeError(tc.err)
		if tc.want == nil {
			if got != tc.err {
				t.Errorf("DescribeError(%v) = %v, want it unchanged", tc.err, got)
			}
			continue
		}
		if !errors.Is(got, tc.want) || !errors.Is(got, tc.err) || !strings.HasPrefix(got.Error(), tc.text) {
			t.Errorf("DescribeError(%v) = %q, want %v starting %q", tc.err, got, tc.want, tc.text)
		}
		if again := schema.DescribeError(got); again != got {
			t.Errorf("described twice: %q", again)
		}
	}

	// A lost connection of the embedded cluster whose log ends with a full
	// disk is the full disk; one restarted since is not.
	panicLine := `2026-01-01 00:00:00.000 UTC [9] PANIC:  could not write to file "pg_wal/xlogtemp.9": No space left on device`
	for _, tc := range []struct {
		log  string
		want error
	}{
		{"LOG:  database system is ready to accept connections\n" + panicLine + "\nLOG:  terminating any other active server processes\n", schema.ErrDiskFull},
		{panicLine + "\nLOG:  database system is ready to accept connections\n", schema.ErrServerStopped},
		{"LOG:  received fast shutdown request\n", schema.ErrServerStopped},
	} {
		if err := os.WriteFile(log, []byte(tc.log), 0o600); err != nil {
			t.Fatal(err)
		}
		schema.SetServerLog(log)
		got := schema.DescribeError(io.EOF)
		if !errors.Is(got, tc.want) {
			t.Errorf("log %q: %v, want %v", tc.log, got, tc.want)
		}
		if tc.want == schema.ErrDiskFull && !strings.Contains(got.Error(), "PANIC:  could not write to file") {
			t.Errorf("log %q: %v, want the server's line", tc.log, got)
		}
	}
}
