package rules

import "math/bits"

// The move generator of Turkish draughts (Board8x8Turkish), written by hand:
// its board and moves share nothing with the diagonal generators of
// internal/movegen. All 64 squares are played on; square s is bit s-1, row
// by row from the top (a8 = bit 0, h1 = bit 63), so a step up is -8, down
// +8, left -1 and right +1, and a step left or right must not leave its
// row (the file masks below).
//
// Rules (kish's RULES.md, after the FMJD and Turkish federation rules):
// men move one square forwards or sideways and capture the same ways by
// jumping an adjacent piece; kings move and capture any distance along
// ranks and files and land on any empty square beyond the piece they jump;
// a jumped piece leaves the board at once (so a chain may cross its square
// again); a chain may not turn straight back; the most pieces must be
// taken (a king counts as one); a man that reaches the far row in a
// capture goes on as a man and is crowned only if the move ends there.
//
// Bulk counting spends most of its time at the last ply but one, and
// building Moves there (path, fingerprint, duplicate scan) only to count
// them is waste: countMovesTurkish counts men's captures without moves
// (tkCountMen, single jumps by population counts), and where the side to
// move has kings it first tests with bit sets whether they can capture
// (tkKingsJump); only then does it run the full search. The interior
// plies skip the kings' search the same way (tkCaptures) and find the
// men's steps from bit sets (each man's still in the order forwards, left,
// right, which a test pins). Figures: BENCHMARKS.md.

const (
	tkFileA uint64 = 0x0101010101010101
	tkFileH uint64 = tkFileA << 7
)

// Directions: 0 up (White's forward), 1 down (Black's forward), 2 left,
// 3 right; d^1 is straight back.
var tkDelta = [4]int{-8, 8, -1, 1}

// tkEnter returns the squares a step in direction d may enter: a step left
// must not wrap onto file h of the row above, a step right onto file a.
func tkEnter(d int) uint64 {
	switch d {
	case 2:
		return ^tkFileH
	case 3:
		return ^tkFileA
	}
	return ^uint64(0)
}

func tkHas(x uint64, i int) bool { return uint(i) < 64 && x>>uint(i)&1 != 0 }

// tkSides returns the pieces of the side to move, the opponent's, the kings
// and the empty squares.
func tkSides(p *Position) (us, them, kings, empty uint64) {
	w, b := p.white[0], p.black[0]
	us, them = w, b
	if p.side == Black {
		us, them = b, w
	}
	return us, them, p.kings[0], ^(w | b)
}

// tkFwd is the forward direction of side.
func tkFwd(side Color) int { return int(side) }

// tkShift moves every square of x one step in direction d (off-board and
// wrapping steps dropped).
func tkShift(x uint64, d int) uint64 {
	switch d {
	case 0:
		return x >> 8
	case 1:
		return x << 8
	case 2:
		return (x &^ tkFileA) >> 1
	}
	return (x &^ tkFileH) << 1
}

// tkMenJump reports whether any man of men can jump in direction d.
func tkMenJump(men, them, empty uint64, d int) bool {
	return tkShift(tkShift(men, d)&them, d)&empty != 0
}

// tkGen is the state of one Turkish capture search.
type tkGen struct {
	moves    []Move
	mark     int
	best     int
	keep     bool
	board    uint8
	fwd      int // the men's forward direction
	from     int
	opp      uint64 // opponent pieces still on the board
	empty    uint64 // empty squares: the mover's start and every jumped square included
	captured uint64
	promo    uint64 // the far row of the side to move
	n        int
	path     [maxPath]uint8
	fp       uint64
}

// emit records the chain that ends at to, if it takes the most pieces.
func (g *tkGen) emit(to int, man bool) {
	if g.n < g.best {
		return
	}
	if g.n > g.best {
		g.best = g.n
		g.moves = g.moves[:g.mark]
	}
	fp := g.fp
	if g.n > 1 {
		for k := g.mark; k < len(g.moves); k++ {
			m := &g.moves[k]
			if int(m.to) == to && m.captured[0] == g.captured && int(m.from) == g.from && m.seq == fp {
				return
			}
		}
	}
	g.moves = append(g.moves, Move{})
	m := &g.moves[len(g.moves)-1]
	m.captured[0] = g.captured
	m.seq = fp
	m.from, m.to, m.n, m.board = uint8(g.from), uint8(to), uint8(g.n), g.board
	if man && g.promo>>uint(to)&1 != 0 {
		m.flags = movePromotes
	}
	m.path = g.path
}

