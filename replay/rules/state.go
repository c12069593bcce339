package rules

import "strings"

// Repetitions returns how many times the last hash of history occurred
// before it (2 means the position is on the board for the third time).
// history holds Position.Hash() after every ply, oldest first; the side to
// move is part of the hash.
func Repetitions(history []uint64) int {
	if len(history) == 0 {
		return 0
	}
	last := history[len(history)-1]
	n := 0
	for _, h := range history[:len(history)-1] {
		if h == last {
			n++
		}
	}
	return n
}

// DrawCounter counts consecutive plies in which a king moved without
// capturing. Call Update before playing each move. Drawn reports whether the
// variant's king-move rule (Variant.DrawKingPlies) is reached:
// Russian 30 plies (15 moves of each side), International 50 plies (25 moves
// each, FMJD's king-moves-only reading). It is a simplification for result
// checks (it does not model the Russian material-specific limits such as
// 3 kings v 1); never use it to reject a game that went on.
type DrawCounter struct {
	Plies int
}

// Update records move m about to be played in p.
func (d *DrawCounter) Update(p *Position, m *Move) {
	if m.IsCapture() || !hasBit(p.kings, int(m.from)) {
		d.Plies = 0
		return
	}
	d.Plies++
}

// Drawn reports whether the king-move draw limit of v is reached.
func (d *DrawCounter) Drawn(v *Variant) bool {
	return v.DrawKingPlies > 0 && d.Plies >= v.DrawKingPlies
}

// ParseMoveText splits move text such as "32-28", "28x19x10", "c3:e5:g7"
// or "08-02" into its squares on board b. capture is true if a capture
// separator ('x' or ':') was used. Trailing strength marks (!, ?) and '+'
// or '#' are ignored. It does not check legality: match the squares
// against LegalMoves (From, To, Path).
func ParseMoveText(b *Board, s string) (squares []int, capture bool, err error) {
	s = strings.TrimRight(strings.TrimSpace(s), "!?+#*")
	if s == "" {
		return nil, false, ErrMoveSyntax
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			c := s[i]
			if c != '-' && c != 'x' && c != 'X' && c != ':' {
				continue
			}
			if c != '-' {
				capture = true
			}
		}
		sq, e := b.ParseSquare(s[start:i])
		if e != nil {
			return nil, false, e
		}
		squares = append(squares, sq)
		start = i + 1
	}
	if len(squares) < 2 {
		return nil, false, ErrMoveSyntax
	}
	return squares, capture, nil
}

// KingMoveCounter applies Variant.KingMoveLimit (Frisian: 3): a side that
// has both kings and men may not move the same king more than the limit
// times in a row, unless it captures. Capturing, moving a man or another
// king resets the count; so do losing the counted king, or all men or all
// kings. Positions do not carry this history, so LegalMoves and Perft
// ignore the rule (dctl's perft counts do too); a game replayer calls
// Filter (or Allowed) before, and Update with, every move. The zero value
// is a game's start.
type KingMoveCounter struct {
	sq    [2]int // per colour: the square of the king counted (0: none)
	count [2]int
}

// Allowed reports whether m, a legal move of p, is allowed by the limit.
func (k *KingMoveCounter) Allowed(p *Position, m *Move) bool {
	lim := p.v.KingMoveLimit
	c := p.side
	return lim == 0 || m.IsCapture() || k.sq[c] == 0 || m.From() != k.sq[c] || k.count[c] < lim ||
		!hasMenAndKings(p, c)
}

// Blocked reports whether the limit forbids every legal move of p: the
// side's only moves are another plain move of the king it moved the limit
// times. It has no move, and loses, as lidraughts plays it (its Actor
// lists no plain move of that king, whatever else the side can do).
func (k *KingMoveCounter) Blocked(p *Position) bool {
	if p.v.KingMoveLimit == 0 || k.sq[p.side] == 0 || k.count[p.side] < p.v.KingMoveLimit {
		return false
	}
	moves := p.LegalMoves(nil)
	return len(moves) > 0 && len(k.Filter(p, moves)) == 0
}

// Outcome is p.Outcome() in a game with this history: a side whose every
// legal move the limit forbids (Blocked) has no move and has lost.
func (k *KingMoveCounter) Outcome(p *Position) Outcome {
	if o := p.Outcome(); o != Undecided || !k.Blocked(p) {
		return o
	}
	return winner(p.side.Opponent())
}

// Filter removes from moves (legal moves of p) those the limit forbids and
// returns the shortened slice.
func (k *KingMoveCounter) Filter(p *Position, moves []Move) []Move {
	out := moves[:0]
	for i := range moves {
		if k.Allowed(p, &moves[i]) {
			out = append(out, moves[i])
		}
	}
	return out
}

// Update records move m about to be played in p.
func (k *KingMoveCounter) Update(p *Position, m *Move) {
	if p.v.KingMoveLimit == 0 {
		return
	}
	c := p.side
	switch {
	case m.IsCapture() || !hasBit(p.kings, int(m.from)) || !hasMenAndKings(p, c):
		k.sq[c], k.count[c] = 0, 0
	case m.From() == k.sq[c]:
		k.sq[c] = m.To()
		k.count[c]++
	default:
		k.sq[c], k.count[c] = m.To(), 1
	}
	if m.IsCapture() {
		o := c.Opponent()
		q := *p
		q.Play(m)
		if !hasMenAndKings(&q, o) || k.sq[o] != 0 && q.Piece(k.sq[o]) != WhiteKing+Piece(2*o) {
			k.sq[o], k.count[o] = 0, 0
		}
	}
}

func hasMenAndKings(p *Position, c Color) bool {
	men, kings := p.Count(c)
	return men > 0 && kings > 0
}
