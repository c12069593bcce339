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

// TestTurkishStepOrder checks the order of the men's steps (the
// generation order, which the search's move ordering starts from): by
// square, then forwards, left, right, as before genMovesTurkish built them
// from bit sets; the kings' moves follow.
func TestTurkishStepOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 31))
	checked := 0
	for i := range 5000 {
		p := randomTurkish(rng, Color(i&1), 4+rng.IntN(24), i%2 == 0)
		moves := genMovesTurkish(&p, nil, false)
		if len(moves) == 0 || moves[0].IsCapture() {
			continue
		}
		fwd := tkDelta[tkFwd(p.side)]
		var want []Move
		us, _, kings, empty := tkSides(&p)
		for x := us &^ kings; x != 0; x &= x - 1 {
			i := bits.TrailingZeros64(x)
			for _, s := range []struct{ t, d int }{{i + fwd, tkFwd(p.side)}, {i - 1, 2}, {i + 1, 3}} {
				if tkHas(empty&tkEnter(s.d), s.t) {
					want = append(want, Move{from: uint8(i), to: uint8(s.t)})
				}
			}
		}
		if len(moves) < len(want) {
			t.Fatalf("%s: %d moves, %d men's steps", p.FEN(), len(moves), len(want))
		}
		for k, w := range want {
			if moves[k].from != w.from || moves[k].to != w.to {
				t.Fatalf("%s: move %d is %d-%d, want %d-%d", p.FEN(), k, moves[k].from, moves[k].to, w.from, w.to)
			}
		}
		for _, m := range moves[len(want):] {
			if !tkHas(us&kings, int(m.from)) {
				t.Fatalf("%s: a man's step %d-%d after the men's steps", p.FEN(), m.from, m.to)
			}
		}
		checked++
	}
	if checked < 1000 {
		t.Errorf("only %d positions without captures", checked)
	}
}
