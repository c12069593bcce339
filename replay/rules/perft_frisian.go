package rules

// Frisian's bulk perft, written by hand around the generated generator
// (movegen_ten_frisian.go): from depth 2 it recurses on bit sets
// (perftFrisianBits) and counts the last ply with countFrisianBits where
// the side to move has only men, the common case of a perft tree, and
// falls back to the generated bodies elsewhere. See doc.go (Perft) for
// the figures.

// frisianFastRules reports whether countFrisianBits's rules are v's: men
// capture backwards, the capture of the highest value (PrecedenceValue),
// promotion at the end of a capture, and no rare rule but the ranking of
// single jumps by the kings they take (Frisian and Frysk).
func frisianFastRules(v *Variant) bool {
	return v.gen == movegenTenFrisian && v.MenCaptureBackward && v.MajorityCapture &&
		v.Precedence == PrecedenceValue && v.Promotion == PromoteAtEnd && v.special == spKingsRank
}

// perftFrisian is perft for the Frisian generator: perftFrisianFast where
// countFrisianBits's rules hold, else the generated bodies.
func (c *perftCtx) perftFrisian(depth int) uint64 {
	if !frisianFastRules(c.pos[depth].v) {
		if c.special {
			return c.perftSpecialTenFrisian(depth)
		}
		return c.perftTenFrisian(depth)
	}
	leaf := frisianLeaf{q: &c.pos[1], scratch: c.bufs[1][:0], keep: c.opts.Keep}
	return c.perftFrisianFast(depth, &leaf)
}

// perftFrisianFast is perftSpecialTenFrisian with bulk counting by
// perftFrisianBits and countFrisianBits (perftFrisianMoves without bulk
// counting), leaf perftFrisian's for the whole tree.
func (c *perftCtx) perftFrisianFast(depth int, leaf *frisianLeaf) uint64 {
	p := &c.pos[depth]
	if c.opts.NoBulk {
		return c.perftFrisianMoves(depth, leaf)
	}
	us, them := loadTen(&p.white), loadTen(&p.black)
	if p.side == Black {
		us, them = them, us
	}
	if depth == 1 {
		return uint64(countFrisianBits(leaf, us, them, loadTen(&p.kings), p.side)) // leaf.q is p
	}
	return c.perftFrisianBits(depth, us, them, loadTen(&p.kings), p.side, leaf)
}

// perftFrisianMoves is perftFrisianFast on c.pos[depth] by generating and
// playing the moves (perftSpecialTenFrisian's body).
func (c *perftCtx) perftFrisianMoves(depth int, leaf *frisianLeaf) uint64 {
	p := &c.pos[depth]
	moves := genMovesSpecialTenFrisian(p, c.bufs[depth][:0], c.opts.Keep)
	c.bufs[depth] = moves[:0] // keep a grown buffer
	q := &c.pos[depth-1]
	if depth == 1 {
		// Play every move (that is what NoBulk measures); sink keeps the
		// compiler from dropping the dead positions.
		var s uint64
		for i := range moves {
			playToTenFrisian(q, p, &moves[i])
			s += q.white[0] ^ q.black[0] ^ q.kings[0]
		}
		c.sink += s
		return uint64(len(moves))
	}
	var n uint64
	for i := range moves {
		playToTenFrisian(q, p, &moves[i])
		n += c.perftFrisianFast(depth-1, leaf)
	}
	return n
}

