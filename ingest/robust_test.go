package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// goodText is a real archive of 200 English games (10 of them repeats):
// the file every bad input is imported with.
func goodText(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("sample/oca-english-200.pdn")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t testing.TB, path string, b []byte) string {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func gzipped(b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}

// TestStoreCleansEveryText hands the writer one accepted and one rejected
// game whose every text holds a NUL byte or bytes that are not UTF-8, as
// if a reader had let them through: PostgreSQL used to refuse the batch
// ("invalid byte sequence for encoding UTF8"), which stopped the import.
// Now each text is stored cleaned, the accepted game says so in its
// warnings, and the rejected game's bytes are kept exactly.
func TestStoreCleansEveryText(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	text := "[Event \"e\"]\n[White \"w\"]\n[Black \"b\"]\n[Annotator \"a\"]\n[GameType \"21\"]\n[Result \"*\"]\n" +
		"1. 11-15 {[%eval 0.1][%engine e%00n%E8g][%setting s%00][%version v%E8][%best 22-18][%pv 22-18%00]} 23-19 *\n"
	pg, err := pdn.NewReader(strings.NewReader(text), "t.pdn").Next()
	if err != nil {
		t.Fatal(err)
	}
	var g replay.Game
	if err := replay.NewReplayer(replay.Options{}).Replay(pg, nil, &g); err != nil {
		t.Fatal(err)
	}
	for i := range g.PDN.Tags {
		switch tg := &g.PDN.Tags[i]; tg.Name {
		case "Event":
			tg.Value = "Open\x00 1999"
		case "Annotator":
			tg.Name, tg.Value = "Anno\xe8tator", "x\x00y\xe8"
		}
	}
	g.PDN.Tags = append(g.PDN.Tags, pdn.Tag{Name: "Site", Value: "Li\xe8ge"}, pdn.Tag{Name: "Round", Value: "\x00"})
	g.White, g.Black = "Ren\xe8\x00", strings.Repeat("z", 5000)
	g.Warnings = append(g.Warnings, replay.Warning{Kind: replay.WarnDateNotUnderstood, Text: "date \"\xe8\x00\" " + strings.Repeat("long ", 200)})
	st := preparer(40)(&g).(*stored)
	if len(st.evals) != 1 {
		t.Fatalf("%d evaluations read from the comment, want 1", len(st.evals))
	}

	longMove := "a\xe8\x00" + strings.Repeat("é", 300)
	raw := []byte("[Event \"r\"]\n1. " + longMove + " *\n")
	items := []Item{
		{Ordinal: 1, Accepted: true, Prepared: st},
		{Ordinal: 2, Offset: 100, Line: 9, PDN: &pdn.Game{Raw: raw}, Reject: &replay.RejectError{
			Err: replay.ErrBadMoveText, Ply: 1, Text: longMove, FEN: "W:W\x00", Detail: "d\xe8 " + strings.Repeat("x", 3000)}},
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	var id int64
	if err := conn.QueryRow(ctx, `INSERT INTO sources (name, sha256) VALUES ('t.pdn', 'x') RETURNING id`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	w := &writer{conn: conn.Conn(), players: map[string]int32{}}
	c, err := w.writeBatch(ctx, &sourceState{id: id, openingDepth: 40}, items)
	if err != nil {
		t.Fatalf("the batch was refused: %v", err)
	}
	if c.imported != 1 || c.rejected != 1 {
		t.Fatalf("%+v", c)
	}

	var event, site, round, white, black, annotator string
	var warnings []string
	if err := pool.QueryRow(ctx, `SELECT g.event, g.site, coalesce(g.round, ''), w.name, b.name, g.tags->>'Annoètator', g.warnings
		FROM games g JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id`).
		Scan(&event, &site, &round, &white, &black, &annotator, &warnings); err != nil {
		t.Fatal(err)
	}
	if event != "Open 1999" || site != "Liège" || round != "" || white != "Renè" || annotator != "xyè" {
		t.Errorf("stored event %q site %q round %q white %q annotator %q", event, site, round, white, black)
	}
	if len(black) > maxPlayer || !strings.HasPrefix(black, "zzz") {
		t.Errorf("black player of %d bytes stored as %d bytes", 5000, len(black))
	}
	for _, want := range []string{"tag Event: NUL bytes removed", "tag Site: bytes that are not UTF-8 read as Windows-1252",
		"white player: NUL bytes removed", "black player: name longer than 200 bytes cut", "evaluation engine: NUL bytes removed"} {
		if !slices.Contains(warnings, want) {
			t.Errorf("warnings lack %q: %q", want, warnings)
		}
	}
	for _, w := range warnings {
		if len(w) > maxWarning {
			t.Errorf("a warning of %d bytes: %.60q", len(w), w)
		}
	}
	var engine, setting, version, pv string
	if err := pool.QueryRow(ctx, `SELECT engine, setting, engine_version, pv FROM evaluations`).Scan(&engine, &setting, &version, &pv); err != nil {
		t.Fatal(err)
	}
	if engine != "enèg" || setting != "s" || version != "vè" || pv != "22-18" {
		t.Errorf("evaluation engine %q setting %q version %q pv %q", engine, setting, version, pv)
	}

	var gotRaw []byte
	var move, fen, message string
	if err := pool.QueryRow(ctx, `SELECT raw, move, fen, message FROM rejected_games`).Scan(&gotRaw, &move, &fen, &message); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gotRaw, raw) {
		t.Errorf("raw bytes changed:\n%q\n%q", gotRaw, raw)
	}
	if fen != "W:W" || !strings.HasPrefix(move, "aè") || len(move) > maxMove || !utf8.ValidString(move) {
		t.Errorf("move %q (%d bytes), fen %q", move, len(move), fen)
	}
	if len(message) > maxMessage || !strings.Contains(message, `ply 1 "a\xe8\x00éé`) || strings.Count(message, "é") > maxQuote/2 {
		t.Errorf("message of %d bytes: %.200q", len(message), message)
	}
}

// TestCleanText: invalid bytes read as Windows-1252, NULs removed, clean
// text untouched; caps cut on rune boundaries.
func TestCleanText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, want string
		fix      textFix
	}{
		{"plain", "plain", 0},
		{"Liège", "Liège", 0},
		{"Li\xe8ge", "Liège", fixEncoding},
		{"\x80 \x9f \x81", "€ Ÿ \u0081", fixEncoding},
		{"a\x00b", "ab", fixNUL},
		{"é\xc3\"", "éÃ\"", fixEncoding}, // a character cut by a quote
		{"\x00\xe8", "è", fixNUL | fixEncoding},
	} {
		got, fix := cleanText(c.in)
		if got != c.want || fix != c.fix {
			t.Errorf("cleanText(%q) = %q, %d; want %q, %d", c.in, got, fix, c.want, c.fix)
		}
	}
	if got := capText("ab"+strings.Repeat("é", 30), 10); got != "abéé..." || !utf8.ValidString(got) {
		t.Errorf("capText: %q", got)
	}
	if got := quoteInput(strings.Repeat("é", 40)); len(got) > maxQuote+2 || !utf8.ValidString(got) {
		t.Errorf("quoteInput: %q", got)
	}
}

