package codec

import (
	"math/rand/v2"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestMoveCodesNameMoves plays random games and checks, in every position,
// that each legal move has its own code and that the code reads back as
// the move's start, end and capture flag.
func TestMoveCodesNameMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, v := range rules.Variants() {
		positions, ambiguous := 0, 0
		for game := 0; game < 300; game++ {
			pos := v.StartPosition()
			for ply := 0; ply < 200; ply++ {
				legal := pos.LegalMoves(nil)
				if len(legal) == 0 {
					break
				}
				positions++
				codes := map[MoveCode]int{}
				for i := range legal {
					m := &legal[i]
					c := MoveCodeOf(m)
					if j, dup := codes[c]; dup {
						t.Fatalf("%s %s: %s and %s share code %x", v.Name, pos.FEN(),
							rules.FormatMove(v, m, rules.Numeric, true), rules.FormatMove(v, &legal[j], rules.Numeric, true), c)
					}
					codes[c] = i
					if c.From() != m.From() || c.To() != m.To() || c.Capture() != m.IsCapture() || c>>31 != 0 {
						t.Fatalf("%s: code %x of %s reads %d %d %v", v.Name, c, rules.FormatMove(v, m, rules.Numeric, true), c.From(), c.To(), c.Capture())
					}
					if rules.Ambiguous(legal, m) {
						ambiguous++
					}
				}
				pos.Play(&legal[rng.IntN(len(legal))])
			}
		}
		t.Logf("%s: %d positions, %d moves sharing start and end with another", v.Name, positions, ambiguous)
	}
}

func TestCountsPack(t *testing.T) {
	for _, c := range []Counts{{}, {1, 2, 3, 4}, {65535, 0, 65535, 1}, {65535, 65535, 65535, 65535}} {
		if got := UnpackCounts(c.Pack()); got != c {
			t.Errorf("%v -> %x -> %v", c, c.Pack(), got)
		}
	}
}
