package rules

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// perftFrisianGenerated is Perft through the generated bodies only
// (perftSpecialTenFrisian), bypassing perft_frisian.go.
func perftFrisianGenerated(v *Variant, pos *Position, depth int, opts PerftOptions) uint64 {
	p := *pos
	p.v = v
	c := newPerftCtx(depth, opts)
	for i := range c.pos {
		c.pos[i].v = v
	}
	c.special = v.special != 0
	c.pos[depth] = p
	if c.special {
		return c.perftSpecialTenFrisian(depth)
	}
	return c.perftTenFrisian(depth)
}

// TestPerftFrisianMatchesGenerated checks Frisian's hand-written perft
// (countFrisianBits at the last ply) against the generated bodies on positions
// of random Frisian and Frysk games, kings included, in drop and keep mode,
// and that the games reach each of countFrisianBits's cases.
func TestPerftFrisianMatchesGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	checked := 0
	var cases [5]int // plain, single jumps, men's chains, king to move, opponent king
	for _, v := range []*Variant{Frisian, Frysk} {
		if !frisianFastRules(v) {
			t.Fatalf("%s: countFrisianBits does not apply", v.Name)
		}
		for game := 0; game < 60; game++ {
			p := v.StartPosition()
			for ply := 0; ply < 160; ply++ {
				// Depth 2 at every ply (perft2Frisian's children), 3 at every
				// fourth.
				maxDepth := 2
				if ply%4 == 0 {
					maxDepth = 3
				}
				for _, keep := range []bool{false, true} {
					for d := 1; d <= maxDepth; d++ {
						opts := PerftOptions{Keep: keep}
						want := perftFrisianGenerated(v, &p, d, opts)
						if got := Perft(v, &p, d, opts); got != want {
							t.Fatalf("%s %s keep=%v perft(%d) = %d, generated %d", v.Name, p.FEN(), keep, d, got, want)
						}
						checked++
					}
				}
				if ply%4 == 0 {
					us, them, kings, _ := sidesTenFrisian(&p)
					switch moves := p.LegalMoves(nil); {
					case us.and(kings).any():
						cases[3]++
					case them.and(kings).any():
						cases[4]++
					case len(moves) > 0 && moves[0].n == 0:
						cases[0]++
					case len(moves) > 0 && moves[0].n == 1:
						cases[1]++
					case len(moves) > 0:
						cases[2]++
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
	for i, n := range cases {
		if n < 5 {
			t.Errorf("case %d reached %d times: %v", i, n, cases)
		}
	}
	t.Logf("%d perft counts checked; cases %v", checked, cases)
}

// TestPerftFrisianCrowningJump: White's capture crowns the man, and then
// Black must take the new king rather than the man on 33 (28x39): a
// single jump (14x3, then 2x4) and a capture of two (24x4, then 5x3).
// perft2Frisian must crown the men its children land on the far row.
func TestPerftFrisianCrowningJump(t *testing.T) {
	for _, tc := range []struct{ fen, move, reply string }{
		{"W:W14,33:B1,2,9,28", "14x3", "2x4"},
		{"W:W24,33:B5,9,19,28", "24x4", "5x3"},
	} {
		p, err := ParseFEN(Frisian, tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		for d := 1; d <= 4; d++ {
			want := perftFrisianGenerated(Frisian, &p, d, PerftOptions{})
			if got := Perft(Frisian, &p, d, PerftOptions{}); got != want {
				t.Errorf("%s: perft(%d) = %d, generated %d", tc.fen, d, got, want)
			}
		}
		for _, e := range Divide(Frisian, &p, 2, PerftOptions{}) {
			if e.Move == tc.move && e.Nodes != 1 {
				t.Errorf("%s: %s: %d replies, want 1 (%s takes the king)", tc.fen, tc.move, e.Nodes, tc.reply)
			}
		}
	}
}

// TestFrisianMenCountMatchesSearch checks frisianMenCount and
// frisianMenKids against the full search of men's captures (where only
// men can capture) on random crowded Frisian boards, some with Black
// kings (ranked captures), in drop and keep mode, and that the boards
// reach their rare cases: captures drop mode merges, chains of three or
// more, too many chains to record.
func TestFrisianMenCountMatchesSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	checked, merged, long, deeper, overflow, kidsFull := 0, 0, 0, 0, 0, 0
	// Perft keeps one of each search for a whole tree (frisianLeaf):
	// reused, they must count as fresh ones.
	var mcReused frisianMenCount
	var mkReused frisianMenKids
	for game := range 6000 {
		p := NewPosition(Frisian, White)
		for sq := 1; sq <= 50; sq++ {
			switch r := rng.IntN(20); {
			case r < 6 && sq > 5:
				p.SetPiece(sq, WhiteMan)
			case r >= 6 && r < 14 && sq <= 45:
				p.SetPiece(sq, BlackMan)
			case r == 14 && game%2 == 0:
				p.SetPiece(sq, BlackKing)
			}
		}
		us, them, kings, empty := sidesTenFrisian(&p)
		var counts [2]int
		for ki, keep := range []bool{false, true} {
			want := len(fullCapturesOf(&p, keep, true, false))
			if want == 0 {
				break
			}
			var c frisianMenCount
			n, ok := c.count(keep, them, them.and(kings), empty, us.andNot(kings))
			if !ok {
				overflow++
				continue
			}
			if n != want {
				t.Fatalf("%s keep=%v: frisianMenCount %d, search %d", p.FEN(), keep, n, want)
			}
			if n2, ok2 := mcReused.count(keep, them, them.and(kings), empty, us.andNot(kings)); n2 != n || !ok2 {
				t.Fatalf("%s keep=%v: frisianMenCount reused %d %v, fresh %d", p.FEN(), keep, n2, ok2, n)
			}
			// frisianMenKids finds the same captures: start, end and
			// captured pieces, as many times as the search lists them.
			var mk frisianMenKids
			full := !mk.find(keep, them, them.and(kings), empty, us.andNot(kings))
			if fullReused := !mkReused.find(keep, them, them.and(kings), empty, us.andNot(kings)); fullReused != full ||
				!full && !slices.Equal(mkReused.kids[:mkReused.nk], mk.kids[:mk.nk]) {
				t.Fatalf("%s keep=%v: frisianMenKids reused found %d (full %v), fresh %d (full %v)", p.FEN(), keep, mkReused.nk, fullReused, mk.nk, full)
			}
			if full {
				// perftFrisianBits then generates the moves.
				kidsFull++
				for d := 2; d <= 3; d++ {
					opts := PerftOptions{Keep: keep}
					if got, want := Perft(Frisian, &p, d, opts), perftFrisianGenerated(Frisian, &p, d, opts); got != want {
						t.Fatalf("%s keep=%v: perft(%d) = %d, generated %d", p.FEN(), keep, d, got, want)
					}
				}
			} else {
				found := map[menCountRecTenFrisian]int{}
				for _, x := range mk.kids[:mk.nk] {
					found[x]++
				}
				for _, m := range fullCapturesOf(&p, keep, true, false) {
					found[menCountRecTenFrisian{captured: loadTen(&m.captured), from: m.from, to: m.to}]--
				}
				for x, k := range found {
					if k != 0 {
						t.Fatalf("%s keep=%v: frisianMenKids has %+v %d times more than the search", p.FEN(), keep, x, k)
					}
				}
			}
			checked++
			counts[ki] = n
			if c.best >= 3<<6 || !c.ranked && c.best >= 3 {
				long++
			}
			if !c.ranked && c.best >= 4 {
				deeper++ // past the unrolled jumps: man's recursion
			}
		}
		if counts[0] != 0 && counts[1] > counts[0] {
			merged++
		}
	}
	t.Logf("%d counts checked, %d merged in drop mode, %d of three or more (%d of four or more without kings), %d too many chains, %d too many for frisianMenKids", checked, merged, long, deeper, overflow, kidsFull)
	if checked == 0 || merged == 0 || long == 0 || deeper == 0 || overflow == 0 || kidsFull == 0 {
		t.Errorf("the boards did not reach every case: %d checked, %d merged, %d long, %d of four or more, %d overflowed, %d kids overflowed", checked, merged, long, deeper, overflow, kidsFull)
	}
}

// TestFrisianJumps checks frisianJumps, the searches' branch-free jump
// set, against the neighbour and landing tables of the generated search
// (menNbTenFrisian, menLandTenFrisian) on every square of random boards,
// the man's own square empty (a start) or not (a square landed on), and
// that frisianAxisNb splits menNbTenFrisian[0] by axis.
func TestFrisianJumps(t *testing.T) {
	for i := range 64 {
		var all bbTen
		for a, nb := range frisianAxisNb[i] {
			if all&nb != 0 {
				t.Fatalf("square bit %d: axis %d overlaps another", i, a)
			}
			all |= nb
		}
		if all != menNbTenFrisian[0][i] {
			t.Fatalf("square bit %d: axes %#x, menNbTenFrisian %#x", i, all, menNbTenFrisian[0][i])
		}
	}
	rng := rand.New(rand.NewPCG(9, 10))
	found := 0
	for range 20000 {
		var opp, empty bbTen
		for sq := range 64 {
			if !validTen().has(sq) {
				continue
			}
			switch rng.IntN(3) {
			case 0:
				opp |= bitTen(sq)
			case 1:
				empty |= bitTen(sq)
			}
		}
		for i := range 64 {
			if !validTen().has(i) || opp.has(i) {
				continue
			}
			e := empty
			if rng.IntN(2) == 0 {
				e |= bitTen(i)
			}
			var want bbTen
			land := e & menLandTenFrisian[i]
			for x := menNbTenFrisian[0][i] & opp; x != 0; x &= x - 1 {
				tt := x.lowest()
				if land.has(2*tt - i) {
					want |= bitTen(tt)
				}
			}
			if got := frisianJumps(i, opp, e); got != want {
				t.Fatalf("square bit %d, opp %#x, empty %#x: frisianJumps %#x, want %#x", i, opp, e, got, want)
			}
			if want != 0 {
				found++
			}
		}
	}
	if found == 0 {
		t.Error("no jumps on the random boards")
	}
}

// TestFrisianQuiet2 checks frisianQuiet2's bulk count on the positions of
// random Frisian and Frysk games where both sides have only men: the plain
// moves it leaves out of loopA and loopB must be those after which the
// opponent has no capture, and its sum their counts (countFrisianBits
// child by child); and that the games reach both the bulk count and the
// threats it declines.
func TestFrisianQuiet2(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var bulk, threats, looped int
	for game := range 400 {
		v := Frisian
		if game%2 == 1 {
			v = Frysk
		}
		p := v.StartPosition()
		for ply := 0; ply < 120; ply++ {
			moves := p.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			checkFrisianQuiet2(t, &p, &bulk, &threats, &looped)
			p.Play(&moves[rng.IntN(len(moves))])
		}
	}
	t.Logf("%d bulk counts, %d children left to the loop, %d positions with threats", bulk, looped, threats)
	if bulk == 0 || looped == 0 || threats == 0 {
		t.Errorf("the games did not reach every case: %d bulk, %d looped, %d threats", bulk, looped, threats)
	}
}

func checkFrisianQuiet2(t *testing.T, p *Position, bulk, threats, looped *int) {
	t.Helper()
	side := p.side
	us, them, kings, empty := sidesTenFrisian(p)
	if (us|them)&kings != 0 {
		return
	}
	men := us
	ow, oe := orthoWTen(), orthoETen()
	cj := them&(empty<<sBTen)<<sBTen | them&(empty<<sATen)<<sATen |
		them&(empty>>sATen)>>sATen | them&(empty>>sBTen)>>sBTen |
		them&ow&((empty&ow)<<1)<<1 | them&oe&((empty&oe)>>1)>>1 |
		them&(empty<<sVTen)<<sVTen | them&(empty>>sVTen)>>sVTen
	if men&cj != 0 {
		return // a capture: not frisianQuiet2's case
	}
	fwdA, fwdB := men>>sBTen&empty, men>>sATen&empty
	backA, backB := sBTen, sATen
	if side == Black {
		fwdA, fwdB = men<<sATen&empty, men<<sBTen&empty
		backA, backB = -sATen, -sBTen
	}
	n, loopA, loopB, ok := frisianQuiet2(men, them, empty, fwdA, fwdB, backA, backB, side)
	if !ok {
		*threats++
		return
	}
	*bulk++
	leaf := frisianLeaf{q: &Position{v: p.v}}
	want := 0
	for _, d := range []struct {
		fwd, loop bbTen
		back      int
	}{{fwdA, loopA, backA}, {fwdB, loopB, backB}} {
		if d.loop&^d.fwd != 0 {
			t.Fatalf("%s: loop %#x outside the moves %#x", p.FEN(), d.loop, d.fwd)
		}
		for x := d.fwd; x != 0; x &= x - 1 {
			to := x & -x
			from := bitTen(to.lowest() + d.back)
			child := us ^ from ^ to
			e := validTen() &^ (child | them)
			cc := child&(e<<sBTen)<<sBTen | child&(e<<sATen)<<sATen |
				child&(e>>sATen)>>sATen | child&(e>>sBTen)>>sBTen |
				child&ow&((e&ow)<<1)<<1 | child&oe&((e&oe)>>1)>>1 |
				child&(e<<sVTen)<<sVTen | child&(e>>sVTen)>>sVTen
			capture := them&cc != 0
			if d.loop&to != 0 {
				*looped++
				continue
			}
			if capture {
				t.Fatalf("%s: after the move to bit %d the opponent can capture, but it was counted in bulk", p.FEN(), to.lowest())
			}
			want += countFrisianBits(&leaf, them, child, to&promoRowTen(side), side^1)
		}
	}
	if n != want {
		t.Fatalf("%s: frisianQuiet2 counted %d, the children %d", p.FEN(), n, want)
	}
}
