package replay

import (
	"errors"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// aOneKing is an International position: a white king on a1 (46) and black
// men on b2 (41) and f6 (23), all on the long diagonal. The king takes b2,
// may land on c3, d4 or e5 (from each the chain goes on), takes f6 and ends
// on g7, h8, i9 or j10. The engine lists one path per move (a1:c3:g7 ...),
// but every landing square is a legal way to write the move; they used to
// be rejected with "majority rule".
const aOneKing = "W:WK46:B41,23"

// TestOtherLandingSquaresResolve checks that a full path with other legal
// landing squares of a flying king resolves to the move with its start,
// end and captured set, with the engine's path for the capture order
// written.
func TestOtherLandingSquaresResolve(t *testing.T) {
	cases := []struct {
		v     *rules.Variant
		fen   string
		texts []string
		want  string // algebraic full path of the move they all are
	}{
		{rules.International, aOneKing, []string{"a1:c3:g7", "a1:d4:g7", "a1:e5:g7", "46x32x19", "46x28x19", "46-28-19", "a1xd4xg7"}, "a1:c3:g7"},
		{rules.International, aOneKing, []string{"a1:e5:j10", "46x32x5"}, "a1:c3:j10"},
		// Russian: the same on 8x8 (king a1, men b2 and f6).
		{rules.Russian, "W:WK29:B25,11", []string{"a1:d4:g7", "a1:e5:g7", "29x18x8"}, "a1:c3:g7"},
		{rules.Russian, "W:WK29:B25,11", []string{"a1:e5:h8"}, "a1:c3:h8"},
		// Brazilian and Canadian kings fly too.
		{rules.Brazilian, "W:WK29:B25,11", []string{"a1:d4:h8"}, "a1:c3:h8"},
		{rules.Canadian, "W:WK67:B61,34", []string{"a1:d4:i9", "a1:e5:i9", "a1:f6:i9"}, "a1:c3:i9"},
		// Two capture orders of one move, each written with another landing
		// square: each resolves to the engine's path of its own order (from
		// random games of International; the king loops round and comes
		// back over d8).
		{rules.International, "W:WK1,26,36,40,41,42,46:B4,5,7,8,9,15,17,23,24", []string{"1x18x29x20x3x12x21", "b10:e7:g5:i7:f10:d8:b6"}, "b10:d8:g5:i7:f10:d8:b6"},
		{rules.International, "W:WK1,26,36,40,41,42,46:B4,5,7,8,9,15,17,23,24", []string{"1x12x3x20x29x12x21"}, "b10:d8:f10:i7:g5:d8:b6"},
		// Frisian: the king takes c1 along the first row (its next dark
		// square is two files away), lands on e1, takes f2 and may land on
		// g3 or h4, from each of which it takes i5. The hop walk used to
		// follow diagonals only and rejected a1:e1:h4:j6 as "46 to 48 is
		// not along a diagonal".
		{rules.Frisian, "W:WKa1:BKc1,f2,i5", []string{"a1:e1:g3:j6", "a1:e1:h4:j6", "46x48x34x25"}, "a1:e1:g3:j6"},
	}
	for _, c := range cases {
		pos, err := rules.ParseFEN(c.v, c.fen)
		if err != nil {
			t.Fatal(err)
		}
		var want *rules.Move
		legal := pos.AppendMoves(nil, true)
		for i := range legal {
			if rules.FormatMove(c.v, &legal[i], rules.Algebraic, true) == c.want {
				want = &legal[i]
			}
		}
		if want == nil {
			t.Fatalf("%s %s: no legal path %s", c.v, c.fen, c.want)
		}
		for _, text := range c.texts {
			g, err := PlayLine(c.v, c.fen, []string{text})
			if err != nil {
				t.Errorf("%s %s: %v", c.v, text, err)
				continue
			}
			m := &g.Moves[0]
			if got := rules.FormatMove(c.v, m, rules.Algebraic, true); !m.SameAs(want) || got != c.want {
				t.Errorf("%s %s resolved to %s, want %s", c.v, text, got, c.want)
			}
		}
	}
}

// A full path with other landing squares wins over a longer capture that
// the text also fits, as an exact path does (TestFullPathWinsOverLongerCapture).
// Russian, king a1, black b2, d2, f2, f4, f6: a1:e5:g7 takes b2 and f6
// (engine path a1:c3:g7); its squares are also landing squares, in order,
// of a1:c3:e1:g3:e5:g7, which takes all five, and resolved to that.
func TestOtherLandingPathWinsOverLongerCapture(t *testing.T) {
	const fen = "W:WK29:B25,11,26,27,19"
	for text, want := range map[string]string{
		"a1:e5:g7":          "a1:c3:g7",
		"a1:d4:g7":          "a1:c3:g7",
		"a1:c3:e1:g3:e5:g7": "a1:c3:e1:g3:e5:g7",
		"a1:e1:g7":          "a1:c3:e1:g3:e5:g7", // a partial path still fits the long one
	} {
		g, err := PlayLine(rules.Russian, fen, []string{text})
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		if got := rules.FormatMove(rules.Russian, &g.Moves[0], rules.Algebraic, true); got != want {
			t.Errorf("%s resolved to %s, want %s", text, got, want)
		}
	}
}

// TestWrittenPathExplained checks that a path that is no legal move is
// rejected as illegal with what is wrong with it as written.
func TestWrittenPathExplained(t *testing.T) {
	cases := []struct {
		v      *rules.Variant
		fen    string
		text   string
		detail string
	}{
		{rules.International, aOneKing, "a1:f6:j10", "46 to 23 lands on an occupied square"},
		{rules.International, aOneKing, "a1:b2:c3", "46 to 41 lands on an occupied square"},
		{rules.International, aOneKing, "a1:d4:e5:g7", "no piece to capture between 32 and 28"},
		{rules.International, aOneKing, "a1:c3:a1", "37 to 46 jumps 41 a second time"},
		{rules.International, aOneKing, "a1:g7:h8", "46 to 19 jumps two pieces, 41 and 23"},
		{rules.International, aOneKing, "a1:c3:e7", "37 to 18 is not along a diagonal"},
		{rules.International, aOneKing, "a1:c3:c3:g7", "the path names 37 twice in a row"},
		// e5 is White's own: from c3 or d4 the king cannot reach f6.
		{rules.International, "W:WK46,28:B41,23", "a1:c3:g7", "37 to 19 is blocked by a piece of the mover's own on 28"},
		// King a1, black b2 and e3: after b2 only d4 lets the chain go on
		// (over e3), so the king must land there.
		{rules.International, "W:WK46:B41,38", "a1:c3", "after taking 41 the king must land where the capture goes on (32), not on 37"},
		{rules.International, "W:WK46:B41,38", "a1:e5", "after taking 41 the king must land where the capture goes on (32), not on 28"},
		// ... and with g3 too: after e3, f2 lets it go on, g1 does not.
		{rules.International, "W:WK46:B41,38,39", "a1:d4:g1", "after taking 38 the king must land where the capture goes on (43), not on 49"},
		{rules.International, "W:WK46:B41,38,39", "a1:d4:f2", "the capture does not stop on 43: it can go on to take 39"},
		// International men go on as men past the far row: d8xe9 lands on
		// f10 and may take g9 only by landing on h8.
		{rules.International, "W:W12:B8,9", "12x3x20", "a man takes by jumping to the square just beyond the piece, and 3 to 20 is longer"},
		// Russian men go on as kings: d8 to h4 is a king's hop, and only
		// the hop after it is wrong.
		{rules.Russian, "W:Wb6:Bc7,f6,a7", "b6:d8:h4:e1", "no piece to capture between h4 and e1"},
		{rules.Russian, "W:W22:B18", "c3:f6:h8", "a man takes by jumping to the square just beyond the piece, and c3 to f6 is longer"},
		// A partial path that stops on a landing square of the capture
		// keeps that reason (h4:f6:d8:a5:c3:h8, cut at a5).
		{rules.Russian, h4f6h8, "h4:d8:a5", "the capture does not stop on a5"},
		// English: the man promotes on 31 and the move ends; kings do
		// not fly; men take only forwards.
		{rules.English, "B:W26,27:B22", "22x31x24", "the man promotes on 31 and the move ends there; it cannot go on to 24"},
		{rules.English, "B:W14,23:BK5", "5x18x27", "kings do not fly in english draughts"},
		{rules.English, "B:W14:B18", "18x9x2", "men capture only forwards in english draughts, and 18 to 9 goes back"},
		// Turkish: along ranks and files only, never straight back (c1
		// leaves the board at once, so e1 to a1 crosses an empty square).
		{rules.Turkish, "W:WKa1:BKc1,e3,b5", "a1:e1:f2", "e1 to f2 is not along a rank or file"},
		{rules.Turkish, "W:WKa1:BKc1,e3,b5", "a1:e1:a1", "e1 to a1 turns straight back, which a capture may not do in turkish draughts"},
		{rules.Turkish, "W:WKa1:BKc1,e3,b5", "a1:e1:e4:a4", "no piece to capture between e4 and a4"},
		// Frisian: diagonals, rows and columns; a row's next dark square is
		// two files away (a1, c1, e1, ...), so a1 to b1 is on no line.
		{rules.Frisian, "W:WKa1:BKc1,f2,i5", "a1:e1:d4:j6", "48 to 32 is not along a diagonal, row or column"},
		{rules.Frisian, "W:WKa1:BKc1,f2,i5", "a1:e1:e5", "no piece to capture between 48 and 28"},
		// Thai: a king lands directly behind the piece it takes.
		{rules.Thai, "W:WKa1:Bc3", "a1:e5:h8", "a king lands directly behind the piece it takes in thai draughts, and 4 to 18 goes beyond 11"},
	}
	for _, c := range cases {
		_, err := PlayLine(c.v, c.fen, []string{c.text})
		var re *RejectError
		if !errors.Is(err, ErrIllegalMove) || !errors.As(err, &re) {
			t.Errorf("%s %s %s: err = %v, want an illegal move", c.v, c.fen, c.text, err)
			continue
		}
		if !strings.Contains(re.Detail, c.detail) {
			t.Errorf("%s %s %s: %q does not say %q", c.v, c.fen, c.text, re.Detail, c.detail)
		}
		if !strings.Contains(re.Detail, "(legal: ") {
			t.Errorf("%s %s %s: %q does not list the legal moves", c.v, c.fen, c.text, re.Detail)
		}
	}
}
