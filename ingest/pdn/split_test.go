package pdn

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// readGames reads rd to its end or its split, returning each game with
// the error Next gave it.
func readGames(t testing.TB, rd *Reader) (games []*Game, errs []error, split bool) {
	t.Helper()
	for {
		g, err := rd.Next()
		switch {
		case err == io.EOF:
			return games, errs, false
		case errors.Is(err, ErrSplit):
			return games, errs, true
		}
		var se *SyntaxError
		if err != nil && !errors.As(err, &se) {
			t.Fatalf("read error %v", err)
		}
		games = append(games, g)
		errs = append(errs, err)
	}
}

// checkSplit asks a Reader over data to stop at offset at. When it stops,
// the games before the split must be those of a plain Reader, and a
// NewSplitReader on data[at:] must read the rest of them, Rebase giving
// back their positions. It reports whether the Reader stopped.
func checkSplit(t testing.TB, data []byte, at int64, whole []*Game, wholeErrs []error) bool {
	t.Helper()
	rd := NewReader(iotest.HalfReader(bytes.NewReader(data)), "f.pdn")
	asked := false
	rd.SplitAt(func(off int64) bool {
		asked = asked || off == at
		return off == at
	})
	head, headErrs, split := readGames(t, rd)
	if !split {
		if len(head) != len(whole) {
			t.Fatalf("split at %d not taken: %d games, want %d", at, len(head), len(whole))
		}
		return false
	}
	if !asked {
		t.Fatalf("stopped at a split that was not asked for (%d)", at)
	}
	if !reflect.DeepEqual(head, whole[:len(head)]) || !reflect.DeepEqual(headErrs, wholeErrs[:len(head)]) {
		t.Fatalf("split at %d: the games before it differ from a plain read", at)
	}
	line := rd.Line()
	rest, restErrs, again := readGames(t, NewSplitReader(bytes.NewReader(data[at:]), "f.pdn"))
	if again {
		t.Fatal("a reader without SplitAt stopped")
	}
	for i, g := range rest {
		Rebase(g, restErrs[i], len(head), at, line-1)
	}
	if len(head)+len(rest) != len(whole) {
		t.Fatalf("split at %d (line %d): %d + %d games, want %d", at, line, len(head), len(rest), len(whole))
	}
	for i, g := range rest {
		w := whole[len(head)+i]
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("split at %d (line %d): game %d differs:\n got %+v\nwant %+v", at, line, w.Ordinal, g, w)
		}
		if !reflect.DeepEqual(restErrs[i], wholeErrs[len(head)+i]) {
			t.Fatalf("split at %d (line %d): game %d: error %v, want %v", at, line, w.Ordinal, restErrs[i], wholeErrs[len(head)+i])
		}
	}
	return true
}

// lineStarts lists the offsets that begin a line (after LF, CRLF or CR).
func lineStarts(data []byte) []int64 {
	var out []int64
	for i, c := range data {
		if c == '\n' || c == '\r' && (i+1 >= len(data) || data[i+1] != '\n') {
			out = append(out, int64(i+1))
		}
	}
	return out
}

func checkSplits(t testing.TB, data []byte, every int) (taken int) {
	whole, wholeErrs, _ := readGames(t, NewReader(bytes.NewReader(data), "f.pdn"))
	for i, at := range lineStarts(data) {
		if i%every == 0 && checkSplit(t, data, at, whole, wholeErrs) {
			taken++
		}
	}
	return taken
}

// TestSplitReadsTheSame: wherever a Reader stops at a split, in every file
// of the PDN test suite (both directories) and in the hostile snippets, a
// new Reader from there reads the rest exactly as the first would have.
// And it does stop where games are laid out as usual.
func TestSplitReadsTheSame(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	var files [][]byte
	for _, s := range fuzzSeeds {
		files = append(files, []byte(s))
	}
	for _, s := range splitCases {
		files = append(files, []byte(s))
	}
	root := filepath.Join("testdata", "shared", "testsuite")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".gz") {
			return err
		}
		f := openShared(t, strings.TrimSuffix(strings.TrimPrefix(path, filepath.Join("testdata", "shared")+string(os.PathSeparator)), ".gz"))
		defer f.Close()
		data, err := io.ReadAll(f)
		files = append(files, data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	taken := 0
	for _, data := range files {
		every := 1 + len(data)/20000 // big files: a sample of their lines
		taken += checkSplits(t, data, every)
	}
	if taken < 1000 {
		t.Fatalf("only %d splits taken", taken)
	}
	// A stray byte before a gap longer than maxLead: the lead is dropped,
	// but the defect stays with the next game.
	stray := []byte("[Event \"a\"]\n1. 32-28 *\n}" + strings.Repeat("\n", maxLead+10) + "[Event \"b\"]\n1. 33-29 *\n")
	whole, errs, _ := readGames(t, NewReader(bytes.NewReader(stray), "f.pdn"))
	if checkSplit(t, stray, int64(bytes.Index(stray, []byte("[Event \"b\""))), whole, errs) {
		t.Fatal("split after a stray byte")
	}
	// Where a game begins on a line after a blank line, the reader stops.
	plain := []byte("[Event \"a\"]\n1. 32-28 *\n\n[Event \"b\"]\n1. 33-29 *\n")
	whole, errs, _ = readGames(t, NewReader(bytes.NewReader(plain), "f.pdn"))
	if !checkSplit(t, plain, int64(bytes.Index(plain, []byte("[Event \"b\""))), whole, errs) {
		t.Fatal("no split before the second game")
	}
}

