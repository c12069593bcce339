package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// boomText is 60 English games; game 41's Event is event.
func boomText(event string) []byte {
	var b strings.Builder
	for i := 1; i <= 60; i++ {
		ev := "fine"
		if i == 41 {
			ev = event
		}
		b.WriteString("[Event \"" + ev + "\"]\n[GameType \"21\"]\n[White \"P" + strconv.Itoa(i) + "\"]\n[Result \"*\"]\n1. 11-15 24-20 *\n\n")
	}
	return []byte(b.String())
}

// injectPanics makes the reader panic on a game whose Event is "boom-read"
// and the replay on one whose Event is "boom-replay", as a bug would.
func injectPanics(t *testing.T) {
	testReadHook = func(g *pdn.Game) {
		if g.Tag("Event") == "boom-read" {
			panic("injected reader bug")
		}
	}
	testReplayHook = func(g *pdn.Game) {
		if g.Tag("Event") == "boom-replay" {
			var m map[string]int
			m["x"]++ // a nil map: a runtime error
		}
	}
	t.Cleanup(func() { testReadHook, testReplayHook = nil, nil })
}

// TestPanicFailsItsSourceOnly: a panic while reading or replaying one
// source fails that source (naming the file, the game, the byte offset and
// the panic's message) and keeps its games before it; the other sources of
// the run are read whole.
func TestPanicFailsItsSourceOnly(t *testing.T) {
	injectPanics(t)
	for _, chunk := range []int{0, 300} {
		for _, tc := range []struct{ event, stage, msg string }{
			{"boom-read", "reading", "injected reader bug"},
			{"boom-replay", "replaying", "assignment to entry in nil map"},
		} {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "a.pdn"), boomText("fine"))
			bad := writeFile(t, filepath.Join(dir, "b.pdn"), boomText(tc.event))
			writeFile(t, filepath.Join(dir, "c.pdn"), boomText("fine"))
			srcs, errs := source.Expand([]string{dir})
			if len(errs) > 0 || len(srcs) != 3 {
				t.Fatal(srcs, errs)
			}
			games := map[string]int{}
			ends := map[string]*Event{}
			err := Run(context.Background(), srcs, Config{Workers: 2, chunkBytes: chunk}, func(ev *Event) error {
				switch ev.Kind {
				case Games:
					for _, it := range ev.Items {
						games[ev.Source.Name]++
						if it.Ordinal >= 41 && ev.Source.Name == bad {
							t.Errorf("%s: game %d handed on after the failure", tc.stage, it.Ordinal)
						}
					}
				case SourceEnd:
					e := *ev
					ends[ev.Source.Name] = &e
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%s: the run stopped: %v", tc.stage, err)
			}
			for name, e := range ends {
				if name == bad {
					continue
				}
				if e.Err != nil || games[name] != 60 || e.Games != 60 {
					t.Errorf("%s: %s: %d games, end %+v", tc.stage, name, games[name], e)
				}
			}
			e := ends[bad]
			if e == nil || e.Err == nil {
				t.Fatalf("%s: %s did not fail: %+v", tc.stage, bad, e)
			}
			var pe *PanicError
			var se *SourceError
			if !errors.As(e.Err, &pe) || !errors.As(e.Err, &se) || se.Game != 41 || pe.Stage != tc.stage {
				t.Fatalf("%s: error %v", tc.stage, e.Err)
			}
			msg := e.Err.Error()
			off := strconv.Itoa(int(pe.Offset))
			if !strings.HasPrefix(msg, bad+": game 41: ") || !strings.Contains(msg, tc.msg) || !strings.Contains(msg, "byte offset "+off) {
				t.Errorf("%s: message %q", tc.stage, msg)
			}
			// The offset is the game's start (replay) or where the reader
			// stood in it (reading): within game 41.
			text := boomText(tc.event)
			start := int64(strings.Index(string(text), "[Event \""+tc.event))
			if pe.Offset < start || pe.Offset > start+120 {
				t.Errorf("%s: offset %d, game 41 starts at %d", tc.stage, pe.Offset, start)
			}
			if games[bad] != 40 || e.Games != 40 {
				t.Errorf("%s: %d games of the failed source handed on, end says %d; want the 40 before it", tc.stage, games[bad], e.Games)
			}
		}
	}
}

// TestPanicDirectoryImport: importing a directory with a file whose
// reading panics stores the other files and fails that one, without
// stopping the run.
func TestPanicDirectoryImport(t *testing.T) {
	injectPanics(t)
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.pdn"), goodText(t))
	bad := writeFile(t, filepath.Join(dir, "b.pdn"), boomText("boom-read"))
	if err := os.WriteFile(filepath.Join(dir, "c.pdn"), boomText("fine"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := Import(ctx, pool, []string{dir}, Options{Notice: func(string) {}})
	if err != nil {
		t.Fatalf("the run stopped: %v", err)
	}
	if sum.SourcesFailed != 1 || len(sum.Failures) != 1 || sum.Failures[0].Source != bad || sum.Failures[0].Game != 41 ||
		!strings.Contains(sum.Failures[0].Error, "injected reader bug") {
		t.Fatalf("%+v", sum)
	}
	if n := count(t, pool, `SELECT count(*) FROM sources WHERE status = 'done'`); n != 2 {
		t.Errorf("%d sources done, want 2", n)
	}
	var status string
	if err := pool.QueryRow(ctx, `SELECT status FROM sources WHERE name = $1`, bad).Scan(&status); err != nil || status != "failed" {
		t.Errorf("%s: status %q (%v)", bad, status, err)
	}
}
