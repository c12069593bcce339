package rules

// This file is the template of the move generator. gen_movegen.go stamps
// out movegen_eight.go and movegen_twelve.go from it by renaming "Ten";
// edit only this file and run `go generate`.

// Directions: 0 up-left, 1 up-right (towards square 1, White's forward),
// 2 down-left, 3 down-right (Black's forward). In the padded layout they are
// bit offsets -sB, -sA, +sA, +sB.
var deltaTen = [4]int{-sBTen, -sATen, sATen, sBTen}

func shiftTen(x bbTen, d int) bbTen {
	switch d {
	case 0:
		return x.shr(sBTen)
	case 1:
		return x.shr(sATen)
	case 2:
		return x.shl(sATen)
	}
	return x.shl(sBTen)
}

// genTen is the state of one capture search. It lives on the caller's stack.
type genTen struct {
	moves    []Move
	mark     int // moves[mark:] are this call's captures
	best     int // most pieces captured so far (majority rule)
	keep     bool
	majority bool
	menBack  bool
	flying   bool
	promo    PromotionInCapture
	fwd0     int  // first forward direction of the side to move (0 or 2)
	up, down bool // men capture in directions 0-1 / 2-3
	board    uint8
	from     int
	opp      bbTen // opponent pieces not yet jumped in this chain
	empty    bbTen // empty squares, including the start square of the mover
	captured bbTen
	promoRow bbTen
	n        int
	promoted bool // a man promoted in this chain and goes on as a king
	path     [maxPath]uint8
	// fp fingerprints the captured squares so far, in order (keep mode).
	fp uint64
}

// emit records the chain that ends at square to.
func (g *genTen) emit(to int, promotes bool) {
	if g.majority {
		if g.n < g.best {
			return
		}
		if g.n > g.best {
			g.best = g.n
			g.moves = g.moves[:g.mark]
		}
	}
	// "drop" identifies moves by start, end and captured set; "keep" also
	// by the order of the captured pieces (as dctl does: a king's choice
	// between landing squares that lead on to the same captures is one path).
	// A single capture has only one path, so it needs no check.
	fp := g.fp // 0 unless keep
	if g.n > 1 {
		for k := g.mark; k < len(g.moves); k++ {
			m := &g.moves[k]
			if int(m.to) == to && loadTen(&m.captured) == g.captured && int(m.from) == g.from && m.seq == fp {
				return
			}
		}
	}
	g.moves = append(g.moves, Move{})
	m := &g.moves[len(g.moves)-1]
	g.captured.put(&m.captured)
	m.seq = fp
	m.from, m.to, m.n, m.board = uint8(g.from), uint8(to), uint8(g.n), g.board
	if promotes {
		m.flags = movePromotes
	}
	m.path = g.path
}

// manCapture extends a chain of a man standing on i; it reports whether
// any capture was possible from i. The four jump tests are bitwise with
// constant shifts, so a chain end (the commonest call) costs a few
// instructions.
func (g *genTen) manCapture(i int) bool {
	b := bitTen(i)
	opp, empty := g.opp, g.empty
	var j0, j1, j2, j3 bool
	if g.up {
		j0 = b.shr(sBTen).and(opp).shr(sBTen).and(empty).any()
		j1 = b.shr(sATen).and(opp).shr(sATen).and(empty).any()
	}
	if g.down {
		j2 = b.shl(sATen).and(opp).shl(sATen).and(empty).any()
		j3 = b.shl(sBTen).and(opp).shl(sBTen).and(empty).any()
	}
	if !(j0 || j1 || j2 || j3) {
		return false
	}
	if j0 {
		g.manJump(i-sBTen, i-2*sBTen, 0)
	}
	if j1 {
		g.manJump(i-sATen, i-2*sATen, 1)
	}
	if j2 {
		g.manJump(i+sATen, i+2*sATen, 2)
	}
	if j3 {
		g.manJump(i+sBTen, i+2*sBTen, 3)
	}
	return true
}

