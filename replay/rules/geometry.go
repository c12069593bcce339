package rules

import (
	"fmt"
	"strconv"
)

// Board describes one square board and its numbering. Boards are shared,
// read-only values; compare them by pointer.
//
// Squares are numbered 1..Squares() as in PDN: square 1 is the first dark
// square of the far row seen from White and numbering runs left to right,
// row by row towards White. a1 (White's bottom-left corner) is dark.
type Board struct {
	Width, Height int
	// Mirrored marks the board of Italian and Spanish draughts (PDN invert
	// flag 1, bottom-left corner light). It is reserved: no variant in this
	// package uses it yet and algebraic names ignore it.
	Mirrored bool
	Name     string

	id     uint8 // index into boards
	half   int   // dark squares per row
	nsq    int   // number of squares
	nbits  int   // bits used by the padded layout
	sqBit  []uint8
	bitSq  []uint8 // 0 for ghost bits
	valid  [2]uint64
	row0   [2]uint64 // White's promotion row (squares 1..half)
	rowN   [2]uint64 // Black's promotion row
	keys   *zobristKeys
	sqName []string
}

// The three boards. Board12x12 needs 77 bits in the padded layout, so its
// generator works on two words (see doc.go).
var (
	Board8x8   = newBoard(boardEight, 8, "8x8")
	Board10x10 = newBoard(boardTen, 10, "10x10")
	Board12x12 = newBoard(boardTwelve, 12, "12x12")
)

// Board ids: the index of a board in boards, the board byte of a Move, and
// which generated move generator serves it (movegen_eight.go, _ten.go,
// _twelve.go; the order of movegen.Boards).
const (
	boardEight uint8 = iota
	boardTen
	boardTwelve
)

var boards = [3]*Board{boardEight: Board8x8, boardTen: Board10x10, boardTwelve: Board12x12}

// Padded bit layout: square s (0-based) lives at bit s + s/W, i.e. one
// ghost bit after every pair of rows. The four diagonal neighbours are then
// always at bit offsets -(W/2+1), -(W/2), +W/2, +(W/2+1), and a step off the
// left or right edge lands on a ghost bit that is never set in any board set.
func newBoard(id uint8, w int, name string) *Board {
	b := &Board{Width: w, Height: w, Name: name, id: id, half: w / 2, nsq: w * w / 2}
	b.nbits = b.nsq + (b.nsq-1)/w + 1
	b.sqBit = make([]uint8, b.nsq+1)
	b.bitSq = make([]uint8, 128)
	b.sqName = make([]string, b.nsq+1)
	for s := 1; s <= b.nsq; s++ {
		s0 := s - 1
		bit := s0 + s0/w
		b.sqBit[s] = uint8(bit)
		b.bitSq[bit] = uint8(s)
		b.valid[bit/64] |= 1 << (bit % 64)
		if s <= b.half {
			b.row0[bit/64] |= 1 << (bit % 64)
		}
		if s > b.nsq-b.half {
			b.rowN[bit/64] |= 1 << (bit % 64)
		}
		f, r := b.Coords(s)
		b.sqName[s] = string(rune('a'+f-1)) + strconv.Itoa(r)
	}
	b.keys = newZobristKeys(b)
	return b
}

// Squares returns the number of playable (dark) squares.
func (b *Board) Squares() int { return b.nsq }

// Valid reports whether sq is a square number of this board.
func (b *Board) Valid(sq int) bool { return sq >= 1 && sq <= b.nsq }

// Coords returns the file (1 = a) and rank (1 = White's side) of square sq.
func (b *Board) Coords(sq int) (file, rank int) {
	s0 := sq - 1
	r := s0 / b.half
	c := s0 % b.half
	rank = b.Height - r
	file = 2*c + 1
	if rank%2 == 0 {
		file++
	}
	return file, rank
}

// SquareAt returns the square number at file (1 = a) and rank, or 0 if that
// is off the board or a light square.
func (b *Board) SquareAt(file, rank int) int {
	if file < 1 || file > b.Width || rank < 1 || rank > b.Height || (file+rank)%2 != 0 {
		return 0
	}
	r := b.Height - rank
	return r*b.half + (file-1)/2 + 1
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
			return 0, fmt.Errorf("%w: %q is not a dark square of the %s board", ErrSquare, s, b.Name)
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

func hasBit(x [2]uint64, i int) bool { return x[i>>6]>>(uint(i)&63)&1 != 0 }
func setBit(x *[2]uint64, i int)     { x[i>>6] |= 1 << (uint(i) & 63) }
func clrBit(x *[2]uint64, i int)     { x[i>>6] &^= 1 << (uint(i) & 63) }
