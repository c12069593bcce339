package pdn

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

// What lies between games (blank lines, % lines, NUL padding, stray bytes)
// is not part of the next game: it does not count against MaxGameSize and
// is not kept in memory.

const firstGame = "[Event \"one\"]\n1. 32-28 19-23 1-0\n" // two lines: the gap starts on line 3

// maxGapBuf bounds the window after any gap: the lead (maxLead) and a
// little more, far below MaxGameSize.
const maxGapBuf = 4 * maxLead

// linesBefore returns the line number of s[k] (CRLF, LF and CR line ends).
func linesBefore(s string, k int) int {
	s = s[:k]
	return 1 + strings.Count(s, "\n") + strings.Count(s, "\r") - strings.Count(s, "\r\n")
}

// checkAt checks that g's Raw is the input at g.Offset and g.Line the line
// there.
func checkAt(t *testing.T, in string, g *Game) {
	t.Helper()
	if g.Offset < 0 || g.Offset+int64(len(g.Raw)) > int64(len(in)) || in[g.Offset:g.Offset+int64(len(g.Raw))] != string(g.Raw) {
		t.Fatalf("game %d: Raw %.40q is not the input at %d", g.Ordinal, g.Raw, g.Offset)
	}
	if want := linesBefore(in, int(g.Offset)); g.Line != want {
		t.Errorf("game %d: line %d, want %d", g.Ordinal, g.Line, want)
	}
}

func TestGapBeforeGameIsNotPartOfIt(t *testing.T) {
	const size = 5 << 20 // more than MaxGameSize
	tests := []struct {
		name, gap string
		stray     string // the defect reported on the game after the gap, if any
	}{
		// Already read right before the fix (lx.start moved at each line
		// break); kept as a guard.
		{"blank lines", strings.Repeat("\n", size), ""},
		{"blank lines with blanks, CRLF and CR", strings.Repeat(" \t\r\n\x00\r", size/6), ""},
		{"BOM lines and % lines", strings.Repeat("\xef\xbb\xbf% x\n", size/7) + "\n", ""}, // a BOM starts a new lead
		// Lost before the fix: the gap counted as part of the next game.
		{"one blank line of 5 MB", strings.Repeat(" \t\x00\f\v", size/5) + "\n", ""},
		{"NUL padding before the tag", strings.Repeat("\x00", size), ""},
		{"% lines", strings.Repeat("% a remark line\n", size/16), ""},
		{"% lines then a blank line", strings.Repeat("% a remark line\r\n", size/17) + "\r\n", ""},
		{"one % line of 5 MB", "%" + strings.Repeat("x", size) + "\n", ""},
		{"stray '}'", strings.Repeat("}", size) + "\n", "'}' without a matching '{'"},
		{"stray ']' and '\"' lines", strings.Repeat("] \"\n", size/4), "unexpected ']'"},
		{"stray bytes, blanks, % lines, literal \\n", strings.Repeat("}\t]\x00\\n \"\n% x\n\n", size/16), "'}' without a matching '{'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := firstGame + tc.gap + goodGame
			rd := NewReader(strings.NewReader(in), "gap.pdn")
			g, err := rd.Next()
			if err != nil || g.Ordinal != 1 || strings.Join(g.MainLine(), " ") != "32-28 19-23" {
				t.Fatalf("first game %d %q: %v", g.Ordinal, g.MainLine(), err)
			}
			g, err = rd.Next()
			if g == nil {
				t.Fatalf("no second game: %v", err)
			}
			if g.Ordinal != 2 {
				t.Errorf("ordinal %d, want 2", g.Ordinal)
			}
			if tc.stray == "" {
				checkGood(t, g, err)
				if len(g.Warnings) > 0 {
					t.Errorf("warnings %v", g.Warnings)
				}
			} else {
				// The stray bytes are the game's defect, as they always
				// were, but the game is read whole.
				var se *SyntaxError
				if !errors.As(err, &se) || !errors.Is(err, ErrUnexpectedToken) || se.Game != 2 || se.Line != 3 || se.Column != 1 ||
					!strings.Contains(se.Reason, tc.stray) {
					t.Fatalf("got %v, want %q at gap.pdn:3:1 naming game 2", err, tc.stray)
				}
				checkGood(t, g, nil)
			}
			checkAt(t, in, g)
			if _, err := rd.Next(); err != io.EOF {
				t.Errorf("then %v, want EOF", err)
			}
			// The gap was released as it was skipped, not buffered.
			if c := cap(rd.lx.buf); c > maxGapBuf {
				t.Errorf("window grew to %d bytes", c)
			}
		})
	}
}