// manJump makes the man jump over t to l in direction d and goes on.
func (g *genTen) manJump(t, l, d int) {
	g.opp = g.opp.without(t)
	g.captured = g.captured.with(t)
	g.path[g.n&(maxPath-1)] = uint8(l)
	fp := g.fp
	if g.keep {
		g.fp = seqStep(fp, t)
	}
	g.n++
	if g.promoRow.has(l) {
		switch g.promo {
		case PromoteAndContinue:
			g.promoted = true
			if !g.kingCapture(l, d) {
				g.emit(l, true)
			}
			g.promoted = false
		case PromoteEndsMove:
			g.emit(l, true)
		default:
			if !g.manCapture(l) {
				g.emit(l, true)
			}
		}
	} else if !g.manCapture(l) {
		g.emit(l, false)
	}
	g.n--
	g.fp = fp
	g.captured = g.captured.without(t)
	g.opp = g.opp.with(t)
}

// kingCapture extends a chain of a king standing on i that arrived moving
// in direction last (-1 at the start of the move); it reports whether any
// capture was possible from i.
func (g *genTen) kingCapture(i, last int) bool {
	found := false
	for d := 0; d < 4; d++ {
		if d == 3-last { // straight back: blocked by the piece just jumped
			continue
		}
		dl := deltaTen[d]
		t := i + dl
		if g.flying {
			for g.empty.has(t) {
				t += dl
			}
		}
		if !g.opp.has(t) {
			continue
		}
		l := t + dl
		if !g.empty.has(l) {
			continue
		}
		found = true
		g.opp = g.opp.without(t)
		g.captured = g.captured.with(t)
		fp := g.fp
		if g.keep {
			g.fp = seqStep(fp, t)
		}
		g.n++
		if !g.flying {
			g.path[g.n-1] = uint8(l)
			if !g.kingCapture(l, d) {
				g.emit(l, g.promoted)
			}
		} else {
			// Where some landing square lets the chain continue, the king
			// must land on one of those; otherwise on any of them.
			cont := false
			for s := l; g.empty.has(s); s += dl {
				g.path[g.n-1] = uint8(s)
				if g.kingCapture(s, d) {
					cont = true
				}
			}
			if !cont {
				for s := l; g.empty.has(s); s += dl {
					g.path[g.n-1] = uint8(s)
					g.emit(s, g.promoted)
				}
			}
		}
		g.n--
		g.fp = fp
		g.captured = g.captured.without(t)
		g.opp = g.opp.with(t)
	}
	return found
}

// sidesTen returns the pieces of the side to move, the opponent's and the
// empty squares.
func sidesTen(p *Position) (us, them, kings, empty bbTen) {
	w, b := loadTen(&p.white), loadTen(&p.black)
	kings = loadTen(&p.kings)
	us, them = w, b
	if p.side == Black {
		us, them = b, w
	}
	empty = validTen().andNot(w.or(b))
	return
}

// jumpSquaresTen returns, per direction, the squares from which a man
// could jump in that direction (an opponent next to it, an empty square
// beyond); directions a man may not capture in are empty.
func jumpSquaresTen(up, down bool, them, empty bbTen) (c0, c1, c2, c3 bbTen) {
	if up {
		c0 = them.and(empty.shl(sBTen)).shl(sBTen)
		c1 = them.and(empty.shl(sATen)).shl(sATen)
	}
	if down {
		c2 = them.and(empty.shr(sATen)).shr(sATen)
		c3 = them.and(empty.shr(sBTen)).shr(sBTen)
	}
	return
}

// kingsCanCaptureTen reports whether any of the kings k can capture.
func kingsCanCaptureTen(flying bool, k, them, empty bbTen) bool {
	k0, k1, k2, k3 := k, k, k, k
	if flying {
		// Slide the kings along empty squares first.
		for x := k; x.any(); {
			x = x.shr(sBTen).and(empty)
			k0 = k0.or(x)
		}
		for x := k; x.any(); {
			x = x.shr(sATen).and(empty)
			k1 = k1.or(x)
		}
		for x := k; x.any(); {
			x = x.shl(sATen).and(empty)
			k2 = k2.or(x)
		}
		for x := k; x.any(); {
			x = x.shl(sBTen).and(empty)
			k3 = k3.or(x)
		}
	}
	x := k0.shr(sBTen).and(them).shr(sBTen)
	x = x.or(k1.shr(sATen).and(them).shr(sATen))
	x = x.or(k2.shl(sATen).and(them).shl(sATen))
	x = x.or(k3.shl(sBTen).and(them).shl(sBTen))
	return x.and(empty).any()
}