// TestBadBytesDoNotStopTheImport imports each kind of bad text together
// with a good file: the good file lands, the bad game is stored (accepted
// or rejected with its exact bytes), and no source fails. (A Latin-1 file
// name used to stop the run at its sources row; the game texts, before the
// PDN reader cleaned them, at COPY.)
func TestBadBytesDoNotStopTheImport(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	good := goodText(t)
	cases := []struct{ name, text string }{
		{"latin1-\xe8.pdn", "[Event \"Tourn\xe8\"]\n[White \"Ren\xe8\"]\n[Black \"X\"]\n[Result \"*\"]\n1. 11-15 {tr\xe8s bien} 24-20 d\xe8s *\n"},
		{"cut.pdn", "[Event \"cut\"]\n[Result \"*\"]\n1. 11-15 24-20 2. " + strings.Repeat("a", 39) + strings.Repeat("é", 20) + " *\n"},
		{"nul.pdn", "[Event \"Open\x00 1999\"]\n[White \"A\x00B\"]\n[Annotator \"x\x00y\"]\n[Result \"*\"]\n1. 11-15 24-20 *\n"},
	}
	for _, c := range cases {
		t.Run(strings.TrimSuffix(strings.ToValidUTF8(c.name, "?"), ".pdn"), func(t *testing.T) {
			pool := pgtest.NewDB(t)
			dir := t.TempDir()
			bad := writeFile(t, filepath.Join(dir, c.name), []byte(c.text))
			goodPath := writeFile(t, filepath.Join(dir, "good.pdn"), good)
			sum, err := Import(ctx, pool, []string{bad, goodPath}, Options{BatchSize: 64})
			if err != nil {
				t.Fatalf("the import stopped: %v", err)
			}
			if sum.SourcesFailed != 0 || sum.GamesRead != 201 {
				t.Fatalf("%+v", sum)
			}
			if n := count(t, pool, `SELECT count(*) FROM sources WHERE status = 'done'`); n != 2 {
				t.Fatalf("%d sources done, want 2", n)
			}
			if n := count(t, pool, `SELECT games_imported + duplicates FROM sources WHERE name LIKE '%good.pdn'`); n != 200 {
				t.Fatalf("good.pdn: %d games stored, want 200", n)
			}
			games := count(t, pool, `SELECT count(*) FROM games g JOIN sources s ON s.id = g.source_id WHERE s.name NOT LIKE '%good.pdn'`)
			rejected := count(t, pool, `SELECT count(*) FROM rejected_games r JOIN sources s ON s.id = r.source_id WHERE s.name NOT LIKE '%good.pdn'`)
			if games+rejected != 1 {
				t.Fatalf("the bad game is in %d games and %d rejected rows, want one of them", games, rejected)
			}
			if rejected == 1 {
				var raw []byte
				if err := pool.QueryRow(ctx, `SELECT raw FROM rejected_games r JOIN sources s ON s.id = r.source_id WHERE s.name NOT LIKE '%good.pdn'`).Scan(&raw); err != nil {
					t.Fatal(err)
				}
				if string(raw) != c.text {
					t.Errorf("rejected raw bytes %q, want %q", raw, c.text)
				}
			}
		})
	}
}

