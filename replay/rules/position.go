package rules

// Piece is the content of a square.
type Piece uint8

const (
	Empty Piece = iota
	WhiteMan
	WhiteKing
	BlackMan
	BlackKing
)

// Color returns the colour of a non-empty piece.
func (p Piece) Color() Color {
	if p >= BlackMan {
		return Black
	}
	return White
}

// IsKing reports whether p is a king.
func (p Piece) IsKing() bool { return p == WhiteKing || p == BlackKing }

// Position is a board, its pieces and the side to move. It is a small value
// (about 70 bytes): copy it to keep an old position (copy-make).
// The zero Position is not usable; get one from NewPosition, StartPosition
// or ParseFEN.
type Position struct {
	v     *Variant
	white [2]uint64 // padded bit layout of v.Board (see geometry.go)
	black [2]uint64
	kings [2]uint64
	side  Color
	hash  uint64
}

// NewPosition returns an empty board of variant v with side to move.
func NewPosition(v *Variant, side Color) Position {
	p := Position{v: v, side: side}
	p.hash = p.ComputeHash()
	return p
}

// StartPosition returns the initial position of v.
func (v *Variant) StartPosition() Position {
	if v.StartFEN != "" {
		p, err := ParseFEN(v, v.StartFEN)
		if err != nil {
			panic("rules: " + v.Name + ": bad StartFEN: " + err.Error())
		}
		p.SetSideToMove(v.FirstToMove)
		return p
	}
	p := Position{v: v, side: v.FirstToMove}
	b := v.Board
	n := v.InitialRows * b.half
	for s := 1; s <= b.nsq; s++ {
		// Black fills the top rows, White the bottom rows, whatever the
		// numbering (internal squares count from the top).
		switch k := b.internal(s); {
		case k < n:
			setBit(&p.black, b.bitOf(s))
		case k >= b.nsq-n:
			setBit(&p.white, b.bitOf(s))
		}
	}
	p.hash = p.ComputeHash()
	return p
}

// Variant returns the position's variant.
func (p *Position) Variant() *Variant { return p.v }

// Board returns the position's board.
func (p *Position) Board() *Board { return p.v.Board }

// SideToMove returns the side to move.
func (p *Position) SideToMove() Color { return p.side }

// SetSideToMove sets the side to move (updating the hash).
func (p *Position) SetSideToMove(c Color) {
	if c != p.side {
		p.side = c
		p.hash ^= p.v.Board.keys.side
	}
}

// Piece returns the piece on square sq (Empty for an invalid square).
func (p *Position) Piece(sq int) Piece {
	b := p.v.Board
	if !b.Valid(sq) {
		return Empty
	}
	return p.pieceAt(b.bitOf(sq))
}

func (p *Position) pieceAt(i int) Piece {
	k := Piece(0)
	if hasBit(p.kings, i) {
		k = 1
	}
	switch {
	case hasBit(p.white, i):
		return WhiteMan + k
	case hasBit(p.black, i):
		return BlackMan + k
	}
	return Empty
}

// SetPiece puts pc (or Empty) on square sq, updating the hash. It does not
// check that a man is off its promotion row; ParseFEN does.
func (p *Position) SetPiece(sq int, pc Piece) {
	b := p.v.Board
	if !b.Valid(sq) {
		panic("rules: SetPiece on invalid square")
	}
	i := b.bitOf(sq)
	if old := p.pieceAt(i); old != Empty {
		p.hash ^= b.keys.piece[old-1][i]
		clrBit(&p.white, i)
		clrBit(&p.black, i)
		clrBit(&p.kings, i)
	}
	if pc == Empty {
		return
	}
	p.hash ^= b.keys.piece[pc-1][i]
	if pc.Color() == White {
		setBit(&p.white, i)
	} else {
		setBit(&p.black, i)
	}
	if pc.IsKing() {
		setBit(&p.kings, i)
	}
}

// Pieces returns the number of pieces of both colours on the board.
func (p *Position) Pieces() int {
	n := 0
	for w := 0; w < 2; w++ {
		n += popcount(p.white[w]) + popcount(p.black[w])
	}
	return n
}

// Count returns the number of men and kings of colour c.
func (p *Position) Count(c Color) (men, kings int) {
	s := p.white
	if c == Black {
		s = p.black
	}
	for w := 0; w < 2; w++ {
		men += popcount(s[w] &^ p.kings[w])
		kings += popcount(s[w] & p.kings[w])
	}
	return men, kings
}

// Hash returns the incrementally maintained Zobrist hash; it always equals
// ComputeHash().
func (p *Position) Hash() uint64 { return p.hash }

// Play makes move m, which must be legal in p (as returned by LegalMoves),
// and updates the hash incrementally. To keep the old position, copy it
// first: next := pos; next.Play(&m).
func (p *Position) Play(m *Move) {
	// Read the move once, before writing the position: reading its fields
	// between the board's stores cost a store-forwarding stall per move
	// (a fifth of Play in the replay profile).
	from, to, n, promotes := int(m.from), int(m.to), m.n, m.flags&movePromotes != 0
	captured := m.captured
	keys := p.v.Board.keys
	us, them := &p.white, &p.black
	man := WhiteMan - 1
	if p.side == Black {
		us, them = them, us
		man = BlackMan - 1
	}
	h := p.hash ^ keys.side
	// Captured pieces go first: where jumped pieces leave at once (Thai,
	// Turkish) a king may end on the square of a piece it jumped earlier.
	if n != 0 {
		oppMan := (man + 2) & 3 // White man 0 <-> Black man 2
		for w := 0; w < 2; w++ {
			c := captured[w]
			for c != 0 {
				i := w*64 + trailingZeros(c)
				c &= c - 1
				k := oppMan
				if hasBit(p.kings, i) {
					k++
				}
				h ^= keys.piece[k][i]
			}
			them[w] &^= captured[w]
			p.kings[w] &^= captured[w]
		}
	}
	was := man
	if hasBit(p.kings, from) {
		was++
		clrBit(&p.kings, from)
	}
	clrBit(us, from)
	now := was
	if promotes {
		now = man + 1
	}
	setBit(us, to)
	if now != man {
		setBit(&p.kings, to)
	}
	p.hash = h ^ keys.piece[was][from] ^ keys.piece[now][to]
	p.side ^= 1
}
