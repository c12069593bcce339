//go:build linux

package ingest

import (
	"context"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestImportWidensSendBuffer: the import's connection has the send buffer
// it asks for (widenSendBuffer), as far as net.core.wmem_max allows, and a
// connection the import did not use keeps the default.
func TestImportWidensSendBuffer(t *testing.T) {
	t.Parallel()
	wmemMax, wmemDefault := procInt(t, "/proc/sys/net/core/wmem_max"), procInt(t, "/proc/sys/net/core/wmem_default")
	want := 2 * min(importSendBuffer, wmemMax) // Linux grants twice what is asked, for its bookkeeping
	if want <= wmemDefault {
		t.Skipf("net.core.wmem_max (%d) allows no more than the default send buffer (%d)", wmemMax, wmemDefault)
	}
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	path := writeSynth(t, t.TempDir(), rules.International, 20, 5)
	if _, err := Import(ctx, pool, []string{path}, Options{}); err != nil {
		t.Fatal(err)
	}
	conns := pool.AcquireAllIdle(ctx)
	defer func() {
		for _, c := range conns {
			c.Release()
		}
	}()
	fresh, err := pool.Acquire(ctx) // none idle: a new connection
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Release()
	if got := sendBuffer(t, fresh.Conn().PgConn().Conn()); got != wmemDefault {
		t.Errorf("a new connection's send buffer is %d, want the default %d", got, wmemDefault)
	}
	var sizes []int
	for _, c := range conns {
		sizes = append(sizes, sendBuffer(t, c.Conn().PgConn().Conn()))
	}
	found := false
	for _, n := range sizes {
		found = found || n == want
	}
	if !found {
		t.Errorf("send buffers of the pool's connections after the import %v: none is %d", sizes, want)
	}
}

func procInt(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skip(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// sendBuffer is SO_SNDBUF of c's socket.
func sendBuffer(t *testing.T, c net.Conn) int {
	t.Helper()
	sc, ok := c.(syscall.Conn)
	if !ok {
		t.Fatalf("%T is not a socket", c)
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	var gerr error
	if err := raw.Control(func(fd uintptr) {
		n, gerr = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF)
	}); err != nil {
		t.Fatal(err)
	}
	if gerr != nil {
		t.Fatal(gerr)
	}
	return n
}
