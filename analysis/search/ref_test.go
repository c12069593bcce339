package search

import (
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// The reference used to verify the shot positions: a plain minimax without
// any pruning, ordering, table or evaluation beyond material. It searches
// every move to the given depth and then keeps searching while the side to
// move must capture (every capture, full width), so a combination is seen
// to its end. Values are in men (man 1, king 3) for the side to move; a
// side without a legal move scores -(refWin - ply).

const refWin = 1000

func refMaterial(p *rules.Position) int {
	wm, wk := p.Count(rules.White)
	bm, bk := p.Count(rules.Black)
	v := wm + 3*wk - bm - 3*bk
	if p.SideToMove() == rules.Black {
		v = -v
	}
	return v
}

type refSearcher struct {
	bufs  [][]rules.Move
	nodes int
}

func (r *refSearcher) minimax(p *rules.Position, depth, ply int) int {
	r.nodes++
	for len(r.bufs) <= ply {
		r.bufs = append(r.bufs, make([]rules.Move, 0, 64))
	}
	moves := p.LegalMoves(r.bufs[ply][:0])
	r.bufs[ply] = moves
	if len(moves) == 0 {
		return -(refWin - ply)
	}
	if depth <= 0 && !moves[0].IsCapture() {
		return refMaterial(p)
	}
	best := -2 * refWin
	for i := range moves {
		c := *p
		c.Play(&moves[i])
		if v := -r.minimax(&c, depth-1, ply+1); v > best {
			best = v
		}
	}
	return best
}

// refRootValues returns the minimax value (in men, side to move's view) of
// every legal move of p at depth plies (the root move included).
func refRootValues(p rules.Position, depth int) ([]rules.Move, []int, int) {
	r := &refSearcher{}
	moves := p.LegalMoves(nil)
	vals := make([]int, len(moves))
	for i := range moves {
		c := p
		c.Play(&moves[i])
		vals[i] = -r.minimax(&c, depth-1, 1)
	}
	return moves, vals, r.nodes
}
