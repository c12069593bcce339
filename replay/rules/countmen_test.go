package rules

import (
	"math/rand/v2"
	"testing"
)

// countMenOf runs the generator's leaf counter of men's captures
// (countMen*) on every man of the side to move.
func countMenOf(p *Position, keep bool) (int, bool) {
	v := p.v
	switch v.gen {
	case movegenEight:
		us, them, k, empty := sidesEight(p)
		return countMenEight(p, keep, menTargetsEight(v, them, k), empty, us.andNot(k))
	case movegenTen:
		us, them, k, empty := sidesTen(p)
		return countMenTen(p, keep, menTargetsTen(v, them, k), empty, us.andNot(k))
	case movegenTenFrisian:
		us, them, k, empty := sidesTenFrisian(p)
		return countMenTenFrisian(p, keep, menTargetsTenFrisian(v, them, k), empty, us.andNot(k))
	case movegenTwelve:
		us, them, k, empty := sidesTwelve(p)
		return countMenTwelve(p, keep, menTargetsTwelve(v, them, k), empty, us.andNot(k))
	}
	return 0, false
}

// TestCountMenMatchesSearch checks the leaf counter of men's captures
// against the full search, on random games of the variants where it is
// used (the majority rule, men that go on capturing as men), in drop and
// keep mode: wherever only men can capture, it counts what the search
// generates, or says it cannot (more different chains of the highest rank
// than it records). It also checks that the games reach the counter's
// rare cases: captures that drop mode merges (a man's loop) and too many
// chains to record.
func TestCountMenMatchesSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	checked, merged, overflow := 0, 0, 0
	for _, v := range variants {
		if !v.MajorityCapture || v.Promotion == PromoteAndContinue || v.gen == movegenEightThai || v.gen == movegenTurkish {
			continue
		}
		for game := 0; game < 400; game++ {
			p := v.StartPosition()
			for ply := 0; ply < 200; ply++ {
				if len(fullCapturesOf(&p, false, false, true)) == 0 {
					var counts [2]int
					for ki, keep := range []bool{false, true} {
						men := fullCapturesOf(&p, keep, true, false)
						if len(men) == 0 {
							break
						}
						n, ok := countMenOf(&p, keep)
						if !ok {
							overflow++
							continue
						}
						checked++
						if n != len(men) {
							t.Fatalf("%s %s keep=%v: countMen %d, search %d", v.Name, p.FEN(), keep, n, len(men))
						}
						counts[ki] = n
					}
					if counts[0] != 0 && counts[1] > counts[0] {
						merged++
					}
				}
				moves := p.LegalMoves(nil)
				if len(moves) == 0 {
					break
				}
				p.Play(&moves[rng.IntN(len(moves))])
			}
		}
	}
	// Random crowded boards of International and Frisian men reach the
	// chains the games do not: more than the counter records.
	for _, v := range []*Variant{International, Frisian} {
		for range 3000 {
			p := NewPosition(v, White)
			for sq := 1; sq <= v.Board.Squares(); sq++ {
				switch r := rng.IntN(10); {
				case r < 3 && sq > 5:
					p.SetPiece(sq, WhiteMan)
				case r >= 3 && r < 7 && sq <= 45:
					p.SetPiece(sq, BlackMan)
				}
			}
			for _, keep := range []bool{false, true} {
				men := fullCapturesOf(&p, keep, true, false)
				n, ok := countMenOf(&p, keep)
				switch {
				case !ok:
					overflow++
				case n != len(men):
					t.Fatalf("%s %s keep=%v: countMen %d, search %d", v.Name, p.FEN(), keep, n, len(men))
				default:
					checked++
				}
				if !ok && p.countMoves(nil, keep) != len(p.AppendMoves(nil, keep)) {
					t.Fatalf("%s %s keep=%v: countMoves differs from the moves", v.Name, p.FEN(), keep)
				}
			}
		}
	}
	t.Logf("%d counts checked, %d positions where drop merges men's captures, %d too many chains", checked, merged, overflow)
	if checked == 0 || merged == 0 || overflow == 0 {
		t.Errorf("the games did not reach every case: %d checked, %d merged, %d overflowed", checked, merged, overflow)
	}
}