// TestFailedSourceDoesNotStopOthers: a source whose games the database
// refuses (here a CHECK constraint added by the test) is marked failed
// with an error naming it and the game, the others land, and the run ends
// without an error. It used to stop the whole import at the refused batch.
func TestFailedSourceDoesNotStopOthers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	if _, err := pool.Exec(ctx, `ALTER TABLE games ADD CONSTRAINT test_refuse CHECK (event IS DISTINCT FROM 'refused')`); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var b strings.Builder
	for i := range 30 {
		event := "fine"
		if i == 21 {
			event = "refused"
		}
		b.WriteString("[Event \"" + event + "\"]\n[GameType \"21\"]\n[White \"P" + strconv.Itoa(i) + "\"]\n[Result \"*\"]\n1. 11-15 24-20 *\n\n")
	}
	bad := writeFile(t, filepath.Join(dir, "refused.pdn"), []byte(b.String()))
	goodPath := writeFile(t, filepath.Join(dir, "good.pdn"), goodText(t))
	var notices []string
	sum, err := Import(ctx, pool, []string{bad, goodPath}, Options{BatchSize: 10, Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatalf("the run stopped: %v", err)
	}
	if sum.SourcesFailed != 1 || len(sum.Failures) != 1 {
		t.Fatalf("%+v", sum)
	}
	f := sum.Failures[0]
	if f.Source != bad || f.Game != 22 || !strings.HasPrefix(f.Error, bad+": game 22: ") || !strings.Contains(f.Error, "test_refuse") {
		t.Fatalf("failure %+v", f)
	}
	var status, msg string
	var read int
	if err := pool.QueryRow(ctx, `SELECT status, error, games_read FROM sources WHERE name = $1`, bad).Scan(&status, &msg, &read); err != nil {
		t.Fatal(err)
	}
	// One transaction held the whole file (30 games, less than a batch).
	if status != "failed" || msg != f.Error || read != 0 {
		t.Fatalf("source %s, games_read %d, error %q", status, read, msg)
	}
	if n := count(t, pool, `SELECT games_imported + duplicates FROM sources WHERE name LIKE '%good.pdn' AND status = 'done'`); n != 200 {
		t.Fatalf("good.pdn: %d games stored, want 200", n)
	}
	if !slices.ContainsFunc(notices, func(s string) bool { return strings.HasPrefix(s, "failed: "+bad+": game 22") }) {
		t.Errorf("notices %q", notices)
	}
}

