package rules

import "testing"

// FormatMove names English algebraic squares from Black's side and every
// other variant's from White's; numbers are the board's on every variant.
// The sites' names for English squares are checked against their games in
// package replay; here the mapping itself: English square s is named as
// the board names N+1-s, so the names of a move and of its mirror image
// through the board's centre swap.
func TestFormatMoveNamesSquaresPerVariant(t *testing.T) {
	for _, v := range variants {
		p := v.StartPosition()
		legal := p.LegalMoves(nil)
		if len(legal) == 0 {
			t.Fatalf("%s: no moves", v.Name)
		}
		b := v.Board
		for i := range legal {
			m := &legal[i]
			from, to := m.From(), m.To()
			wantFrom, wantTo := b.Algebraic(from), b.Algebraic(to)
			if v.AlgebraicFromBlack {
				wantFrom, wantTo = b.Algebraic(b.Squares()+1-from), b.Algebraic(b.Squares()+1-to)
			}
			if got, want := FormatMove(v, m, Algebraic, false), wantFrom+"-"+wantTo; got != want {
				t.Errorf("%s: %d-%d algebraic %q, want %q", v.Name, from, to, got, want)
			}
			if got, want := FormatMove(v, m, Numeric, true), itoa(from)+"-"+itoa(to); got != want {
				t.Errorf("%s: numeric %q, want %q", v.Name, got, want)
			}
			if got := MoveText(v, legal, m, v.DefaultNotation); got != FormatMove(v, m, v.DefaultNotation, false) {
				t.Errorf("%s: MoveText %q", v.Name, got)
			}
		}
	}
	// Outside evidence: playstrategy and lidraughts write English's 11-15
	// as c3-d4 (Black at the bottom: their c3 is our 11); Russian's c3-d4
	// is 22-18.
	for _, c := range []struct {
		v        *Variant
		from, to int
		want     string
	}{{English, 11, 15, "c3-d4"}, {English, 9, 14, "g3-f4"}, {English, 12, 16, "a3-b4"}, {Russian, 22, 18, "c3-d4"}} {
		p := c.v.StartPosition()
		m, ok := p.PlainMove(c.from, c.to)
		if !ok {
			t.Fatalf("%s %d-%d: not a legal move", c.v.Name, c.from, c.to)
		}
		if got := FormatMove(c.v, &m, Algebraic, false); got != c.want {
			t.Errorf("%s %d-%d: %q, want %q", c.v.Name, c.from, c.to, got, c.want)
		}
	}
}
