package search

import (
	"bytes"
	"embed"
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// The learned evaluation: a linear function of pattern features fitted to
// game results by `draughtsdb train fit` (package analysis/train), as
// Scan's evaluation is, on the variants whose weights file is embedded
// (weights/VARIANT.bin).
//
// Features, all from White's view (the score is then negated for Black to
// move):
//
//   - Patterns: every block of 4 ranks by 2 adjacent dark squares per rank
//     (4x4 squares, 8 dark ones; 7 x 4 = 28 blocks on 10x10, 5 x 3 = 15
//     on 8x8), its men in base 3 (empty, own, the opponent's: 3^8 = 6561
//     entries per block). Each block is looked up twice: on the board as
//     White sees it, and on the board turned by 180 degrees with the
//     colours swapped (Black's view); the second is subtracted, so the
//     evaluation of a position and of its colour-reversed image are
//     opposite. Kings count as empty squares here.
//   - Large patterns, on 10x10 boards: every block of 6 ranks by 2
//     adjacent dark squares per rank (4 files by 6 ranks, 12 dark
//     squares, 3^12 = 531441 entries per block; 4 blocks side by side)
//     on the six ranks farthest from the side whose view it is, in the
//     same two views: White's view sees ranks 5 to 10, Black's view
//     ranks 6 to 1, so that the two middle ranks, where the sides' men
//     meet, are in both, as in Scan 3's patterns. A weights file
//     without them (written before they were added) evaluates without
//     them.
//   - Scalars: men and kings (White's minus Black's), the rows the men
//     have advanced, the men with an empty square ahead, a side with a
//     king where the other has none, and the empty squares next to the
//     kings; then the men with a free path, one count for each of the
//     distances 1 to 4 ranks from promotion: no piece of the opponent on
//     the squares ahead that a man of his could still reach it from (the
//     triangle widening by a file each rank), so that only a king or a
//     sacrifice stops it, the breakthroughs the 4-rank blocks do not see
//     whole; when both sides have kings, the material (men plus 3 per
//     king), which lets the fit shrink an advantage that a king ending
//     often does not convert (Moby Dam halves its score there); the
//     distribution of the men over the wings (Black's difference between
//     the men on the three files of either edge, less White's: the
//     4-rank blocks see no wing whole); and the kings on the long
//     diagonal (corner to corner: file = rank, or on a mirrored board
//     file + rank = width + 1) and on the two double-corner diagonals
//     (file + rank = width and width + 2, or mirrored file - rank = 1 and
//     -1), the lines a lone king holds a draw on.
//     Nothing depends on the side to move, so a position and its
//     colour-reversed image with the other side to move score the same.
//     A weights file with fewer scalars (the first 6: one written before
//     the others were added) leaves the rest at 0.
//
// Every weight has a middlegame and an endgame value, mixed by the number
// of pieces on the board (all of them: the first; none: the second). The
// weights are integers in sixteenths of a hundredth of a man; the
// evaluation is exact integer arithmetic, so a fixed-depth search stays
// deterministic.

//go:embed weights
var weightFiles embed.FS

const (
	blockRanks = 4
	blockFiles = 2
	blockSize  = 6561 // 3^(blockRanks*blockFiles)
	// bigRanks: the large blocks' ranks (on 10x10 boards only, see
	// learnedLayout.big), 2 dark squares on each; bigSize = 3^12.
	bigRanks = 6
	bigSize  = 531441
	// weightScale: weights are in 1/weightScale hundredths of a man.
	weightScale = 16
	// NumScalars is the number of scalar features of the learned
	// evaluation.
	NumScalars = 14
	// scalarsBefore is the number of scalars of a weights file written
	// before the free-path and king-ending features (8x8 weights still
	// are such files).
	scalarsBefore = 6
	// freeDepth is the number of distances from promotion the free-path
	// features count.
	freeDepth = 4
)

// The scalar features' indexes; the first scalarsBefore are those of a
// weights file written before the others.
const (
	sMen          = iota                  // men, White's minus Black's
	sKings                                // kings
	sAdvance                              // the ranks the men have advanced from their first, summed
	sMobileMen                            // men that can move forwards
	sLoneKings                            // +1 when only White has kings, -1 when only Black has
	sKingSquares                          // the kings' free adjacent squares
	sFreePath                             // freeDepth counts: men with a free path 1, 2, ... ranks from promotion
	sKingMaterial = sFreePath + freeDepth // the material when both sides have kings
	sWings        = sKingMaterial + 1     // the men's spread over the wings, Black's minus White's
	sDiagonals    = sWings + 1            // 2 counts: kings on the long and on the double-corner diagonals
)

// NumScalars counts exactly the features above: either array has a
// negative length, and the package does not compile, otherwise.
var (
	_ [NumScalars - sDiagonals - 2]struct{}
	_ [sDiagonals + 2 - NumScalars]struct{}
)

// learnedLayout is where a board's blocks lie in the fast layout.
type learnedLayout struct {
	ranks, perRank int
	start          []uint   // bit of each rank's first dark square, rank 1 first
	top            uint     // rot(i) = top - i turns the board by 180 degrees
	blocks         [][2]int // (first rank, first dark square index) of each block
	// big holds the first dark square index of each large block: 6 ranks
	// by 2 adjacent dark squares (12 squares, 3^12 entries) on the six
	// ranks farthest from the side whose view it is (from bigRank, 0
	// based): each side's view looks up the opponent's half and the two
	// ranks before it, where the sides' men meet (Scan 3's patterns).
	// Only on 10x10 boards, empty elsewhere.
	big     []int
	bigRank int
	// pack maps a rank's own men (low perRank bits) and the opponent's
	// (the next perRank) to the base-3 value (empty 0, own 1, the
	// opponent's 2) of each pair of adjacent dark squares, the pair
	// starting at dark square c in lane c (bits 16c up).
	pack []uint64
	// advance[c][k] holds the squares where a man of colour c has
	// advanced a number of rows with bit k set.
	advance [2][4]uint64
	pieces  int // pieces at the start
	valid   uint64
	k1, k2  uint
	// zone[c][d] holds the squares d+1 ranks from colour c's promotion
	// rank; cone[c][i] the squares ahead of a man of colour c on bit i
	// from which a man of the opponent could still reach its path.
	zone [2][freeDepth]uint64
	cone [2][64]uint64
	// wings: the three files at either edge; diag: the long diagonal and
	// the two double-corner diagonals.
	wings [2]uint64
	diag  [2]uint64
}

// learned is a variant's learned evaluation.
type learned struct {
	lay *learnedLayout
	// pat holds the weights of [block*blockSize + index][phase], phase 0
	// the middlegame.
	pat    [][2]int16
	scalar [NumScalars][2]int32
	// nscalar is the number of scalars the weights file holds (the
	// others are 0 and not computed).
	nscalar int
	// big: the weights file holds the large blocks' weights (after the
	// small blocks'); a file without them (written before they were
	// added) evaluates without them.
	big  bool
	name string // the weights file's identity: variant and checksum
	// both is pat with each White-view entry less the Black-view entry of
	// the same squares and men (see combine): the evaluation then looks up
	// one table entry per block instead of two, and no longer turns the
	// board round. The tables are about as large as the CPU's caches, so
	// the halved lookups were most of the evaluation's time; int16 like
	// pat, so that it is no larger. nil when the blocks of the two views
	// do not pair up or a difference does not fit in an int16 (evaluate
	// then takes the plain path, evaluatePlain).
	both [][2]int16
}

func newLearnedLayout(v *rules.Variant, f *fastBoard) *learnedLayout {
	b := v.Board
	w, h := b.Width, b.Height
	n := w / 2
	l := &learnedLayout{ranks: h, perRank: n, pieces: 2 * v.InitialRows * n, valid: f.valid, k1: f.k1, k2: f.k2}
	for r := 1; r <= h; r++ {
		for file := 1; file <= w; file++ {
			if s := b.SquareAt(file, r); s != 0 {
				l.start = append(l.start, uint(f.bit[s]))
				break
			}
		}
	}
	// The turn by 180 degrees maps rank 1's first dark square to rank h's
	// last; on a mirrored board (Spanish, Italian) neither is a corner.
	mirrored := b.SquareAt(1, 1) == 0
	f0 := 1
	if mirrored {
		f0 = 2
	}
	l.top = uint(f.bit[b.SquareAt(w+1-f0, h)]) + l.start[0]
	for r := 0; r+blockRanks <= h; r++ {
		for c := 0; c+blockFiles <= n; c++ {
			l.blocks = append(l.blocks, [2]int{r, c})
		}
	}
	if w == 10 && h == 10 {
		l.bigRank = h - bigRanks
		for c := 0; c+blockFiles <= n; c++ {
			l.big = append(l.big, c)
		}
	}
	l.pack = make([]uint64, 1<<(2*n))
	for x := range l.pack {
		var p uint64
		for c := 0; c+blockFiles <= n; c++ {
			d := 0
			for i, m := range [2]int{1, 3} {
				sq := c + i
				switch {
				case x>>sq&1 != 0:
					d += m
				case x>>(n+sq)&1 != 0:
					d += 2 * m
				}
			}
			p |= uint64(d) << (16 * uint(c))
		}
		l.pack[x] = p
	}
	for s := 1; s <= b.Squares(); s++ {
		_, r := b.Coords(s)
		for k := 0; k < 4; k++ {
			if (r-1)>>k&1 != 0 {
				l.advance[0][k] |= 1 << f.bit[s]
			}
			if (h-r)>>k&1 != 0 {
				l.advance[1][k] |= 1 << f.bit[s]
			}
		}
		if d := h - r - 1; d >= 0 && d < freeDepth {
			l.zone[0][d] |= 1 << f.bit[s]
		}
		if d := r - 2; d >= 0 && d < freeDepth {
			l.zone[1][d] |= 1 << f.bit[s]
		}
		fs, _ := b.Coords(s)
		switch {
		case fs <= 3:
			l.wings[0] |= 1 << f.bit[s]
		case fs > w-3:
			l.wings[1] |= 1 << f.bit[s]
		}
		// On a mirrored board (Spanish, Italian) the long diagonal runs
		// from the other corner.
		dfile := fs
		if mirrored {
			dfile = w + 1 - fs
		}
		if dfile == r {
			l.diag[0] |= 1 << f.bit[s]
		}
		if dfile+r == w || dfile+r == w+2 {
			l.diag[1] |= 1 << f.bit[s]
		}
		for t := 1; t <= b.Squares(); t++ {
			ft, rt := b.Coords(t)
			df := max(ft-fs, fs-ft)
			if rt > r && df <= rt-r {
				l.cone[0][f.bit[s]] |= 1 << f.bit[t]
			}
			if rt < r && df <= r-rt {
				l.cone[1][f.bit[s]] |= 1 << f.bit[t]
			}
		}
	}
	return l
}

func (l *learnedLayout) rot(x uint64) uint64 { return bits.Reverse64(x) >> (63 - l.top) }

// indices appends the pattern index of every block of the board with own
// moving up and opp down, each as block*blockSize + index. Each rank's
// men give, through one lookup (pack), the 2-digit base-3 values of all
// its pairs of adjacent dark squares, one per 16-bit lane; four ranks'
// lanes combined as a + 9b + 81c + 729d are then the indices of the
// blocks on those ranks, all at once (a lane stays below 6561).
func (l *learnedLayout) indices(own, opp uint64, out []int32) []int32 {
	var q [16]uint64
	n := uint(l.perRank)
	mask := uint64(1)<<n - 1
	for r := 0; r < l.ranks; r++ {
		s := l.start[r]
		q[r] = l.pack[own>>s&mask|(opp>>s&mask)<<n]
	}
	nc := l.perRank - blockFiles + 1
	base := int32(0)
	for r := 0; r+blockRanks <= l.ranks; r++ {
		x := q[r] + 9*q[r+1] + 81*q[r+2] + 729*q[r+3]
		for c := 0; c < nc; c++ {
			out = append(out, base+int32(x>>(16*uint(c))&0xffff))
			base += blockSize
		}
	}
	return out
}

// bigIndices appends the index of every large block (learnedLayout.big)
// with own moving up and opp down, each as base + block*bigSize + index,
// base the number of the small blocks' weights. The digits are as in
// indices: a rank's pair of squares in base 3, rank by rank in powers of
// 9. The pack lanes of columns 0 and 2 (and 1 and 3) are summed in two
// 32-bit lanes each, which a 12-digit index (below 2^20) does not
// overflow: at most 4 columns, as on a 10x10 board.
func (l *learnedLayout) bigIndices(own, opp uint64, base int32, out []int32) []int32 {
	const lanes = 0x0000ffff0000ffff
	n := uint(l.perRank)
	mask := uint64(1)<<n - 1
	var even, odd uint64
	p := uint64(1)
	for r := l.bigRank; r < l.bigRank+bigRanks; r++ {
		s := l.start[r]
		q := l.pack[own>>s&mask|(opp>>s&mask)<<n]
		even += p * (q & lanes)
		odd += p * (q >> 16 & lanes)
		p *= 9
	}
	for _, c := range l.big {
		x := even
		if c%2 == 1 {
			x = odd
		}
		x = x >> (32 * uint(c/2)) & 0xffffffff
		out = append(out, base+int32(c)*bigSize+int32(x))
	}
	return out
}

// scalars returns the first n scalar features of the fast board from
// White's view (the rest 0): a weights file's own count, so that an
// evaluation whose file has only the first features does not compute the
// others.
func (l *learnedLayout) scalars(fb *fboard, n int) [NumScalars]int32 {
	var x [NumScalars]int32
	wm, bm := fb.men[0], fb.men[1]
	x[sMen] = int32(bits.OnesCount64(wm) - bits.OnesCount64(bm))
	wk, bk := bits.OnesCount64(fb.kings[0]), bits.OnesCount64(fb.kings[1])
	x[sKings] = int32(wk - bk)
	adv := 0
	for k := 0; k < 4; k++ {
		adv += (bits.OnesCount64(wm&l.advance[0][k]) - bits.OnesCount64(bm&l.advance[1][k])) << k
	}
	x[sAdvance] = int32(adv)
	empty := l.valid &^ fb.occupied()
	up, down := empty>>l.k1|empty>>l.k2, empty<<l.k1|empty<<l.k2
	x[sMobileMen] = int32(bits.OnesCount64(wm&up) - bits.OnesCount64(bm&down))
	switch {
	case wk > 0 && bk == 0:
		x[sLoneKings] = 1
	case bk > 0 && wk == 0:
		x[sLoneKings] = -1
	}
	if fb.kings[0]|fb.kings[1] != 0 {
		k := 0
		for c, sign := range [2]int{1, -1} {
			kk := fb.kings[c]
			k += sign * (bits.OnesCount64(kk&(empty>>l.k1)) + bits.OnesCount64(kk&(empty>>l.k2)) +
				bits.OnesCount64(kk&(empty<<l.k1)) + bits.OnesCount64(kk&(empty<<l.k2)))
		}
		x[sKingSquares] = int32(k)
	}
	if n <= scalarsBefore {
		return x
	}
	if wk > 0 && bk > 0 {
		x[sKingMaterial] = x[sMen] + 3*x[sKings]
	}
	if wk > 0 || bk > 0 {
		for i := range l.diag {
			x[sDiagonals+i] = int32(bits.OnesCount64(fb.kings[0]&l.diag[i]) - bits.OnesCount64(fb.kings[1]&l.diag[i]))
		}
	}
	wing := func(m uint64) int32 {
		return int32(bits.OnesCount64(m&l.wings[0]) - bits.OnesCount64(m&l.wings[1]))
	}
	abs := func(x int32) int32 { return max(x, -x) }
	x[sWings] = abs(wing(bm)) - abs(wing(wm))
	opp := [2]uint64{bm | fb.kings[1], wm | fb.kings[0]}
	for c, sign := range [2]int32{1, -1} {
		men := fb.men[c]
		for d := 0; d < freeDepth; d++ {
			for m := men & l.zone[c][d]; m != 0; m &= m - 1 {
				if l.cone[c][bits.TrailingZeros64(m)]&opp[c] == 0 {
					x[sFreePath+d] += sign
				}
			}
		}
	}
	return x
}

// phase is the number of pieces on the board, capped at the start's.
func (l *learnedLayout) phase(fb *fboard) int32 {
	return int32(min(bits.OnesCount64(fb.occupied()), l.pieces))
}

// combine fills e.both from e.pat. The Black-view block b' on the squares
// of a White-view block b has the same 8 squares in another order (the
// board turned round) and each man counted for the other side, so an
// index x of b (the men of those squares) determines the index of b' on
// the same board: both[b][x] = pat[b][x] - pat[b'][x'] sums, block by
// block, to exactly what the plain evaluation sums. The pairing is found
// by looking each square up alone in both views rather than derived
// from the layout, so any board the layout serves gets it right or none.
func (e *learned) combine() {
	l := e.lay
	nb := len(l.blocks)
	var buf [32]int32
	// wd[b] lists, for each square of White-view block b, its bit and its
	// digit's place value there; bd the same in Black's view, where the
	// square's man is looked up on the turned board.
	type digit struct {
		bit   uint
		place int32
	}
	wd := make([][]digit, nb)
	bd := make([][]digit, nb)
	for i := uint(0); i < 64; i++ {
		if l.valid>>i&1 == 0 {
			continue
		}
		w := l.indices(1<<i, 0, buf[:0])
		for b, k := range w {
			if x := k - int32(b*blockSize); x != 0 {
				wd[b] = append(wd[b], digit{i, x})
			}
		}
		r := l.indices(l.rot(1<<i), 0, buf[:0])
		for b, k := range r {
			if x := k - int32(b*blockSize); x != 0 {
				bd[b] = append(bd[b], digit{i, x})
			}
		}
	}
	pair := make([]int, nb)
	for b := range wd {
		pair[b] = -1
		for c := range bd {
			if sameSquares(wd[b], bd[c], func(d digit) uint { return d.bit }) {
				pair[b] = c
				break
			}
		}
		if pair[b] < 0 || len(wd[b]) != blockRanks*blockFiles {
			return
		}
	}
	both := make([][2]int16, nb*blockSize)
	for b := range wd {
		c := pair[b]
		place := map[uint]int32{}
		for _, d := range bd[c] {
			place[d.bit] = d.place
		}
		for x := 0; x < blockSize; x++ {
			// In Black's view a White man (digit 1 in White's) is the
			// opponent's (2) and a Black man (2) its own (1).
			var y int32
			for _, d := range wd[b] {
				v := int32(x) / d.place % 3
				y += (3 - v) % 3 * place[d.bit]
			}
			p, q := e.pat[b*blockSize+x], e.pat[c*blockSize+int(y)]
			for ph := range p {
				d := int32(p[ph]) - int32(q[ph])
				if d != int32(int16(d)) {
					return
				}
				both[b*blockSize+x][ph] = int16(d)
			}
		}
	}
	e.both = both
}

// sameSquares reports whether a and b hold the same squares.
func sameSquares[T any](a, b []T, sq func(T) uint) bool {
	if len(a) != len(b) {
		return false
	}
	var x, y uint64
	for i := range a {
		x |= 1 << sq(a[i])
		y |= 1 << sq(b[i])
	}
	return x == y
}

// evaluate scores fb for the side to move us.
func (e *learned) evaluate(fb *fboard, us rules.Color) int {
	if e.both == nil {
		return e.evaluatePlain(fb, us)
	}
	l := e.lay
	var buf [32]int32
	idx := l.indices(fb.men[0], fb.men[1], buf[:0])
	var mid, end int32
	both := e.both
	for _, k := range idx {
		p := &both[k]
		mid += int32(p[0])
		end += int32(p[1])
	}
	if e.big {
		mid, end = e.addBig(fb, mid, end)
	}
	return e.finish(fb, us, mid, end)
}

// addBig adds the large blocks' weights of both views to the pattern
// sums.
func (e *learned) addBig(fb *fboard, mid, end int32) (int32, int32) {
	l := e.lay
	var buf [8]int32
	base := int32(len(l.blocks) * blockSize)
	idx := l.bigIndices(fb.men[0], fb.men[1], base, buf[:0])
	nb := len(idx)
	idx = l.bigIndices(l.rot(fb.men[1]), l.rot(fb.men[0]), base, idx)
	pat := e.pat
	for _, k := range idx[:nb] {
		p := &pat[k]
		mid += int32(p[0])
		end += int32(p[1])
	}
	for _, k := range idx[nb:] {
		p := &pat[k]
		mid -= int32(p[0])
		end -= int32(p[1])
	}
	return mid, end
}

// finish adds the scalar features to the pattern sums and mixes the
// phases.
func (e *learned) finish(fb *fboard, us rules.Color, mid, end int32) int {
	l := e.lay
	x := l.scalars(fb, e.nscalar)
	for i := range x[:e.nscalar] {
		mid += x[i] * e.scalar[i][0]
		end += x[i] * e.scalar[i][1]
	}
	ph := l.phase(fb)
	v := (int64(mid)*int64(ph) + int64(end)*int64(int32(l.pieces)-ph)) / int64(l.pieces*weightScale)
	if us == rules.Black {
		v = -v
	}
	return int(v)
}

// evaluatePlain is evaluate with both views' blocks looked up one by one,
// as the features are defined (and as the trainer sees them, Features).
func (e *learned) evaluatePlain(fb *fboard, us rules.Color) int {
	l := e.lay
	var buf [2 * 32]int32
	idx := l.indices(fb.men[0], fb.men[1], buf[:0])
	nb := len(idx)
	idx = l.indices(l.rot(fb.men[1]), l.rot(fb.men[0]), idx)
	var mid, end int32
	pat := e.pat
	for _, k := range idx[:nb] {
		p := &pat[k]
		mid += int32(p[0])
		end += int32(p[1])
	}
	for _, k := range idx[nb:] {
		p := &pat[k]
		mid -= int32(p[0])
		end -= int32(p[1])
	}
	if e.big {
		mid, end = e.addBig(fb, mid, end)
	}
	return e.finish(fb, us, mid, end)
}

// Sample is the learned evaluation's features of one position, for the
// trainer: Pattern holds the indices of the pattern weights, those of
// White's view first (NumPatternsWhite of them, counted +1), then those of
// Black's (counted -1); Scalar the scalar features; Phase the pieces on
// the board (the middlegame weight is Phase/MaxPhase, the endgame's the
// rest).
type Sample struct {
	Pattern          []int32
	NumPatternsWhite int
	Scalar           [NumScalars]int32
	Phase, MaxPhase  int32
}

// LearnedSize returns the number of pattern weights (per phase) of the
// learned evaluation of v, 0 if v has none (a board without the fast
// layout).
func LearnedSize(v *rules.Variant) int {
	l := layouts[v]
	if l == nil {
		return 0
	}
	return l.size()
}

// SmallPatterns returns the number of the small blocks' pattern weights of
// v, the first of LearnedSize's (the rest are the large blocks', on 10x10
// boards): a weights file of them alone evaluates without the large
// blocks.
func SmallPatterns(v *rules.Variant) int {
	l := layouts[v]
	if l == nil {
		return 0
	}
	return len(l.blocks) * blockSize
}

// size is the number of pattern weights: the small blocks', then the
// large ones'.
func (l *learnedLayout) size() int { return len(l.blocks)*blockSize + len(l.big)*bigSize }

// Features fills s with the learned evaluation's features of pos; false if
// its variant has no learned evaluation.
func Features(pos *rules.Position, s *Sample) bool {
	v := pos.Variant()
	l, f := layouts[v], fastBoards[v]
	if l == nil || f == nil {
		return false
	}
	var fb fboard
	f.load(pos, &fb)
	base := int32(len(l.blocks) * blockSize)
	s.Pattern = l.indices(fb.men[0], fb.men[1], s.Pattern[:0])
	s.Pattern = l.bigIndices(fb.men[0], fb.men[1], base, s.Pattern)
	s.NumPatternsWhite = len(s.Pattern)
	s.Pattern = l.indices(l.rot(fb.men[1]), l.rot(fb.men[0]), s.Pattern)
	s.Pattern = l.bigIndices(l.rot(fb.men[1]), l.rot(fb.men[0]), base, s.Pattern)
	s.Scalar = l.scalars(&fb, NumScalars)
	s.Phase, s.MaxPhase = l.phase(&fb), int32(l.pieces)
	return true
}

// LearnedWeights are the weights of a learned evaluation in hundredths of
// a man, as the trainer fits them: Pattern [index][phase], Scalar
// [feature][phase] (phase 0 the middlegame).
type LearnedWeights struct {
	Pattern [][2]float64
	Scalar  [NumScalars][2]float64
}

const weightsMagic = "DDBWEIGHTS1\n"

// EncodeWeights writes w as the weights file of variant v (the format
// embedded in weights/VARIANT.bin): a header, then the pattern weights as
// little-endian int16 pairs and the scalars as int32 pairs, in
// 1/weightScale hundredths of a man.
func EncodeWeights(v *rules.Variant, w *LearnedWeights) ([]byte, error) {
	if n := LearnedSize(v); n == 0 || (len(w.Pattern) != n && len(w.Pattern) != SmallPatterns(v)) {
		return nil, fmt.Errorf("%s: %d pattern weights, want %d (or the small blocks' %d)", v.Name, len(w.Pattern), LearnedSize(v), SmallPatterns(v))
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s%s %d %d\n", weightsMagic, v.Name, len(w.Pattern), NumScalars)
	q := func(x float64, lim float64) float64 {
		x *= weightScale
		x = max(min(x, lim), -lim)
		if x < 0 {
			return -float64(int64(-x + 0.5))
		}
		return float64(int64(x + 0.5))
	}
	for _, p := range w.Pattern {
		binary.Write(&b, binary.LittleEndian, [2]int16{int16(q(p[0], 32767)), int16(q(p[1], 32767))})
	}
	for _, s := range w.Scalar {
		binary.Write(&b, binary.LittleEndian, [2]int32{int32(q(s[0], 1<<30)), int32(q(s[1], 1<<30))})
	}
	return b.Bytes(), nil
}

// decodeWeights reads a weights file of variant v.
func decodeWeights(v *rules.Variant, data []byte) (*learned, error) {
	l := layouts[v]
	if l == nil {
		return nil, fmt.Errorf("%s has no learned evaluation", v.Name)
	}
	if !bytes.HasPrefix(data, []byte(weightsMagic)) {
		return nil, fmt.Errorf("not a weights file")
	}
	rest := data[len(weightsMagic):]
	nl := bytes.IndexByte(rest, '\n')
	if nl < 0 {
		return nil, fmt.Errorf("truncated header")
	}
	var name string
	var np, ns int
	if _, err := fmt.Sscanf(string(rest[:nl]), "%s %d %d", &name, &np, &ns); err != nil {
		return nil, fmt.Errorf("header %q: %v", rest[:nl], err)
	}
	small := len(l.blocks) * blockSize
	if name != v.Name || (np != l.size() && np != small) || (ns != NumScalars && ns != scalarsBefore) {
		return nil, fmt.Errorf("header %q: want %s %d %d (or %d pattern weights, or %d scalars)", rest[:nl], v.Name, l.size(), NumScalars, small, scalarsBefore)
	}
	body := rest[nl+1:]
	if len(body) != np*4+ns*8 {
		return nil, fmt.Errorf("%d bytes of weights, want %d", len(body), np*4+ns*8)
	}
	e := &learned{lay: l, pat: make([][2]int16, np), nscalar: ns, big: np > small}
	for i := range e.pat {
		e.pat[i][0] = int16(binary.LittleEndian.Uint16(body[4*i:]))
		e.pat[i][1] = int16(binary.LittleEndian.Uint16(body[4*i+2:]))
	}
	body = body[4*np:]
	for i := 0; i < ns; i++ {
		e.scalar[i][0] = int32(binary.LittleEndian.Uint32(body[8*i:]))
		e.scalar[i][1] = int32(binary.LittleEndian.Uint32(body[8*i+4:]))
	}
	var sum uint32
	for _, c := range data {
		sum = sum*31 + uint32(c)
	}
	e.name = fmt.Sprintf("%s-%08x", v.Name, sum)
	e.combine()
	return e, nil
}

// Learned reports whether variant v evaluates with learned weights, and
// their identity (the variant and a checksum of the weights file) when it
// does.
func Learned(v *rules.Variant) (string, bool) {
	if e := learnedEvals[v]; e != nil {
		return e.name, true
	}
	return "", false
}

// NewLearnedEvaluation returns an Evaluation of v's positions with the
// weights file data (a trainer's candidate, before it is embedded).
func NewLearnedEvaluation(v *rules.Variant, data []byte) (*Evaluation, error) {
	e, err := decodeWeights(v, data)
	if err != nil {
		return nil, err
	}
	return &Evaluation{l: e, f: fastBoards[v]}, nil
}

// Evaluation is a learned evaluation that is not the embedded one.
type Evaluation struct {
	l *learned
	f *fastBoard
}

// Evaluate scores pos from the side to move's view in hundredths of a man.
func (ev *Evaluation) Evaluate(pos *rules.Position) int {
	var fb fboard
	ev.f.load(pos, &fb)
	return ev.l.evaluate(&fb, pos.SideToMove())
}

var (
	layouts      = map[*rules.Variant]*learnedLayout{}
	learnedEvals = map[*rules.Variant]*learned{}
)

// initLearned builds the layouts of the variants with a fast layout and
// loads the embedded weights files.
func initLearned() {
	for v, f := range fastBoards {
		if v.Board.Width != v.Board.Height || v.Board.Width/2 > 8 || v.Board.Height > 16 {
			continue
		}
		layouts[v] = newLearnedLayout(v, f)
	}
	for v := range layouts {
		data, err := weightFiles.ReadFile("weights/" + v.Name + ".bin")
		if err != nil {
			continue
		}
		e, err := decodeWeights(v, data)
		if err != nil {
			panic("search: weights/" + v.Name + ".bin: " + err.Error())
		}
		learnedEvals[v] = e
	}
}