// TestTruncatedGzipKeepsItsGamesAndResumes: a .gz cut short keeps the
// complete games before the cut (they used to be thrown away with the whole
// source), fails with one message naming the file once and the game, adds
// nothing when imported again, and a repaired copy resumes after them,
// giving the database an import of the whole file gives.
func TestTruncatedGzipKeepsItsGamesAndResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	text, err := os.ReadFile(writeSynth(t, dir, rules.International, 400, 21))
	if err != nil {
		t.Fatal(err)
	}
	whole := gzipped(text)
	path := filepath.Join(dir, "games.pdn.gz")

	ref := pgtest.NewDB(t)
	writeFile(t, path, whole)
	if _, err := Import(ctx, ref, []string{path}, Options{BatchSize: 50}); err != nil {
		t.Fatal(err)
	}
	want := snapshot(t, ref)

	pool := pgtest.NewDB(t)
	writeFile(t, path, whole[:len(whole)*2/3])
	goodPath := writeFile(t, filepath.Join(dir, "good.pdn"), goodText(t))
	sum, err := Import(ctx, pool, []string{path, goodPath}, Options{BatchSize: 50})
	if err != nil {
		t.Fatal(err)
	}
	if sum.SourcesFailed != 1 || len(sum.Failures) != 1 {
		t.Fatalf("%+v", sum)
	}
	f := sum.Failures[0]
	if strings.Count(f.Error, "games.pdn.gz") != 1 || !strings.Contains(f.Error, "unexpected EOF") || f.Game < 100 ||
		!strings.HasPrefix(f.Error, path+": game "+strconv.Itoa(f.Game)+": ") {
		t.Fatalf("failure %+v: want the file named once, the game, the cause", f)
	}
	var status, ident string
	var read, imported int
	if err := pool.QueryRow(ctx, `SELECT status, sha256, games_read, games_imported + duplicates + rejected FROM sources WHERE name = $1`, path).Scan(&status, &ident, &read, &imported); err != nil {
		t.Fatal(err)
	}
	if status != "failed" || read != f.Game-1 || imported != read || !strings.HasPrefix(ident, "prefix:") {
		t.Fatalf("source %s %s: games_read %d, imported %d; the cut is in game %d", status, ident, read, imported, f.Game)
	}
	if n := count(t, pool, `SELECT games_imported + duplicates FROM sources WHERE name LIKE '%good.pdn' AND status = 'done'`); n != 200 {
		t.Fatalf("good.pdn: %d games stored, want 200", n)
	}

	// The same cut file again: it fails the same way and adds nothing.
	before := snapshot(t, pool)
	again, err := Import(ctx, pool, []string{path, goodPath}, Options{BatchSize: 50})
	if err != nil {
		t.Fatal(err)
	}
	if again.SourcesFailed != 1 || again.Imported != 0 || again.Failures[0].Game != f.Game {
		t.Fatalf("second run: %+v", again)
	}
	if after := snapshot(t, pool); !slices.Equal(before, after) {
		t.Fatal("importing the cut file again changed the database")
	}

	// The repaired file takes the source over and resumes after its games.
	writeFile(t, path, whole)
	var notices []string
	fixed, err := Import(ctx, pool, []string{path}, Options{BatchSize: 50, Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if fixed.SourcesFailed != 0 || fixed.SourcesResumed != 1 || fixed.GamesRead != 400-read {
		t.Fatalf("repaired file: %+v %q", fixed, notices)
	}
	if n := count(t, pool, `SELECT count(*) FROM sources WHERE status = 'done'`); n != 2 {
		t.Fatalf("%d sources done, want 2", n)
	}
	// Remove good.pdn's part to compare with the reference.
	if _, err := pool.Exec(ctx, `DELETE FROM sources WHERE name LIKE '%good.pdn'`); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, pool); !slices.Equal(got, want) {
		t.Fatalf("after the repaired file: database differs from an import of the whole file (%d vs %d rows)", len(got), len(want))
	}
}

