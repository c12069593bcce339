package rules

import (
	"math/rand/v2"
	"testing"
)

// PlainMove must agree with LegalMoves on every (from, to) pair of many
// positions from random games in every variant.
func TestPlainMoveAgreesWithLegalMoves(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	var buf []Move
	for _, v := range Variants() {
		n := v.Board.Squares()
		checked := 0
		for game := 0; game < 40; game++ {
			p := v.StartPosition()
			for ply := 0; ply < 150; ply++ {
				buf = p.LegalMoves(buf[:0])
				if len(buf) == 0 {
					break
				}
				want := map[[2]int]Move{}
				for _, m := range buf {
					if !m.IsCapture() {
						want[[2]int{m.From(), m.To()}] = m
					}
				}
				for from := 1; from <= n; from++ {
					for to := 1; to <= n; to++ {
						got, ok := p.PlainMove(from, to)
						w, legal := want[[2]int{from, to}]
						if ok != legal || ok && got != w {
							t.Fatalf("%s %s: PlainMove(%d, %d) = %v %v, LegalMoves has %v %v", v.Name, p.FEN(), from, to, got, ok, w, legal)
						}
						checked++
					}
				}
				m := buf[rng.IntN(len(buf))]
				p.Play(&m)
			}
		}
		if checked < 100000 {
			t.Fatalf("%s: only %d pairs checked", v.Name, checked)
		}
	}
}
