package rules

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestSquareRoundTrip(t *testing.T) {
	for _, b := range boards {
		for sq := 1; sq <= b.Squares(); sq++ {
			name := b.Algebraic(sq)
			got, err := b.ParseSquare(name)
			if err != nil || got != sq {
				t.Fatalf("%s: %d -> %q -> %d, %v", b.Name, sq, name, got, err)
			}
			f, r := b.Coords(sq)
			dark := (f+r)%2 == 0 || b.AllSquares
			if b.Mirrored {
				dark = !dark // a1 is light
			}
			if b.SquareAt(f, r) != sq || !dark {
				t.Fatalf("%s: coords of %d", b.Name, sq)
			}
			i := b.bitOf(sq)
			if b.sqOf(i) != sq {
				t.Fatalf("%s: bit of %d", b.Name, sq)
			}
		}
	}
	fixed := []struct {
		b    *Board
		sq   int
		name string
	}{
		{Board8x8, 1, "b8"}, {Board8x8, 4, "h8"}, {Board8x8, 5, "a7"}, {Board8x8, 29, "a1"}, {Board8x8, 32, "g1"},
		{Board10x10, 1, "b10"}, {Board10x10, 5, "j10"}, {Board10x10, 6, "a9"}, {Board10x10, 46, "a1"},
		{Board10x10, 50, "i1"}, {Board10x10, 32, "d4"}, {Board10x10, 28, "e5"},
		{Board12x12, 1, "b12"}, {Board12x12, 72, "k1"}, {Board12x12, 67, "a1"},
		// Italian (PDN 22,W,8,8,N2,1): 1 = a8, left to right from the top.
		{Board8x8Mirrored, 1, "a8"}, {Board8x8Mirrored, 4, "g8"}, {Board8x8Mirrored, 5, "b7"},
		{Board8x8Mirrored, 29, "b1"}, {Board8x8Mirrored, 32, "h1"},
		// Spanish (24,W,8,8,N1,1): 1 = h1, right to left from White's side.
		{Board8x8MirroredReversed, 1, "h1"}, {Board8x8MirroredReversed, 4, "b1"},
		{Board8x8MirroredReversed, 5, "g2"}, {Board8x8MirroredReversed, 32, "a8"},
		// Thai (31,B,8,8,N2,0 seen from Black): 1 = g1.
		{Board8x8Reversed, 1, "g1"}, {Board8x8Reversed, 4, "a1"}, {Board8x8Reversed, 5, "h2"},
		{Board8x8Reversed, 32, "b8"},
		// Turkish: every square, 1 = a8 left to right from the top.
		{Board8x8Turkish, 1, "a8"}, {Board8x8Turkish, 2, "b8"}, {Board8x8Turkish, 9, "a7"},
		{Board8x8Turkish, 57, "a1"}, {Board8x8Turkish, 64, "h1"},
	}
	for _, f := range fixed {
		if got := f.b.Algebraic(f.sq); got != f.name {
			t.Errorf("%s square %d = %q, want %q", f.b.Name, f.sq, got, f.name)
		}
	}
	if _, err := Board8x8.ParseSquare("a2"); !errors.Is(err, ErrSquare) {
		t.Errorf("light square a2 accepted: %v", err)
	}
	if _, err := Board8x8.ParseSquare("33"); !errors.Is(err, ErrSquare) {
		t.Errorf("33 accepted: %v", err)
	}
}

