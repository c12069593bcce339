package search

import (
	"math/rand/v2"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// reversed is pos turned by 180 degrees with the colours and the side to
// move swapped: the same position for the other side.
func reversed(pos *rules.Position) rules.Position {
	v := pos.Variant()
	n := v.Board.Squares()
	q := rules.NewPosition(v, pos.SideToMove().Opponent())
	swap := map[rules.Piece]rules.Piece{rules.WhiteMan: rules.BlackMan, rules.BlackMan: rules.WhiteMan,
		rules.WhiteKing: rules.BlackKing, rules.BlackKing: rules.WhiteKing}
	for s := 1; s <= n; s++ {
		if pc := pos.Piece(s); pc != rules.Empty {
			q.SetPiece(n+1-s, swap[pc])
		}
	}
	q.SetSideToMove(pos.SideToMove().Opponent())
	return q
}

// TestLearnedEvaluation: every variant with a weights file evaluates with
// it (Learned names it), and on the positions of random games the
// evaluation of a position and of its colour-reversed image with the
// other side to move are the same, and the hand-set evaluation is still
// there (EvaluateHandSet, Options.HandSet).
func TestLearnedEvaluation(t *testing.T) {
	if _, ok := Learned(rules.International); !ok {
		t.Fatal("international: no learned weights embedded")
	}
	rng := rand.New(rand.NewPCG(3, 9))
	for _, v := range rules.Variants() {
		name, ok := Learned(v)
		if !ok {
			continue
		}
		if len(name) < len(v.Name) || name[:len(v.Name)] != v.Name {
			t.Errorf("%s: weights named %q", v.Name, name)
		}
		differs := 0
		for g := 0; g < 20; g++ {
			pos := v.StartPosition()
			for ply := 0; ply < 120; ply++ {
				moves := pos.LegalMoves(nil)
				if len(moves) == 0 {
					break
				}
				if e, r := Evaluate(pos), Evaluate(reversed(&pos)); e != r {
					t.Fatalf("%s %s: evaluates to %d, its colour-reversed image to %d", v.Name, pos.FEN(), e, r)
				}
				if Evaluate(pos) != EvaluateHandSet(pos) {
					differs++
				}
				pos.Play(&moves[rng.IntN(len(moves))])
			}
		}
		if differs == 0 {
			t.Errorf("%s: the learned evaluation equals the hand-set one everywhere", v.Name)
		}
		pos := v.StartPosition()
		hand := Search(pos, Options{Depth: 4, HandSet: true}, nil)
		learned := Search(pos, Options{Depth: 4}, nil)
		if hand.Nodes == learned.Nodes && hand.Score == learned.Score {
			t.Errorf("%s: Options.HandSet searched as the learned evaluation (%d nodes)", v.Name, hand.Nodes)
		}
	}
}