// take removes the piece on t from the board for the rest of the chain.
func (g *tkGen) take(t int) (fp uint64) {
	fp = g.fp
	bit := uint64(1) << uint(t)
	g.opp &^= bit
	g.empty |= bit
	g.captured |= bit
	if g.keep {
		g.fp = seqStep(fp, t)
	}
	g.n++
	return fp
}

// untake puts the piece on t back.
func (g *tkGen) untake(t int, fp uint64) {
	bit := uint64(1) << uint(t)
	g.n--
	g.fp = fp
	g.captured &^= bit
	g.empty &^= bit
	g.opp |= bit
}

// manCapture extends a man's chain from i, arrived in direction last (-1
// at the start); it reports whether any capture was possible.
func (g *tkGen) manCapture(i, last int) bool {
	found := false
	for _, d := range [3]int{g.fwd, 2, 3} {
		if last >= 0 && d == last^1 {
			continue
		}
		m := tkEnter(d)
		dl := tkDelta[d]
		t, l := i+dl, i+2*dl
		if !tkHas(g.opp&m, t) || !tkHas(g.empty&m, l) {
			continue
		}
		found = true
		fp := g.take(t)
		g.path[g.n-1] = uint8(l)
		if !g.manCapture(l, d) {
			g.emit(l, true)
		}
		g.untake(t, fp)
	}
	return found
}

// kingCapture extends a king's chain from i, arrived in direction last
// (-1 at the start); it reports whether any capture was possible.
func (g *tkGen) kingCapture(i, last int) bool {
	found := false
	for d := 0; d < 4; d++ {
		if last >= 0 && d == last^1 {
			continue
		}
		m := tkEnter(d)
		dl := tkDelta[d]
		empty := g.empty & m
		t := i + dl
		for tkHas(empty, t) {
			t += dl
		}
		if !tkHas(g.opp&m, t) {
			continue
		}
		l := t + dl
		if !tkHas(empty, l) {
			continue
		}
		found = true
		fp := g.take(t)
		fpt := g.fp
		// The majority rule keeps only the longest chains, so a landing
		// square from which the chain cannot go on survives only when none
		// can.
		for s := l; tkHas(empty, s); s += dl {
			g.path[g.n-1] = uint8(s)
			if g.keep {
				// keep counts every path, the landing squares included, as
				// kish (whose perft this reproduces) does.
				g.fp = seqStep(fpt, 64+s)
			}
			if !g.kingCapture(s, d) {
				g.emit(s, false)
			}
		}
		g.untake(t, fp)
	}
	return found
}

// capturesTurkish appends the legal captures of men and kings (it appends
// nothing if there are none).
func capturesTurkish(p *Position, moves []Move, keep bool, men, kings uint64) []Move {
	_, them, _, empty := tkSides(p)
	g := tkGen{moves: moves, mark: len(moves), best: 1, keep: keep, board: p.v.Board.id,
		fwd: tkFwd(p.side), opp: them, promo: p.v.Board.promotionRow(p.side)[0]}
	for x := men; x != 0; x &= x - 1 {
		i := bits.TrailingZeros64(x)
		g.from, g.empty = i, empty|1<<uint(i)
		g.manCapture(i, -1)
	}
	for x := kings; x != 0; x &= x - 1 {
		i := bits.TrailingZeros64(x)
		g.from, g.empty = i, empty|1<<uint(i)
		g.kingCapture(i, -1)
	}
	return g.moves
}

