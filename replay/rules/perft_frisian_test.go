package rules

import (
	"math/rand/v2"
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
// (countFrisian at the last ply) against the generated bodies on positions
// of random Frisian and Frysk games, kings included, in drop and keep mode,
// and that the games reach each of countFrisian's cases.
func TestPerftFrisianMatchesGenerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	checked := 0
	var cases [5]int // plain, single jumps, men's chains, king to move, opponent king
	for _, v := range []*Variant{Frisian, Frysk} {
		if !frisianFastRules(v) {
			t.Fatalf("%s: countFrisian does not apply", v.Name)
		}
		for game := 0; game < 60; game++ {
			p := v.StartPosition()
			for ply := 0; ply < 160; ply++ {
				if ply%4 == 0 {
					for _, keep := range []bool{false, true} {
						for d := 1; d <= 3; d++ {
							opts := PerftOptions{Keep: keep}
							want := perftFrisianGenerated(v, &p, d, opts)
							if got := Perft(v, &p, d, opts); got != want {
								t.Fatalf("%s %s keep=%v perft(%d) = %d, generated %d", v.Name, p.FEN(), keep, d, got, want)
							}
							checked++
						}
					}
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