// splitCases are layouts where a line that looks like the start of a game
// is not one, or not one that a new Reader reads the same: a Reader must
// not stop there (checkSplit sees the difference if it does).
var splitCases = []string{
	// Text that is not PDN between games, skipped: the next game's warning.
	"[Event \"a\"]\n1. 32-28 *\n\nSome text, not PDN at all. 1-0\n\n[Event \"b\"]\n1. 33-29 *\n\nmore text\n\n[Event \"c\"]\n1. 33-29 *\n",
	// Junk between tags, a blank line in the tags, a lone "-" result.
	"[Event \"a\"]\\r\n[Site \"x\"]\\r\n\n[White \"w\"]\n[Result \"-\"]\n1. 32-28 -\n\n[Event \"b\"]\n\n[Result \"-\"]\n1. 33-29 -\n",
	// A game that begins with a comment, then a blank line: the tags
	// belong to it.
	"{intro}\n\n[Event \"a\"]\n1. 32-28 *\n\n{intro}\n\n[Event \"b\"]\n1. 33-29 *\n",
	// % lines before a game are its lead.
	"[Event \"a\"]\n1. 32-28 *\n% remark\n[Event \"b\"]\n1. 33-29 *\n",
	// A stray byte, then blank lines: part of the next game.
	"[Event \"a\"]\n1. 32-28 *\n}\n\n[Event \"b\"]\n1. 33-29 *\n",
	// Moves without tags after games with tags and without.
	"1. 32-28 *\n\n1. 33-29 *\n\n[Event \"a\"]\n1. 32-28 *\n\n1. 34-30 *\n\n[Event \"b\"]\n1. 31-27 *\n",
	// A malformed first tag.
	"[Event \"a\"]\n1. 32-28 *\n\n[Event \"b]\n1. 33-29 *\n\n[Event \"c\"]\n1. 34-29 *\n",
	// An unterminated comment runs into the next game's tags.
	"[Event \"a\"]\n1. 32-28 {open\n\n[Event \"b\"]\n1. 33-29 *\n",
	// No result: the next tag ends the game.
	"[Event \"a\"]\n1. 32-28\n\n[Event \"b\"]\n1. 33-29 *\n\n[Event \"c\"]\n",
	// Tags separated by blank lines, tags only.
	"[Event \"a\"]\n\n[Site \"b\"]\n\n[Event \"c\"]\n1. 32-28 *\n",
	// An open variation, CR line ends, a Result score.
	"[Result \"4-6\"]\r\r1. 32-28 (19-23\r\r[Event \"b\"]\r1. 4-6 4-6\r\r[Event \"c\"]\r1. 33-29 *\r",
	// A BOM and NULs between games.
	"\xef\xbb\xbf[Event \"a\"]\n1. 32-28 *\n\n\x00\x00\n[Event \"b\"]\n1. 33-29 *\n\n\xef\xbb\xbf[Event \"c\"]\n1. 1-0\n",
}

// FuzzSplit: wherever a Reader stops at a split, a new Reader from there
// reads the rest the same (checkSplit).
func FuzzSplit(f *testing.F) {
	for _, s := range append(append([]string(nil), fuzzSeeds...), splitCases...) {
		f.Add([]byte(s), uint16(len(s)/2))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		starts := lineStarts(data)
		if len(starts) == 0 {
			return
		}
		at := starts[int(cut)%len(starts)]
		whole, errs, _ := readGames(t, NewReader(bytes.NewReader(data), "f.pdn"))
		checkSplit(t, data, at, whole, errs)
	})
}
