package pdn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"
	"unicode/utf8"
)

// Hostile input: deep nesting, UTF-16, NUL bytes, bytes that are not text.

const goodGame = "[Event \"good\"]\n[White \"Bertè\"]\n1. 32-28 19-23 2. 28x19 14x23 1-0\n"

// checkGood checks that g is goodGame, read normally.
func checkGood(t *testing.T, g *Game, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("the game after the bad one: %v", err)
	}
	if g.Tag("Event") != "good" || g.Tag("White") != "Bertè" || strings.Join(g.MainLine(), " ") != "32-28 19-23 28x19 14x23" || g.Result != "1-0" {
		t.Fatalf("the game after the bad one read as %+v", g)
	}
	if !strings.HasPrefix(string(g.Raw), "[Event \"good\"]") {
		t.Fatalf("its Raw starts %q", g.Raw[:min(len(g.Raw), 40)])
	}
}

func TestDeepNesting(t *testing.T) {
	const n = 1_000_000
	tests := []struct {
		name, in string
		sentinel error
		reason   string
		moves    string // main line of the bad game
	}{
		{"balanced 1e6 deep", "[Event \"x\"]\n\n1. 32-28 " + strings.Repeat("(", n) + "19-23" + strings.Repeat(")", n) + " 19-23 1-0\n\n",
			ErrNestingTooDeep, fmt.Sprintf("more than %d levels deep", MaxDepth), "32-28"},
		{"1e6 opens never closed", "[Event \"x\"]\n\n1. 32-28 " + strings.Repeat("(", n) + "\n",
			ErrNestingTooDeep, "levels deep", "32-28"},
		{"5e5 opens with moves before the result", "[Event \"x\"]\n\n1. 32-28 " + strings.Repeat("(19-23", n/2) + " 1-0\n\n",
			ErrNestingTooDeep, "levels deep", "32-28"},
		{"1e6 stray closes", "[Event \"x\"]\n\n1. 32-28 " + strings.Repeat(")", n) + " 19-23 *\n",
			ErrUnbalancedVariation, "without a matching '('", "32-28 19-23"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rd := NewReader(strings.NewReader(tc.in+goodGame), "deep.pdn")
			g, err := rd.Next()
			var se *SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, tc.sentinel) || se.Game != 1 || !strings.Contains(se.Reason, tc.reason) {
				t.Fatalf("got %v, want a %v naming game 1 and %q", err, tc.sentinel, tc.reason)
			}
			if !strings.Contains(err.Error(), "deep.pdn:3:") || !strings.Contains(err.Error(), "game 1:") {
				t.Errorf("message %q does not place the defect", err)
			}
			// Only the moves before the limit are kept, not a token per
			// parenthesis: memory stays bounded whatever the depth.
			if got := strings.Join(g.MainLine(), " "); got != tc.moves {
				t.Errorf("main line %q, want %q", got, tc.moves)
			}
			if len(rd.lx.toks) > 4*MaxDepth {
				t.Errorf("%d tokens kept for the game", len(rd.lx.toks))
			}
			if d := depthOf(g.Moves); d > MaxDepth {
				t.Errorf("game built %d levels deep", d)
			}
			g, err = rd.Next()
			checkGood(t, g, err)
			if g.Ordinal != 2 {
				t.Errorf("ordinal %d", g.Ordinal)
			}
			if _, err := rd.Next(); err != io.EOF {
				t.Errorf("then %v, want EOF", err)
			}
		})
	}
}

// depthOf returns the variation depth of a line.
func depthOf(ms []Move) int {
	d := 0
	for i := range ms {
		for _, v := range ms[i].Variations() {
			d = max(d, 1+depthOf(v.Moves))
		}
	}
	return d
}

