package rules

import (
	"math/bits"
	"slices"
)

// maxPath bounds the captures in one move: only squares off the edge can be
// jumped and there are at most 30 opponents on 12x12.
const maxPath = 32

const (
	movePromotes = 1 << 0
)

// Move is one legal move as produced by LegalMoves. It is a fixed-size value
// (no pointers) so that move lists never allocate. Squares are returned as
// square numbers of the move's board.
type Move struct {
	captured [2]uint64 // captured pieces, padded bit layout
	seq      uint64    // fingerprint of the capture order (keep mode only)
	from, to uint8     // bit indices
	n        uint8     // number of captured pieces
	flags    uint8
	board    uint8 // index into boards
	path     [maxPath]uint8
}

func (m *Move) b() *Board { return boards[m.board] }

// From returns the start square.
func (m *Move) From() int { return m.b().sqOf(int(m.from)) }

// To returns the end square.
func (m *Move) To() int { return m.b().sqOf(int(m.to)) }

// FromBit and ToBit return the start and end squares as bit indices of
// the board's layout (Board.Bit), below 128: From and To without the
// lookup, for tables keyed by squares that never show them (a search's
// killers and history, another bit layout's index).
func (m *Move) FromBit() int { return int(m.from) }

// ToBit: see FromBit.
func (m *Move) ToBit() int { return int(m.to) }

// CapturedBits returns the captured pieces as a set of bit indices of the
// board's layout (Board.Bit): bit i%64 of word i/64. Captured lists the
// same pieces as square numbers.
func (m *Move) CapturedBits() [2]uint64 { return m.captured }

// IsCapture reports whether the move captures.
func (m *Move) IsCapture() bool { return m.n != 0 }

// CaptureCount returns the number of pieces captured.
func (m *Move) CaptureCount() int { return int(m.n) }

// Promotes reports whether the moving man becomes a king.
func (m *Move) Promotes() bool { return m.flags&movePromotes != 0 }

// Path appends the landing squares in order (one per captured piece, the
// last is To) to dst; for a plain move it appends To.
func (m *Move) Path(dst []int) []int {
	b := m.b()
	if m.n == 0 {
		return append(dst, b.sqOf(int(m.to)))
	}
	for _, i := range m.path[:m.n] {
		dst = append(dst, b.sqOf(int(i)))
	}
	return dst
}

// Captured appends the captured squares in ascending order to dst.
func (m *Move) Captured(dst []int) []int {
	b := m.b()
	start := len(dst)
	// Bit order equals square order in the padded layout of the common
	// boards; mirrored and reversed numberings need a sort.
	for w := 0; w < 2; w++ {
		c := m.captured[w]
		for c != 0 {
			dst = append(dst, b.sqOf(w*64+trailingZeros(c)))
			c &= c - 1
		}
	}
	if !b.mono {
		slices.Sort(dst[start:])
	}
	return dst
}

// SameAs reports whether two moves have the same start, end and captured
// set, the identity used for "drop" duplicate removal.
func (m *Move) SameAs(o *Move) bool {
	return m.from == o.from && m.to == o.to && m.captured == o.captured && m.board == o.board
}

func popcount(x uint64) int      { return bits.OnesCount64(x) }
func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }

// seqStep extends the fingerprint of a capture order by square bit t. Two
// different orders of the same captured set collide with probability 2^-64.
func seqStep(h uint64, t int) uint64 {
	h = (h ^ uint64(t+1)) * 0x9e3779b97f4a7c15
	return h ^ h>>29
}

// MatchFromTo finds the moves of legal that go from square from to square
// to: it returns the index of the first and how many there are. It compares
// the moves' internal squares directly, which makes resolving move text
// ("32-28") against a move list nearly free.
func MatchFromTo(b *Board, legal []Move, from, to int) (first, count int) {
	if !b.Valid(from) || !b.Valid(to) {
		return -1, 0
	}
	f, t := uint8(b.bitOf(from)), uint8(b.bitOf(to))
	first = -1
	for i := range legal {
		if legal[i].from == f && legal[i].to == t {
			if count == 0 {
				first = i
			}
			count++
		}
	}
	return first, count
}
