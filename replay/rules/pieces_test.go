package rules

import "testing"

// TestPieces: Pieces is the sum of Count's men and kings of both colours,
// on the starts of every variant and on positions with kings.
func TestPieces(t *testing.T) {
	for _, v := range Variants() {
		p := v.StartPosition()
		if got, want := p.Pieces(), 2*v.InitialRows*v.Board.Width/2; v.Name != "turkish" && got != want {
			t.Errorf("%s start: %d pieces, want %d", v.Name, got, want)
		}
	}
	p, err := ParseFEN(International, "W:WK48,K28,33:B3,K9")
	if err != nil {
		t.Fatal(err)
	}
	wm, wk := p.Count(White)
	bm, bk := p.Count(Black)
	if p.Pieces() != 5 || wm+wk+bm+bk != 5 {
		t.Errorf("W:WK48,K28,33:B3,K9: %d pieces, Count %d+%d+%d+%d; want 5", p.Pieces(), wm, wk, bm, bk)
	}
}
