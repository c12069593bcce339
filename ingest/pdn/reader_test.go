package pdn

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

func readString(t *testing.T, s string) readResult {
	t.Helper()
	return readAll(t, strings.NewReader(s), "test.pdn")
}

func TestForms(t *testing.T) {
	tests := []struct {
		name, in string
		moves    []string // main line of each game, joined by " "
		results  []string
	}{
		{"numeric with numbers", "1. 32-28 19-23 2. 28x19 14x23 1-0", []string{"32-28 19-23 28x19 14x23"}, []string{"1-0"}},
		{"algebraic paths and short", "1. c3-d4 f6-g5 2. f2xd4xf6xh8 cd4 3. e3:c5:a7 0-1", []string{"c3-d4 f6-g5 f2xd4xf6xh8 cd4 e3:c5:a7"}, []string{"0-1"}},
		{"glued number and leading zeros", "01.34-29 18-22 02. 32-28 1/2-1/2", []string{"34-29 18-22 32-28"}, []string{"1/2-1/2"}},
		{"black numbers", "1... 7-12 2. 8x17 1. ... 18-23 *", []string{"7-12 8x17 18-23"}, []string{"*"}},
		{"unknown moves", "1. - - 2. -- 32-28 2-0", []string{"-- -- -- 32-28"}, []string{"2-0"}},
		{"international results", "1. 32-28 1-1\n1. 33-29 0-2\n1. 34-30 0-0", []string{"32-28", "33-29", "34-30"}, []string{"1-1", "0-2", "0-0"}},
		{"match score only with its tag", "[Result \"4-6\"]\n1. 13-19 4-6\n\n[Result \"*\"]\n1. 4-6 7-11 *", []string{"13-19", "4-6 7-11"}, []string{"4-6", "*"}},
		{"no terminator before tags", "[Event \"a\"]\n1. 32-28\n[Event \"b\"]\n1. 33-29 *", []string{"32-28", "33-29"}, []string{"", "*"}},
		{"blank line inside the tags continues them", "[Event \"a\"]\\n[Site \"x\"]\n\n[GameType \"20\"]\n1. 32-28 2-0", []string{"32-28"}, []string{"2-0"}},
		{"tag-only games split on a repeated tag", "[Event \"a\"]\n[Site \"x\"]\n\n[Event \"b\"]\n[Site \"y\"]\n\n[Event \"c\"]\n1. 32-28 2-0", []string{"", "", "32-28"}, []string{"", "", "2-0"}},
		{"fen-only one-line games", "[FEN \"W:W31-50:B1-20\"] *\n[FEN \"B:W1:B2\"] *", []string{"", ""}, []string{"*", "*"}},
		{"line comment at line start only", "% header\n1. 32-28 19-23 *", []string{"32-28 19-23"}, []string{"*"}},
		{"CR only line ends and BOM", "\xef\xbb\xbf[Event \"x\"]\r\r1. 32-28\r*\r", []string{"32-28"}, []string{"*"}},
		{"strength variants", "1. 32-28!? 19-23(?) 2. 28x19!! *", []string{"32-28 19-23 28x19"}, []string{"*"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := readString(t, tc.in)
			if len(res.errs) > 0 {
				t.Fatalf("errors: %v", res.errs[0])
			}
			var moves, results []string
			for _, g := range res.games {
				moves = append(moves, strings.Join(g.MainLine(), " "))
				results = append(results, g.Result)
			}
			if !reflect.DeepEqual(moves, tc.moves) || !reflect.DeepEqual(results, tc.results) {
				t.Errorf("moves %q results %q, want %q %q", moves, results, tc.moves, tc.results)
			}
		})
	}
}

func TestAnnotationsAndVariations(t *testing.T) {
	in := `[Event "e"]
{before} 1. 32-28 $1 {good} (1. 33-29? {alt} (1. 34-30)) 19-23!? /FEN "W:W31:B1."/ 2. 28x19 *`
	res := readString(t, in)
	if len(res.errs) > 0 {
		t.Fatal(res.errs[0])
	}
	g := res.games[0]
	if !reflect.DeepEqual(g.Comments, []string{"before"}) {
		t.Errorf("pre-game comments %q", g.Comments)
	}
	m := g.Moves[0]
	if m.Number != 1 || m.Black || !reflect.DeepEqual(m.NAGs(), []int{1}) || !reflect.DeepEqual(m.Comments(), []string{"good"}) {
		t.Errorf("move 1: %+v %+v", m, m.Note)
	}
	v := m.Variations()
	if len(v) != 1 || v[0].Moves[0].Text != "33-29" || v[0].Moves[0].Strength != "?" || len(v[0].Moves[0].Variations()) != 1 {
		t.Errorf("variation: %+v", v)
	}
	if g.Moves[1].Strength != "!?" || g.Moves[2].Setup() != "W:W31:B1." || g.Moves[2].Number != 2 {
		t.Errorf("moves 2-3: %+v %+v", g.Moves[1], g.Moves[2])
	}
}

