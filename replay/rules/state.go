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