// perftFrisianBits is perft(depth) by bulk counting, depth >= 2, of the
// position given as bit sets (side to move, its pieces us, the
// opponent's them) where the side to move has only men: each child is
// made from the bit sets (the man from its start to its end, the pieces
// jumped removed, a man on the far row crowned) without building or
// playing moves, and counted by countFrisianBits at depth 2. Plain moves
// and single jumps (no capture goes on, and the opponent has no king that
// would rank the jumps) come from the jump sets, other captures from
// frisianMenKids. With a king to move, or more captures than
// frisianMenKids holds, the position is written into c.pos[depth] for
// perftFrisianMoves.
func (c *perftCtx) perftFrisianBits(depth int, us, them, kings bbTen, side Color, leaf *frisianLeaf) (n uint64) {
	if us&kings != 0 {
		putFrisian(&c.pos[depth], us, them, kings, side)
		return c.perftFrisianMoves(depth, leaf)
	}
	empty := validTen() &^ (us | them)
	ow, oe := orthoWTen(), orthoETen()
	ew, ee := empty&ow, empty&oe
	tw, te := them&ow, them&oe
	c0 := them & (empty << sBTen) << sBTen
	c1 := them & (empty << sATen) << sATen
	c2 := them & (empty >> sATen) >> sATen
	c3 := them & (empty >> sBTen) >> sBTen
	c4 := tw & (ew << 1) << 1
	c5 := te & (ee >> 1) >> 1
	c6 := them & (empty << sVTen) << sVTen
	c7 := them & (empty >> sVTen) >> sVTen
	cj := c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7
	men := us
	promo := promoRowTen(side)
	opp := side ^ 1
	if men&cj == 0 {
		// Plain moves: to is the man's square after the step, back the
		// bits from there to its start.
		fwdA, fwdB := men>>sBTen&empty, men>>sATen&empty
		backA, backB := sBTen, sATen
		if side == Black {
			fwdA, fwdB = men<<sATen&empty, men<<sBTen&empty
			backA, backB = -sATen, -sBTen
		}
		if depth == 2 && them&kings == 0 {
			// The children where the opponent cannot capture are counted
			// in bulk; only the others (loopA, loopB) one by one.
			m, loopA, loopB, ok := frisianQuiet2(men, them, empty, fwdA, fwdB, backA, backB, side)
			if ok {
				n = uint64(m)
				fwdA, fwdB = loopA, loopB
			}
		}
		for x := fwdA; x != 0; x &= x - 1 {
			to := x & -x
			from := bitTen(to.lowest() + backA)
			if depth == 2 {
				n += uint64(countFrisianBits(leaf, them, us^from^to, kings|to&promo, opp))
			} else {
				n += c.perftFrisianBits(depth-1, them, us^from^to, kings|to&promo, opp, leaf)
			}
		}
		for x := fwdB; x != 0; x &= x - 1 {
			to := x & -x
			from := bitTen(to.lowest() + backB)
			if depth == 2 {
				n += uint64(countFrisianBits(leaf, them, us^from^to, kings|to&promo, opp))
			} else {
				n += c.perftFrisianBits(depth-1, them, us^from^to, kings|to&promo, opp, leaf)
			}
		}
		return n
	}
	jm := men & cj
	multi := jm&c0&(cj<<(2*sBTen)) | jm&c1&(cj<<(2*sATen)) | jm&c2&(cj>>(2*sATen)) | jm&c3&(cj>>(2*sBTen)) |
		jm&c4&(cj<<2) | jm&c5&(cj>>2) | jm&c6&(cj<<(2*sVTen)) | jm&c7&(cj>>(2*sVTen))
	if multi == 0 && them&kings == 0 {
		// Per man that can jump (mostly one), its jumps: fewer loops of
		// no trip than per direction.
		for x := jm; x != 0; x &= x - 1 {
			i := x.lowest()
			from := bitTen(i)
			for y := frisianJumps(i, them, empty); y != 0; y &= y - 1 {
				tt := y.lowest()
				t, l := bitTen(tt), bitTen(2*tt-i)
				if depth == 2 {
					n += uint64(countFrisianBits(leaf, them^t, us^from^l, kings|l&promo, opp))
				} else {
					n += c.perftFrisianBits(depth-1, them^t, us^from^l, kings|l&promo, opp, leaf)
				}
			}
		}
		return n
	}
	// The captures genMovesSpecialTenFrisian makes: only the men of multi
	// can make a capture of the highest value where one goes on
	// (menMultiTenFrisian is exact here), and single jumps where the
	// opponent's kings rank them.
	movers := multi
	if multi == 0 {
		movers = jm
	}
	// The search of this depth: the children use lower depths' while
	// this one's kids are read.
	mk := &leaf.kids[depth&(len(leaf.kids)-1)]
	if depth >= len(leaf.kids) {
		mk = new(frisianMenKids)
	}
	if !mk.find(c.opts.Keep, them, them&kings, empty, movers) {
		putFrisian(&c.pos[depth], us, them, kings, side)
		return c.perftFrisianMoves(depth, leaf)
	}
	for i := range mk.kids[:mk.nk] {
		x := &mk.kids[i]
		from, to := bitTen(int(x.from)), bitTen(int(x.to))
		if depth == 2 {
			n += uint64(countFrisianBits(leaf, them&^x.captured, us^from^to, kings&^x.captured|to&promo, opp))
		} else {
			n += c.perftFrisianBits(depth-1, them&^x.captured, us^from^to, kings&^x.captured|to&promo, opp, leaf)
		}
	}
	return n
}

