package pdn

import (
	"math/bits"
	"sync"
)

// The readers build each game's main line into a slice of Moves (48 bytes
// each, ~70 per game): 60% of the bytes validate allocated (100,000
// generated games: 703 of 1,170 MB over two runs, pprof -alloc_space).
// A pipeline that is done with a game hands its slice back
// (Game.ReleaseMoves) and the next game of any reader takes it, so the
// collector runs less often; with one worker it ran on the idle core
// for free, with two it took a worker's time.
//
// The slices are pooled by capacity class: class k holds capacities
// minMovesCap<<k, so a game takes a slice of the smallest class that
// holds its moves, and a long game does not pin a large slice for the
// short ones.
const (
	minMovesCap  = 64
	movesClasses = 8 // up to 64<<7 = 8,192 moves; longer lines are not pooled
)

var movePools [movesClasses]sync.Pool

// movesClass is the class whose capacity holds n moves, or movesClasses
// when none does.
func movesClass(n int) int {
	if n <= minMovesCap {
		return 0
	}
	return bits.Len(uint(n-1)) - bits.Len(minMovesCap-1)
}

// getMoves returns an empty slice of capacity at least n, from the pool
// when it holds one.
func getMoves(n int) []Move {
	k := movesClass(n)
	if k >= movesClasses {
		return make([]Move, 0, n)
	}
	if v, ok := movePools[k].Get().(*[]Move); ok {
		return (*v)[:0]
	}
	return make([]Move, 0, minMovesCap<<k)
}

// ReleaseMoves hands the main line's slice of moves back to the readers,
// for the next game read to reuse, and sets g.Moves to nil. Call it only
// when nothing uses g.Moves any more (nor a slice of it): the moves are
// cleared. The strings they held stay valid (they are views of g.Raw,
// which is not reused), and so does the rest of g. Variations are not
// pooled.
func (g *Game) ReleaseMoves() {
	m := g.Moves
	g.Moves = nil
	c := cap(m)
	if c < minMovesCap || c&(c-1) != 0 {
		return // not a pooled capacity: a game built otherwise
	}
	k := movesClass(c)
	if k >= movesClasses {
		return
	}
	clear(m) // beyond len the slice is still zero: it was cleared or fresh
	m = m[:0]
	movePools[k].Put(&m)
}
