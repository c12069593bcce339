package replay

import (
	"strings"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// maxSquares bounds the squares in one move text (a capture path).
const maxSquares = 40

// moveText is a move as written, parsed without allocating.
type moveText struct {
	sq      [maxSquares]int
	n       int
	capture bool // written with x or :
	// Russian short form "cd4": only the start file is given.
	short     bool
	shortFile int
	algebraic bool // some square was written algebraically
}

// parseMoveText reads numeric ("32-28", "28x19x10", "01-07") and algebraic
// ("c3-d4", "c3:e5:g7") moves with any of the separators - x X :, and the
// Russian short form "cd4". ok is false when s is none of these on board b.
//
// rotate reads algebraic squares from the far side (a1 is the last square):
// English games in algebraic notation name squares from the side that moves
// first, Black (see algebraicRotated).
func parseMoveText(b *rules.Board, s string, rotate bool, mt *moveText) (ok bool) {
	mt.n, mt.capture, mt.short, mt.shortFile, mt.algebraic = 0, false, false, 0, false // sq is overwritten as needed
	// Strip trailing marks the reader may leave ("+", "#", "*").
	for len(s) > 0 && (s[len(s)-1] == '+' || s[len(s)-1] == '#' || s[len(s)-1] == '*') {
		s = s[:len(s)-1]
	}
	if s == "" {
		return false
	}
	if isDigit(s[0]) {
		if parseNumeric(b, s, mt) {
			return true
		}
		mt.n, mt.capture = 0, false // the general parser decides
	}
	if len(s) >= 3 && isFile(s[0]) && isFile(s[1]) && isDigit(s[2]) {
		sq := squareAt(b, s[1:])
		if sq == 0 {
			return false
		}
		file := int(lower(s[0])-'a') + 1
		if rotate {
			sq, file = b.Squares()+1-sq, b.Width+1-file
		}
		mt.short, mt.shortFile, mt.algebraic = true, file, true
		mt.sq[0], mt.n = sq, 1
		return true
	}
	// Algebraic squares written without separators: "a3b4".
	glued := isFile(s[0]) && !hasSeparator(s)
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			c := s[i]
			switch {
			case glued && i > start+1 && isFile(c):
				// a square ends where the next file letter starts
			case c == 'x' || c == 'X' || c == ':':
				mt.capture = true
			case c != '-':
				continue
			}
		}
		if mt.n == maxSquares {
			return false
		}
		sq := squareAt(b, s[start:i])
		if sq == 0 {
			return false
		}
		if isFile(s[start]) {
			mt.algebraic = true
			if rotate {
				sq = b.Squares() + 1 - sq
			}
		}
		mt.sq[mt.n] = sq
		mt.n++
		start = i + 1
		if glued {
			start = i
		}
	}
	return mt.n >= 2
}

// squareAt reads one square, numeric or algebraic; 0 if it is not a square
// of b.
func squareAt(b *rules.Board, s string) int {
	if s == "" {
		return 0
	}
	if isFile(s[0]) {
		r := 0
		for i := 1; i < len(s); i++ {
			if !isDigit(s[i]) || r > 100 {
				return 0
			}
			r = r*10 + int(s[i]-'0')
		}
		if len(s) < 2 {
			return 0
		}
		return b.SquareAt(int(lower(s[0])-'a')+1, r)
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || n > 1000 {
			return 0
		}
		n = n*10 + int(s[i]-'0')
	}
	if !b.Valid(n) {
		return 0
	}
	return n
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isFile(c byte) bool  { return c >= 'a' && c <= 'l' || c >= 'A' && c <= 'L' }
func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// algebraicRotated reports whether algebraic squares of variant v are named
// from the far side of our diagrams. Our diagrams have White at the bottom
// (a1 is square 29 on 8x8); English checkers sites that write algebraic
// moves (playstrategy, lidraughts) put Black, who moves first, at the
// bottom, so their square s is our square N+1-s (their c3, 22, is our 11).
func algebraicRotated(v *rules.Variant) bool { return v == rules.English }

// FormatMove writes m in notation n like rules.FormatMove, but with the
// English algebraic squares named from Black's side (see algebraicRotated),
// so that what draughtsdb writes it reads back the same.
func FormatMove(v *rules.Variant, m *rules.Move, n rules.Notation, full bool) string {
	if n != rules.Algebraic || !algebraicRotated(v) {
		return rules.FormatMove(m, n, full)
	}
	b := v.Board
	name := func(sq int) string { return b.Algebraic(b.Squares() + 1 - sq) }
	var sb strings.Builder
	sb.WriteString(name(m.From()))
	if !m.IsCapture() {
		sb.WriteByte('-')
		sb.WriteString(name(m.To()))
		return sb.String()
	}
	if !full {
		sb.WriteByte(':')
		sb.WriteString(name(m.To()))
		return sb.String()
	}
	for _, sq := range m.Path(nil) {
		sb.WriteByte(':')
		sb.WriteString(name(sq))
	}
	return sb.String()
}

func hasSeparator(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '-' || c == 'x' || c == 'X' || c == ':' {
			return true
		}
	}
	return false
}

// parseNumeric is the fast path for numeric moves ("32-28", "28x19x10",
// "01-07"): digits and separators only. It reports false for anything else,
// which the general parser then reads (or rejects).
func parseNumeric(b *rules.Board, s string, mt *moveText) bool {
	n, digits := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && isDigit(s[i]) {
			if digits++; digits > 3 {
				return false
			}
			n = n*10 + int(s[i]-'0')
			continue
		}
		if digits == 0 || !b.Valid(n) || mt.n == maxSquares {
			return false
		}
		mt.sq[mt.n] = n
		mt.n++
		n, digits = 0, 0
		if i == len(s) {
			break
		}
		switch s[i] {
		case '-':
		case 'x', 'X', ':':
			mt.capture = true
		default:
			return false
		}
	}
	if mt.n < 2 {
		return false
	}
	return true
}
