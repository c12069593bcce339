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

// TestLearnedCombinedTable: the evaluation through the combined table
// (one lookup per block) gives exactly the plain evaluation's score (both
// views looked up one by one) on the positions of random games, kings and
// all, for every variant with learned weights, and for weights that are
// not the embedded ones (random ones, through NewLearnedEvaluation).
// Weights whose differences overflow the table's int16 leave it out and
// evaluate on the plain path, with the same scores as the plain path by
// construction, so for them the test only checks that the table is left
// out.
func TestLearnedCombinedTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 17))
	check := func(name string, e *learned, f *fastBoard, v *rules.Variant) {
		if e.both == nil {
			t.Fatalf("%s: no combined table: the blocks of the two views did not pair up", name)
		}
		n := 0
		for g := 0; g < 200; g++ {
			pos := v.StartPosition()
			for ply := 0; ply < 200; ply++ {
				moves := pos.LegalMoves(nil)
				if len(moves) == 0 {
					break
				}
				var fb fboard
				f.load(&pos, &fb)
				for _, us := range []rules.Color{rules.White, rules.Black} {
					if a, b := e.evaluate(&fb, us), e.evaluatePlain(&fb, us); a != b {
						t.Fatalf("%s %s: combined table %d, plain %d", name, pos.FEN(), a, b)
					}
				}
				n++
				pos.Play(&moves[rng.IntN(len(moves))])
			}
		}
		if n < 5000 {
			t.Fatalf("%s: only %d positions compared", name, n)
		}
	}
	for v, e := range learnedEvals {
		check(v.Name, e, fastBoards[v], v)
		w := &LearnedWeights{Pattern: make([][2]float64, LearnedSize(v))}
		for i := range w.Pattern {
			w.Pattern[i] = [2]float64{rng.NormFloat64() * 100, rng.NormFloat64() * 100}
		}
		for i := range w.Scalar {
			w.Scalar[i] = [2]float64{rng.NormFloat64() * 50, rng.NormFloat64() * 50}
		}
		data, err := EncodeWeights(v, w)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := NewLearnedEvaluation(v, data)
		if err != nil {
			t.Fatal(err)
		}
		check(v.Name+" (random weights)", ev.l, ev.f, v)
		// Opposite extremes in a block and its partner: 32767 - (-32767)
		// does not fit.
		for i := range w.Pattern {
			w.Pattern[i] = [2]float64{float64(1-2*(i%2)) * 4000, 0}
		}
		if data, err = EncodeWeights(v, w); err != nil {
			t.Fatal(err)
		}
		if ev, err = NewLearnedEvaluation(v, data); err != nil {
			t.Fatal(err)
		}
		if ev.l.both != nil {
			t.Errorf("%s: a combined table of differences that overflow int16", v.Name)
		}
	}
}
