package rules

import "sort"

// PerftOptions selects how Perft counts.
type PerftOptions struct {
	// Keep counts every capture path; the default drops moves with the
	// same start, end and captured set ("drop" in perft.json).
	Keep bool
	// NoBulk plays every move of the last ply instead of counting the
	// moves of the parent (bulk counting, the default).
	NoBulk bool
}

// perftBufCap is the per-ply move buffer; longer lists still work (append
// grows the slice) but allocate.
const perftBufCap = 256

type perftCtx struct {
	opts PerftOptions
	bufs [][]Move
	pos  []Position // pos[d] is the position with d plies to go
	sink uint64     // see perftTen
	// special: the variant has rare rules (Variant.special), so perft*
	// calls the generators' Special bodies.
	special bool
}

func newPerftCtx(depth int, opts PerftOptions) *perftCtx {
	c := &perftCtx{opts: opts, bufs: make([][]Move, depth+1), pos: make([]Position, depth+1)}
	for i := range c.bufs {
		c.bufs[i] = make([]Move, 0, perftBufCap)
	}
	return c
}

// Perft counts the leaf nodes of the move tree of pos to depth plies using
// the rules of v (v must have pos's board; normally v == pos.Variant()).
func Perft(v *Variant, pos *Position, depth int, opts PerftOptions) uint64 {
	if depth <= 0 {
		return 1
	}
	p := *pos
	p.v = v
	c := newPerftCtx(depth, opts)
	return c.perft(p, depth)
}

// perft dispatches to the board's perft (movegen_*.go), which plays moves
// without hashing into c.pos: perft never reads the hash.
func (c *perftCtx) perft(p Position, depth int) uint64 {
	for i := range c.pos {
		c.pos[i].v = p.v // playTo* copies no variant
	}
	c.special = p.v.special != 0
	c.pos[depth] = p
	switch p.v.gen {
	case movegenEight:
		if c.special {
			return c.perftSpecialEight(depth)
		}
		return c.perftEight(depth)
	case movegenTen:
		if c.special {
			return c.perftSpecialTen(depth)
		}
		return c.perftTen(depth)
	case movegenEightThai:
		if c.special {
			return c.perftSpecialEightThai(depth)
		}
		return c.perftEightThai(depth)
	case movegenTenFrisian:
		return c.perftFrisian(depth) // perft_frisian.go
	case movegenTurkish:
		return c.perftTurkish(depth)
	}
	if c.special {
		return c.perftSpecialTwelve(depth)
	}
	return c.perftTwelve(depth)
}

// DivideEntry is the leaf count below one root move.
type DivideEntry struct {
	Move  string // in v.DefaultNotation, shortest unambiguous form
	Nodes uint64
	// Legal is the move itself, for another notation or its full capture
	// path (perft --divide writes it so); Order is its place in the
	// generation order (AppendMoves), which the sort by Move text loses.
	Legal Move
	Order int
}

// Divide returns Perft(depth-1) below every legal root move, sorted by move
// text. The sum of the counts is Perft(depth).
func Divide(v *Variant, pos *Position, depth int, opts PerftOptions) []DivideEntry {
	p := *pos
	p.v = v
	moves := p.AppendMoves(nil, opts.Keep)
	out := make([]DivideEntry, 0, len(moves))
	c := newPerftCtx(depth, opts)
	for i := range moves {
		q := p
		q.Play(&moves[i])
		var n uint64 = 1
		if depth > 1 {
			n = c.perft(q, depth-1)
		}
		out = append(out, DivideEntry{Move: MoveText(v, moves, &moves[i], v.DefaultNotation), Nodes: n, Legal: moves[i], Order: i})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Move < out[j].Move })
	return out
}

// menCountRecs bounds the different chains of the highest rank the leaf
// counters of men's captures (countMen*) tell apart in drop mode; past it
// they let the full search count.
const menCountRecs = 8
