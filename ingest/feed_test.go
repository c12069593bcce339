package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// chunkInputs are texts whose games begin in every way the reader knows,
// for TestChunkedReadEqualsReader: the PDN test suite (its files one after
// the other, and the files that fail), part of OCA, synthetic games in two
// layouts, layouts where a likely start of a game is none (a comment or
// a stray byte before the tags, % lines, a missing result, a malformed
// tag), NULs, CR line ends and UTF-16.
func chunkInputs(t testing.TB) map[string][]byte {
	in := map[string][]byte{}
	for _, dir := range []string{"succeed", "fail"} {
		var all []byte
		root := filepath.Join("pdn", "testdata", "shared", "testsuite", dir)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := gunzipFile(path)
			all = append(all, data...)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		in["testsuite/"+dir] = all
	}
	oca, err := gunzipFile(ocaPath)
	if err != nil {
		t.Fatal(err)
	}
	in["OCA head"] = oca[:300_000]
	var syn bytes.Buffer
	if err := synth.Write(&syn, synth.Options{Variant: rules.International, Games: 200, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	in["synthetic"] = syn.Bytes()
	// Without blank lines between games, CRLF.
	tight := strings.ReplaceAll(strings.ReplaceAll(syn.String(), "\n\n", "\n"), "\n", "\r\n")
	in["synthetic tight CRLF"] = []byte(tight)
	one := "[Event \"a\"]\n[Result \"2-0\"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n"
	in["hostile"] = []byte(strings.Repeat(one, 3) +
		"{intro}\n\n[Event \"b\"]\n1. 32-28 *\n\n" + strings.Repeat(one, 2) +
		"% remark\n[Event \"c\"]\n1. 33-29 *\n\n" + one +
		"}\n\n[Event \"d\"]\n1. 33-29 *\n\n" + one +
		"1. 32-28 *\n\n" + one + "1. 34-30 *\n\n" +
		"[Event \"e]\n1. 33-29 *\n\n" + one +
		"[Event \"f\"]\n1. 32-28 {open\n\n" + one +
		"[Event \"g\"]\n1. 32-28\n\n" + one +
		"[Event \"h\"]\n\n[Site \"i\"]\n\n" + one +
		"[Result \"4-6\"]\r\r1. 32-28 (19-23\r\r[Event \"j\"]\r1. 4-6 4-6\r\r" + one +
		"\xef\xbb\xbf" + one + "\x00\x00\n" + one + "}" + strings.Repeat("\n", 70_000) + one +
		strings.Repeat(" ", 100) + "\n" + one + "[Event \"k\"]\n1. 32-28 1-0 [Event \"l\"]\n1. 32-28 *\n\n" + one +
		"Some text that is not PDN, 1-0\n\n" + one + "more text\n\n[Event \"m\"]\\r\n\n[Result \"-\"] junk\n1. 32-28 -\n\n" + one)
	units := utf16.Encode([]rune(string(in["synthetic"][:20_000])))
	le := []byte{0xFF, 0xFE}
	for _, u := range units {
		le = append(le, byte(u), byte(u>>8))
	}
	in["UTF-16"] = le
	return in
}

func gunzipFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// runItems runs the pipeline on a file holding text and returns its items
// and the SourceEnd event.
func runItems(t testing.TB, text []byte, cfg Config) ([]Item, *Event) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in.pdn")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	return runFile(t, path, cfg)
}

func runFile(t testing.TB, path string, cfg Config) ([]Item, *Event) {
	t.Helper()
	srcs, errs := source.Expand([]string{path})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var items []Item
	var end *Event
	err := Run(context.Background(), srcs, cfg, func(ev *Event) error {
		if ev.Kind == Games && len(ev.Items) == 0 {
			t.Error("an empty batch of games")
		}
		items = append(items, ev.Items...)
		if ev.Kind == SourceEnd {
			e := *ev
			end = &e
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return items, end
}

// TestChunkedReadEqualsReader: the pipeline, which reads a source in
// chunks on all its workers, hands on exactly what one reader over the
// whole text gives, replayed: every game (its ordinal, offset, line, raw
// bytes, tags, moves, warnings), its syntax error, its rejection or
// warnings, in order, whatever the size of the chunks and the number of
// workers.
func TestChunkedReadEqualsReader(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	for name, text := range chunkInputs(t) {
		path := filepath.Join(t.TempDir(), "in.pdn")
		if err := os.WriteFile(path, text, 0o644); err != nil {
			t.Fatal(err)
		}
		var want []*pdn.Game
		var wantErrs []error
		rd := pdn.NewReader(bytes.NewReader(text), path)
		for {
			g, err := rd.Next()
			if err == io.EOF {
				break
			}
			want = append(want, g)
			wantErrs = append(wantErrs, err)
		}
		r := replay.NewReplayer(replay.Options{})
		var out replay.Game
		for _, chunk := range []int{1, 37, 1000, 0, -1} {
			for _, workers := range []int{1, 3} {
				// chunk -1: no chunk cut short, and every job hands its
				// games on early, one at a time (see early).
				flush := flushBytes
				if chunk < 0 {
					flushBytes = 1
				}
				items, end := runFile(t, path, Config{Workers: workers, chunkBytes: max(chunk, 0), BatchSize: 1 + max(chunk, 0)%7})
				flushBytes = flush
				at := fmt.Sprintf("%s, chunks of %d, %d workers", name, chunk, workers)
				if len(items) != len(want) || end.Err != nil || end.Games != len(want) {
					t.Fatalf("%s: %d games (end %d, %v), want %d", at, len(items), end.Games, end.Err, len(want))
				}
				for i, it := range items {
					g := want[i]
					if !reflect.DeepEqual(it.PDN, g) || it.Ordinal != g.Ordinal || it.Offset != g.Offset || it.Line != g.Line {
						t.Fatalf("%s: game %d differs:\n got %+v\nwant %+v", at, i+1, it.PDN, g)
					}
					if fmt.Sprint(it.ReadErr) != fmt.Sprint(wantErrs[i]) {
						t.Fatalf("%s: game %d: error %v, want %v", at, i+1, it.ReadErr, wantErrs[i])
					}
					rej := r.Replay(g, wantErrs[i], &out)
					if fmt.Sprint(it.Reject) != fmt.Sprint(rej) || rej == nil && (it.Plies != out.Plies() || !slices.Equal(it.GameWarnings, out.Warnings)) {
						t.Fatalf("%s: game %d: replayed %v %d %q, want %v %d %q", at, i+1, it.Reject, it.Plies, it.GameWarnings, rej, out.Plies(), out.Warnings)
					}
				}
			}
		}
	}
}

// TestChunkedSkip: a resumed source skips its first games by ordinal,
// wherever the chunks are cut.
func TestChunkedSkip(t *testing.T) {
	t.Parallel()
	var syn bytes.Buffer
	if err := synth.Write(&syn, synth.Options{Variant: rules.International, Games: 100, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	for _, skip := range []int{0, 1, 37, 99, 100, 150} {
		items, end := runItems(t, syn.Bytes(), Config{Workers: 2, chunkBytes: 500, Skip: func(*source.Source) int { return skip }})
		if end.Games != 100 || len(items) != max(100-skip, 0) || len(items) > 0 && (items[0].Ordinal != skip+1 || items[len(items)-1].Ordinal != 100) {
			t.Fatalf("skip %d: %d games handed on, %d read", skip, len(items), end.Games)
		}
	}
}

// TestChunkedStop: a source given up between batches ends with
// ErrSourceStopped and hands on no more jobs after it.
func TestChunkedStop(t *testing.T) {
	t.Parallel()
	var syn bytes.Buffer
	if err := synth.Write(&syn, synth.Options{Variant: rules.International, Games: 300, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	asked := 0
	items, end := runItems(t, syn.Bytes(), Config{Workers: 2, chunkBytes: 500, Stop: func(*source.Source) bool { asked++; return asked == 3 }})
	if !errors.Is(end.Err, ErrSourceStopped) || len(items) >= 300 || len(items) == 0 {
		t.Fatalf("stopped source: %d games, end %v", len(items), end.Err)
	}
}

// TestChunkedGapStreams: a gap of many megabytes between two games (no
// place to cut it) streams through one reader in bounded memory, as the
// reader alone does.
func TestChunkedGapStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	one := "[Event \"a\"]\n1. 32-28 *\n\n"
	var text bytes.Buffer
	text.WriteString(strings.Repeat(one, 50))
	text.WriteString("{open comment\n") // the game after it runs into the gap
	for range 80 {
		text.WriteString(strings.Repeat("\n% x\n  \n", 1<<17))
	}
	text.WriteString(strings.Repeat(one, 50))
	size := text.Len()
	path := filepath.Join(t.TempDir(), "gap.pdn")
	if err := os.WriteFile(path, text.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	text = bytes.Buffer{}
	// A soft limit well under the file's size makes the collector keep up
	// (its assists run in the allocating goroutines): with only GOGC the
	// peak went from 41 to 54 MB on a loaded machine, as garbage piled up
	// while the background marker waited for a CPU. Streaming stays under
	// it; holding the gap (80 MB) could not.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(24 << 20))
	runtime.GC() // the text itself is gone
	stop := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var m runtime.MemStats
		top := uint64(0)
		for {
			select {
			case <-stop:
				peak <- top
				return
			default:
			}
			runtime.ReadMemStats(&m)
			top = max(top, m.HeapInuse)
			runtime.Gosched()
		}
	}()
	items, end := runFile(t, path, Config{Workers: 2, chunkBytes: 1000})
	close(stop)
	top := <-peak
	if len(items) != 101 || end.Err != nil {
		t.Fatalf("%d games, %v", len(items), end.Err)
	}
	t.Logf("heap peaked at %d MB reading %d MB", top>>20, size>>20)
	if size < 60<<20 || top > 40<<20 {
		t.Fatalf("heap peaked at %d MB reading %d MB", top>>20, size>>20)
	}
}

// TestChunkedUncleanStartsReadOnce: in a file where no cut is a place a
// reader can stop (every game begins with a comment and a blank line
// before its tags), one reader reads the whole file, and the others,
// which read ahead from the cuts, give up as soon as it passes them: the
// readers together read the file about once per worker, not once per
// chunk.
func TestChunkedUncleanStartsReadOnce(t *testing.T) {
	one := "{c}\n\n[Event \"e\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n"
	text := []byte(strings.Repeat(one, 20_000))
	path := filepath.Join(t.TempDir(), "unclean.pdn")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	var served int64
	old := testFeed
	testFeed = func(f *feed) { served = f.served.Load() }
	defer func() { testFeed = old }()
	items, end := runFile(t, path, Config{Workers: 2, chunkBytes: 1000})
	if len(items) != 20_000 || end.Err != nil {
		t.Fatalf("%d games, %v", len(items), end.Err)
	}
	if served < int64(len(text)) || served > 4*int64(len(text)) {
		t.Fatalf("the readers read %d bytes of a %d-byte file", served, len(text))
	}
}

// fetchAll cuts text into chunks of about target bytes, as readSource
// does, and returns the feed and the chunks that start jobs.
func fetchAll(t *testing.T, text []byte, target int) (*feed, []*chunk) {
	t.Helper()
	f := newFeed(&source.Source{Name: "in.pdn"}, 0)
	// Read ahead without bound: the whole text is fetched before lexing.
	f.fetch(context.Background(), &breakReader{r: bytes.NewReader(text)}, func() int64 { return 0 }, target, 1<<40)
	var jobs []*chunk
	for c := f.first; c != nil; c = c.next {
		if c.mark != nil {
			jobs = append(jobs, c)
		}
	}
	return f, jobs
}

// TestResolveCascades: a job read is resolved as soon as the job before it
// is, by the worker that resolves that one (feed.submit), so its own
// worker, busy replaying another job, does not hold up the jobs after it.
// Submitted last first, no job resolves until the first is submitted, and
// then all do, valid, their games numbered as one reader numbers them.
func TestResolveCascades(t *testing.T) {
	t.Parallel()
	var syn bytes.Buffer
	if err := synth.Write(&syn, synth.Options{Variant: rules.International, Games: 60, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	f, jobs := fetchAll(t, syn.Bytes(), 2000)
	if len(jobs) < 5 {
		t.Fatalf("%d jobs: the text was not cut", len(jobs))
	}
	res := make([]lexed, len(jobs))
	for i, c := range jobs {
		res[i], _ = f.lex(c, nil)
	}
	for i := len(jobs) - 1; i >= 1; i-- {
		f.submit(jobs[i].mark, &res[i])
		if _, decided := f.resolve(jobs[i].mark, false); decided {
			t.Fatalf("job %d of %d decided before the first was read", i+1, len(jobs))
		}
	}
	f.submit(jobs[0].mark, &res[0])
	ordinal := 0
	for i, c := range jobs {
		valid, decided := f.resolve(c.mark, false)
		if !decided || !valid {
			t.Fatalf("job %d of %d: valid %v, decided %v after the first was read", i+1, len(jobs), valid, decided)
		}
		for _, g := range res[i].games {
			if ordinal++; g.Ordinal != ordinal {
				t.Fatalf("job %d: game %d numbered %d", i+1, ordinal, g.Ordinal)
			}
		}
	}
	if ordinal != 60 || f.games != 60 || len(f.pending) != 0 {
		t.Fatalf("%d games resolved, feed counts %d, %d jobs pending", ordinal, f.games, len(f.pending))
	}
}

// TestSplitLocksOnlyAtCandidates: a reader's split function, asked at
// every game, takes the feed's lock only at the candidates its reader
// entered (here the one it stops at), not once per game, which made the
// workers queue for it.
func TestSplitLocksOnlyAtCandidates(t *testing.T) {
	var syn bytes.Buffer
	if err := synth.Write(&syn, synth.Options{Variant: rules.International, Games: 200, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	f, jobs := fetchAll(t, syn.Bytes(), syn.Len()/2)
	if len(jobs) != 2 {
		t.Fatalf("%d jobs, want 2", len(jobs))
	}
	locks := 0
	old := testSplitLocked
	testSplitLocked = func() { locks++ }
	defer func() { testSplitLocked = old }()
	res, _ := f.lex(jobs[0], nil)
	if len(res.games) < 50 || res.split != jobs[1].start {
		t.Fatalf("first job: %d games, stopped at %d (second job at %d)", len(res.games), res.split, jobs[1].start)
	}
	if locks != 1 {
		t.Fatalf("the split function took the lock %d times reading %d games", locks, len(res.games))
	}
}