// putFrisian writes the position with side to move, its pieces us and the
// opponent's them into q (q.v unchanged).
func putFrisian(q *Position, us, them, kings bbTen, side Color) {
	if side == White {
		us.put(&q.white)
		them.put(&q.black)
	} else {
		them.put(&q.white)
		us.put(&q.black)
	}
	kings.put(&q.kings)
	q.side = side
}

// frisianLeaf is what countFrisianBits passes on to the generated
// functions it falls back on: q (with the variant) for the position,
// scratch for their moves, the duplicate mode; and the men's capture
// searches, kept here so that they are not cleared at every search (a
// local one costs its zeroing, record arrays included): mc for
// countFrisianBits, kids for perftFrisianBits. One per perftFrisian,
// shared by the whole tree.
type frisianLeaf struct {
	q       *Position
	scratch []Move
	keep    bool
	mc      frisianMenCount
	// kids[d] is perftFrisianBits's men's capture search at depth d (a
	// local one was zeroed at every search, 32 kids included; a deeper
	// perft allocates its own).
	kids [16]frisianMenKids
}

// countFrisianBits is countMovesSpecialTenFrisian under frisianFastRules
// on the position given as bit sets: side to move, its pieces us, the
// opponent's them. The position is written into l.q only where a
// generated function needs it (a king to move).
//
// The generated body builds the eight jump sets of jumpSquaresTenFrisian
// and the eight jumper sets at once, sixteen values that do not fit the
// registers. Here one pass ORs the eight jump sets into c (the squares a
// man could jump from) and the common case, no man on c, ends with the
// two population counts of the men's steps; only when a man can capture
// does a second pass rebuild each direction's jumpers, count them and
// test whether their landing square is in c (menMultiTenFrisian).
func countFrisianBits(l *frisianLeaf, us, them, kings bbTen, side Color) int {
	// Bit sets as plain integers: bbTen's methods leave an inline mark (a
	// NOP) each.
	if us&kings != 0 {
		putFrisian(l.q, us, them, kings, side)
		return countMovesSpecialTenFrisian(l.q, l.scratch, l.keep)
	}
	men := us
	empty := validTen() &^ (us | them)
	ow, oe := orthoWTen(), orthoETen()
	ew, ee := empty&ow, empty&oe
	tw, te := them&ow, them&oe
	c := them&(empty<<sBTen)<<sBTen |
		them&(empty<<sATen)<<sATen |
		them&(empty>>sATen)>>sATen |
		them&(empty>>sBTen)>>sBTen |
		tw&(ew<<1)<<1 |
		te&(ee>>1)>>1 |
		them&(empty<<sVTen)<<sVTen |
		them&(empty>>sVTen)>>sVTen
	jm := men & c
	if jm == 0 {
		if side == White {
			return (men >> sBTen & empty).count() + (men >> sATen & empty).count()
		}
		return (men << sATen & empty).count() + (men << sBTen & empty).count()
	}
	// The jumpers per direction (only men of jm can jump), their number,
	// and those whose landing square is in c: their capture may go on
	// (exact for men that stay men, see menMultiTenFrisian).
	j0 := jm & (them & (empty << sBTen) << sBTen)
	j1 := jm & (them & (empty << sATen) << sATen)
	j2 := jm & (them & (empty >> sATen) >> sATen)
	j3 := jm & (them & (empty >> sBTen) >> sBTen)
	multi := j0&(c<<(2*sBTen)) | j1&(c<<(2*sATen)) | j2&(c>>(2*sATen)) | j3&(c>>(2*sBTen))
	j4 := jm & (tw & (ew << 1) << 1)
	j5 := jm & (te & (ee >> 1) >> 1)
	j6 := jm & (them & (empty << sVTen) << sVTen)
	j7 := jm & (them & (empty >> sVTen) >> sVTen)
	multi |= j4&(c<<2) | j5&(c>>2) | j6&(c<<(2*sVTen)) | j7&(c>>(2*sVTen))
	if multi == 0 {
		if them&kings == 0 {
			// The population counts only here: the search does not
			// need them.
			return j0.count() + j1.count() + j2.count() + j3.count() +
				j4.count() + j5.count() + j6.count() + j7.count()
		}
		// Single jumps, but those taking a king come first (Frisian and
		// Frysk rank captures by value: spKingsRank).
		var noKings bbTen
		putFrisian(l.q, us, them, kings, side)
		return len(capturesTenFrisian(l.q, l.scratch[:0], l.keep, them, empty, jm, noKings))
	}
	// Some capture takes two or more pieces, so only the men in multi can
	// make one of the highest value.
	if n, ok := l.mc.count(l.keep, them, them&kings, empty, multi); ok {
		return n
	}
	putFrisian(l.q, us, them, kings, side)
	var noKings bbTen
	return len(capturesTenFrisian(l.q, l.scratch[:0], l.keep, them, empty, multi, noKings))
}

