package source

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const game = "[Event \"t\"]\n1. 32-28 19-23 1-0\n"

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func gz(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func zipped(t *testing.T, entries map[string]string, order []string) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, n := range order {
		f, err := w.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(entries[n]))
	}
	w.Close()
	return b.Bytes()
}

// readSource reads a source whole and returns its text and hash.
func readSource(t *testing.T, s *Source) (string, string, error) {
	t.Helper()
	r, err := s.Open()
	if err != nil {
		return "", "", err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err == nil && r.BytesRead() != int64(len(data)) {
		t.Errorf("%s: BytesRead %d, read %d", s.Name, r.BytesRead(), len(data))
	}
	if err == nil && s.Size >= 0 && s.Kind != ZipItem && r.Consumed() != s.Size {
		t.Errorf("%s: Consumed %d, Size %d", s.Name, r.Consumed(), s.Size)
	}
	return string(data), r.SHA256(), err
}

func TestExpandDirectoryAndKinds(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.pdn"), []byte(game))
	write(t, filepath.Join(dir, "sub", "B.PDN"), []byte(game+game))
	write(t, filepath.Join(dir, "sub", "c.pdn.gz"), gz(game))
	write(t, filepath.Join(dir, "sub", "notes.txt"), []byte("ignored"))
	write(t, filepath.Join(dir, "z.ZIP"), zipped(t, map[string]string{"x/one.pdn": game, "readme.txt": "no", "two.PDN": game + game},
		[]string{"x/one.pdn", "readme.txt", "two.PDN"}))

	srcs, errs := Expand([]string{dir})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []struct {
		name string
		kind Kind
		text string
	}{
		{"a.pdn", Plain, game},
		{"sub/B.PDN", Plain, game + game},
		{"sub/c.pdn.gz", Gzip, game},
		{"z.ZIP!x/one.pdn", ZipItem, game},
		{"z.ZIP!two.PDN", ZipItem, game + game},
	}
	if len(srcs) != len(want) {
		var names []string
		for _, s := range srcs {
			names = append(names, s.Name)
		}
		t.Fatalf("got %d sources %q, want %d", len(srcs), names, len(want))
	}
	for i, w := range want {
		s := srcs[i]
		if s.Name != filepath.Join(dir, w.name) || s.Kind != w.kind {
			t.Errorf("source %d: %q kind %d, want %q kind %d", i, s.Name, s.Kind, w.name, w.kind)
		}
		if s.Size <= 0 {
			t.Errorf("%s: size %d", s.Name, s.Size)
		}
		text, h, err := readSource(t, s)
		if err != nil || text != w.text || h != sum(w.text) {
			t.Errorf("%s: read %q (%v), hash %s", s.Name, text, err, h)
		}
	}
}

func TestStdin(t *testing.T) {
	old := Stdin
	Stdin = strings.NewReader(game)
	defer func() { Stdin = old }()
	srcs, errs := Expand([]string{"-"})
	if len(errs) > 0 || len(srcs) != 1 || srcs[0].Name != "-" || srcs[0].Size != -1 {
		t.Fatalf("%v %+v", errs, srcs)
	}
	text, h, err := readSource(t, srcs[0])
	if err != nil || text != game || h != sum(game) {
		t.Fatalf("%q %v %s", text, err, h)
	}
}

// A broken source is an error for that source only.
func TestBrokenSourcesDoNotStopOthers(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.pdn")
	write(t, good, []byte(game))
	notGzip := filepath.Join(dir, "bad.pdn.gz")
	write(t, notGzip, []byte("this is not gzip"))
	full := gz(strings.Repeat(game, 200))
	truncGz := filepath.Join(dir, "trunc.pdn.gz")
	write(t, truncGz, full[:len(full)/2])
	z := zipped(t, map[string]string{"a.pdn": game}, []string{"a.pdn"})
	truncZip := filepath.Join(dir, "trunc.zip")
	write(t, truncZip, z[:len(z)-10])

	srcs, errs := Expand([]string{filepath.Join(dir, "missing.pdn"), truncZip, notGzip, truncGz, good})
	if len(errs) != 2 {
		t.Fatalf("errors %v, want the missing file and the truncated zip", errs)
	}
	if !strings.Contains(errs[1].Error(), "trunc.zip") {
		t.Errorf("zip error does not name the archive: %v", errs[1])
	}
	if len(srcs) != 3 {
		t.Fatalf("%d sources", len(srcs))
	}
	if _, _, err := readSource(t, srcs[0]); err == nil || !strings.Contains(err.Error(), "bad.pdn.gz") {
		t.Errorf("not-gzip: %v", err)
	}
	if _, _, err := readSource(t, srcs[1]); err == nil || !strings.Contains(err.Error(), "trunc.pdn.gz") {
		t.Errorf("truncated gzip: %v", err)
	}
	if text, _, err := readSource(t, srcs[2]); err != nil || text != game {
		t.Errorf("good file after broken ones: %q %v", text, err)
	}
}

func TestExplicitFileAnyExtension(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "games.txt")
	write(t, p, []byte(game))
	srcs, errs := Expand([]string{p})
	if len(errs) > 0 || len(srcs) != 1 || srcs[0].Kind != Plain {
		t.Fatalf("%v %+v", errs, srcs)
	}
}

// Every error names its source exactly once and unwraps to the cause: a
// truncated gzip used to read "x.gz: x.gz: unexpected EOF" once the
// importer added the name again, because Read had already added it.
func TestErrorsNameTheSourceOnce(t *testing.T) {
	dir := t.TempDir()
	full := gz(strings.Repeat(game, 200))
	trunc := filepath.Join(dir, "trunc.pdn.gz")
	write(t, trunc, full[:len(full)/2])
	notGzip := filepath.Join(dir, "bad.pdn.gz")
	write(t, notGzip, []byte("this is not gzip"))
	missing := filepath.Join(dir, "missing.pdn")

	srcs, errs := Expand([]string{missing, trunc, notGzip})
	if len(errs) != 1 || len(srcs) != 2 {
		t.Fatalf("%v %d", errs, len(srcs))
	}
	var se *Error
	if !errors.As(errs[0], &se) || se.Name != missing || !errors.Is(errs[0], fs.ErrNotExist) {
		t.Errorf("missing file: %#v", errs[0])
	}
	_, _, readErr := readSource(t, srcs[0])
	if !errors.Is(readErr, io.ErrUnexpectedEOF) || !errors.As(readErr, &se) || se.Op != "read" {
		t.Errorf("truncated gzip: %#v", readErr)
	}
	_, openErr := srcs[1].Open()
	if !errors.Is(openErr, gzip.ErrHeader) {
		t.Errorf("not gzip: %#v", openErr)
	}
	for _, c := range []struct {
		err  error
		name string
	}{{errs[0], missing}, {readErr, trunc}, {openErr, notGzip}} {
		if c.err == nil {
			continue
		}
		if n := strings.Count(c.err.Error(), filepath.Base(c.name)); n != 1 {
			t.Errorf("%q names %s %d times, want once", c.err, filepath.Base(c.name), n)
		}
	}
}