func TestParseFENForms(t *testing.T) {
	cases := []struct {
		v        *Variant
		in, want string
	}{
		{International, "W:W31-50:B1-20", International.StartPosition().FEN()},
		{International, `"W:W31-50:B1-20."`, International.StartPosition().FEN()},
		{International, "W:W50,49,48,47,46,45,44,43,42,41,40,39,38,37,36,35,34,33,32,31:B1-20:H0:F1", International.StartPosition().FEN()},
		{International, " W : W 31 - 50 : B 1 - 20 ", International.StartPosition().FEN()},
		{Russian, "B:W:B1", "B:W:B1"},
		{Russian, "W:Wa1,c1,K h2:Bb8", "W:WK28,29,30:B1"},
		{Russian, "W:WK1-3:B5", "W:WK1,K2,K3:B5"},
		{International, "B:BK1", "B:W:BK1"},
		{English, "B:W21-32:B1-12", English.StartPosition().FEN()},
		{Canadian, "W:W43-72:B1-30", Canadian.StartPosition().FEN()},
		// k is a file of the 12x12 board: k11 is square 12, Kk1 a king on 72.
		{Canadian, "W:Wk11,Kk1:B30", "W:W12,K72:B30"},
		{Canadian, "W:WK11,k11-l10:B30", "W:WK11,12,13,14,15,16,17,18:B30"},
		{International, "W:Wk11:B30", "W:WK11:B30"},
	}
	for _, c := range cases {
		p, err := ParseFEN(c.v, c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := p.FEN(); got != c.want {
			t.Errorf("%q: FEN %q, want %q", c.in, got, c.want)
		}
	}
	if got := International.StartPosition().FENRanges(); got != "W:W31-50:B1-20" {
		t.Errorf("FENRanges %q", got)
	}
}

func TestParseFENErrors(t *testing.T) {
	cases := []struct {
		v    *Variant
		in   string
		want error
		msg  string
	}{
		{International, "", ErrFENSyntax, "empty"},
		{International, "X:W31:B1", ErrFENColor, "side to move"},
		{International, "W:W31:R1", ErrFENColor, "W or B"},
		{International, "W:W51:B1", ErrFENSquare, "51"},
		{International, "W:W0:B1", ErrFENSquare, "0"},
		{Russian, "W:Wa2:B1", ErrFENSquare, "a2"},
		{Russian, "W:Wz9:B1", ErrFENSquare, "z9"},
		{International, "W:W31,31:B1", ErrFENDuplicate, "31"},
		{International, "W:W31:B31", ErrFENDuplicate, "31"},
		{International, "W:W3:B10", ErrFENPromotionRow, "White man on square 3"},
		{International, "W:W31:B48", ErrFENPromotionRow, "Black man on square 48"},
		{International, "W:W31:Bfoo", ErrFENSyntax, "foo"},
		{International, "W:W35-31:B1", ErrFENSyntax, "backwards"},
		{Canadian, "W:Wk10:B30", ErrFENSquare, "k10"},
	}
	for _, c := range cases {
		_, err := ParseFEN(c.v, c.in)
		var fe *FENError
		if !errors.Is(err, c.want) || !errors.As(err, &fe) {
			t.Errorf("%q: error %v, want %v", c.in, err, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: message %q does not mention %q", c.in, err, c.msg)
		}
	}
}

func TestNotation(t *testing.T) {
	pos := International.StartPosition()
	moves := pos.LegalMoves(nil)
	var texts []string
	for i := range moves {
		texts = append(texts, MoveText(International, moves, &moves[i], Numeric))
	}
	if strings.Join(texts, " ") == "" || !slices.Contains(texts, "32-28") || !slices.Contains(texts, "31-26") {
		t.Errorf("start moves %v", texts)
	}
	// A king going round four men clockwise or anticlockwise: same start,
	// end and captured set, so one move (drop) written start:end.
	p, _ := ParseFEN(Russian, "W:WKa3:Bb4,d6,f4,d2")
	ms := p.LegalMoves(nil)
	for i := range ms {
		s := MoveText(Russian, ms, &ms[i], Algebraic)
		amb := Ambiguous(ms, &ms[i])
		if amb != (strings.Count(s, ":") > 1) {
			t.Errorf("ambiguity and text disagree: %s", s)
		}
		sq, capt, err := ParseMoveText(Board8x8, s)
		if err != nil || !capt || sq[0] != ms[i].From() || sq[len(sq)-1] != ms[i].To() {
			t.Errorf("ParseMoveText(%q) = %v %v %v", s, sq, capt, err)
		}
	}
	sq, capt, err := ParseMoveText(Board10x10, "28x19x10!")
	if err != nil || !capt || len(sq) != 3 || sq[2] != 10 {
		t.Errorf("ParseMoveText: %v %v %v", sq, capt, err)
	}
	if _, _, err := ParseMoveText(Board10x10, "28"); !errors.Is(err, ErrMoveSyntax) {
		t.Errorf("single square accepted: %v", err)
	}
}

func TestStateHelpers(t *testing.T) {
	if Repetitions([]uint64{1, 2, 1, 3, 1}) != 2 || Repetitions(nil) != 0 {
		t.Error("Repetitions")
	}
	p, _ := ParseFEN(International, "W:WK28,33:B1")
	buf := p.LegalMoves(nil)
	var d DrawCounter
	var king, man *Move
	for i := range buf {
		if buf[i].From() == 28 {
			king = &buf[i]
		} else {
			man = &buf[i]
		}
	}
	for i := 0; i < 50; i++ {
		if d.Drawn(International) {
			t.Fatalf("drawn after %d plies", i)
		}
		d.Update(&p, king)
	}
	if !d.Drawn(International) || d.Drawn(English) {
		t.Errorf("50 king plies not drawn: %d", d.Plies)
	}
	if d.Update(&p, man); d.Plies != 0 {
		t.Error("man move did not reset the counter")
	}
	lost, _ := ParseFEN(International, "W:W46:B41,37")
	if !lost.IsLost() {
		t.Error("blocked man should lose")
	}
	if start := International.StartPosition(); start.IsLost() {
		t.Error("start lost")
	}
	for _, v := range Variants() {
		if got, _ := VariantByName(v.Name); got != v {
			t.Errorf("VariantByName(%s)", v.Name)
		}
		if got, _ := VariantByGameType(v.GameType); got != v && v.GameType != 0 {
			t.Errorf("VariantByGameType(%d)", v.GameType)
		}
	}
	// Killer has no PDN GameType: 0 finds nothing.
	if v, err := VariantByGameType(0); !errors.Is(err, ErrUnknownVariant) {
		t.Errorf("VariantByGameType(0) = %v, %v", v, err)
	}
	for name, gt := range map[string]int{"pool": 23, "czech": 29, "spanish": 24, "italian": 22, "thai": 31,
		"killer": 0, "antidraughts": 98, "breakthrough": 96} {
		if v, err := VariantByName(name); err != nil || v.GameType != gt {
			t.Errorf("VariantByName(%s) = %v, %v", name, v, err)
		}
	}
	if _, err := VariantByName("nope"); !errors.Is(err, ErrUnknownVariant) {
		t.Error("unknown variant")
	}
}

// TestFENAlgebraicSquares reads every playable square of every board by
// its algebraic name, as a man and as a king: Canadian k-file squares
// were read as kings on the number after the k ("k11": a king on 11).
func TestFENAlgebraicSquares(t *testing.T) {
	for _, v := range Variants() {
		b := v.Board
		if b.AllSquares {
			continue // Turkish FENs number all 64 squares
		}
		for sq := 1; sq <= b.Squares(); sq++ {
			name := b.Algebraic(sq)
			for _, king := range []bool{false, true} {
				tok, want := name, fmt.Sprint(sq)
				if king {
					tok, want = "K"+name, "K"+want
				}
				// Black to move, the piece White's, a Black king far off
				// (or no Black piece when it would share the square).
				other := 1
				if sq == 1 {
					other = 2
				}
				p, err := ParseFEN(v, fmt.Sprintf("B:W%s:BK%d", tok, other))
				if errors.Is(err, ErrFENPromotionRow) && !king {
					continue
				}
				if err != nil {
					t.Errorf("%s: %q: %v", v.Name, tok, err)
					continue
				}
				if got, w := p.FEN(), fmt.Sprintf("B:W%s:BK%d", want, other); got != w {
					t.Errorf("%s: %q read as %q, want %q", v.Name, tok, got, w)
				}
			}
		}
	}
}