// tkCaptures returns the captures of p appended to moves and whether there
// are any (a quick bitwise test first: most positions have none).
func tkCaptures(p *Position, moves []Move, keep bool) ([]Move, bool) {
	us, them, kings, empty := tkSides(p)
	men, k := us&^kings, us&kings
	fwd := tkFwd(p.side)
	if k != 0 && !tkKingsJump(k, them, empty) {
		k = 0 // the kings' search would find nothing
	}
	if k == 0 && !tkMenJump(men, them, empty, fwd) && !tkMenJump(men, them, empty, 2) && !tkMenJump(men, them, empty, 3) {
		return moves, false
	}
	n := len(moves)
	moves = capturesTurkish(p, moves, keep, men, k)
	return moves, len(moves) > n
}

// genMovesTurkish appends the legal moves of p to moves.
func genMovesTurkish(p *Position, moves []Move, keep bool) []Move {
	moves, ok := tkCaptures(p, moves, keep)
	if ok {
		return moves
	}
	us, _, kings, empty := tkSides(p)
	board := p.v.Board.id
	promo := p.v.Board.promotionRow(p.side)[0]
	// The men that can step forwards, left and right, as bit sets; each
	// man's moves still come in the order forwards, left, right.
	men := us &^ kings
	fd, canF := -8, empty<<8&men
	if p.side == Black {
		fd, canF = 8, empty>>8&men
	}
	canL := (empty &^ tkFileH) << 1 & men
	canR := (empty &^ tkFileA) >> 1 & men
	for x := canF | canL | canR; x != 0; x &= x - 1 {
		i := bits.TrailingZeros64(x)
		b := x & -x
		if b&canF != 0 {
			moves = tkAppendStep(moves, i, i+fd, board, promo)
		}
		if b&canL != 0 {
			moves = tkAppendStep(moves, i, i-1, board, promo)
		}
		if b&canR != 0 {
			moves = tkAppendStep(moves, i, i+1, board, promo)
		}
	}
	for x := us & kings; x != 0; x &= x - 1 {
		i := bits.TrailingZeros64(x)
		for d := 0; d < 4; d++ {
			e := empty & tkEnter(d)
			for t := i + tkDelta[d]; tkHas(e, t); t += tkDelta[d] {
				moves = append(moves, Move{})
				m := &moves[len(moves)-1]
				m.from, m.to, m.board = uint8(i), uint8(t), board
			}
		}
	}
	return moves
}

// tkAppendStep appends a man's step from i to t.
func tkAppendStep(moves []Move, i, t int, board uint8, promo uint64) []Move {
	moves = append(moves, Move{})
	m := &moves[len(moves)-1]
	m.from, m.to, m.board = uint8(i), uint8(t), board
	if promo>>uint(t&63)&1 != 0 {
		m.flags = movePromotes
	}
	return moves
}

// countMovesTurkish returns the number of legal moves of p; plain moves are
// counted with population counts, and men's captures by tkCountMen without
// building moves where no king of the side to move can capture (tested
// with bit sets first: a king is on 3% of the boards bulk counting sees
// from the start, but searching every piece's captures for them took 12%
// of the time).
func countMovesTurkish(p *Position, scratch []Move, keep bool) int {
	us, them, kings, empty := tkSides(p)
	k := us & kings
	if k != 0 && tkKingsJump(k, them, empty) {
		moves, _ := tkCaptures(p, scratch[:0], keep)
		return len(moves)
	}
	men := us &^ k
	if p.side == Black {
		men, k = bits.ReverseBytes64(men), bits.ReverseBytes64(k)
		them, empty = bits.ReverseBytes64(them), bits.ReverseBytes64(empty)
	}
	if n := tkCountMen(men, them, empty); n > 0 {
		return n
	}
	n := bits.OnesCount64(men>>8&empty) + bits.OnesCount64((men&^tkFileA)>>1&empty) +
		bits.OnesCount64((men&^tkFileH)<<1&empty)
	if k != 0 {
		for d := 0; d < 4; d++ {
			for x := tkShift(k, d) & empty; x != 0; x = tkShift(x, d) & empty {
				n += bits.OnesCount64(x)
			}
		}
	}
	return n
}