// frisianMenCount is countMenTenFrisian (menCountTenFrisian) for
// countFrisianBits's rules: men capture in all eight directions, captures
// rank by PrecedenceValue. The differences are for speed: plain integer
// bit operations, no table pointer, and in drop mode no record of chains
// of two pieces, which never share start, end and captured pieces (the
// other order of the same two pieces would need a first jump to the
// second piece, two steps of the first line and one of the second: never
// a step of a line).
type frisianMenCount struct {
	opp, empty, kings, captured bbTen
	from, n, best, nrec, total  int
	ranked, keep, full          bool
	rec                         [menCountRecs]menCountRecTenFrisian
}

// count returns the number of legal captures of the men in movers, which
// may jump the pieces in opp (kings: those that are kings), or ok false
// when it cannot count them exactly (see countMenTenFrisian).
func (c *frisianMenCount) count(keep bool, opp, kings, empty, movers bbTen) (n int, ok bool) {
	c.kings, c.ranked, c.keep = kings, kings != 0, keep
	c.nrec, c.full = 0, false
	if kings != 0 {
		c.opp, c.best, c.total, c.n, c.captured = opp, 0, 0, 0, 0
		for x := movers; x != 0; x &= x - 1 {
			i := x.lowest()
			c.from = i
			c.empty = empty | bitTen(i)
			c.man(i, frisianJumps(i, c.opp, c.empty))
		}
		return c.total, !c.full
	}
	// No king to rank the captures by: the first three jumps are loops
	// here, with the chain's state in registers (man keeps it in c and
	// costs a call per jump); seven chains in eight end within them, two in
	// three at the second jump (no record: see frisianMenCount). man
	// takes the chains that go on.
	best, total := 0, 0
	for x := movers; x != 0; x &= x - 1 {
		i := x.lowest()
		e := empty | bitTen(i)
		for y := frisianJumps(i, opp, e); y != 0; y &= y - 1 {
			t1 := y.lowest()
			l1 := 2*t1 - i
			o1 := opp ^ bitTen(t1)
			z := frisianJumps(l1, o1, e)
			if z == 0 {
				if best <= 1 {
					if best < 1 {
						best, total = 1, 0
					}
					total++
				}
				continue
			}
			for ; z != 0; z &= z - 1 {
				t2 := z.lowest()
				l2 := 2*t2 - l1
				o2 := o1 ^ bitTen(t2)
				w := frisianJumps(l2, o2, e)
				if w == 0 {
					if best <= 2 {
						if best < 2 {
							best, total = 2, 0
						}
						total++
					}
					continue
				}
				b12 := bitTen(t1) | bitTen(t2)
				for ; w != 0; w &= w - 1 {
					t3 := w.lowest()
					l3 := 2*t3 - l2
					b3 := bitTen(t3)
					o3 := o2 ^ b3
					v := frisianJumps(l3, o3, e)
					if v == 0 {
						if best <= 3 {
							if best < 3 {
								best, total, c.nrec = 3, 0, 0
							}
							if keep || c.record(b12|b3, i, l3) {
								total++
							}
						}
						continue
					}
					c.opp, c.empty, c.from, c.captured, c.n = o3, e, i, b12|b3, 3
					c.best, c.total = best, total
					c.man(l3, v)
					best, total = c.best, c.total
				}
			}
		}
	}
	c.best = best
	return total, !c.full
}