// menMultiTen returns the men among j0..j3 (men that can jump in
// directions 0..3) with a jump that might go on after landing; c is the
// union of jumpSquaresTen. It is exact for men that stay men: from the
// landing square l the only jump that could land on the vacated start
// square goes straight back over the piece just jumped, and that jump is
// not in c because the start square is not empty. A man that would go on
// as a king (PromoteAndContinue) is reported as going on.
func menMultiTen(promo PromotionInCapture, side Color, j0, j1, j2, j3, c bbTen) bbTen {
	switch promo {
	case PromoteAndContinue:
		c = c.or(promoRowTen(side))
	case PromoteEndsMove:
		c = c.andNot(promoRowTen(side))
	}
	// A man in jd goes on if its landing square, two steps in direction d,
	// is in c.
	return j0.and(c.shl(2 * sBTen)).or(j1.and(c.shl(2 * sATen))).or(j2.and(c.shr(2 * sATen))).or(j3.and(c.shr(2 * sBTen)))
}

// init sets up g in place (a genTen built by value and copied would be
// reloaded in 16-byte pieces right after narrower stores).
func (g *genTen) init(p *Position, moves []Move, keep bool, them, empty bbTen) {
	v := p.v
	g.moves = moves
	g.mark = len(moves)
	g.best = 1
	g.keep = keep
	g.majority = v.MajorityCapture
	g.menBack = v.MenCaptureBackward
	g.flying = v.FlyingKings
	g.promo = v.Promotion
	g.fwd0 = int(p.side) * 2
	g.up = v.MenCaptureBackward || p.side == White
	g.down = v.MenCaptureBackward || p.side == Black
	g.board = v.Board.id
	g.opp = them
	g.empty = empty
	g.promoRow = promoRowTen(p.side)
}

// capturesTen appends the legal captures of the men in movers and the kings
// in kingMovers (a superset of those that can capture); it appends nothing
// if there are none.
func capturesTen(p *Position, moves []Move, keep bool, them, empty, movers, kingMovers bbTen) []Move {
	var g genTen
	g.init(p, moves, keep, them, empty)
	for x := movers; x.any(); x = x.dropLowest() {
		i := x.lowest()
		g.from = i
		g.empty = empty.with(i)
		g.manCapture(i)
	}
	for x := kingMovers; x.any(); x = x.dropLowest() {
		i := x.lowest()
		g.from = i
		g.empty = empty.with(i)
		g.kingCapture(i, -1)
	}
	return g.moves
}

// singleCapturesTen appends the captures j0..j3 when each of them is a
// single jump of a man (menMultiTen empty, no king capture), in the order
// capturesTen would produce them.
func singleCapturesTen(moves []Move, keep bool, side Color, board uint8, j0, j1, j2, j3 bbTen) []Move {
	promoRow := promoRowTen(side)
	for x := j0.or(j1).or(j2).or(j3); x.any(); x = x.dropLowest() {
		i := x.lowest()
		for d := 0; d < 4; d++ {
			var j bbTen
			switch d {
			case 0:
				j = j0
			case 1:
				j = j1
			case 2:
				j = j2
			default:
				j = j3
			}
			if !j.has(i) {
				continue
			}
			t := i + deltaTen[d&3]
			l := t + deltaTen[d&3]
			moves = append(moves, Move{})
			m := &moves[len(moves)-1]
			bitTen(t).put(&m.captured)
			if keep {
				m.seq = seqStep(0, t)
			}
			m.from, m.to, m.n, m.board = uint8(i), uint8(l), 1, board
			if promoRow.has(l) {
				m.flags = movePromotes
			}
			m.path[0] = uint8(l)
		}
	}
	return moves
}

// genMovesTen appends the legal moves of p to moves.
func genMovesTen(p *Position, moves []Move, keep bool) []Move {
	us, them, kings, empty := sidesTen(p)
	v := p.v
	men := us.andNot(kings)
	k := us.and(kings)
	c0, c1, c2, c3 := jumpSquaresTen(v.MenCaptureBackward || p.side == White, v.MenCaptureBackward || p.side == Black, them, empty)
	j0, j1, j2, j3 := men.and(c0), men.and(c1), men.and(c2), men.and(c3)
	jm := j0.or(j1).or(j2).or(j3)
	kc := k.any() && kingsCanCaptureTen(v.FlyingKings, k, them, empty)
	if kc {
		return capturesTen(p, moves, keep, them, empty, jm, k)
	}
	if jm.any() {
		var noKings bbTen
		multi := menMultiTen(v.Promotion, p.side, j0, j1, j2, j3, c0.or(c1).or(c2).or(c3))
		if !multi.any() {
			return singleCapturesTen(moves, keep, p.side, v.Board.id, j0, j1, j2, j3)
		}
		if v.MajorityCapture && v.Promotion != PromoteAndContinue {
			// Some capture takes two or more pieces (menMultiTen is exact
			// here), so only the men in multi can make a longest one.
			return capturesTen(p, moves, keep, them, empty, multi, noKings)
		}
		return capturesTen(p, moves, keep, them, empty, jm, noKings)
	}
	return plainMovesTen(moves, p.side, v.Board.id, v.FlyingKings, men, k, empty)
}