func TestWindows1252AndRaw(t *testing.T) {
	in := "[White \"Bert\xe8 \x80\"]\n1. 32-28 *\n\n[White \"Bert\xc3\xa8\"]\n1. 33-29 *\n"
	res := readString(t, in)
	if len(res.games) != 2 || len(res.errs) > 0 {
		t.Fatalf("%d games %v", len(res.games), res.errs)
	}
	if g := res.games[0]; g.Tag("White") != "Bertè €" || !g.Windows1252 {
		t.Errorf("cp1252 game: %q %v", g.Tag("White"), g.Windows1252)
	}
	if g := res.games[1]; g.Tag("White") != "Bertè" || g.Windows1252 {
		t.Errorf("utf-8 game: %q", g.Tag("White"))
	}
	var all []byte
	for _, g := range res.games {
		if !bytes.Equal(g.Raw, []byte(in)[g.Offset:g.Offset+int64(len(g.Raw))]) {
			t.Errorf("game %d Raw %q not at offset %d", g.Ordinal, g.Raw, g.Offset)
		}
		all = append(all, g.Raw...)
	}
	if string(all) != strings.Replace(in, "*\n\n[", "*\n[", 1) {
		t.Errorf("Raw bytes %q", all)
	}
	if res.games[1].Line != 4 {
		t.Errorf("second game line %d", res.games[1].Line)
	}
}

func TestErrorsAndResync(t *testing.T) {
	tests := []struct {
		name, in string
		sentinel error
		line     int
		reason   string
		games    int
	}{
		{"unterminated comment", "[Event \"a\"]\n1. 32-28 {oops\n19-23\n[Event \"b\"]\n1. 33-29 *", ErrUnterminatedComment, 2, "not closed before the next game", 2},
		{"comment to EOF", "1. 32-28 {oops", ErrUnterminatedComment, 1, "never closed", 1},
		{"stray close", "1. 32-28 ) 19-23 *\n1. 33-29 *", ErrUnbalancedVariation, 1, "without a matching '('", 2},
		{"open variation", "1. 32-28 (19-23 1-0\n\n[Event \"b\"]\n1. 33-29 *", ErrUnbalancedVariation, 1, "not closed", 2},
		{"bad tag", "[Event a]\n1. 32-28 *\n[Event \"b\"]\n1. 33-29 *", ErrBadTag, 1, "double quotes", 2},
		{"unclosed tag value", "[Event \"a]\n1. 32-28 *\n1. 33-29 *", ErrBadTag, 1, "not closed", 2},
		{"junk token", "1. 32-28 hello! *\n1. 33-29 *", ErrUnexpectedToken, 1, `unexpected "hello"`, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := readString(t, tc.in)
			if len(res.errs) != 1 {
				t.Fatalf("errors %v", res.errs)
			}
			e := res.errs[0]
			if !errors.Is(e, tc.sentinel) || e.Line != tc.line || !strings.Contains(e.Reason, tc.reason) || e.File != "test.pdn" {
				t.Errorf("got %v (line %d), want %v line %d %q", e, e.Line, tc.sentinel, tc.line, tc.reason)
			}
			if len(res.games) != tc.games {
				t.Errorf("%d games, want %d", len(res.games), tc.games)
			}
		})
	}
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errors.New("disk on fire")
	}
	f.n--
	return copy(p, "1. 32-28 *\n"), nil
}

func TestReadErrorEndsStream(t *testing.T) {
	rd := NewReader(&failingReader{n: 1}, "x")
	var err error
	for i := 0; i < 5 && err == nil; i++ {
		_, err = rd.Next()
	}
	if err == nil || err == io.EOF || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("got %v", err)
	}
}