// man extends the chain of the man on i by each of its jumps, the pieces
// it can jump (frisianJumps), as menCountTenFrisian.man does: the loop
// runs once per jump, not once per neighbour with a test of its landing
// square, and the jumps from the landing square are found here, so that a
// chain's end costs no call.
func (c *frisianMenCount) man(i int, jumps bbTen) {
	for x := jumps; x != 0; x &= x - 1 {
		t := x.lowest()
		l := 2*t - i // in the table's lines: on the board
		tb := bitTen(t)
		c.opp ^= tb
		c.captured |= tb
		c.n++
		if next := frisianJumps(l, c.opp, c.empty); next != 0 {
			c.man(l, next)
		} else {
			c.end(l)
		}
		c.n--
		c.captured ^= tb
		c.opp |= tb
	}
}

// end counts the chain that ends on to (menCountTenFrisian.end).
func (c *frisianMenCount) end(to int) {
	r := c.n
	if c.ranked {
		k := (c.captured & c.kings).count()
		r = (r+k)<<6 - k
	}
	if r < c.best {
		return
	}
	if r > c.best {
		c.best, c.total, c.nrec = r, 0, 0
	}
	if !c.keep && c.n > 2 && !c.record(c.captured, c.from, to) {
		return
	}
	c.total++
}

// record is menCountTenFrisian.record: false if the chain from from to
// to taking captured was counted before, or the record is full.
func (c *frisianMenCount) record(captured bbTen, from, to int) bool {
	for k := range c.rec[:c.nrec] {
		if x := &c.rec[k]; int(x.to) == to && int(x.from) == from && x.captured == captured {
			return false
		}
	}
	if c.nrec == len(c.rec) {
		c.full = true
		return false
	}
	c.rec[c.nrec] = menCountRecTenFrisian{captured: captured, from: uint8(from), to: uint8(to)}
	c.nrec++
	return true
}

// frisianMenKids finds the men's captures of the highest value as
// frisianMenCount counts them, keeping each one's start, end and captured
// pieces (perft2Frisian makes the children from them): in drop mode one
// per start, end and captured set, in keep mode one per capture order.
type frisianMenKids struct {
	opp, empty, kings, captured bbTen
	from, n, best, nk           int
	ranked, keep, full          bool
	kids                        [32]menCountRecTenFrisian
}

// find searches the captures of the men in movers, which may jump the
// pieces in opp (kings: those that are kings); ok is false when there are
// more of the highest value than kids holds.
func (c *frisianMenKids) find(keep bool, opp, kings, empty, movers bbTen) (ok bool) {
	c.kings, c.ranked, c.keep = kings, kings != 0, keep
	c.nk, c.full = 0, false
	if kings != 0 {
		c.opp, c.best, c.n, c.captured = opp, 0, 0, 0
		for x := movers; x != 0; x &= x - 1 {
			i := x.lowest()
			c.from = i
			c.empty = empty | bitTen(i)
			c.man(i, frisianJumps(i, c.opp, c.empty))
		}
		return !c.full
	}
	// As frisianMenCount.count: the first two jumps are loops here, the
	// chain's state in registers (no duplicate to look for).
	best := 0
	for x := movers; x != 0; x &= x - 1 {
		i := x.lowest()
		e := empty | bitTen(i)
		for y := frisianJumps(i, opp, e); y != 0; y &= y - 1 {
			t1 := y.lowest()
			l1 := 2*t1 - i
			b1 := bitTen(t1)
			o1 := opp ^ b1
			z := frisianJumps(l1, o1, e)
			if z == 0 {
				if best <= 1 {
					if best < 1 {
						best, c.nk = 1, 0
					}
					c.add(b1, i, l1)
				}
				continue
			}
			for ; z != 0; z &= z - 1 {
				t2 := z.lowest()
				l2 := 2*t2 - l1
				b2 := bitTen(t2)
				o2 := o1 ^ b2
				w := frisianJumps(l2, o2, e)
				if w == 0 {
					if best <= 2 {
						if best < 2 {
							best, c.nk = 2, 0
						}
						c.add(b1|b2, i, l2)
					}
					continue
				}
				c.opp, c.empty, c.from, c.captured, c.n = o2, e, i, b1|b2, 2
				c.best = best
				c.man(l2, w)
				best = c.best
			}
		}
	}
	c.best = best
	return !c.full
}

