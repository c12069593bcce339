package rules

import (
	"slices"
	"strings"
	"testing"
)

// ruleCase is a hand-checked position: every legal move written with its
// full path in algebraic notation (c3:e5:g7), sorted.
type ruleCase struct {
	v    *Variant
	name string
	fen  string
	want string // space-separated, any order
}

var ruleCases = []ruleCase{
	// Czech: a king that can capture must. The king on a1 takes c3 and
	// goes on over g7 (landing d4..f6, then h8) or over f4 (from e5); the
	// man's e3:g5 is not legal. Russian lets either capture.
	{Czech, "king precedence", "W:WKa1,e3:Bc3,f4,g7", "a1:d4:h8 a1:e5:g3 a1:e5:h2"},
	{Russian, "no king precedence", "W:WKa1,e3:Bc3,f4,g7", "a1:d4:h8 a1:e5:g3 a1:e5:h2 e3:g5"},
	// Czech: the king's captures win over the man's c1:e3:g5 (two pieces)
	// whatever their size; Pool (free choice) lists all.
	{Czech, "king before quantity", "W:WKa1,c1:Bc3,d2,f4,e7", "a1:e5:g3 a1:e5:h2 a1:f6:d8"},
	{Pool, "free choice", "W:WKa1,c1:Bc3,d2,f4,e7", "a1:e5:g3 a1:e5:h2 a1:f6:d8 c1:e3:g5"},
	// Czech: men capture forwards only; no king, so free choice.
	{Czech, "men forwards", "W:We3,c3:Bd2,f4,b4,d6", "c3:a5 e3:g5"},
}

func TestVariantRules(t *testing.T) {
	for _, c := range ruleCases {
		pos, err := ParseFEN(c.v, c.fen)
		if err != nil {
			t.Fatalf("%s %s: %v", c.v.Name, c.name, err)
		}
		var got []string
		for _, m := range pos.LegalMoves(nil) {
			got = append(got, FormatMove(&m, Algebraic, true))
		}
		slices.Sort(got)
		want := strings.Fields(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s %s %s: got %v, want %v", c.v.Name, c.name, c.fen, got, want)
		}
	}
}