// TestBreakKeepsCompleteGamesOnly: whatever byte a text breaks off at, the
// pipeline hands on the games before the last one the reader saw begin
// (each was followed by another, so it was whole), leaves that last one
// out, and ends the source with an error at it.
func TestBreakKeepsCompleteGamesOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	one := "[Event \"e\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n"
	text := []byte(strings.Repeat(one, 6))
	for _, chunk := range []int{0, 1, 23} { // the source is cut into chunks of about so many bytes
		for cut := 1; cut < len(text); cut++ {
			src := &source.Source{Name: "in.pdn", Size: -1, Kind: source.StdIn}
			old := source.Stdin
			source.Stdin = io.MultiReader(bytes.NewReader(text[:cut]), errReader{})
			var ordinals []int
			var endErr error
			err := Run(context.Background(), []*source.Source{src}, Config{Workers: 1 + chunk%2, BatchSize: 2, chunkBytes: chunk}, func(ev *Event) error {
				for _, it := range ev.Items {
					ordinals = append(ordinals, it.Ordinal)
				}
				if ev.Kind == SourceEnd {
					endErr = ev.Err
				}
				return nil
			})
			source.Stdin = old
			if err != nil {
				t.Fatal(err)
			}
			begun := (cut + len(one) - 1) / len(one) // games with a byte before the break
			want := make([]int, 0, begun)
			for i := 1; i < begun; i++ {
				want = append(want, i)
			}
			if !slices.Equal(ordinals, want) {
				t.Fatalf("cut at byte %d: games %v handed on, want %v", cut, ordinals, want)
			}
			var se *SourceError
			if !errors.As(endErr, &se) || !errors.Is(endErr, errBroken) || se.Game != begun || se.Source != "in.pdn" {
				t.Fatalf("cut at byte %d: source ends with %v, want a break at game %d", cut, endErr, begun)
			}
			if strings.Count(se.Error(), "in.pdn") != 1 {
				t.Fatalf("%q names the source more than once", se.Error())
			}
		}
	}
}

var errBroken = errors.New("broken")

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errBroken }

