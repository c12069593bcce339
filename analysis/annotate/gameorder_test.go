package annotate

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// orderClass compares a position's evaluation in game order with its
// independent one at the same depth.
type orderClass int

const (
	sameMove orderClass = iota
	tie                 // another move, the same score searched on its own: the same best move
	higher              // game order found a higher score
	lower               // game order gave a lower score: listed with its cause
)

// classify compares go (game order) with ind (independent) for pos at
// depth: a different move whose own score (the child searched on its own
// one ply less, negated) equals the independent score is a tie. For a
// lower score, cause says why: the game-order move is worth less at this
// depth searched on its own (the carried table made the search prefer
// it), or it is worth as much as the independent best but scored lower in
// game order (a bound carried from an earlier position's search).
func classify(t *testing.T, pos rules.Position, depth int, gameOrder, ind Eval) (orderClass, string) {
	t.Helper()
	if gameOrder.Best == ind.Best && gameOrder.Score == ind.Score {
		return sameMove, ""
	}
	moveScore := ind.Score
	if gameOrder.Best != ind.Best {
		m, err := hub.ParseMove(&pos, gameOrder.Best)
		if err != nil {
			t.Fatal(err)
		}
		child := pos
		child.Play(&m)
		e, err := NewBuiltin(Limit{Depth: depth - 1}, 4).Evaluate(context.Background(), child)
		if err != nil {
			t.Fatal(err)
		}
		moveScore = -e.Score
	}
	switch {
	case gameOrder.Score > ind.Score:
		return higher, ""
	case gameOrder.Score == ind.Score && moveScore == ind.Score:
		return tie, ""
	case gameOrder.Score == ind.Score:
		return sameMove, "" // the same score with a move the independent search values otherwise: no loss
	case moveScore < ind.Score:
		return lower, "the game-order move is worth less at this depth on its own: the table carried from the game's earlier positions ordered it first and cut the better move off"
	}
	return lower, "the game-order move is worth the independent score on its own, but its score in game order is lower: a bound carried in the table from an earlier position's search"
}

// TestGameOrderAgainstIndependent: the positions of self-play games
// evaluated in game order (the table kept along each game, as analyze
// does by default) and each on its own (analyze --independent) at the
// same depth. A different best move with the same score searched on its
// own is a tie and counts as the same best move; a lower score in game
// order is listed with its cause. Counting ties as the same, game order
// gives the independent best move or a higher score in at least 95% of
// the positions.
func TestGameOrderAgainstIndependent(t *testing.T) {
	if testing.Short() {
		t.Skip("searches a few hundred positions twice")
	}
	t.Parallel()
	const depth = 6
	ctx := context.Background()
	for _, v := range []*rules.Variant{rules.International, rules.English} {
		// Games: two random first moves each side, then the engine at
		// depth 2, for up to 40 plies.
		var lines [][]rules.Position
		play := engine.NewBuiltin(1)
		for seed := uint64(1); seed <= 3; seed++ {
			rnd := rand.New(rand.NewPCG(seed, 7))
			g := engine.Game{Start: v.StartPosition()}
			var line []rules.Position
			for len(g.Moves) < 40 {
				pos, _, _, err := g.Position()
				if err != nil {
					t.Fatal(err)
				}
				legal := pos.LegalMoves(nil)
				if len(legal) == 0 || pos.Outcome() != rules.Undecided {
					break
				}
				line = append(line, pos)
				m := legal[rnd.IntN(len(legal))]
				if len(g.Moves) >= 4 {
					r, err := play.Search(ctx, g, engine.Limit{Depth: 2})
					if err != nil {
						t.Fatal(err)
					}
					m = r.Move
				}
				g.Moves = append(g.Moves, m)
			}
			lines = append(lines, line)
		}
		counts := map[orderClass]int{}
		total := 0
		for gi, line := range lines {
			inLine := NewBuiltin(Limit{Depth: depth}, AnalyzeTTSizeMB)
			for ply, pos := range line {
				gameOrder, err := inLine.EvaluateInLine(ctx, pos, ply == 0)
				if err != nil {
					t.Fatal(err)
				}
				ind, err := NewBuiltin(Limit{Depth: depth}, 16).Evaluate(ctx, pos)
				if err != nil {
					t.Fatal(err)
				}
				c, cause := classify(t, pos, depth, gameOrder, ind)
				counts[c]++
				total++
				if c == lower {
					if cause == "" {
						t.Errorf("%s game %d ply %d: a lower score without a cause", v.Name, gi+1, ply)
					}
					t.Logf("%s game %d ply %d %s: game order %s %d, independent %s %d: %s",
						v.Name, gi+1, ply, pos.FEN(), gameOrder.Best, gameOrder.Score, ind.Best, ind.Score, cause)
				}
			}
		}
		t.Logf("%s, depth %d, %d positions: same move %d, ties %d, higher %d, lower %d",
			v.Name, depth, total, counts[sameMove], counts[tie], counts[higher], counts[lower])
		if counts[lower]*20 > total {
			t.Errorf("%s: %d of %d positions score lower in game order (more than 5%%)", v.Name, counts[lower], total)
		}
	}
}