// TestNestingAtTheLimit: MaxDepth levels read, write and read back; one
// more is rejected by the reader and refused by the writer.
func TestNestingAtTheLimit(t *testing.T) {
	nested := func(levels int) string {
		return "1. 32-28 " + strings.Repeat("(33-29 ", levels) + strings.Repeat(")", levels) + " 19-23 *\n"
	}
	res := readString(t, nested(MaxDepth))
	if len(res.errs) > 0 || depthOf(res.games[0].Moves) != MaxDepth {
		t.Fatalf("errors %v, depth %d", res.errs, depthOf(res.games[0].Moves))
	}
	roundTrip(t, "limit", res.games)

	res = readString(t, nested(MaxDepth+1))
	if len(res.errs) != 1 || !errors.Is(res.errs[0], ErrNestingTooDeep) {
		t.Fatalf("errors %v", res.errs)
	}
	// A game built in memory one level deeper is refused by the writer.
	g := res.games[0]
	m := &g.Moves[0]
	for range MaxDepth + 1 {
		v := Variation{Moves: []Move{{Text: "33-29"}}}
		m.note().Variations = []Variation{v}
		m = &m.Note.Variations[0].Moves[0]
	}
	if err := NewWriter(io.Discard).WriteGame(g); !errors.Is(err, errTooDeep) {
		t.Errorf("writer: %v", err)
	}
}

// BenchmarkDeepNesting reads a game nested 1,000,000 deep (1 MB) and the
// game after it.
func BenchmarkDeepNesting(b *testing.B) {
	const n = 1_000_000
	in := []byte("[Event \"x\"]\n\n1. 32-28 " + strings.Repeat("(", n) + "19-23" + strings.Repeat(")", n) + " 1-0\n\n" + goodGame)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		rd := NewReader(bytes.NewReader(in), "deep")
		if _, err := rd.Next(); !errors.Is(err, ErrNestingTooDeep) {
			b.Fatal(err)
		}
		if _, err := rd.Next(); err != nil {
			b.Fatal(err)
		}
	}
}