// plainMovesTen appends the moves without capture: men forward, then kings.
// It is separate from genMovesTen so that its loops keep their values in
// registers.
func plainMovesTen(moves []Move, side Color, board uint8, flying bool, men, k, empty bbTen) []Move {
	promoRow := promoRowTen(side)
	if side == White {
		moves = appendStepsTen(moves, men.shr(sBTen).and(empty), sBTen, promoRow, board)
		moves = appendStepsTen(moves, men.shr(sATen).and(empty), sATen, promoRow, board)
	} else {
		moves = appendStepsTen(moves, men.shl(sATen).and(empty), -sATen, promoRow, board)
		moves = appendStepsTen(moves, men.shl(sBTen).and(empty), -sBTen, promoRow, board)
	}
	for x := k; x.any(); x = x.dropLowest() {
		i := x.lowest()
		for d := 0; d < 4; d++ {
			dl := deltaTen[d]
			for t := i + dl; empty.has(t); t += dl {
				moves = append(moves, Move{})
				m := &moves[len(moves)-1]
				m.from, m.to, m.board = uint8(i), uint8(t), board
				if !flying {
					break
				}
			}
		}
	}
	return moves
}

// appendStepsTen appends a man's step to every square of to from the square
// back bits away.
func appendStepsTen(moves []Move, to bbTen, back int, promoRow bbTen, board uint8) []Move {
	for x := to; x.any(); x = x.dropLowest() {
		i := x.lowest()
		// Build the move in place: a Move built on the stack and copied
		// would be reloaded in 16-byte pieces right after byte stores.
		moves = append(moves, Move{})
		m := &moves[len(moves)-1]
		m.from, m.to, m.board = uint8(i+back), uint8(i), board
		if promoRow.has(i) {
			m.flags = movePromotes
		}
	}
	return moves
}

// countMovesTen returns the number of legal moves of p. Plain moves and
// single man captures are counted with population counts; other captures
// are generated into scratch.
func countMovesTen(p *Position, scratch []Move, keep bool) int {
	us, them, kings, empty := sidesTen(p)
	v := p.v
	men := us.andNot(kings)
	k := us.and(kings)
	c0, c1, c2, c3 := jumpSquaresTen(v.MenCaptureBackward || p.side == White, v.MenCaptureBackward || p.side == Black, them, empty)
	j0, j1, j2, j3 := men.and(c0), men.and(c1), men.and(c2), men.and(c3)
	jm := j0.or(j1).or(j2).or(j3)
	kc := k.any() && kingsCanCaptureTen(v.FlyingKings, k, them, empty)
	if kc {
		return len(capturesTen(p, scratch[:0], keep, them, empty, jm, k))
	}
	if jm.any() {
		var noKings bbTen
		multi := menMultiTen(v.Promotion, p.side, j0, j1, j2, j3, c0.or(c1).or(c2).or(c3))
		if !multi.any() {
			return j0.count() + j1.count() + j2.count() + j3.count()
		}
		if v.MajorityCapture && v.Promotion != PromoteAndContinue {
			return len(capturesTen(p, scratch[:0], keep, them, empty, multi, noKings))
		}
		// Without the majority rule every capture counts: the single jumps
		// of men that cannot go on by population count, the others by
		// search. Moves of different men never coincide.
		n := j0.andNot(multi).count() + j1.andNot(multi).count() + j2.andNot(multi).count() + j3.andNot(multi).count()
		return n + len(capturesTen(p, scratch[:0], keep, them, empty, multi, noKings))
	}
	fwd := int(p.side) * 2
	n := shiftTen(men, fwd).and(empty).count() + shiftTen(men, fwd+1).and(empty).count()
	if !k.any() {
		return n
	}
	for d := 0; d < 4; d++ {
		x := shiftTen(k, d).and(empty)
		n += x.count()
		if v.FlyingKings {
			for x.any() {
				x = shiftTen(x, d).and(empty)
				n += x.count()
			}
		}
	}
	return n
}