// TestStaleSpoolsAreRemoved: an import killed with SIGKILL while importing
// standard input leaves its spool behind; the next import removes it, and
// leaves the spool of a process that is alive.
func TestStaleSpoolsAreRemoved(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	ctx := context.Background()
	spools := t.TempDir()
	url := pgtest.NewDBURL(t)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	path := writeSynth(t, t.TempDir(), rules.International, 3000, 31)
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), "DRAUGHTSDB_IMPORT_CHILD="+url, "DRAUGHTSDB_IMPORT_PATHS=-", "DRAUGHTSDB_IMPORT_SPOOL="+spools)
	child.Stdin = in
	child.Stderr = os.Stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- child.Wait() }()
	// No time limit: the child stops reading at 2,000 games (importChild)
	// and waits to be killed, so a slow machine only makes this slower.
	for count(t, pool, `SELECT coalesce(sum(games_read), 0) FROM sources`) < 100 {
		select {
		case err := <-exited:
			t.Fatalf("the child exited (%v) before committing 100 games", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	child.Process.Kill()
	<-exited
	left, _ := filepath.Glob(filepath.Join(spools, "stdin-"+strconv.Itoa(child.Process.Pid)+"-*.pdn"))
	if len(left) != 1 {
		t.Fatalf("spools of the killed import: %v, want its one file", left)
	}

	// A live process's spool (this one's, which an import in the same
	// process could be using, and a sleeping child's) is kept.
	sleeper := exec.Command("sleep", "60")
	if err := sleeper.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	defer func() { sleeper.Process.Kill(); sleeper.Wait() }()
	live := writeFile(t, filepath.Join(spools, "stdin-"+strconv.Itoa(sleeper.Process.Pid)+"-1.pdn"), []byte("x"))
	own := writeFile(t, filepath.Join(spools, "stdin-"+strconv.Itoa(os.Getpid())+"-1.pdn"), []byte("x"))
	other := writeFile(t, filepath.Join(spools, "notes.txt"), []byte("x"))

	// The next run, on the same input, resumes and removes the dead spool.
	text, _ := os.ReadFile(path)
	old := source.Stdin
	source.Stdin = bytes.NewReader(text)
	defer func() { source.Stdin = old }()
	var notices []string
	sum, err := Import(ctx, pool, []string{"-"}, Options{SpoolDir: spools, Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if sum.SourcesResumed != 1 || sum.SourcesFailed != 0 {
		t.Fatalf("%+v", sum)
	}
	if _, err := os.Stat(left[0]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the killed import's spool %s is still there (%v)", left[0], err)
	}
	if !slices.ContainsFunc(notices, func(s string) bool { return strings.Contains(s, left[0]) }) {
		t.Errorf("no notice names the removed spool: %q", notices)
	}
	for _, p := range []string{live, own, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
	// This run's own spool is gone too.
	if all, _ := filepath.Glob(filepath.Join(spools, "stdin-*")); len(all) != 2 {
		t.Errorf("spools left: %v, want the two live ones", all)
	}
}

// TestMidGameSetupKeptRejected: the database stores a game as one start
// position and its moves, so a game with a /FEN/ setup after its first
// move is kept with the rejected games, byte for byte, reason "mid-game
// setup" at its ply. It was stored without the setup: its export did not
// replay, its positions were the wrong ones, and D2 below (other moves
// after the setup, another result) was dropped as a duplicate of D1. A
// setup before the first move is the game's start position.
func TestMidGameSetupKeptRejected(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	tags := "[White \"Dup W\"]\n[Black \"Dup B\"]\n[Date \"2001.01.01\"]\n[GameType \"20\"]\n"
	d1 := "[Event \"D1\"]\n" + tags + "[Result \"*\"]\n\n1. 32-28 19-23 2. 28x19 *\n\n"
	d2 := "[Event \"D2\"]\n" + tags + "[Result \"2-0\"]\n\n1. 32-28 19-23 /FEN \"W:W28,31:B23\"/ 2. 28x19 2-0\n\n"
	d3 := "[Event \"D3\"]\n[GameType \"20\"]\n[Result \"*\"]\n\n/FEN \"W:W28,31:B23\"/ 1. 28x19 *\n"
	path := writeFile(t, filepath.Join(t.TempDir(), "setups.pdn"), []byte(d1+d2+d3))
	sum, err := Import(ctx, pool, []string{path}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Imported != 2 || sum.Rejected != 1 || sum.Duplicates != 0 {
		t.Fatalf("%+v, want 2 imported, 1 rejected, no duplicate", sum)
	}
	var reason, raw string
	var ply int
	if err := pool.QueryRow(ctx, `SELECT reason, ply, convert_from(raw, 'UTF8') FROM rejected_games`).Scan(&reason, &ply, &raw); err != nil {
		t.Fatal(err)
	}
	if reason != replay.ErrMidGameSetup.Error() || ply != 3 || raw != strings.TrimSuffix(d2, "\n") {
		t.Errorf("rejected: %q at ply %d, raw %q", reason, ply, raw)
	}
	var start string
	if err := pool.QueryRow(ctx, `SELECT coalesce(start_fen, '') FROM games WHERE event = 'D3'`).Scan(&start); err != nil {
		t.Fatal(err)
	}
	if start != "W:W28,31:B23" {
		t.Errorf("D3 start %q, want its setup", start)
	}
}

// TestDuplicatesDifferOnlyInWhatIsLeftOut: a game is a duplicate of a
// stored one with the same variant, start, moves, players and date only
// when the result is the same and Event, Site and Round agree wherever
// both give one. OCA_2.0's "Newcastle 1858" games 3, 17, 25 and 35 (the
// same short draw in other rounds) and lidraughts games without moves
// (other Site, other result) were dropped as duplicates.
func TestDuplicatesDifferOnlyInWhatIsLeftOut(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	game := func(event, site, round, result string) string {
		var b strings.Builder
		for _, tag := range [][2]string{{"Event", event}, {"Site", site}, {"Round", round}} {
			if tag[1] != "" {
				b.WriteString("[" + tag[0] + " \"" + tag[1] + "\"]\n")
			}
		}
		return b.String() + "[Date \"1858.??.??\"]\n[White \"Wyllie\"]\n[Black \"Martins\"]\n[GameType \"21\"]\n[Result \"" + result + "\"]\n\n1. 11-15 23-19 8-11 " + result + "\n\n"
	}
	cases := []struct {
		name, text string
		dup        bool
	}{
		{"the same", game("Newcastle 1858", "Newcastle", "3", "1/2-1/2"), true},
		{"another round", game("Newcastle 1858", "Newcastle", "17", "1/2-1/2"), false},
		{"no round", game("Newcastle 1858", "Newcastle", "", "1/2-1/2"), true},
		{"no event or site", game("", "", "3", "1/2-1/2"), true},
		{"another site", game("Newcastle 1858", "Glasgow", "3", "1/2-1/2"), false},
		{"another event", game("Match 1858", "Newcastle", "3", "1/2-1/2"), false},
		{"another result", game("Newcastle 1858", "Newcastle", "3", "1-0"), false},
		{"event in other case", game("NEWCASTLE 1858", "Newcastle", "3", "1/2-1/2"), true},
		{"unknown site", game("Newcastle 1858", "?", "3", "1/2-1/2"), true},
	}
	var all strings.Builder
	all.WriteString(game("Newcastle 1858", "Newcastle", "3", "1/2-1/2"))
	for _, c := range cases {
		all.WriteString(c.text)
	}
	path := writeFile(t, filepath.Join(t.TempDir(), "newcastle.pdn"), []byte(all.String()))
	if _, err := Import(ctx, pool, []string{path}, Options{}); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		ordinal := i + 2
		dup := count(t, pool, `SELECT count(*) FROM duplicates WHERE ordinal = `+strconv.Itoa(ordinal)+` AND of_ordinal = 1`)
		stored := count(t, pool, `SELECT count(*) FROM games WHERE ordinal = `+strconv.Itoa(ordinal))
		if c.dup && (dup != 1 || stored != 0) || !c.dup && (dup != 0 || stored != 1) {
			t.Errorf("%s: %d duplicate rows, %d games; want a duplicate: %v", c.name, dup, stored, c.dup)
		}
	}
}