// encodeUTF16 writes s as UTF-16 with a byte order mark.
func encodeUTF16(s string, bigEndian bool) []byte {
	var out []byte
	for _, u := range utf16.Encode([]rune("\uFEFF" + s)) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

func TestUTF16(t *testing.T) {
	const text = "[Event \"Café 𝄞\"]\r\n1. 32-28 {ça va ✓} 19-23 *\r\n\r\n" + goodGame
	for _, be := range []bool{false, true} {
		for _, oneByte := range []bool{false, true} {
			t.Run(fmt.Sprintf("bigEndian=%v oneByte=%v", be, oneByte), func(t *testing.T) {
				var src io.Reader = bytes.NewReader(encodeUTF16(text, be))
				if oneByte {
					src = iotest.OneByteReader(src)
				}
				rd := newReaderSize(src, "utf16.pdn", 16)
				g, err := rd.Next()
				if err != nil {
					t.Fatal(err)
				}
				if g.Tag("Event") != "Café 𝄞" || g.Moves[0].Comments()[0] != "ça va ✓" || len(g.Moves) != 2 || g.Windows1252 {
					t.Errorf("game 1: %+v", g)
				}
				// Raw and offsets are those of the UTF-8 text read.
				if want := "[Event \"Café 𝄞\"]\r\n1. 32-28 {ça va ✓} 19-23 *\r\n"; string(g.Raw) != want || g.Offset != 3 {
					t.Errorf("Raw %q at %d", g.Raw, g.Offset)
				}
				g, err = rd.Next()
				checkGood(t, g, err)
				if g.Line != 4 {
					t.Errorf("game 2 on line %d", g.Line)
				}
			})
		}
	}
}

func TestUTF16Damaged(t *testing.T) {
	// A lone low surrogate, a high surrogate without its pair, and an odd
	// last byte: each becomes U+FFFD, never invalid UTF-8.
	in := []byte{0xFF, 0xFE}
	for _, u := range []uint16{'{', 0xDC00, 'a', 0xD800, 'b', '}', ' ', '1', '-', '0', ' ', '{', 0xD800} {
		in = append(in, byte(u), byte(u>>8))
	}
	in = append(in, 'x')
	res := readAll(t, bytes.NewReader(in), "bad16")
	if len(res.games) != 2 {
		t.Fatalf("%d games", len(res.games))
	}
	if c := res.games[0].Comments; len(c) != 1 || c[0] != "\uFFFDa\uFFFDb" {
		t.Errorf("comment %q", c)
	}
	if len(res.errs) != 1 || !errors.Is(res.errs[0], ErrUnterminatedComment) || string(res.games[1].Raw) != " {\uFFFD\uFFFD" {
		t.Errorf("last game %q, errors %v", res.games[1].Raw, res.errs)
	}
}

func TestUTF8BOM(t *testing.T) {
	in := "\xef\xbb\xbf" + goodGame
	rd := NewReader(iotest.OneByteReader(strings.NewReader(in)), "bom.pdn")
	g, err := rd.Next()
	checkGood(t, g, err)
	if g.Offset != 3 || g.Line != 1 {
		t.Errorf("offset %d line %d", g.Offset, g.Line)
	}
	// Only FF FE and FE FF switch to UTF-16: other starts are left alone.
	for _, in := range []string{"\xff", "\xfe", "\xff\xff" + goodGame} {
		res := readString(t, in)
		for _, g := range res.games {
			if !bytes.Equal(g.Raw, []byte(in)[g.Offset:g.Offset+int64(len(g.Raw))]) {
				t.Errorf("%q: Raw %q", in, g.Raw)
			}
		}
	}
}

func TestNULStripped(t *testing.T) {
	in := "[Ev\x00ent \"a\x00b\"]\n[FEN \"W:W31:B1\"]\n\x00{com\x00ment} 1. 3\x002-28\x00 \x00 19-23 /FEN \"W:\x00W31:B1\"/ 2.\x00 28x19 1-\x000\n" +
		strings.Repeat("\x00", 100) + "\n" + goodGame + strings.Repeat("\x00", 1000)
	rd := NewReader(strings.NewReader(in), "nul.pdn")
	g, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	if g.Tag("Event") != "ab" || g.Comments[0] != "comment" || strings.Join(g.MainLine(), " ") != "32-28 19-23 28x19" ||
		g.Moves[2].Setup() != "W:W31:B1" || g.Moves[2].Number != 2 || g.Result != "1-0" {
		t.Errorf("game %+v", g)
	}
	if len(g.Warnings) != 1 || !strings.Contains(g.Warnings[0].Reason, "10 NUL byte(s) removed") || g.Warnings[0].Line != 1 || g.Warnings[0].Column != 4 {
		t.Errorf("warnings %+v", g.Warnings)
	}
	if !bytes.Equal(g.Raw, []byte(in)[:len(g.Raw)]) || bytes.Count(g.Raw, []byte{0}) != 10 {
		t.Errorf("Raw %q", g.Raw)
	}
	// The padding between and after the games is skipped like blanks.
	g, err = rd.Next()
	checkGood(t, g, err)
	if len(g.Warnings) != 0 {
		t.Errorf("good game warnings %v", g.Warnings)
	}
	if g, err := rd.Next(); err != io.EOF {
		t.Errorf("then %+v %v, want EOF", g, err)
	}
}

// checkClean reports a string of g that is not valid UTF-8 or holds NUL.
func checkClean(g *Game) error {
	bad := func(what, s string) error {
		if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
			return fmt.Errorf("game %d: %s %q", g.Ordinal, what, s)
		}
		return nil
	}
	var errs []error
	for _, tg := range g.Tags {
		errs = append(errs, bad("tag name", tg.Name), bad("tag value", tg.Value))
	}
	for _, c := range g.Comments {
		errs = append(errs, bad("comment", c))
	}
	for _, w := range g.Warnings {
		errs = append(errs, bad("warning", w.Reason))
	}
	errs = append(errs, bad("result", g.Result))
	var line func(ms []Move)
	line = func(ms []Move) {
		for i := range ms {
			m := &ms[i]
			errs = append(errs, bad("move", m.Text), bad("strength", m.Strength), bad("setup", m.Setup()))
			for _, c := range m.Comments() {
				errs = append(errs, bad("move comment", c))
			}
			for _, v := range m.Variations() {
				for _, c := range v.Comments {
					errs = append(errs, bad("variation comment", c))
				}
				line(v.Moves)
			}
		}
	}
	line(g.Moves)
	return errors.Join(errs...)
}

// checkMessage reports an error message that is not valid UTF-8, holds
// NUL or quotes too much of the input.
func checkMessage(err error) error {
	msg := err.Error()
	if !utf8.ValidString(msg) || strings.IndexByte(msg, 0) >= 0 || len(msg) > 300 {
		return fmt.Errorf("bad message (%d bytes) %q", len(msg), msg[:min(len(msg), 400)])
	}
	return nil
}