// TestStrayBytesAtTheEnd: stray bytes after the last game are no game
// (no tag, no move): they are skipped and counted, however long the run,
// in a bounded window.
func TestStrayBytesAtTheEnd(t *testing.T) {
	for _, n := range []int{3, 5 << 20} {
		in := firstGame + "\n" + strings.Repeat("}", n) + "\n\n"
		rd := NewReader(strings.NewReader(in), "end.pdn")
		if _, err := rd.Next(); err != nil {
			t.Fatal(err)
		}
		if g, err := rd.Next(); err != io.EOF {
			t.Fatalf("%d '}': got game %+v, %v, want EOF", n, g, err)
		}
		if pieces, bytes := rd.Skipped(); pieces != 1 || n < maxLead && bytes != int64(n)+1 {
			t.Errorf("%d '}': skipped %d pieces, %d bytes", n, pieces, bytes)
		}
		if c := cap(rd.lx.buf); c > maxGapBuf {
			t.Errorf("window grew to %d bytes", c)
		}
	}
}

func TestGameTooLarge(t *testing.T) {
	var big strings.Builder
	big.WriteString("[Event \"big\"]\n")
	for big.Len() < 5<<20 {
		big.WriteString("1. 32-28 19-23 2. 28x19 14x23 3. 37-32 12-18 4. 41-37 7-12 5. 46-41 1-7\n")
	}
	big.WriteString("6. 34-29 23x34 1-0\n")
	tests := []struct {
		name, before string
		ordinal      int
	}{
		{"first", "", 1},
		{"after a game", firstGame, 2},
		{"after a game and 5 MB of % lines", firstGame + strings.Repeat("% remark\n", (5<<20)/9), 2},
		{"after a game and a 5 MB blank line", firstGame + strings.Repeat(" ", 5<<20) + "\n\n", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.before + big.String() + goodGame
			bigLine := linesBefore(in, len(tc.before)) // the big game's first line
			rd := NewReader(strings.NewReader(in), "big.pdn")
			var g *Game
			var err error
			for range tc.ordinal {
				g, err = rd.Next()
			}
			var se *SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, ErrGameTooLarge) || se.Game != tc.ordinal || g.Ordinal != tc.ordinal {
				t.Fatalf("got %v for game %d, want ErrGameTooLarge naming game %d", err, g.Ordinal, tc.ordinal)
			}
			if se.Line < bigLine || !strings.Contains(err.Error(), fmt.Sprintf("big.pdn:%d:", se.Line)+fmt.Sprintf("%d: game %d: ", se.Column, tc.ordinal)) {
				t.Errorf("error %q is not placed in the big game (line %d on)", err, bigLine)
			}
			// Its Raw is its first MaxGameSize bytes (a rejected game is
			// kept; its Raw was empty), and the error says where it all is.
			end := int64(len(tc.before) + big.Len())
			if g.Line != bigLine || len(g.Moves) != 0 || string(g.Raw) != in[g.Offset:g.Offset+MaxGameSize] {
				t.Errorf("the big game: line %d (want %d), %d bytes, %d moves", g.Line, bigLine, len(g.Raw), len(g.Moves))
			}
			if want := fmt.Sprintf("game is %d bytes, longer than 4 MB (an unclosed comment?); skipped, its first 4 MB kept (bytes %d to %d of the file hold it whole)", end-g.Offset, g.Offset, end); se.Reason != want {
				t.Errorf("reason %q, want %q", se.Reason, want)
			}
			g, err = rd.Next()
			checkGood(t, g, err)
			if g.Ordinal != tc.ordinal+1 {
				t.Errorf("ordinal %d, want %d", g.Ordinal, tc.ordinal+1)
			}
			checkAt(t, in, g)
			if _, err := rd.Next(); err != io.EOF {
				t.Errorf("then %v, want EOF", err)
			}
		})
	}
}

