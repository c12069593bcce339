package rules

import (
	"fmt"
	"strconv"
)

// Board describes one square board and its numbering. Boards are shared,
// read-only values; compare them by pointer.
//
// Squares are numbered 1..Squares() as in PDN. On the common boards square
// 1 is the first dark square of the far row seen from White and numbering
// runs left to right, row by row towards White; a1 (White's bottom-left
// corner) is dark. Mirrored and Reversed describe the other 8x8 boards.
type Board struct {
	Width, Height int
	// Mirrored marks the board of Italian and Spanish draughts (PDN invert
	// flag 1): the bottom-left corner a1 is light, so a8 and h1 are dark.
	// Algebraic names are the squares' real names on that board (a8 is
	// Italian square 1).
	Mirrored bool
	// Reversed marks a numbering that starts at White's bottom-right
	// corner and runs right to left, row by row away from White (PDN
	// corner 1 seen from White, as Spanish writes; Thai's corner 2 seen
	// from Black, who moves first, is the same corner). White's men then
	// start on the low numbers.
	Reversed bool
	// AllSquares marks Turkish draughts' board: all 64 squares are played
	// on, numbered 1 (a8) to 64 (h1) left to right from the top; pieces
	// move along ranks and files. Its generator is turkish.go.
	AllSquares bool
	Name       string

	id     uint8 // index into boards: the board byte of a Move
	gen    uint8 // the generated generator of the board's bit layout
	half   int   // dark squares per row
	nsq    int   // number of squares
	nbits  int   // bits used by the padded layout
	mono   bool  // bit order is square order (Captured needs no sort)
	sqBit  []uint8
	bitSq  []uint8 // 0 for ghost bits
	valid  [2]uint64
	row0   [2]uint64 // White's promotion row (the top row)
	rowN   [2]uint64 // Black's promotion row (the bottom row)
	keys   *zobristKeys
	sqName []string
}

// The boards. Board12x12 needs 77 bits in the padded layout, so its
// generator works on two words (see doc.go). The three other 8x8 boards
// share Board8x8's bit layout and generator and differ only in how squares
// are numbered and named: Board8x8Mirrored is Italian's (1 = a8, left to
// right from the top), Board8x8MirroredReversed Spanish's (1 = h1, right to
// left from White's side) and Board8x8Reversed Thai's (1 = g1).
var (
	Board8x8                 = newBoard(boardEight, movegenEight, 8, false, false, "8x8")
	Board10x10               = newBoard(boardTen, movegenTen, 10, false, false, "10x10")
	Board12x12               = newBoard(boardTwelve, movegenTwelve, 12, false, false, "12x12")
	Board8x8Mirrored         = newBoard(boardEightMirrored, movegenEight, 8, true, false, "8x8 mirrored")
	Board8x8MirroredReversed = newBoard(boardEightMirroredReversed, movegenEight, 8, true, true, "8x8 mirrored reversed")
	Board8x8Reversed         = newBoard(boardEightReversed, movegenEight, 8, false, true, "8x8 reversed")
	Board8x8Turkish          = newFullBoard(boardTurkish, movegenTurkish, 8, "8x8 all squares")
)

// Board ids: the index of a board in boards and the board byte of a Move.
// Which generated generator serves a variant is Variant.gen (see
// movegen.go), by default its board's gen.
const (
	boardEight uint8 = iota
	boardTen
	boardTwelve
	boardEightMirrored
	boardEightMirroredReversed
	boardEightReversed
	boardTurkish
	numBoards
)

var boards = [numBoards]*Board{boardEight: Board8x8, boardTen: Board10x10, boardTwelve: Board12x12,
	boardEightMirrored: Board8x8Mirrored, boardEightMirroredReversed: Board8x8MirroredReversed,
	boardEightReversed: Board8x8Reversed, boardTurkish: Board8x8Turkish}

// Boards returns every board, Board8x8 first.
func Boards() []*Board { return append([]*Board(nil), boards[:]...) }

// Padded bit layout: internal square k (0-based, numbered as Board8x8,
// Board10x10 or Board12x12 number theirs) lives at bit k + k/W, i.e. one
// ghost bit after every pair of rows. The four diagonal neighbours are then
// always at bit offsets -(W/2+1), -(W/2), +W/2, +(W/2+1), and a step off the
// left or right edge lands on a ghost bit that is never set in any board set.
//
// A mirrored board is the common board seen in a mirror (file f <-> W+1-f),
// so its square in row r, column c (left to right) is internal square
// (r, half-1-c): the rules are symmetric, so the generator needs nothing
// else. A reversed numbering counts from the other end (s <-> N+1-s).
func newBoard(id, gen uint8, w int, mirrored, reversed bool, name string) *Board {
	b := &Board{Width: w, Height: w, Mirrored: mirrored, Reversed: reversed, Name: name,
		id: id, gen: gen, half: w / 2, nsq: w * w / 2}
	b.nbits = b.nsq + (b.nsq-1)/w + 1
	b.sqBit = make([]uint8, b.nsq+1)
	b.bitSq = make([]uint8, 128)
	b.sqName = make([]string, b.nsq+1)
	b.mono = true
	for s := 1; s <= b.nsq; s++ {
		k := b.internal(s)
		bit := k + k/w
		b.sqBit[s] = uint8(bit)
		b.bitSq[bit] = uint8(s)
		if s > 1 && bit < int(b.sqBit[s-1]) {
			b.mono = false
		}
		b.valid[bit/64] |= 1 << (bit % 64)
		if k < b.half {
			b.row0[bit/64] |= 1 << (bit % 64)
		}
		if k >= b.nsq-b.half {
			b.rowN[bit/64] |= 1 << (bit % 64)
		}
		f, r := b.Coords(s)
		b.sqName[s] = string(rune('a'+f-1)) + strconv.Itoa(r)
	}
	b.keys = newZobristKeys(b)
	return b
}

