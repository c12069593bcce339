package rules

// Frisian's perft, written by hand around the generated generator
// (movegen_ten_frisian.go): the leaf count of countFrisian replaces
// countMoves*TenFrisian where the side to move has only men, the common
// case of a perft tree. See doc.go (Perft) for the figures.

// frisianFastRules reports whether countFrisian's rules are v's: men
// capture backwards, the majority rule (ranked or not), promotion at the
// end of a capture, and no rare rule but the ranking of single jumps by
// the kings they take (Frisian and Frysk).
func frisianFastRules(v *Variant) bool {
	return v.gen == movegenTenFrisian && v.MenCaptureBackward && v.MajorityCapture &&
		v.Promotion == PromoteAtEnd && v.special&^spKingsRank == 0
}

// perftFrisian is perft for the Frisian generator: perftFrisianFast where
// countFrisian's rules hold, else the generated bodies.
func (c *perftCtx) perftFrisian(depth int) uint64 {
	if !frisianFastRules(c.pos[depth].v) {
		if c.special {
			return c.perftSpecialTenFrisian(depth)
		}
		return c.perftTenFrisian(depth)
	}
	return c.perftFrisianFast(depth)
}

// perftFrisianFast is perftSpecialTenFrisian with countFrisian at the last
// ply.
func (c *perftCtx) perftFrisianFast(depth int) uint64 {
	p := &c.pos[depth]
	buf := c.bufs[depth][:0]
	keep := c.opts.Keep
	if depth == 1 && !c.opts.NoBulk {
		return uint64(countFrisian(p, buf, keep))
	}
	moves := genMovesSpecialTenFrisian(p, buf, keep)
	c.bufs[depth] = moves[:0] // keep a grown buffer
	q := &c.pos[depth-1]
	if depth == 1 {
		var s uint64
		for i := range moves {
			playToTenFrisian(q, p, &moves[i])
			s += q.white[0] ^ q.black[0] ^ q.kings[0]
		}
		c.sink += s
		return uint64(len(moves))
	}
	var n uint64
	if depth == 2 && !c.opts.NoBulk {
		scratch := c.bufs[1][:0]
		for i := range moves {
			playToTenFrisian(q, p, &moves[i])
			n += uint64(countFrisian(q, scratch, keep))
		}
		return n
	}
	for i := range moves {
		playToTenFrisian(q, p, &moves[i])
		n += c.perftFrisianFast(depth - 1)
	}
	return n
}

// countFrisian is countMovesSpecialTenFrisian (under frisianFastRules) for
// a side to move with men only; with a king it calls that function.
//
// The generated body builds the eight jump sets of jumpSquaresTenFrisian
// and the eight jumper sets at once, sixteen values that do not fit the
// registers. Here one pass ORs the eight jump sets into c (the squares a
// man could jump from) and the common case, no man on c, ends with the
// two population counts of the men's steps; only when a man can capture
// does a second pass rebuild each direction's jumpers, count them and
// test whether their landing square is in c (menMultiTenFrisian).
func countFrisian(p *Position, scratch []Move, keep bool) int {
	w, b := loadTen(&p.white), loadTen(&p.black)
	kings := loadTen(&p.kings)
	us, them := w, b
	if p.side == Black {
		us, them = b, w
	}
	if us.and(kings).any() {
		return countMovesSpecialTenFrisian(p, scratch, keep)
	}
	men := us
	empty := validTen().andNot(w.or(b))
	ow, oe := orthoWTen(), orthoETen()
	ew, ee := empty.and(ow), empty.and(oe)
	tw, te := them.and(ow), them.and(oe)
	c := them.and(empty.shl(sBTen)).shl(sBTen).
		or(them.and(empty.shl(sATen)).shl(sATen)).
		or(them.and(empty.shr(sATen)).shr(sATen)).
		or(them.and(empty.shr(sBTen)).shr(sBTen)).
		or(tw.and(ew.shl(1)).shl(1)).
		or(te.and(ee.shr(1)).shr(1)).
		or(them.and(empty.shl(sVTen)).shl(sVTen)).
		or(them.and(empty.shr(sVTen)).shr(sVTen))
	jm := men.and(c)
	if !jm.any() {
		if p.side == White {
			return men.shr(sBTen).and(empty).count() + men.shr(sATen).and(empty).count()
		}
		return men.shl(sATen).and(empty).count() + men.shl(sBTen).and(empty).count()
	}
	// The jumpers per direction (only men of jm can jump), their number,
	// and those whose landing square is in c: their capture may go on
	// (exact for men that stay men, see menMultiTenFrisian).
	j0 := jm.and(them.and(empty.shl(sBTen)).shl(sBTen))
	j1 := jm.and(them.and(empty.shl(sATen)).shl(sATen))
	j2 := jm.and(them.and(empty.shr(sATen)).shr(sATen))
	j3 := jm.and(them.and(empty.shr(sBTen)).shr(sBTen))
	n := j0.count() + j1.count() + j2.count() + j3.count()
	multi := j0.and(c.shl(2 * sBTen)).or(j1.and(c.shl(2 * sATen))).or(j2.and(c.shr(2 * sATen))).or(j3.and(c.shr(2 * sBTen)))
	j4 := jm.and(tw.and(ew.shl(1)).shl(1))
	j5 := jm.and(te.and(ee.shr(1)).shr(1))
	j6 := jm.and(them.and(empty.shl(sVTen)).shl(sVTen))
	j7 := jm.and(them.and(empty.shr(sVTen)).shr(sVTen))
	n += j4.count() + j5.count() + j6.count() + j7.count()
	multi = multi.or(j4.and(c.shl(2))).or(j5.and(c.shr(2))).or(j6.and(c.shl(2 * sVTen))).or(j7.and(c.shr(2 * sVTen)))
	if !multi.any() {
		if p.v.special&spKingsRank != 0 && them.and(kings).any() {
			// Single jumps, but those taking a king come first.
			var noKings bbTen
			return len(capturesTenFrisian(p, scratch[:0], keep, them, empty, jm, noKings))
		}
		return n
	}
	// Some capture takes two or more pieces, so only the men in multi can
	// make one of the highest value.
	if n, ok := countMenTenFrisian(p, keep, them, empty, multi); ok {
		return n
	}
	var noKings bbTen
	return len(capturesTenFrisian(p, scratch[:0], keep, them, empty, multi, noKings))
}
