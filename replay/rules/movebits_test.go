package rules

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestMoveBits: FromBit, ToBit and CapturedBits name the squares From, To
// and Captured name, as Board.Bit maps them, for every legal move along
// random games of every variant; and Board.Bit is one to one.
func TestMoveBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 17))
	for _, v := range Variants() {
		b := v.Board
		seen := map[int]int{}
		for s := 1; s <= b.Squares(); s++ {
			bit := b.Bit(s)
			if o, dup := seen[bit]; dup || bit < 0 || bit >= 128 {
				t.Fatalf("%s: Bit(%d) = %d (square %d has it too: %v)", v.Name, s, bit, o, dup)
			}
			seen[bit] = s
		}
		moves, checked := []Move(nil), 0
		for game := 0; game < 20; game++ {
			pos := v.StartPosition()
			for ply := 0; ply < 80; ply++ {
				moves = pos.LegalMoves(moves[:0])
				if len(moves) == 0 {
					break
				}
				for i := range moves {
					m := &moves[i]
					if b.Bit(m.From()) != m.FromBit() || b.Bit(m.To()) != m.ToBit() {
						t.Fatalf("%s: %v: bits %d-%d, squares %d-%d map to %d-%d", v.Name, m, m.FromBit(), m.ToBit(), m.From(), m.To(), b.Bit(m.From()), b.Bit(m.To()))
					}
					var want [2]uint64
					for _, s := range m.Captured(nil) {
						setBit(&want, b.Bit(s))
					}
					if got := m.CapturedBits(); got != want {
						t.Fatalf("%s: %v: CapturedBits %x, the bits of Captured %v are %x", v.Name, m, got, m.Captured(nil), want)
					}
					if n := bits.OnesCount64(want[0]) + bits.OnesCount64(want[1]); n != len(m.Captured(nil)) {
						t.Fatalf("%s: %v: %d captured bits for %d captured pieces", v.Name, m, n, len(m.Captured(nil)))
					}
					checked++
				}
				pos.Play(&moves[rng.IntN(len(moves))])
			}
		}
		if checked < 1000 {
			t.Errorf("%s: only %d moves checked", v.Name, checked)
		}
	}
}