// newFullBoard returns a board whose every square is played on (Turkish):
// square s is bit s-1, row by row from the top, and there are no ghost
// bits (turkish.go masks the files for steps along a rank).
func newFullBoard(id, gen uint8, w int, name string) *Board {
	b := &Board{Width: w, Height: w, AllSquares: true, Name: name, id: id, gen: gen, half: w, nsq: w * w}
	b.nbits = b.nsq
	b.sqBit = make([]uint8, b.nsq+1)
	b.bitSq = make([]uint8, 128)
	b.sqName = make([]string, b.nsq+1)
	b.mono = true
	for s := 1; s <= b.nsq; s++ {
		bit := s - 1
		b.sqBit[s] = uint8(bit)
		b.bitSq[bit] = uint8(s)
		b.valid[bit/64] |= 1 << (bit % 64)
		if bit < w {
			b.row0[0] |= 1 << bit
		}
		if bit >= b.nsq-w {
			b.rowN[0] |= 1 << bit
		}
		f, r := b.Coords(s)
		b.sqName[s] = string(rune('a'+f-1)) + strconv.Itoa(r)
	}
	b.keys = newZobristKeys(b)
	return b
}

// internal returns the 0-based internal square (common numbering) of
// square s; it is its own inverse (as a map from s-1 to k).
func (b *Board) internal(s int) int {
	k := s - 1
	if b.AllSquares {
		return k
	}
	if b.Reversed {
		k = b.nsq - 1 - k
	}
	if b.Mirrored {
		k = k/b.half*b.half + b.half - 1 - k%b.half
	}
	return k
}

// Squares returns the number of playable (dark) squares.
func (b *Board) Squares() int { return b.nsq }

// Valid reports whether sq is a square number of this board.
func (b *Board) Valid(sq int) bool { return sq >= 1 && sq <= b.nsq }

// Coords returns the file (1 = a) and rank (1 = White's side) of square sq.
func (b *Board) Coords(sq int) (file, rank int) {
	if b.AllSquares {
		return (sq-1)%b.Width + 1, b.Height - (sq-1)/b.Width
	}
	k := b.internal(sq)
	r := k / b.half
	c := k % b.half
	rank = b.Height - r
	file = 2*c + 1
	if rank%2 == 0 {
		file++
	}
	if b.Mirrored {
		file = b.Width + 1 - file
	}
	return file, rank
}

// SquareAt returns the square number at file (1 = a) and rank, or 0 if that
// is off the board or a light square.
func (b *Board) SquareAt(file, rank int) int {
	if file < 1 || file > b.Width || rank < 1 || rank > b.Height {
		return 0
	}
	if b.AllSquares {
		return (b.Height-rank)*b.Width + file
	}
	if b.Mirrored {
		file = b.Width + 1 - file
	}
	if (file+rank)%2 != 0 {
		return 0
	}
	r := b.Height - rank
	k := r*b.half + (file-1)/2
	// internal is an involution on k, so it maps back as well.
	return b.internal(k+1) + 1
}

// Algebraic returns the algebraic name of square sq ("c3"), or "" if sq is
// not a square of the board.
func (b *Board) Algebraic(sq int) string {
	if !b.Valid(sq) {
		return ""
	}
	return b.sqName[sq]
}

// ParseSquare reads a square written numerically ("32", "08") or
// algebraically ("d4", "j10"), and returns its number.
func (b *Board) ParseSquare(s string) (int, error) {
	if s == "" {
		return 0, fmt.Errorf("%w: empty square", ErrSquare)
	}
	if c := s[0]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		r, err := strconv.Atoi(s[1:])
		if err != nil {
			return 0, fmt.Errorf("%w: %q is not a square", ErrSquare, s)
		}
		sq := b.SquareAt(int(c-'a')+1, r)
		if sq == 0 {
			return 0, fmt.Errorf("%w: %q is not a playable square of the %s board", ErrSquare, s, b.Name)
		}
		return sq, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%w: %q is not a square", ErrSquare, s)
	}
	if !b.Valid(n) {
		return 0, fmt.Errorf("%w: %d is out of range 1-%d", ErrSquare, n, b.nsq)
	}
	return n, nil
}

// promotionRow returns the bit set of the row where men of colour c promote.
func (b *Board) promotionRow(c Color) [2]uint64 {
	if c == White {
		return b.row0
	}
	return b.rowN
}

func (b *Board) bitOf(sq int) int { return int(b.sqBit[sq]) }
func (b *Board) sqOf(bit int) int { return int(b.bitSq[bit]) }

// Bit returns square sq's index in the board's bit layout (below 128), the
// index Move.FromBit, ToBit and CapturedBits give; sq must be valid.
func (b *Board) Bit(sq int) int { return b.bitOf(sq) }

func hasBit(x [2]uint64, i int) bool { return x[i>>6]>>(uint(i)&63)&1 != 0 }
func setBit(x *[2]uint64, i int)     { x[i>>6] |= 1 << (uint(i) & 63) }
func clrBit(x *[2]uint64, i int)     { x[i>>6] &^= 1 << (uint(i) & 63) }