// add keeps the capture from from to to taking captured (no duplicate:
// chains of one or two pieces).
func (c *frisianMenKids) add(captured bbTen, from, to int) {
	if c.nk == len(c.kids) {
		c.full = true
		return
	}
	c.kids[c.nk] = menCountRecTenFrisian{captured: captured, from: uint8(from), to: uint8(to)}
	c.nk++
}

// man is frisianMenCount.man.
func (c *frisianMenKids) man(i int, jumps bbTen) {
	for x := jumps; x != 0; x &= x - 1 {
		t := x.lowest()
		l := 2*t - i
		tb := bitTen(t)
		c.opp ^= tb
		c.captured |= tb
		c.n++
		if next := frisianJumps(l, c.opp, c.empty); next != 0 {
			c.man(l, next)
		} else {
			c.end(l)
		}
		c.n--
		c.captured ^= tb
		c.opp |= tb
	}
}

// end keeps the chain that ends on to if it ranks highest so far
// (frisianMenCount.end).
func (c *frisianMenKids) end(to int) {
	r := c.n
	if c.ranked {
		k := (c.captured & c.kings).count()
		r = (r+k)<<6 - k
	}
	if r < c.best {
		return
	}
	if r > c.best {
		c.best, c.nk = r, 0
	}
	if !c.keep && c.n > 2 {
		for k := range c.kids[:c.nk] {
			if x := &c.kids[k]; int(x.to) == to && int(x.from) == c.from && x.captured == c.captured {
				return
			}
		}
	}
	if c.nk == len(c.kids) {
		c.full = true
		return
	}
	c.kids[c.nk] = menCountRecTenFrisian{captured: c.captured, from: uint8(c.from), to: uint8(to)}
	c.nk++
}

// frisianJumps returns the pieces of opp a man on i can jump (the square
// beyond in empty) without a branch: the search's cost was its
// mispredictions (a loop over the neighbours in opp and a test of each
// one's landing square), not its instructions. Along an axis of step d
// the square i+d is jumpable where i+2d is empty; e>>d|e<<d marks the
// squares with an empty square at distance d on either side, and without
// i itself in e that is the square beyond, seen from i. frisianAxisNb
// keeps each axis's neighbours apart (on another axis the mark would
// mean another square) and leaves out the jumps off the board, as
// menNbTenFrisian does.
func frisianJumps(i int, opp, empty bbTen) bbTen {
	e := empty &^ bitTen(i)
	nb := &frisianAxisNb[i&63]
	return opp & (nb[0]&(e>>1|e<<1) | nb[1]&(e>>sATen|e<<sATen) |
		nb[2]&(e>>sBTen|e<<sBTen) | nb[3]&(e>>sVTen|e<<sVTen))
}

// frisianAxisNb[i][a] are the squares of menNbTenFrisian[0][i] on axis a
// (steps 1, sATen, sBTen, sVTen) from i. Its init reads menNbTenFrisian,
// filled by movegen_ten_frisian.go's init, which the go command runs
// first (files in name order); a test checks the split.
var frisianAxisNb [64][4]bbTen

func init() {
	for i := range 64 {
		for a, d := range [4]int{1, sATen, sBTen, sVTen} {
			for _, t := range [2]int{i - d, i + d} {
				if t >= 0 && t < 64 && menNbTenFrisian[0][i]>>uint(t)&1 != 0 {
					frisianAxisNb[i][a] |= bitTen(t)
				}
			}
		}
	}
}

