package export

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOutputAbortKeepsWhatWasThere: a failed export removes only what it
// wrote. Abort removed the path it was given, so an export to /dev/null
// interrupted as root removed /dev/null; and an export over an earlier
// one left a partial file in its place. A finished export replaces the
// file, keeping its mode.
func TestOutputAbortKeepsWhatWasThere(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(path string, abort bool) error {
		out, err := Create(path, nil)
		if err != nil {
			return err
		}
		if _, err := out.Write([]byte("new")); err != nil {
			return err
		}
		if abort {
			out.Abort()
			return nil
		}
		return out.Close()
	}
	entries := func() int {
		e, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		return len(e)
	}

	old := filepath.Join(dir, "old.csv")
	if err := os.WriteFile(old, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := write(old, true); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(old); err != nil || string(b) != "old" || entries() != 1 {
		t.Errorf("aborted over a file: %q, %v, %d entries", b, err, entries())
	}
	if err := write(old, false); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(old); string(b) != "new" {
		t.Errorf("finished over a file: %q", b)
	}
	if fi, err := os.Stat(old); err != nil || fi.Mode().Perm() != 0o640 || entries() != 1 {
		t.Errorf("finished over a file: mode %v, %v, %d entries", fi.Mode(), err, entries())
	}

	fresh := filepath.Join(dir, "fresh.csv")
	if err := write(fresh, true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) || entries() != 1 {
		t.Errorf("aborted new file: %v, %d entries", err, entries())
	}

	// A device (a FIFO stands for one here: no mknod needed) is written in
	// place and never removed.
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan []byte)
	go func() {
		b, _ := os.ReadFile(fifo)
		done <- b
	}()
	if err := write(fifo, true); err != nil {
		t.Fatal(err)
	}
	if b := <-done; string(b) != "new" {
		t.Errorf("read %q from the pipe", b)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe after an aborted export: %v, %v", fi, err)
	}
	// A symbolic link stays a link.
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(old, link); err != nil {
		t.Fatal(err)
	}
	if err := write(link, false); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link after an export: %v, %v", fi, err)
	}
}