// tkKingsJump reports whether any king of kings can capture.
func tkKingsJump(kings, them, empty uint64) bool {
	for d := 0; d < 4; d++ {
		// The squares each king's line reaches: empty ones and the first
		// piece.
		x := tkShift(kings, d)
		for f := x & empty; f != 0; f &= empty {
			f = tkShift(f, d)
			x |= f
		}
		if tkShift(x&them, d)&empty != 0 {
			return true
		}
	}
	return false
}

// tkCountMen returns the number of legal captures of men (no king of theirs
// on the board) that move up the board (Black's position mirrored by
// bits.ReverseBytes64, which swaps the rows), 0 if they have none.
//
// It is the same in keep and drop mode: two men's chains from one square
// never end on the same square with the same pieces taken. A man never
// steps back, so a chain visits the rows it lands on in one stretch each,
// and inside a row it cannot turn straight back, so it goes one way only:
// the row's jumped pieces are a run entered at the square the jump from
// the row below lands on (or the start), which fixes the way the chain
// goes along it. The pieces taken thus fix the chain.
//
// The single jumps are bit sets (one per direction, every man at once).
// Whether a chain goes on from a landing square is tested on the board
// before the jump: the next jump cannot be straight back, so it neither
// jumps the piece just taken nor lands on the square just left. Only the
// landings that go on are searched (tkMenCount), and then no single jump
// counts.
func tkCountMen(men, them, empty uint64) int {
	lu := (men >> 8 & them) >> 8 & empty
	ll := ((men &^ tkFileA) >> 1 & them &^ tkFileA) >> 1 & empty
	lr := ((men &^ tkFileH) << 1 & them &^ tkFileH) << 1 & empty
	if lu|ll|lr == 0 {
		return 0
	}
	// The squares a man may jump from up, left and right.
	canU := them << 8 & (empty << 16)
	canL := them << 1 & (empty << 2) &^ (tkFileA | tkFileA<<1)
	canR := them >> 1 & (empty >> 2) &^ (tkFileH | tkFileH>>1)
	cu, cl, cr := lu&(canU|canL|canR), ll&(canU|canL), lr&(canU|canR)
	if cu|cl|cr == 0 {
		return bits.OnesCount64(lu) + bits.OnesCount64(ll) + bits.OnesCount64(lr)
	}
	c := tkMenCount{best: 2}
	for ; cu != 0; cu &= cu - 1 {
		l := cu & -cu
		c.up(l, them&^(l<<8), empty|l<<8|l<<16, 2)
	}
	for ; cl != 0; cl &= cl - 1 {
		l := cl & -cl
		c.left(l, them&^(l<<1), empty|l<<1|l<<2, 2)
	}
	for ; cr != 0; cr &= cr - 1 {
		l := cr & -cr
		c.right(l, them&^(l>>1), empty|l>>1|l>>2, 2)
	}
	return c.n
}

// tkMenCount counts the longest chains of men's captures (tkCountMen): up,
// left and right go on from a man (the bit b) that has taken k pieces,
// the last jump up, left or right (so the next may not go right, left).
type tkMenCount struct {
	best, n int
}

// end records a chain of k captures.
func (c *tkMenCount) end(k int) {
	if k > c.best {
		c.best, c.n = k, 0
	}
	if k == c.best {
		c.n++
	}
}

func (c *tkMenCount) up(b, opp, empty uint64, k int) {
	found := false
	if t := b >> 8 & opp; t != 0 {
		if l := t >> 8 & empty; l != 0 {
			found = true
			c.up(l, opp&^t, empty|t, k+1)
		}
	}
	if t := (b &^ tkFileA) >> 1 & opp; t != 0 {
		if l := (t &^ tkFileA) >> 1 & empty; l != 0 {
			found = true
			c.left(l, opp&^t, empty|t, k+1)
		}
	}
	if t := (b &^ tkFileH) << 1 & opp; t != 0 {
		if l := (t &^ tkFileH) << 1 & empty; l != 0 {
			found = true
			c.right(l, opp&^t, empty|t, k+1)
		}
	}
	if !found {
		c.end(k)
	}
}

