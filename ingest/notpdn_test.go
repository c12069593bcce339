package ingest

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// notPDNDir writes a directory with sources that are not PDN (the README,
// binary files small and large) and ones that are (a real archive, a
// file with junk between its games), and an empty file.
func notPDNDir(t *testing.T) (dir string, bad []string) {
	dir = t.TempDir()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	bad = []string{
		writeFile(t, filepath.Join(dir, "readme.pdn"), readme),
		writeFile(t, filepath.Join(dir, "small-binary.pdn"), random(3000)),
		writeFile(t, filepath.Join(dir, "large-binary.pdn"), random(3<<20)),
		writeFile(t, filepath.Join(dir, "words.pdn"), []byte("Just some words, 1-0 and 0-1 and * here.\n\nAnd more (with a bracket).\n")),
	}
	writeFile(t, filepath.Join(dir, "good.pdn"), goodText(t))
	writeFile(t, filepath.Join(dir, "junk.pdn"), []byte("Some words that are not PDN 1-0\n\n"+string(boomText("fine"))+"\nmore words\n"))
	writeFile(t, filepath.Join(dir, "empty.pdn"), nil)
	// A comment opened at the very end of the file (it used to panic).
	writeFile(t, filepath.Join(dir, "semi.pdn"), []byte("[Event \"x\"]\n[GameType \"21\"]\n1. 11-15 24-20 ; "))
	return dir, bad
}

// TestNotPDN: a source in which nothing is PDN fails as "not a PDN file"
// and none of its games is handed on; a large one is given up on after a
// bounded piece; a PDN file with junk between its games reads as usual.
func TestNotPDN(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	dir, bad := notPDNDir(t)
	srcs, errs := source.Expand([]string{dir})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, workers := range []int{1, 2} {
		games := map[string]int{}
		ends := map[string]*Event{}
		err := Run(context.Background(), srcs, Config{Workers: workers}, func(ev *Event) error {
			switch ev.Kind {
			case Games:
				games[ev.Source.Name] += len(ev.Items)
			case SourceEnd:
				e := *ev
				ends[ev.Source.Name] = &e
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range bad {
			e := ends[name]
			if e == nil || !errors.Is(e.Err, ErrNotPDN) || games[name] != 0 || e.Games != 0 {
				t.Errorf("%s: %d games handed on, end %+v", name, games[name], e)
				continue
			}
			msg := e.Err.Error()
			if !strings.HasPrefix(msg, name+": not a PDN file: ") {
				t.Errorf("%s: %q", name, msg)
			}
			if large := strings.HasSuffix(name, "large-binary.pdn"); large != strings.Contains(msg, "the rest is not read") {
				t.Errorf("%s: %q", name, msg)
			}
		}
		for name, want := range map[string]int{"good.pdn": 200, "junk.pdn": 60, "empty.pdn": 0, "semi.pdn": 1} {
			name = filepath.Join(dir, name)
			if e := ends[name]; e == nil || e.Err != nil || games[name] != want {
				t.Errorf("%s: %d games, end %+v", name, games[name], e)
			}
		}
	}
}

// TestImportNotPDN: importing a directory with files that are not PDN
// stores none of their games, fails each of them, and imports the others.
func TestImportNotPDN(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	dir, bad := notPDNDir(t)
	sum, err := Import(ctx, pool, []string{dir}, Options{Notice: func(string) {}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.SourcesFailed != len(bad) {
		t.Fatalf("%d sources failed, want %d: %+v", sum.SourcesFailed, len(bad), sum.Failures)
	}
	for _, f := range sum.Failures {
		if !strings.Contains(f.Error, "not a PDN file") {
			t.Errorf("failure %+v", f)
		}
	}
	for _, name := range bad {
		if n := count(t, pool, `SELECT count(*) FROM games g JOIN sources s ON s.id = g.source_id WHERE s.name = '`+name+`'`); n != 0 {
			t.Errorf("%s: %d games stored", name, n)
		}
	}
	if n := count(t, pool, `SELECT count(*) FROM games`); n < 200 {
		t.Errorf("%d games stored", n)
	}
	if n := count(t, pool, `SELECT count(*) FROM games g JOIN sources s ON s.id = g.source_id WHERE s.name LIKE '%semi.pdn' AND s.status = 'done'`); n != 1 {
		t.Errorf("semi.pdn: %d games stored", n)
	}
}
