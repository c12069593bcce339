package rules

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// randomTurkish returns a random crowded Turkish position: men of both
// sides anywhere but on their own far row (a man there is crowned), and,
// when kings is set, a few kings.
func randomTurkish(rng *rand.Rand, side Color, density int, kings bool) Position {
	p := NewPosition(Turkish, side)
	for sq := 1; sq <= 64; sq++ {
		r := rng.IntN(100)
		switch {
		case r < density/2 && sq > 8:
			p.SetPiece(sq, WhiteMan)
		case r >= density/2 && r < density && sq <= 56:
			p.SetPiece(sq, BlackMan)
		case kings && r >= density && r < density+2:
			p.SetPiece(sq, WhiteKing)
		case kings && r >= density+2 && r < density+4:
			p.SetPiece(sq, BlackKing)
		}
	}
	return p
}

// TestTurkishCountMatchesMoves checks the leaf counter (countMovesTurkish,
// tkCountMen for a side without kings) against the move generator on
// random crowded boards, in drop and keep mode, with White and Black to
// move (tkCountMen sees Black's board mirrored). It also checks that the
// boards reach the counter's cases: captures that are all single jumps
// (counted by population counts), chains of two and of four or more
// (searched), single jumps dropped by the majority rule beside a chain,
// men's captures beside kings that cannot capture (tkKingsJump, checked
// against the kings' search) and kings that can (the full search).
func TestTurkishCountMatchesMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 30))
	var singles, chains, long, outranked, black, withKings, kingsJump, plain int
	for i := range 20000 {
		side := Color(i & 1)
		p := randomTurkish(rng, side, 20+rng.IntN(50), i%4 == 3)
		us, them, kings, empty := tkSides(&p)
		for _, keep := range []bool{false, true} {
			moves := genMovesTurkish(&p, nil, keep)
			if n := countMovesTurkish(&p, nil, keep); n != len(moves) {
				t.Fatalf("%s keep=%v: countMovesTurkish %d, genMovesTurkish %d", p.FEN(), keep, n, len(moves))
			}
			if k := us & kings; k != 0 {
				jump := len(capturesTurkish(&p, nil, keep, 0, k)) > 0
				if tkKingsJump(k, them, empty) != jump {
					t.Fatalf("%s: tkKingsJump %v, the kings' search finds captures: %v", p.FEN(), !jump, jump)
				}
				if jump {
					kingsJump++
					continue
				}
			}
			men, opp, free := us&^kings, them, empty
			if side == Black {
				men, opp, free = bits.ReverseBytes64(men), bits.ReverseBytes64(opp), bits.ReverseBytes64(free)
			}
			caps := fullCaptures(&p, keep)
			if n := tkCountMen(men, opp, free); n != len(caps) {
				t.Fatalf("%s keep=%v: tkCountMen %d, full search %d", p.FEN(), keep, n, len(caps))
			}
			if len(caps) == 0 {
				plain++
				continue
			}
			if us&kings != 0 {
				withKings++ // men's captures beside kings that cannot capture
			}
			switch k := int(caps[0].n); {
			case k == 1:
				singles++
			case k >= 2:
				chains++
				if k >= 4 {
					long++
				}
				if side == Black {
					black++
				}
				// A man that can capture, but less than the longest chain.
				from := uint64(0)
				for _, m := range caps {
					from |= 1 << m.from
				}
				for x := us &^ from; x != 0; x &= x - 1 {
					if len(capturesTurkish(&p, nil, keep, x&-x, 0)) > 0 {
						outranked++
						break
					}
				}
			}
		}
	}
	t.Logf("%d single jumps, %d chains (%d of 4+, %d Black), %d outranked, %d beside kings that cannot capture, %d kings capture, %d plain",
		singles, chains, long, black, outranked, withKings, kingsJump, plain)
	if singles == 0 || chains == 0 || long == 0 || black == 0 || outranked == 0 || withKings == 0 || kingsJump == 0 || plain == 0 {
		t.Error("the random boards did not reach every case")
	}
}