func TestHostileBytesGiveCleanStrings(t *testing.T) {
	big := strings.Repeat("W:W31,32,33,34,35,36,37,38,39,40:B1,2,3,4,5,6,7,8,9,10 ", 7500) // 400 KB
	inputs := map[string]string{
		"latin-1 in movetext":  "1. 32-28 \xe8x19-23 *\n1. 32-28 gr\xe8s *\n",
		"utf-8 in movetext":    "1. 32-28 très \U0001D11E *\n",
		"400 KB word":          "1. 32-28 " + strings.ReplaceAll(big, " ", "") + " *\n",
		"400 KB utf-8 word":    "1. 32-28 " + strings.Repeat("é", 200_000) + " *\n",
		"400 KB Result tag":    "[Result \"" + big + "\"]\n1. 32-28 1-0\n",
		"NUL in a bad word":    "1. 32-28 x\x00y\x00z\x01 *\n",
		"controls in a word":   "1. 32-28 a\x1b[2J\u2028 *\n",
		"cp1252 tag and junk":  "[White \"Bert\xe8\x81\x00\"]\n1. 32-28 \x93\x00 *\n",
		"utf-8 cut by the cap": "1. 32-28 " + strings.Repeat("€", 30) + " *\n",
	}
	// And random bytes, with the characters of PDN more likely.
	rnd := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("[]{}()\"/\\$!?.-x: \n\r1234567890abcFEN\x00\xe8\xc3\xa9\xff\xfe\xef\xbb\xbf")
	for i := range 300 {
		b := make([]byte, rnd.IntN(400))
		for j := range b {
			if rnd.IntN(4) == 0 {
				b[j] = byte(rnd.IntN(256))
			} else {
				b[j] = alphabet[rnd.IntN(len(alphabet))]
			}
		}
		inputs[fmt.Sprintf("random %d", i)] = string(b)
	}
	for name, in := range inputs {
		rd := NewReader(strings.NewReader(in), "hostile.pdn")
		for n := 0; ; n++ {
			g, err := rd.Next()
			if err == io.EOF || n > len(in) {
				break
			}
			if err != nil {
				if e := checkMessage(err); e != nil {
					t.Errorf("%s: %v", name, e)
				}
			}
			if e := checkClean(g); e != nil {
				t.Errorf("%s: %v", name, e)
			}
		}
	}
	// What the messages say of such words.
	for in, want := range map[string]string{
		"1. 32-28 \xe8x *": `unexpected "èx" in the movetext`,
		"1. 32-28 " + strings.Repeat("é", 50) + " *": `unexpected "` + strings.Repeat("é", 20) + `"... in the movetext`,
		"1. 32-28 " + strings.Repeat("€", 50) + " *": `unexpected "` + strings.Repeat("€", 14) + `"... in the movetext`,
		"1. 32-28 a\x00\x01b *":                      `unexpected "a\x01b" in the movetext`,
	} {
		_, err := NewReader(strings.NewReader(in), "x").Next()
		var se *SyntaxError
		if !errors.As(err, &se) || se.Reason != want {
			t.Errorf("%q: got %v, want %q", in, err, want)
		}
	}
	g, _ := NewReader(strings.NewReader(inputs["400 KB Result tag"]), "x").Next()
	if len(g.Warnings) != 1 || len(g.Warnings[0].Reason) > 120 || !strings.HasSuffix(g.Warnings[0].Reason, "...") {
		t.Errorf("warnings %.300s", fmt.Sprint(g.Warnings))
	}
}

// TestSetupRoundTrip: a setup is written as it was read (the writer used to
// normalise it, so "W:W31:B1." came back "W:W31:B1"), and a setup without a
// position is an error rather than vanishing (the fuzzer's `/FEN" "/` read
// as a move with a blank setup that did not survive the round trip).
func TestSetupRoundTrip(t *testing.T) {
	res := readString(t, "1. 32-28 /FEN \"W:W31, 32:B1.\"/ 19-23 /FEN \"B:W1:B2\"/ *\n")
	if len(res.errs) > 0 || res.games[0].Moves[1].Setup() != "W:W31, 32:B1." || res.games[0].Moves[2].Setup() != "B:W1:B2" {
		t.Fatalf("%v %+v", res.errs, res.games[0].Moves)
	}
	roundTrip(t, "setup", res.games)
	for _, in := range []string{`/FEN" "/`, `1. 32-28 /FEN ""/ 19-23 *`, "1. 32-28 /FEN \"\x00\"/ *"} {
		res := readString(t, in)
		if len(res.errs) != 1 || !errors.Is(res.errs[0], ErrUnexpectedToken) || !strings.Contains(res.errs[0].Reason, "without a position") {
			t.Errorf("%q: errors %v", in, res.errs)
		}
	}
	g := &Game{Moves: []Move{{Text: "32-28", Note: &Note{Setup: " "}}}}
	if err := NewWriter(io.Discard).WriteGame(g); !errors.Is(err, errBadSetup) {
		t.Errorf("writer wrote a blank setup: %v", err)
	}
}

