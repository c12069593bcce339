package replay

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// normalizeAll replays every game of src and writes the accepted ones in
// notation n; it returns the PDN and each game's hash sequence.
func normalizeAll(t *testing.T, src []byte, n rules.Notation) ([]byte, [][]uint64) {
	t.Helper()
	rd := pdn.NewReader(bytes.NewReader(src), "in.pdn")
	r := NewReplayer(Options{})
	var out bytes.Buffer
	w := pdn.NewWriter(&out)
	var hashes [][]uint64
	var g Game
	for {
		pg, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if r.Replay(pg, err, &g) != nil {
			continue
		}
		hashes = append(hashes, slices.Clone(g.Hashes))
		if err := w.WriteGame(g.ToPDN(n)); err != nil {
			t.Fatal(err)
		}
	}
	return out.Bytes(), hashes
}

func TestNormalizeIsIdempotentAndNotationFree(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.pdn")
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []rules.Notation{rules.Numeric, rules.Algebraic} {
				once, h1 := normalizeAll(t, raw, n)
				twice, h2 := normalizeAll(t, once, n)
				if !bytes.Equal(once, twice) {
					t.Fatalf("notation %d: normalising the normalised output changed it:\n%s", n, firstDiff(once, twice))
				}
				if len(h1) == 0 || !slices.EqualFunc(h1, h2, slices.Equal) {
					t.Fatalf("notation %d: %d games, hashes differ after re-reading", n, len(h1))
				}
			}
			_, hn := normalizeAll(t, raw, rules.Numeric)
			num, _ := normalizeAll(t, raw, rules.Numeric)
			alg, _ := normalizeAll(t, raw, rules.Algebraic)
			_, fromNum := normalizeAll(t, num, rules.Numeric)
			_, fromAlg := normalizeAll(t, alg, rules.Numeric)
			if !slices.EqualFunc(fromNum, fromAlg, slices.Equal) || !slices.EqualFunc(hn, fromAlg, slices.Equal) {
				t.Fatal("numeric and algebraic outputs replay to different Zobrist sequences")
			}
		})
	}
}

func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-200)
	return "...\n" + string(a[lo:min(len(a), i+200)]) + "\n--- vs ---\n" + string(b[lo:min(len(b), i+200)])
}

// gameTypeFields reads a full GameType as the PDN 3.0 standard defines it
// (number,startColour,width,height,notation+corner,invert), independently
// of pdn.FullGameType and GameType.
func gameTypeFields(t *testing.T, s string) (number int, start string, width, height int, notation byte, invert string) {
	t.Helper()
	f := strings.Split(s, ",")
	if len(f) != 6 || len(f[4]) != 2 || !strings.Contains("ANS", f[4][:1]) || !strings.Contains("0123", f[4][1:]) || (f[5] != "0" && f[5] != "1") {
		t.Fatalf("GameType %q is not number,colour,width,height,notation+corner,invert", s)
	}
	number, _ = strconv.Atoi(f[0])
	width, _ = strconv.Atoi(f[2])
	height, _ = strconv.Atoi(f[3])
	return number, f[1], width, height, f[4][0], f[5]
}

var (
	algebraicMove = regexp.MustCompile(`^[a-l](1[0-2]|[1-9])([-:x][a-l](1[0-2]|[1-9]))+$`)
	numericMove   = regexp.MustCompile(`^\d+([-x]\d+)+$`)
)

// TestNormalizedGameTypeAgreesWithMoves: a reader that takes the board and
// the notation from GameType, as the PDN standard says, reads the moves as
// written: the notation letter is A when every move is algebraic and N when
// every move is numeric, the board is the variant's, and the start colour
// its first mover. By default each variant keeps its own notation.
func TestNormalizedGameTypeAgreesWithMoves(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.pdn")
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{-1, int(rules.Numeric), int(rules.Algebraic)} {
			rd := pdn.NewReader(bytes.NewReader(raw), f)
			r := NewReplayer(Options{})
			var g Game
			games := 0
			for {
				pg, err := rd.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if r.Replay(pg, err, &g) != nil {
					continue
				}
				notation := g.Variant.DefaultNotation
				if n >= 0 {
					notation = rules.Notation(n)
				}
				out, _ := r.NormalizedPDN(&g, notation)
				num, start, w, h, letter, _ := gameTypeFields(t, out.Tag("GameType"))
				first := "W"
				if g.Variant.FirstToMove == rules.Black {
					first = "B"
				}
				if num != g.Variant.GameType || start != first || w != g.Variant.Board.Width || h != g.Variant.Board.Height {
					t.Fatalf("%s game %d: GameType %q for %s", f, pg.Ordinal, out.Tag("GameType"), g.Variant)
				}
				want := numericMove
				if letter == 'A' {
					want = algebraicMove
				}
				if (letter == 'A') != (notation == rules.Algebraic) {
					t.Fatalf("%s game %d: GameType %q for notation %d", f, pg.Ordinal, out.Tag("GameType"), notation)
				}
				for _, m := range out.Moves {
					if !want.MatchString(m.Text) {
						t.Fatalf("%s game %d: move %q under GameType %q", f, pg.Ordinal, m.Text, out.Tag("GameType"))
					}
				}
				games++
			}
			if games == 0 {
				t.Fatalf("%s: no game", f)
			}
		}
	}
}