func TestWriterFormat(t *testing.T) {
	in := `[Black "b"][GameType "20"][Event "e"][FEN "W:W31,32 :B1,2."][White "w \"q\""]
1. 32-28 {` + strings.Repeat("word ", 30) + `[see 1] [%eval 1]} 19-23 *`
	res := readString(t, in)
	var buf bytes.Buffer
	if err := NewWriter(&buf).WriteGame(res.games[0]); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	want := "[Event \"e\"]\n[White \"w \\\"q\\\"\"]\n[Black \"b\"]\n[GameType \"20,W,10,10,N2,0\"]\n[FEN \"W:W31,32:B1,2\"]\n\n1. 32-28 {word"
	if !strings.HasPrefix(out, want) {
		t.Errorf("got\n%s\nwant prefix\n%s", out, want)
	}
	for _, l := range strings.Split(out, "\n") {
		if len(l) > MaxLineLength {
			t.Errorf("long line %q", l)
		}
		if len(l) > 1 && l[0] == '[' && isLetter(l[1]) && !strings.Contains(l, "\"]") {
			t.Errorf("comment line starts with a tag-like '[': %q", l)
		}
	}
	roundTrip(t, "writer", res.games)
}

func TestFullGameType(t *testing.T) {
	for in, want := range map[string]string{"20": "20,W,10,10,N2,0", "21": "21,B,8,8,N1,0", "25": "25,W,8,8,A0,0",
		"26": "26,W,8,8,A0,0", "27": "27,W,12,12,N2,0", " 20 ": "20,W,10,10,N2,0", "97": "97", "20,W,10,10,N1,0": "20,W,10,10,N1,0"} {
		if got := FullGameType(in); got != want {
			t.Errorf("FullGameType(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCommentAfterResult: a comment closed on the result's line belongs to
// the game it ends, in its Raw and after its last move; it began the next
// game, in that game's encoding ("{café}" of a UTF-8 game read as
// "{cafÃ©}" in a CP1252 one). A comment on a line of its own after the
// result still leads the next game, and one left open stays a defect of
// its own.
func TestCommentAfterResult(t *testing.T) {
	gameA := "[Event \"A\"]\n1. 32-28 19-23 2-0 {café} {second}\n"
	gameB := "\n[Event \"B\"]\n[White \"Ren\xe9\"]\n1. 33-28 18-23 0-2\n"
	res := readAll(t, strings.NewReader(gameA+gameB), "after.pdn")
	if len(res.games) != 2 || res.good != 2 {
		t.Fatalf("%d games, %d good, errors %v", len(res.games), res.good, res.errs)
	}
	a, b := res.games[0], res.games[1]
	if string(a.Raw) != gameA {
		t.Errorf("game A Raw %q, want %q", a.Raw, gameA)
	}
	if c := a.Moves[len(a.Moves)-1].Comments(); len(c) != 2 || c[0] != "café" || c[1] != "second" || a.Result != "2-0" {
		t.Errorf("game A: last move's comments %q, result %q", c, a.Result)
	}
	if len(b.Comments) != 0 || b.Tag("White") != "René" {
		t.Errorf("game B: comments %q, White %q", b.Comments, b.Tag("White"))
	}

	own := "[Event \"A\"]\n1. 32-28 2-0\n{about B}\n[Event \"B\"]\n1. 33-28 *\n"
	res = readAll(t, strings.NewReader(own), "own.pdn")
	if len(res.games) != 2 || len(res.games[1].Comments) != 1 || res.games[1].Comments[0] != "about B" {
		t.Errorf("a comment on its own line: %d games, B's comments %q", len(res.games), res.games[len(res.games)-1].Comments)
	}

	open := "[Event \"A\"]\n1. 32-28 2-0 {never closed\n"
	res = readAll(t, strings.NewReader(open), "open.pdn")
	if len(res.games) != 2 || res.good != 1 || len(res.errs) != 1 || !errors.Is(res.errs[0], ErrUnterminatedComment) {
		t.Errorf("an open comment after the result: %d games, %d good, errors %v", len(res.games), res.good, res.errs)
	}
}

// TestTagValueOverLines: a tag value may span lines (PDN 3.0's STRING;
// CheckerBoard reads it so): it is one value, its line breaks read as
// spaces. It split the game in two, the second without its Event tag. A
// value never closed is still a defect of its line, and the next game's
// tags read.
func TestTagValueOverLines(t *testing.T) {
	in := "[Event \"line one\nline two\"]\n[Site \"a\\\"b\r\n c\"]\n[Result \"*\"]\n1. 32-28 19-23 *\n\n" +
		"[Event \"never closed\n[Event \"next\"]\n1. 32-28 *\n"
	res := readAll(t, strings.NewReader(in), "lines.pdn")
	if len(res.games) != 2 || res.good != 1 || len(res.errs) != 1 || !errors.Is(res.errs[0], ErrBadTag) {
		t.Fatalf("%d games, %d good, errors %v", len(res.games), res.good, res.errs)
	}
	g := res.games[0]
	if g.Tag("Event") != "line one line two" || g.Tag("Site") != "a\"b c" || len(g.Moves) != 2 {
		t.Errorf("game 1: Event %q, Site %q, %d moves", g.Tag("Event"), g.Tag("Site"), len(g.Moves))
	}
	if g := res.games[1]; g.Tag("Event") != "next" || g.Line != 8 {
		t.Errorf("game 2: Event %q on line %d", g.Tag("Event"), g.Line)
	}
}

// TestSemicolonComment: ';' starts a comment to the end of the line (PDN
// 1.0, after PGN); it rejected the game as an unexpected ';'.
func TestSemicolonComment(t *testing.T) {
	in := "[Event \"semi\"] ; about the event\n[Result \"*\"]\n1. 32-28 19-23 ; a rest-of-line comment\n2. 28x19 14x23 *\n"
	res := readAll(t, strings.NewReader(in), "semi.pdn")
	if len(res.games) != 1 || res.good != 1 {
		t.Fatalf("%d games, %d good, errors %v", len(res.games), res.good, res.errs)
	}
	g := res.games[0]
	if len(g.Moves) != 4 || len(g.Comments) != 1 || g.Comments[0] != "about the event" {
		t.Fatalf("%d moves, comments before them %q", len(g.Moves), g.Comments)
	}
	if c := g.Moves[1].Comments(); len(c) != 1 || c[0] != "a rest-of-line comment" {
		t.Errorf("comments after 19-23: %q", c)
	}
}

// TestSemicolonCommentAtEnd: a ';' comment opened at the very end of the
// input, or followed by blanks only, lies inside the game's Raw (which
// leaves trailing blanks out) and keeps its words.
func TestSemicolonCommentAtEnd(t *testing.T) {
	for _, tc := range []struct{ in, comment string }{
		{"[Event \"x\"]\n1. 32-28 ; ", ""},
		{"[Event \"x\"]\n1. 32-28 ;", ""},
		{"000000000000000000000000000000 ; ", ""},
		{"; ", ""},
		{"[Event \"x\"]\n1. 32-28 ; last words   ", "last words"},
		{"[Event \"x\"]\n1. 32-28 ; last words \t \n\n", "last words"},
		{"[Event \"x\"]\n1. 32-28 ; last \x00 words \x00\x00 ", "last words"},
	} {
		for _, size := range []int{16, 64 << 10} {
			rd := newReaderSize(strings.NewReader(tc.in), "end.pdn", size)
			var last *Game
			for {
				g, err := rd.Next()
				if err == io.EOF {
					break
				}
				if g == nil {
					t.Fatalf("%q: %v", tc.in, err)
				}
				if !strings.HasPrefix(tc.in[g.Offset:], string(g.Raw)) {
					t.Fatalf("%q: Raw %q is not the input at %d", tc.in, g.Raw, g.Offset)
				}
				last = g
			}
			if tc.comment == "" {
				continue
			}
			if last == nil || len(last.Moves) != 1 {
				t.Fatalf("%q: game %+v", tc.in, last)
			}
			if c := last.Moves[0].Comments(); len(c) != 1 || c[0] != tc.comment {
				t.Errorf("%q: comments after the move %q, want %q", tc.in, c, tc.comment)
			}
		}
	}
}

// TestSemicolonCommentWithBraceRoundTrips: a ';' comment may hold '}',
// which a {comment} cannot: the writer writes it back as a ';' comment.
func TestSemicolonCommentWithBraceRoundTrips(t *testing.T) {
	for _, in := range []string{";}", "[Event \"x\"]\n1. 32-28 ; a } brace\n19-23 (17-21 ;} in a variation\n) *\n"} {
		res := readAll(t, strings.NewReader(in), "brace.pdn")
		if len(res.errs) > 0 {
			t.Fatalf("%q: %v", in, res.errs)
		}
		roundTrip(t, "brace", res.games)
	}
}