// TestCommentWordEndingInParen: only a variation's "(" glues to what
// follows; a comment word ending in '(' kept its space lost (FuzzRoundTrip).
func TestCommentWordEndingInParen(t *testing.T) {
	res := readString(t, "1. 32-28 {see (} (19-23 {a( b} ()) 2. 28x19 {x (} 1-0\n")
	if len(res.errs) > 0 {
		t.Fatal(res.errs[0])
	}
	var buf bytes.Buffer
	if err := NewWriter(&buf).WriteGame(res.games[0]); err != nil {
		t.Fatal(err)
	}
	if want := "1. 32-28 {see (} (19-23 {a( b} ()) 2. 28x19 {x (} 1-0\n"; buf.String() != want {
		t.Errorf("wrote %q, want %q", buf.String(), want)
	}
	roundTrip(t, "paren", res.games)
}

// TestMoveThatReadsAsResult: "0.4-6" is move 4-6 (number 0) when the
// game's score is 4-6, and "1.1-0" is move 1-0; written alone they read as
// results (FuzzRoundTrip: one game written, two read back).
func TestMoveThatReadsAsResult(t *testing.T) {
	res := readString(t, "[Result\"4-6\"]0.4-6 1.1-0 0...0-2 (0...4-6 2...1-1!) 3.4-6 19-23 1-0\n")
	if len(res.errs) > 0 || len(res.games) != 1 || strings.Join(res.games[0].MainLine(), " ") != "4-6 1-0 0-2 4-6 19-23" {
		t.Fatalf("%v %d games", res.errs, len(res.games))
	}
	var buf bytes.Buffer
	if err := NewWriter(&buf).WriteGame(res.games[0]); err != nil {
		t.Fatal(err)
	}
	if want := "[Result \"4-6\"]\n\n0.4-6 1.1-0 0...0-2 (0...4-6 2...1-1!) 3.4-6 19-23 1-0\n"; buf.String() != want {
		t.Errorf("wrote %q, want %q", buf.String(), want)
	}
	roundTrip(t, "result-like moves", res.games)
}

// TestMessageWithBadFileName: the file name is not input, but it is in
// every message: bytes of it that are not UTF-8 become U+FFFD there.
func TestMessageWithBadFileName(t *testing.T) {
	_, err := NewReader(strings.NewReader("1. 32-28 ) *"), "caf\xe9\x00.pdn").Next()
	var se *SyntaxError
	if !errors.As(err, &se) || se.File != "caf\xe9\x00.pdn" || !strings.HasPrefix(err.Error(), "caf\uFFFD\uFFFD.pdn:1:10: game 1:") {
		t.Errorf("%q", err)
	}
}

// TestNormalizeFENIdempotent: the writer's FEN is a fixed point, so the
// round trip holds (FuzzRoundTrip: "W:W1.." was written "W:W1.", which
// normalised again to "W:W1").
func TestNormalizeFENIdempotent(t *testing.T) {
	for _, v := range []string{"0000000000000..", "W:W31,32 :B1,2.", "W:W1. .", " . ", "B:W1:B2"} {
		once := NormalizeTagValue("FEN", v)
		if twice := NormalizeTagValue("FEN", once); twice != once || strings.HasSuffix(once, ".") {
			t.Errorf("%q: %q then %q", v, once, twice)
		}
	}
	res := readString(t, "[Event \"x\"][FEN \"W:W31:B1..\"]\n1. 32-28 *\n")
	roundTrip(t, "fen dots", res.games)
}