// TestLeadLimit: a game's Raw starts with its lead (the % lines right
// before it, the blanks on its line, stray bytes) up to maxLead bytes and
// at its first token past that, whatever the buffer size and the reads.
func TestLeadLimit(t *testing.T) {
	remarks := func(n int) string { // % lines of 64 bytes, the last one longer
		k := n / 64
		return strings.Repeat("%"+strings.Repeat("r", 62)+"\n", k-1) + "%" + strings.Repeat("r", n-64*(k-1)-2) + "\n"
	}
	tests := []struct {
		name  string
		lead  func(n int) string
		stray bool
	}{
		{"% lines", remarks, false},
		{"blanks", func(n int) string { return strings.Repeat(" ", n) }, false},
		{"stray '}'", func(n int) string { return "}\n" + strings.Repeat("\t", n-2) }, true},
	}
	readers := []struct {
		name string
		rd   func(in string) *Reader
	}{
		{"whole", func(in string) *Reader { return NewReader(strings.NewReader(in), "lead.pdn") }},
		{"one byte", func(in string) *Reader {
			return newReaderSize(iotest.OneByteReader(strings.NewReader(in)), "lead.pdn", 16)
		}},
		{"half", func(in string) *Reader {
			return newReaderSize(iotest.HalfReader(strings.NewReader(in)), "lead.pdn", 100)
		}},
	}
	for _, tc := range tests {
		for _, n := range []int{maxLead, maxLead + 1} {
			lead := tc.lead(n)
			if len(lead) != n {
				t.Fatalf("%s: lead of %d bytes, want %d", tc.name, len(lead), n)
			}
			in := firstGame + "\n" + lead + goodGame
			at := len(firstGame) + 1 // where the lead starts: the game, when it is kept
			if n > maxLead {
				at += n
			}
			for _, r := range readers {
				rd := r.rd(in)
				if _, err := rd.Next(); err != nil {
					t.Fatal(err)
				}
				g, err := rd.Next()
				if tc.stray && errors.Is(err, ErrUnexpectedToken) {
					err = nil
				}
				if err != nil || g.Tag("Event") != "good" || strings.Join(g.MainLine(), " ") != "32-28 19-23 28x19 14x23" || g.Result != "1-0" {
					t.Fatalf("%s of %d bytes, %s reads: %v %+v", tc.name, n, r.name, err, g)
				}
				if g.Offset != int64(at) || string(g.Raw) != in[at:] {
					t.Errorf("%s of %d bytes, %s reads: game at %d, Raw %.20q; want %d, %.20q", tc.name, n, r.name, g.Offset, g.Raw, at, in[at:])
				}
				checkAt(t, in, g)
			}
		}
	}
}

// gapReader yields first, then n bytes of pattern repeated, then last.
func gapReader(first string, pattern string, n int64, last string) io.Reader {
	// repeatReader reads at most the rest of its data at a time: some KB.
	data := strings.Repeat(pattern, (4096+len(pattern)-1)/len(pattern))
	return io.MultiReader(strings.NewReader(first), &repeatReader{data: []byte(data), n: n}, strings.NewReader(last))
}

// TestPeakMemoryLargeGap streams 1 GB of each kind of gap between two
// games and checks that the window and the heap stay small. Opt-in:
// PDN_BIGMEM=1 go test -run PeakMemoryLargeGap -v ./ingest/pdn
func TestPeakMemoryLargeGap(t *testing.T) {
	if os.Getenv("PDN_BIGMEM") == "" {
		t.Skip("set PDN_BIGMEM=1 to stream 1 GB of each gap")
	}
	const total = 1 << 30
	for _, tc := range []struct{ name, before, pattern string }{
		{"blank lines", "", "\n"},
		{"one blank line", "", " \t\x00"},
		{"% lines", "", "% a remark line\n"},
		{"one % line", "%", "xxxxxxxx"},
		{"stray bytes", "", "} ] \"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime.GC()
			var base runtime.MemStats
			runtime.ReadMemStats(&base)
			rd := NewReader(gapReader(firstGame+tc.before, tc.pattern, total, "\n"+goodGame), "gap")
			if _, err := rd.Next(); err != nil {
				t.Fatal(err)
			}
			g, err := rd.Next()
			if tc.name == "stray bytes" && errors.Is(err, ErrUnexpectedToken) {
				err = nil
			}
			checkGood(t, g, err)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			t.Logf("window %d KB, HeapInuse after %.1f MB (%.1f MB before)", cap(rd.lx.buf)>>10, float64(ms.HeapInuse)/(1<<20), float64(base.HeapInuse)/(1<<20))
			if c := cap(rd.lx.buf); c > maxGapBuf {
				t.Errorf("window grew to %d bytes", c)
			}
			if ms.HeapInuse > base.HeapInuse+16<<20 {
				t.Errorf("heap grew by %d MB", (ms.HeapInuse-base.HeapInuse)>>20)
			}
		})
	}
}
