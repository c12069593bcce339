package replay

import (
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

func TestParseMoveText(t *testing.T) {
	b10, b8 := rules.Board10x10, rules.Board8x8
	cases := []struct {
		b       *rules.Board
		text    string
		ok      bool
		squares []int
		capture bool
		short   bool
	}{
		{b10, "32-28", true, []int{32, 28}, false, false},
		{b10, "28x19x10", true, []int{28, 19, 10}, true, false},
		{b10, "01-07", true, []int{1, 7}, false, false},
		{b10, "28:19", true, []int{28, 19}, true, false},
		{b10, "51-46", false, nil, false, false},
		{b10, "1-", false, nil, false, false},
		{b10, "1--6", false, nil, false, false},
		{b10, "32-28+", true, []int{32, 28}, false, false},
		{b10, "0007-0012", true, []int{7, 12}, false, false},
		{b8, "c3-d4", true, []int{22, 18}, false, false},
		{b8, "c3:e5:g7", true, []int{22, 15, 8}, true, false},
		{b8, "c3d4", true, []int{22, 18}, false, false},
		{b8, "cd4", true, []int{18}, false, true},
		{b8, "i3-d4", false, nil, false, false},
		{b8, "22-d4", true, []int{22, 18}, false, false},
	}
	for _, c := range cases {
		var mt moveText
		ok := parseMoveText(c.b, c.text, false, &mt)
		if ok != c.ok {
			t.Errorf("%q: ok = %v", c.text, ok)
			continue
		}
		if !ok {
			continue
		}
		got := mt.sq[:mt.n]
		if len(got) != len(c.squares) || mt.capture != c.capture || mt.short != c.short {
			t.Errorf("%q: squares %v capture %v short %v", c.text, got, mt.capture, mt.short)
			continue
		}
		for i := range got {
			if got[i] != c.squares[i] {
				t.Errorf("%q: squares %v, want %v", c.text, got, c.squares)
			}
		}
	}
}

// TestEnglishAlgebraicFEN: English algebraic squares are named from
// Black's side in the moves (rules.Variant.AlgebraicFromBlack), and a FEN tag or setup of
// the same record names them alike. Reading the FEN's "c3" as our 22 and
// the moves' "c3" as our 11 made a record written wholly in algebraic
// unplayable ("the piece on 22 is White's").
func TestEnglishAlgebraicFEN(t *testing.T) {
	cases := []struct{ pdn, fen, moves string }{
		// Black's man on its c3 (our 11), White's on its f6 (our 22).
		{"[GameType \"21\"]\n[FEN \"B:Wf6:Bc3\"]\n1. c3-d4 f6-e5 *", "B:W22:B11", "11-15 22-18"},
		{"[GameType \"21\"]\n[FEN \"B:W22:B11\"]\n1. c3-d4 f6-e5 *", "B:W22:B11", "11-15 22-18"},
		// Kings, a range between two named squares, the trailing dot.
		{"[GameType \"21\"]\n[FEN \"B:WKf6:Ba1-e1.\"]\n1. a1-b2 *", "B:WK22:B2,3,4", "4-8"},
		{"[GameType \"21\"]\n1. 9-14 /FEN \"W:Wf6:Bc3\"/ 2. f6-e5 *", "", "9-14 22-18"},
	}
	for _, c := range cases {
		g, err := replayText(t, c.pdn, Options{})
		if err != nil {
			t.Errorf("%q: %v", c.pdn, err)
			continue
		}
		if g.StartFEN != c.fen {
			t.Errorf("%q: start %q, want %q", c.pdn, g.StartFEN, c.fen)
		}
		var got []string
		for i := range g.Moves {
			got = append(got, rules.FormatMove(g.Variant, &g.Moves[i], rules.Numeric, false))
		}
		if s := strings.Join(got, " "); s != c.moves {
			t.Errorf("%q: moves %q, want %q", c.pdn, s, c.moves)
		}
	}
	// Other 8x8 variants name squares from White's side, as before.
	g, err := replayText(t, "[GameType \"25\"]\n[FEN \"W:Wc3:Bf6\"]\n1. c3-d4 *", Options{})
	if err != nil || g.StartFEN != "W:W22:B11" {
		t.Errorf("Russian FEN c3/f6: %q, %v", g.StartFEN, err)
	}
}
