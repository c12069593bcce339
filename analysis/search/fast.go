package search

import (
	"math/bits"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// The search's own view of the board. Most nodes of a search are at or
// beyond its horizon, where all the search needs is whether the side to
// move must capture, whether it can move at all, whether the opponent
// threatens a capture, and the evaluation. rules.Position answers the
// first three only by generating every legal move, and the evaluation
// read the board square by square through Position.Piece: together about
// three quarters of the time of a search. So the searcher keeps, next to
// each position of its path, the pieces as four bit sets in a padded
// layout of its own (fboard) and the piece-square part of the evaluation
// as a running sum, both updated from the move it plays (fastBoard.play);
// the questions above are then a few shifts and masks, and the evaluation
// is the running sum plus the mobility term counted on the bit sets.
//
// Layout: a dark square on file f, rank r (1-based, rank 1 White's side,
// as rules.Board.Coords gives them) of a board W files wide lives at bit
// ((r-1)*(W+1) + (f-1)) / 2. Dark squares all have the same colour, so the
// numerator has the same parity on all of them and the bits are distinct;
// the diagonal neighbours are then at +W/2 and +W/2+1 (one rank up, towards
// Black) and -W/2 and -W/2-1 (one rank down), and a step off the left or
// right edge lands on a bit no square uses. 8x8 boards need 35 bits, 10x10
// 54; 12x12 (77) and Turkish's all-squares board keep the generic path, as
// do the variants whose captures the shifts below do not describe (Thai's
// kings land behind the piece, Frisian also captures along lines).
//
// The results are exactly those of the generic path (the same scores,
// moves and node counts): fast_test.go compares both on random positions
// of every variant.

// fastBoard is the layout of one rules.Board and the capture rules of one
// variant on it; nil when the variant keeps the generic path.
type fastBoard struct {
	bit   [73]uint8  // square number -> bit
	rbit  [128]uint8 // bit of the rules.Board layout (rules.Board.Bit) -> bit
	valid uint64
	k1    uint // W/2: the shift to the up-left and down-right neighbour
	k2    uint // W/2 + 1: up-right and down-left

	menBack     bool // men capture backwards
	menNoKings  bool // men may not capture kings (Italian)
	flying      bool // kings move and capture any distance
	eval        *evaluator
	pst         [5][2][64]int32 // [piece][phase][bit], from eval.pst
	mob         int
	endgame     int
	inverted    bool
	hasMobility bool
	learned     *learned // the learned evaluation, if the variant has one
}

// fboard is a position in the fast layout: men and kings by colour, and
// the piece-square sums of the evaluation (White's minus Black's) for the
// middlegame and the endgame phase.
type fboard struct {
	men, kings [2]uint64
	pst        [2]int32
}

var fastBoards = map[*rules.Variant]*fastBoard{}

// handFastBoards are the fast layouts with the hand-set evaluation of the
// variants whose default is a learned one (Options.HandSet).
var handFastBoards = map[*rules.Variant]*fastBoard{}

func init() {
	for _, v := range rules.Variants() {
		if f := newFastBoard(v, defaultEvaluators[v]); f != nil {
			fastBoards[v] = f
		}
	}
	initLearned()
	for v, l := range learnedEvals {
		handFastBoards[v] = newFastBoard(v, handSet[v])
		fastBoards[v].learned = l
		defaultEvaluators[v].learned = l
		defaultEvaluators[v].fast = fastBoards[v]
	}
}

// newFastBoard returns the fast layout of variant v with evaluator e, or
// nil if v keeps the generic path.
func newFastBoard(v *rules.Variant, e *evaluator) *fastBoard {
	b := v.Board
	if b.AllSquares || b.Width != b.Height || b.Width%2 != 0 || b.Squares() > 72 ||
		v.OrthogonalCaptures || v.KingLandsBehind || v.CapturesRemovedAtOnce || v.KingMoveLimit > 0 {
		return nil
	}
	w := b.Width
	f := &fastBoard{k1: uint(w / 2), k2: uint(w/2 + 1), menBack: v.MenCaptureBackward,
		menNoKings: v.MenCannotCaptureKings, flying: v.FlyingKings, eval: e,
		mob: e.w.Mobility, endgame: e.w.EndgamePieces, inverted: e.w.Inverted, hasMobility: e.w.Mobility != 0}
	for s := 1; s <= b.Squares(); s++ {
		file, rank := b.Coords(s)
		i := ((rank-1)*(w+1) + file - 1) / 2
		if i >= 64 || f.valid&(1<<uint(i)) != 0 {
			return nil
		}
		f.bit[s] = uint8(i)
		f.rbit[b.Bit(s)] = uint8(i)
		f.valid |= 1 << uint(i)
		for pc := rules.WhiteMan; pc <= rules.BlackKing; pc++ {
			for ph := 0; ph < 2; ph++ {
				f.pst[pc][ph][i] = int32(e.pst[pc][ph][s])
			}
		}
	}
	// The neighbours must be where the layout puts them (a board whose
	// coordinates are not the usual ones would break the shifts).
	for s := 1; s <= b.Squares(); s++ {
		file, rank := b.Coords(s)
		i := int(f.bit[s])
		for _, n := range []struct{ df, dr, off int }{{-1, 1, w / 2}, {1, 1, w/2 + 1}, {1, -1, -w / 2}, {-1, -1, -w/2 - 1}} {
			t := b.SquareAt(file+n.df, rank+n.dr)
			j := i + n.off
			onBoard := j >= 0 && j < 64 && f.valid&(1<<uint(j)) != 0
			if (t != 0) != onBoard || t != 0 && int(f.bit[t]) != j {
				return nil
			}
		}
	}
	return f
}

// load fills fb from pos.
func (f *fastBoard) load(pos *rules.Position, fb *fboard) {
	*fb = fboard{}
	n := pos.Board().Squares()
	for s := 1; s <= n; s++ {
		pc := pos.Piece(s)
		if pc == rules.Empty {
			continue
		}
		f.put(fb, pc, uint(f.bit[s]))
	}
}

func (f *fastBoard) put(fb *fboard, pc rules.Piece, i uint) {
	c := pc.Color()
	if pc.IsKing() {
		fb.kings[c] |= 1 << i
	} else {
		fb.men[c] |= 1 << i
	}
	sign := int32(1 - 2*int(c))
	fb.pst[0] += sign * f.pst[pc][0][i]
	fb.pst[1] += sign * f.pst[pc][1][i]
}

// play makes move m of the side us in parent into child: the captured
// pieces leave, then the mover goes from From to To (promoted if the move
// promotes), as rules.Position.Play does. The colours are known (the
// mover is us's, the captured pieces the opponent's), so each piece is
// found with one test of that side's kings instead of a test of all four
// sets (4-5% more nodes/s in BenchmarkLine*Continue).
func (f *fastBoard) play(parent, child *fboard, m *rules.Move, us rules.Color) {
	*child = *parent
	them := us ^ 1
	// d is the change of the piece-square sums from us's side: the
	// captured pieces' values (the opponent's pieces leave) and the
	// mover's value at To less its value at From.
	var d0, d1 int32
	if m.IsCapture() {
		// In the order of the bits, not of the squares as Captured lists
		// them: the result is the same.
		man := rules.WhiteMan + rules.Piece(2*int(them))
		c := m.CapturedBits()
		for w, base := range [2]int{0, 64} {
			for x := c[w]; x != 0; x &= x - 1 {
				i := uint(f.rbit[base+bits.TrailingZeros64(x)])
				b := uint64(1) << i
				pc := man
				if child.kings[them]&b != 0 {
					pc++ // the king of the man's colour
				}
				child.kings[them] &^= b
				child.men[them] &^= b
				d0 += f.pst[pc][0][i]
				d1 += f.pst[pc][1][i]
			}
		}
	}
	from, to := uint(f.rbit[m.FromBit()]), uint(f.rbit[m.ToBit()])
	fb, tb := uint64(1)<<from, uint64(1)<<to
	pc := rules.WhiteMan + rules.Piece(2*int(us))
	if child.kings[us]&fb != 0 {
		pc++
	}
	now := pc
	if m.Promotes() {
		now = rules.WhiteKing + rules.Piece(2*int(us))
	}
	child.men[us] &^= fb
	child.kings[us] &^= fb
	if now.IsKing() {
		child.kings[us] |= tb
	} else {
		child.men[us] |= tb
	}
	d0 += f.pst[now][0][to] - f.pst[pc][0][from]
	d1 += f.pst[now][1][to] - f.pst[pc][1][from]
	if us == rules.White {
		child.pst[0] += d0
		child.pst[1] += d1
	} else {
		child.pst[0] -= d0
		child.pst[1] -= d1
	}
}

func (fb *fboard) occupied() uint64 { return fb.men[0] | fb.men[1] | fb.kings[0] | fb.kings[1] }

// evaluate is evaluator.evaluate on fb, for the side to move us.
func (f *fastBoard) evaluate(fb *fboard, us rules.Color) int {
	if f.learned != nil {
		return f.learned.evaluate(fb, us)
	}
	occ := fb.occupied()
	ph := 0
	if bits.OnesCount64(occ) <= f.endgame {
		ph = 1
	}
	v := int(fb.pst[ph])
	if f.hasMobility {
		empty := f.valid &^ occ
		k1, k2 := f.k1, f.k2
		// A man counts once if a square ahead is empty (White goes up,
		// Black down); a king once per empty neighbour.
		up, down := empty>>k1|empty>>k2, empty<<k1|empty<<k2
		mob := bits.OnesCount64(fb.men[0]&up) - bits.OnesCount64(fb.men[1]&down)
		if fb.kings[0]|fb.kings[1] != 0 {
			for c, sign := range [2]int{1, -1} {
				k := fb.kings[c]
				mob += sign * (bits.OnesCount64(k&(empty>>k1)) + bits.OnesCount64(k&(empty>>k2)) +
					bits.OnesCount64(k&(empty<<k1)) + bits.OnesCount64(k&(empty<<k2)))
			}
		}
		v += f.mob * mob
	}
	if us == rules.Black {
		v = -v
	}
	if f.inverted {
		v = -v
	}
	return v
}

// hasCapture reports whether side c has a capture in fb: a piece of the
// opponent next to one of c's men (ahead of it, or also behind where men
// capture backwards; a man, where men may not take kings) or reached by
// one of its kings along empty squares (next to it for kings that step),
// with an empty square right behind it.
func (f *fastBoard) hasCapture(fb *fboard, c rules.Color) bool {
	empty := f.valid &^ fb.occupied()
	opp := fb.men[c^1] | fb.kings[c^1]
	targets := opp
	if f.menNoKings {
		targets = fb.men[c^1]
	}
	k1, k2 := f.k1, f.k2
	men := fb.men[c]
	if men != 0 {
		up := ((men<<k1)&targets)<<k1 | ((men<<k2)&targets)<<k2
		down := ((men>>k1)&targets)>>k1 | ((men>>k2)&targets)>>k2
		switch {
		case f.menBack:
			if (up|down)&empty != 0 {
				return true
			}
		case c == rules.White:
			if up&empty != 0 {
				return true
			}
		default:
			if down&empty != 0 {
				return true
			}
		}
	}
	kings := fb.kings[c]
	if kings == 0 {
		return false
	}
	if !f.flying {
		return (((kings<<k1)&opp)<<k1|((kings<<k2)&opp)<<k2|((kings>>k1)&opp)>>k1|((kings>>k2)&opp)>>k2)&empty != 0
	}
	// Flying kings: extend each king along the empty squares of a line,
	// then look for an opponent's piece and an empty square behind it.
	for _, k := range [2]uint{k1, k2} {
		r, x := kings, kings
		for x != 0 {
			x = x << k & empty
			r |= x
		}
		if ((r<<k)&opp)<<k&empty != 0 {
			return true
		}
		r, x = kings, kings
		for x != 0 {
			x = x >> k & empty
			r |= x
		}
		if ((r>>k)&opp)>>k&empty != 0 {
			return true
		}
	}
	return false
}

// hasMove reports whether side c has a plain move in fb (a man with an
// empty square ahead, a king with an empty neighbour).
func (f *fastBoard) hasMove(fb *fboard, c rules.Color) bool {
	empty := f.valid &^ fb.occupied()
	k1, k2 := f.k1, f.k2
	men := fb.men[c]
	if c == rules.White {
		if (men<<k1|men<<k2)&empty != 0 {
			return true
		}
	} else if (men>>k1|men>>k2)&empty != 0 {
		return true
	}
	k := fb.kings[c]
	return (k<<k1|k<<k2|k>>k1|k>>k2)&empty != 0
}