// TestNormalizeKeepsLegalVariations: variations are replayed where they
// branch off and kept, in the output notation, nested ones too; one with an
// illegal move is left out with a warning naming the game and the ply.
func TestNormalizeKeepsLegalVariations(t *testing.T) {
	src := `[Event "v"]
[GameType "20"]

1. 32-28 (1. 33-29 {good} 19-23 (1... 18-23 2. 29x18 12x23)) 19-23 (1... 17-22 2. 28x17 11x22 (2... 12x21)) (1... 99-98)
2. 28x19 14x23 (2... 13x24) *
`
	rd := pdn.NewReader(strings.NewReader(src), "v.pdn")
	pg, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	r := NewReplayer(Options{})
	var g Game
	if err := r.Replay(pg, nil, &g); err != nil {
		t.Fatal(err)
	}
	out, warnings := r.NormalizedPDN(&g, rules.Algebraic)
	if len(warnings) != 1 || !strings.Contains(warnings[0], "game 1") || !strings.Contains(warnings[0], "ply 2") {
		t.Fatalf("warnings %q: want one naming game 1, ply 2", warnings)
	}
	var b bytes.Buffer
	if err := pdn.NewWriter(&b).WriteGame(out); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{"(1. f4-g5 {good} g7-f6 (1... e7-f6 2. g5:e7 d8:f6))", "(1... c7-d6 2. e5:c7 b8:d6 (2... d8:b6))", "(2... f8:h6)"} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
			t.Errorf("output lacks %s:\n%s", want, text)
		}
	}
	if strings.Contains(text, "99") {
		t.Errorf("the illegal variation was written:\n%s", text)
	}
	// Normalising the output again changes no byte.
	pg2, err := pdn.NewReader(&b, "again").Next()
	if err != nil {
		t.Fatal(err)
	}
	var g2 Game
	if err := r.Replay(pg2, nil, &g2); err != nil {
		t.Fatal(err)
	}
	out2, w2 := r.NormalizedPDN(&g2, rules.Algebraic)
	var b2 bytes.Buffer
	if err := pdn.NewWriter(&b2).WriteGame(out2); err != nil || len(w2) != 0 {
		t.Fatal(err, w2)
	}
	if b2.String() != text {
		t.Fatalf("second normalisation differs:\n%s\n%s", text, b2.String())
	}
}

// TestNormalizeEveryVariantReadsBack: a game of every variant rules plays,
// normalised in either notation, reads back under the same variant with
// the same positions, Killer (no PDN GameType: a Variant tag) and a game
// forced to a variant without any tag included.
func TestNormalizeEveryVariantReadsBack(t *testing.T) {
	for _, v := range rules.Variants() {
		pos := v.StartPosition()
		var moves []pdn.Move
		var legal []rules.Move
		for ply := 0; ply < 12; ply++ {
			legal = pos.LegalMoves(legal[:0])
			if len(legal) == 0 {
				break
			}
			m := &legal[(ply*7)%len(legal)]
			moves = append(moves, pdn.Move{Text: rules.FormatMove(v, m, rules.Numeric, true)})
			pos.Play(m)
		}
		for _, forced := range []bool{false, true} {
			in := &pdn.Game{Moves: moves, Result: "*"}
			opts := Options{Variant: v}
			if !forced {
				opts = Options{}
				in.Tags = []pdn.Tag{{Name: "Variant", Value: strings.ToUpper(v.Name)}}
				if v.GameType != 0 {
					in.Tags = []pdn.Tag{{Name: "GameType", Value: strconv.Itoa(v.GameType)}}
				}
			}
			var g Game
			if err := NewReplayer(opts).Replay(in, nil, &g); err != nil {
				t.Fatalf("%s forced=%v: %v", v.Name, forced, err)
			}
			for _, n := range []rules.Notation{rules.Numeric, rules.Algebraic} {
				var out bytes.Buffer
				if err := pdn.NewWriter(&out).WriteGame(g.ToPDN(n)); err != nil {
					t.Fatal(err)
				}
				back, err := pdn.NewReader(bytes.NewReader(out.Bytes()), "n.pdn").Next()
				var h Game
				if err := NewReplayer(Options{}).Replay(back, err, &h); err != nil {
					t.Fatalf("%s forced=%v notation %d: the normalised game does not read back: %v\n%s", v.Name, forced, n, err, out.Bytes())
				}
				if h.Variant != v || !slices.Equal(h.Hashes, g.Hashes) {
					t.Fatalf("%s forced=%v notation %d: read back as %s, same positions %v\n%s", v.Name, forced, n, h.Variant, slices.Equal(h.Hashes, g.Hashes), out.Bytes())
				}
			}
		}
	}
}

// TestNormalizeKeepsMoveNumbers: the numbers written before the moves stay
// (pdn.Writer's promise, "the move numbers as read"): a game from a
// position at move 23, and a record whose setup jumps to move 19, were
// renumbered from 1 (the latter giving two moves one number).
func TestNormalizeKeepsMoveNumbers(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"[GameType \"20\"]\n[FEN \"B:W31-50:B1-20\"]\n23... 19-23 24. 32-28 23x32 25. 37x28 *\n", "23... 19-23 24. 32-28 23x32 25. 37x28 *"},
		{"[GameType \"20\"]\n1. 32-28 19-23 /FEN \"W:W31-50:B1-20\"/ 19. 32-28 19-23 20. 28x19 14x23 *\n", "1. 32-28 19-23 /FEN \"W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20\"/ 19. 32-28 19-23 20. 28x19 14x23 *"},
		{"[GameType \"20\"]\n32-28 19-23 28x19 14x23 *\n", "1. 32-28 19-23 2. 28x19 14x23 *"},
	} {
		out, _ := normalizeAll(t, []byte(c.in), rules.Numeric)
		got := strings.Join(strings.Fields(string(out[bytes.Index(out, []byte("\n\n"))+2:])), " ")
		if got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.in, got, c.want)
		}
		again, _ := normalizeAll(t, out, rules.Numeric)
		if !bytes.Equal(again, out) {
			t.Errorf("%q: normalizing again changed it:\n%s", c.in, again)
		}
	}
}