func (c *tkMenCount) left(b, opp, empty uint64, k int) {
	found := false
	if t := b >> 8 & opp; t != 0 {
		if l := t >> 8 & empty; l != 0 {
			found = true
			c.up(l, opp&^t, empty|t, k+1)
		}
	}
	if t := (b &^ tkFileA) >> 1 & opp; t != 0 {
		if l := (t &^ tkFileA) >> 1 & empty; l != 0 {
			found = true
			c.left(l, opp&^t, empty|t, k+1)
		}
	}
	if !found {
		c.end(k)
	}
}

func (c *tkMenCount) right(b, opp, empty uint64, k int) {
	found := false
	if t := b >> 8 & opp; t != 0 {
		if l := t >> 8 & empty; l != 0 {
			found = true
			c.up(l, opp&^t, empty|t, k+1)
		}
	}
	if t := (b &^ tkFileH) << 1 & opp; t != 0 {
		if l := (t &^ tkFileH) << 1 & empty; l != 0 {
			found = true
			c.right(l, opp&^t, empty|t, k+1)
		}
	}
	if !found {
		c.end(k)
	}
}

// plainMoveTurkish is PlainMove for Turkish (see plainMoveEight).
func plainMoveTurkish(p *Position, i, t int) (Move, bool) {
	us, _, kings, empty := tkSides(p)
	if !tkHas(us, i) || !tkHas(empty, t) {
		return Move{}, false
	}
	var buf [1]Move
	if _, ok := tkCaptures(p, buf[:0], false); ok {
		return Move{}, false
	}
	m := Move{from: uint8(i), to: uint8(t), board: p.v.Board.id}
	if !tkHas(kings, i) {
		for _, d := range [3]int{tkFwd(p.side), 2, 3} {
			if i+tkDelta[d] == t && tkHas(empty&tkEnter(d), t) {
				if p.v.Board.promotionRow(p.side)[0]>>uint(t)&1 != 0 {
					m.flags = movePromotes
				}
				return m, true
			}
		}
		return Move{}, false
	}
	for d := 0; d < 4; d++ {
		e := empty & tkEnter(d)
		for s := i + tkDelta[d]; tkHas(e, s); s += tkDelta[d] {
			if s == t {
				return m, true
			}
		}
	}
	return Move{}, false
}

// playTurkish is Play without the Zobrist hash, for perft.
func playTurkish(p *Position, m *Move) { playToTurkish(p, p, m) }

// playToTurkish writes into dst the position src after m (see playToEight).
func playToTurkish(dst, src *Position, m *Move) {
	from, to := uint64(1)<<m.from, uint64(1)<<m.to
	captured := m.captured[0]
	w, b, k := src.white[0], src.black[0], src.kings[0]
	// Captured pieces go first: a king may end on the square of a piece it
	// jumped earlier in the chain.
	k &^= captured
	if k&from != 0 || m.flags&movePromotes != 0 {
		k = k&^from | to
	}
	side := src.side
	if side == White {
		w = w&^from | to
		b &^= captured
	} else {
		b = b&^from | to
		w &^= captured
	}
	dst.white[0], dst.white[1] = w, 0
	dst.black[0], dst.black[1] = b, 0
	dst.kings[0], dst.kings[1] = k, 0
	dst.side = side ^ 1
}

// perftTurkish is perft on c.pos[depth] (see perftEight).
func (c *perftCtx) perftTurkish(depth int) uint64 {
	p := &c.pos[depth]
	buf := c.bufs[depth][:0]
	keep := c.opts.Keep
	if depth == 1 && !c.opts.NoBulk {
		return uint64(countMovesTurkish(p, buf, keep))
	}
	moves := genMovesTurkish(p, buf, keep)
	c.bufs[depth] = moves[:0]
	q := &c.pos[depth-1]
	if depth == 1 {
		var s uint64
		for i := range moves {
			playToTurkish(q, p, &moves[i])
			s += q.white[0] ^ q.black[0] ^ q.kings[0]
		}
		c.sink += s
		return uint64(len(moves))
	}
	var n uint64
	for i := range moves {
		playToTurkish(q, p, &moves[i])
		n += c.perftTurkish(depth - 1)
	}
	return n
}
