//go:build tools

// A composer, built only with the "tools" tag: see compose_test.go.

package search

import (
	"fmt"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestComposeWins composed the forced-win positions of TestMateScores
// (search_test.go): random positions of a few men where exactly one White
// move wins by force (the opponent left without a legal move) within 7
// plies, per the exhaustive reference of ref_test.go.
func TestComposeWins(t *testing.T) {
	v, rng := composeSetup(t, 3)
	n := v.Board.Squares()
	half := v.Board.Width / 2
	found := 0
	for iter := 0; iter < 200000 && found < 8; iter++ {
		pos := rules.NewPosition(v, rules.White)
		kw, kb := 3+rng.Intn(2), 2+rng.Intn(2)
		for c, k := range []int{kw, kb} {
			for placed := 0; placed < k; {
				s := 1 + rng.Intn(n)
				if pos.Piece(s) != rules.Empty || c == 0 && s <= 2*half || c == 1 && s > n-2*half {
					continue
				}
				pc := rules.WhiteMan
				if c == 1 {
					pc = rules.BlackMan
				}
				pos.SetPiece(s, pc)
				placed++
			}
		}
		ms := pos.LegalMoves(nil)
		if len(ms) < 3 || ms[0].IsCapture() {
			continue
		}
		moves, vals, nodes := refRootValues(pos, 7)
		wins := 0
		bi := 0
		for i := range vals {
			if vals[i] > refWin-100 {
				wins++
			}
			if vals[i] > vals[bi] {
				bi = i
			}
		}
		if wins != 1 || refWin-vals[bi] < 5 {
			continue
		}
		r := Search(pos, Options{Depth: 7}, nil)
		fmt.Printf("%s key=%s plies=%d nodes=%d engine=%s score=%d plies=%d\n", pos.FEN(),
			rules.FormatMove(pos.Variant(), &moves[bi], rules.Numeric, false), refWin-vals[bi], nodes,
			rules.FormatMove(pos.Variant(), &r.Best, rules.Numeric, false), r.Score, r.PliesToEnd())
		found++
	}
}
