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
	fwd0     int // first forward direction of the side to move (0 or 2)
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
	c := g.captured.store()
	// "drop" identifies moves by start, end and captured set; "keep" also
	// by the order of the captured pieces (as dctl does: a king's choice
	// between landing squares that lead on to the same captures is one path).
	// A single capture has only one path, so it needs no check.
	fp := g.fp
	if !g.keep {
		fp = 0
	}
	if g.n > 1 {
		for k := g.mark; k < len(g.moves); k++ {
			m := &g.moves[k]
			if int(m.to) == to && m.captured == c && int(m.from) == g.from && m.seq == fp {
				return
			}
		}
	}
	g.moves = append(g.moves, Move{})
	m := &g.moves[len(g.moves)-1]
	m.captured, m.seq = c, fp
	m.from, m.to, m.n, m.board = uint8(g.from), uint8(to), uint8(g.n), g.board
	if promotes {
		m.flags = movePromotes
	}
	m.path = g.path
}

// manCapture extends a chain of a man standing on i; it reports whether
// any capture was possible from i.
func (g *genTen) manCapture(i int) bool {
	found := false
	d0, d1 := g.fwd0, g.fwd0+2
	if g.menBack {
		d0, d1 = 0, 4
	}
	for d := d0; d < d1; d++ {
		t := i + deltaTen[d]
		if !g.opp.has(t) {
			continue
		}
		l := t + deltaTen[d]
		if !g.empty.has(l) {
			continue
		}
		found = true
		g.opp = g.opp.without(t)
		g.captured = g.captured.with(t)
		g.path[g.n] = uint8(l)
		fp := g.fp
		g.fp = seqStep(fp, t)
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
	return found
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
		g.fp = seqStep(fp, t)
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
	w, b := loadTen(p.white), loadTen(p.black)
	kings = loadTen(p.kings)
	us, them = w, b
	if p.side == Black {
		us, them = b, w
	}
	empty = loadTen(p.v.Board.valid).andNot(w.or(b))
	return
}

// canCaptureTen is a quick bitwise test for any capture by the side to
// move, written out per direction because it runs at every node.
func canCaptureTen(v *Variant, side Color, us, them, kings, empty bbTen) bool {
	men := us.andNot(kings)
	var m0, m1, m2, m3 bbTen // pieces that may capture in directions 0..3
	switch {
	case v.MenCaptureBackward:
		m0, m1, m2, m3 = men, men, men, men
	case side == White:
		m0, m1 = men, men
	default:
		m2, m3 = men, men
	}
	if k := us.and(kings); k.any() {
		if v.FlyingKings {
			// Slide the kings along empty squares first.
			k0, k1, k2, k3 := k, k, k, k
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
			m0, m1, m2, m3 = m0.or(k0), m1.or(k1), m2.or(k2), m3.or(k3)
		} else {
			m0, m1, m2, m3 = m0.or(k), m1.or(k), m2.or(k), m3.or(k)
		}
	}
	x := m0.shr(sBTen).and(them).shr(sBTen)
	x = x.or(m1.shr(sATen).and(them).shr(sATen))
	x = x.or(m2.shl(sATen).and(them).shl(sATen))
	x = x.or(m3.shl(sBTen).and(them).shl(sBTen))
	return x.and(empty).any()
}

func newGenTen(p *Position, moves []Move, keep bool, them, empty bbTen) genTen {
	v := p.v
	return genTen{
		moves:    moves,
		mark:     len(moves),
		best:     1,
		keep:     keep,
		majority: v.MajorityCapture,
		menBack:  v.MenCaptureBackward,
		flying:   v.FlyingKings,
		promo:    v.Promotion,
		fwd0:     int(p.side) * 2,
		board:    v.Board.id,
		opp:      them,
		empty:    empty,
		promoRow: loadTen(v.Board.promotionRow(p.side)),
	}
}

// capturesTen appends all legal captures; it appends nothing if there are
// none.
func capturesTen(p *Position, moves []Move, keep bool, us, them, kings, empty bbTen) []Move {
	g := newGenTen(p, moves, keep, them, empty)
	// Only men with an opponent next to them and an empty square beyond
	// can start a capture.
	men := us.andNot(kings)
	var movers bbTen
	for d := 0; d < 4; d++ {
		if !g.menBack && d>>1 != int(p.side) {
			continue
		}
		movers = movers.or(shiftTen(shiftTen(empty, 3-d).and(them), 3-d))
	}
	for x := men.and(movers); x.any(); x = x.dropLowest() {
		i := x.lowest()
		g.from = i
		g.empty = empty.with(i)
		g.manCapture(i)
	}
	for x := us.and(kings); x.any(); x = x.dropLowest() {
		i := x.lowest()
		g.from = i
		g.empty = empty.with(i)
		g.kingCapture(i, -1)
	}
	return g.moves
}

// genMovesTen appends the legal moves of p to moves.
func genMovesTen(p *Position, moves []Move, keep bool) []Move {
	us, them, kings, empty := sidesTen(p)
	v := p.v
	if canCaptureTen(v, p.side, us, them, kings, empty) {
		return capturesTen(p, moves, keep, us, them, kings, empty)
	}
	board := v.Board.id
	promoRow := loadTen(v.Board.promotionRow(p.side))
	men := us.andNot(kings)
	fwd := int(p.side) * 2
	for d := fwd; d < fwd+2; d++ {
		back := -deltaTen[d]
		for x := shiftTen(men, d).and(empty); x.any(); x = x.dropLowest() {
			i := x.lowest()
			m := Move{from: uint8(i + back), to: uint8(i), board: board}
			if promoRow.has(i) {
				m.flags = movePromotes
			}
			moves = append(moves, m)
		}
	}
	for x := us.and(kings); x.any(); x = x.dropLowest() {
		i := x.lowest()
		for d := 0; d < 4; d++ {
			dl := deltaTen[d]
			for t := i + dl; empty.has(t); t += dl {
				moves = append(moves, Move{from: uint8(i), to: uint8(t), board: board})
				if !v.FlyingKings {
					break
				}
			}
		}
	}
	return moves
}

// countMovesTen returns the number of legal moves of p. Plain moves are
// counted with population counts; captures are generated into scratch.
func countMovesTen(p *Position, scratch []Move, keep bool) int {
	us, them, kings, empty := sidesTen(p)
	v := p.v
	if canCaptureTen(v, p.side, us, them, kings, empty) {
		return len(capturesTen(p, scratch[:0], keep, us, them, kings, empty))
	}
	men := us.andNot(kings)
	fwd := int(p.side) * 2
	n := shiftTen(men, fwd).and(empty).count() + shiftTen(men, fwd+1).and(empty).count()
	k := us.and(kings)
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
