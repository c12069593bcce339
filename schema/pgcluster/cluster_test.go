package pgcluster

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
	"time"
)

func newTestCluster(t *testing.T) *Cluster {
	t.Helper()
	dir, err := os.MkdirTemp("", "draughtsdb-pgcluster-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	c, err := New(Config{DataDir: dir, Settings: map[string]string{"fsync": "off"}})
	if errors.Is(err, ErrNoServer) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.StopImmediate(context.Background()) })
	return c
}

func TestStartTwiceStopAndRecoverFromKill(t *testing.T) {
	// No deadline: a slow machine makes this test slow, not failed (go
	// test's own timeout catches a hang).
	ctx := context.Background()
	c := newTestCluster(t)

	if st, _ := c.Status(ctx); st.Initialized || st.Running {
		t.Fatalf("fresh dir: status %+v", st)
	}
	if started, err := c.Start(ctx); err != nil || !started {
		t.Fatalf("first start: started=%v err=%v", started, err)
	}
	if started, err := c.Start(ctx); err != nil || started {
		t.Fatalf("second start must be a no-op: started=%v err=%v", started, err)
	}
	st, err := c.Status(ctx)
	if err != nil || !st.Running || st.PID == 0 || st.Version == "" {
		t.Fatalf("status after start: %+v, %v", st, err)
	}

	// A crash: the postmaster dies with its pid file left behind.
	if err := syscall.Kill(st.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for isPostgresProcess(st.PID) { // until the kernel has removed it
		time.Sleep(20 * time.Millisecond)
	}
	if st2, _ := c.Status(ctx); st2.Running {
		t.Fatalf("status after kill -9 says running: %+v", st2)
	}
	if started, err := c.Start(ctx); err != nil || !started {
		t.Fatalf("start after kill -9: started=%v err=%v", started, err)
	}
	if st3, _ := c.Status(ctx); !st3.Running {
		t.Fatalf("not running after recovery: %+v", st3)
	}

	if stopped, err := c.Stop(ctx); err != nil || !stopped {
		t.Fatalf("stop: stopped=%v err=%v", stopped, err)
	}
	if stopped, err := c.Stop(ctx); err != nil || stopped {
		t.Fatalf("second stop must be a no-op: stopped=%v err=%v", stopped, err)
	}
	if st4, _ := c.Status(ctx); st4.Running {
		t.Fatalf("running after stop: %+v", st4)
	}
}

func TestFindBinDirRejectsDirWithoutServer(t *testing.T) {
	if _, err := FindBinDir(t.TempDir()); !errors.Is(err, ErrNoServer) {
		t.Fatalf("err = %v, want ErrNoServer", err)
	}
}