// playTen is Play without the Zobrist hash, for perft: the hash of the
// result is left stale.
func playTen(p *Position, m *Move) { playToTen(p, p, m) }

// playToTen writes into dst the position src after m, without the hash and
// without copying the variant (dst.v must equal src.v: writing the pointer
// would cost a write-barrier check per move). Reading src and writing dst
// field by field (rather than copying src and playing on the copy) keeps
// every load an 8-byte reload of an 8-byte store.
func playToTen(dst, src *Position, m *Move) {
	from, to := bitTen(int(m.from)), bitTen(int(m.to))
	captured := loadTen(&m.captured)
	w, b, k := loadTen(&src.white), loadTen(&src.black), loadTen(&src.kings)
	if k.and(from).any() || m.flags&movePromotes != 0 {
		k = k.andNot(from).or(to)
	}
	k = k.andNot(captured)
	side := src.side
	if side == White {
		w = w.andNot(from).or(to)
		b = b.andNot(captured)
	} else {
		b = b.andNot(from).or(to)
		w = w.andNot(captured)
	}
	w.put(&dst.white)
	b.put(&dst.black)
	k.put(&dst.kings)
	dst.side = side ^ 1
}

// perftTen is perft for one board size on c.pos[depth]; children are played
// into c.pos[depth-1].
func (c *perftCtx) perftTen(depth int) uint64 {
	p := &c.pos[depth]
	buf := c.bufs[depth][:0]
	keep := c.opts.Keep
	if depth == 1 && !c.opts.NoBulk {
		return uint64(countMovesTen(p, buf, keep))
	}
	moves := genMovesTen(p, buf, keep)
	c.bufs[depth] = moves[:0] // keep a grown buffer
	q := &c.pos[depth-1]
	if depth == 1 {
		// Play every move (that is what NoBulk measures); sink keeps the
		// compiler from dropping the dead positions.
		var s uint64
		for i := range moves {
			playToTen(q, p, &moves[i])
			s += q.white[0] ^ q.black[0] ^ q.kings[0]
		}
		c.sink += s
		return uint64(len(moves))
	}
	var n uint64
	if depth == 2 && !c.opts.NoBulk {
		scratch := c.bufs[1][:0]
		for i := range moves {
			playToTen(q, p, &moves[i])
			n += uint64(countMovesTen(q, scratch, keep))
		}
		return n
	}
	for i := range moves {
		playToTen(q, p, &moves[i])
		n += c.perftTen(depth - 1)
	}
	return n
}

// plainMoveTen returns the plain move from bit i to bit t and whether it is
// legal: a piece of the side to move on i, t empty and reachable (a man's
// forward step, a king's step or, for flying kings, along a clear
// diagonal), and no capture anywhere (capturing is compulsory). The move is
// the one plainMovesTen would list.
func plainMoveTen(p *Position, i, t int) (Move, bool) {
	us, them, kings, empty := sidesTen(p)
	if !us.has(i) || !empty.has(t) {
		return Move{}, false
	}
	v := p.v
	men := us.andNot(kings)
	k := us.and(kings)
	c0, c1, c2, c3 := jumpSquaresTen(v.MenCaptureBackward || p.side == White, v.MenCaptureBackward || p.side == Black, them, empty)
	if men.and(c0.or(c1).or(c2).or(c3)).any() || k.any() && kingsCanCaptureTen(v.FlyingKings, k, them, empty) {
		return Move{}, false
	}
	m := Move{from: uint8(i), to: uint8(t), board: v.Board.id}
	if men.has(i) {
		d := t - i
		if p.side == White && d != -sBTen && d != -sATen || p.side == Black && d != sATen && d != sBTen {
			return Move{}, false
		}
		if promoRowTen(p.side).has(t) {
			m.flags = movePromotes
		}
		return m, true
	}
	for _, dl := range deltaTen {
		for s := i + dl; empty.has(s); s += dl {
			if s == t {
				return m, true
			}
			if !v.FlyingKings {
				break
			}
		}
	}
	return Move{}, false
}
