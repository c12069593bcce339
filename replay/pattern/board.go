package pattern

import (
	"math/bits"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Set is a set of squares of one board: square s is bit (s-1)%64 of word
// (s-1)/64, so the 72 squares of the largest board fit.
type Set [2]uint64

// Add puts square sq (1-based) in the set.
func (s *Set) Add(sq int) { s[(sq-1)>>6] |= 1 << (uint(sq-1) & 63) }

// Has reports whether square sq is in the set.
func (s Set) Has(sq int) bool { return s[(sq-1)>>6]>>(uint(sq-1)&63)&1 != 0 }

// Count returns the number of squares in the set.
func (s Set) Count() int { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

// Empty reports whether the set has no square.
func (s Set) Empty() bool { return s[0]|s[1] == 0 }

// Squares appends the squares of the set in ascending order to dst.
func (s Set) Squares(dst []int) []int {
	for w := 0; w < 2; w++ {
		for x := s[w]; x != 0; x &= x - 1 {
			dst = append(dst, w*64+bits.TrailingZeros64(x)+1)
		}
	}
	return dst
}

// Board is a position as square sets: the squares of White's pieces, of
// Black's, and of the kings among them, and the side to move. It is what a
// pattern is tested on while a game is replayed from its stored plies
// (Play needs no move generation: a ply names its captured squares).
type Board struct {
	White, Black, Kings Set
	Side                rules.Color
}

// FromPosition returns the board of p.
func FromPosition(p *rules.Position) Board {
	b := Board{Side: p.SideToMove()}
	n := p.Board().Squares()
	for sq := 1; sq <= n; sq++ {
		switch p.Piece(sq) {
		case rules.WhiteMan:
			b.White.Add(sq)
		case rules.WhiteKing:
			b.White.Add(sq)
			b.Kings.Add(sq)
		case rules.BlackMan:
			b.Black.Add(sq)
		case rules.BlackKing:
			b.Black.Add(sq)
			b.Kings.Add(sq)
		}
	}
	return b
}

// Piece returns the piece on square sq.
func (b *Board) Piece(sq int) rules.Piece {
	k := rules.Piece(0)
	if b.Kings.Has(sq) {
		k = 1
	}
	switch {
	case b.White.Has(sq):
		return rules.WhiteMan + k
	case b.Black.Has(sq):
		return rules.BlackMan + k
	}
	return rules.Empty
}

// Position returns b as a position of variant v (for its FEN and hash).
func (b *Board) Position(v *rules.Variant) rules.Position {
	p := rules.NewPosition(v, b.Side)
	n := v.Board.Squares()
	for sq := 1; sq <= n; sq++ {
		if pc := b.Piece(sq); pc != rules.Empty {
			p.SetPiece(sq, pc)
		}
	}
	return p
}

// Play makes a ply of the side to move: the piece on from goes to to (a
// king if it was one or promotes), the pieces on the captured squares
// leave the board (first: where jumped pieces leave at once, as in Turkish,
// a king may end on a square it emptied), and the other side is to move.
func (b *Board) Play(from, to int, promotes bool, captured []byte) {
	// Word indices masked with &1 (squares are below 128): no bounds checks
	// in the scan's innermost loop.
	for _, c := range captured {
		i := uint(c) - 1
		w, m := i>>6&1, ^(uint64(1) << (i & 63))
		b.White[w] &= m
		b.Black[w] &= m
		b.Kings[w] &= m
	}
	f, t := uint(from)-1, uint(to)-1
	fw, tw := f>>6&1, t>>6&1
	fm, tm := uint64(1)<<(f&63), uint64(1)<<(t&63)
	king := b.Kings[fw]&fm != 0 || promotes
	b.Kings[fw] &^= fm
	us := &b.White
	if b.Side == rules.Black {
		us = &b.Black
	}
	us[fw] &^= fm
	us[tw] |= tm
	b.Side ^= 1
	if king {
		b.Kings[tw] |= tm
	}
}