// shTen shifts x left by s, right by -s where s is negative.
func shTen(x bbTen, s int) bbTen {
	if s >= 0 {
		return x << uint(s)
	}
	return x >> uint(-s)
}

// frisianQuiet2 counts, at the last ply but one, the replies of the
// opponent (its men them, no king) to the plain moves of the side to move
// (its men men, no capture) where the opponent has no capture: the
// opponent's steps in the parent, corrected for the square the man left
// and the square it entered, summed over those moves with population
// counts instead of a call of countFrisianBits each. fwdA and fwdB are
// the moves' end squares, backA and backB the bit offsets back to their
// starts. It returns that sum and the end squares of the moves that leave
// the opponent a capture (counted one by one by the caller), or ok false
// where the opponent could already capture in the parent (a threat that
// only some moves parry; the caller counts every move).
//
// After a move from f to t the opponent can capture if a man of theirs
// next to t has an empty square beyond it (f counts as empty: the jump
// back along the move's line), or a man of ours next to f has a man of
// theirs beyond it (f is the landing square); every other jump would
// have been a threat in the parent.
func frisianQuiet2(men, them, empty, fwdA, fwdB bbTen, backA, backB int, side Color) (n int, loopA, loopB bbTen, ok bool) {
	ow, oe := orthoWTen(), orthoETen()
	// Threats in the parent: the squares from which a man of theirs
	// could jump one of ours (countFrisianBits's jump sets, sides
	// swapped).
	ew, ee := empty&ow, empty&oe
	mw, me := men&ow, men&oe
	threats := men&(empty<<sBTen)<<sBTen |
		men&(empty<<sATen)<<sATen |
		men&(empty>>sATen)>>sATen |
		men&(empty>>sBTen)>>sBTen |
		mw&(ew<<1)<<1 |
		me&(ee>>1)>>1 |
		men&(empty<<sVTen)<<sVTen |
		men&(empty>>sVTen)>>sVTen
	if them&threats != 0 {
		return 0, fwdA, fwdB, false
	}
	// victim: end squares t with a man of theirs on one side and an empty
	// square on the other, along any line a man captures along.
	victim := (them<<sBTen)&(empty>>sBTen) |
		(them<<sATen)&(empty>>sATen) |
		(them>>sATen)&(empty<<sATen) |
		(them>>sBTen)&(empty<<sBTen) |
		oe&(them<<1)&(ee>>1) |
		ow&(them>>1)&(ew<<1) |
		(them<<sVTen)&(empty>>sVTen) |
		(them>>sVTen)&(empty<<sVTen)
	// landing: start squares f with a man of ours next to them and a man
	// of theirs beyond.
	landing := (men<<sBTen)&(them<<(2*sBTen)) |
		(men<<sATen)&(them<<(2*sATen)) |
		(men>>sATen)&(them>>(2*sATen)) |
		(men>>sBTen)&(them>>(2*sBTen)) |
		oe&(me<<1)&(them<<2) |
		ow&(mw>>1)&(them>>2) |
		(men<<sVTen)&(them<<(2*sVTen)) |
		(men>>sVTen)&(them>>(2*sVTen))
	loopA = fwdA & (victim | shTen(them, backA) | shTen(landing, -backA))
	loopB = fwdB & (victim | shTen(them, backB) | shTen(landing, -backB))
	// The opponent's steps: a1, a2 the squares its men step to.
	a1, a2 := them<<sATen, them<<sBTen
	if side == Black {
		a1, a2 = them>>sBTen, them>>sATen
	}
	base := (a1 & empty).count() + (a2 & empty).count()
	qa, qb := fwdA&^loopA, fwdB&^loopB
	fa, fb := shTen(qa, backA), shTen(qb, backB)
	n = (qa.count()+qb.count())*base -
		(qa & a1).count() - (qa & a2).count() - (qb & a1).count() - (qb & a2).count() +
		(fa & a1).count() + (fa & a2).count() + (fb & a1).count() + (fb & a2).count()
	return n, loopA, loopB, true
}
