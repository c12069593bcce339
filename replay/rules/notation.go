package rules

import "strings"

// SquareName writes square sq of v's board as v's players write it in
// notation n: its number, or its algebraic name. English algebraic names
// are seen from Black's side (see Variant.AlgebraicFromBlack), so square
// 22 of our diagram is "f6" on an English board and "c3" on a Russian one.
func (v *Variant) SquareName(sq int, n Notation) string {
	if n != Algebraic {
		return itoa(sq)
	}
	b := v.Board
	if v.AlgebraicFromBlack {
		return b.Algebraic(b.Squares() + 1 - sq)
	}
	return b.Algebraic(sq)
}

// FormatMove writes m, a move of variant v, in notation n. full writes
// every landing square of a capture; otherwise only start and end.
// Numeric: 32-28, 28x19, 28x19x10. Algebraic: c3-d4, c3:e5, c3:e5:g7,
// with the squares named as v's players name them (SquareName), so that
// what draughtsdb writes it reads back as the same move.
func FormatMove(v *Variant, m *Move, n Notation, full bool) string {
	b := m.b()
	var sb strings.Builder
	sb.WriteString(v.SquareName(m.From(), n))
	if m.n == 0 {
		sb.WriteByte('-')
		sb.WriteString(v.SquareName(m.To(), n))
		return sb.String()
	}
	sep := byte('x')
	if n == Algebraic {
		sep = ':'
	}
	if !full {
		sb.WriteByte(sep)
		sb.WriteString(v.SquareName(m.To(), n))
		return sb.String()
	}
	for _, i := range m.path[:m.n] {
		sb.WriteByte(sep)
		sb.WriteString(v.SquareName(b.sqOf(int(i)), n))
	}
	return sb.String()
}

// Ambiguous reports whether another move in legal has the same start and
// end as m but is a different move, so that m's text needs its full path.
func Ambiguous(legal []Move, m *Move) bool {
	for i := range legal {
		o := &legal[i]
		if o.from == m.from && o.to == m.to && (o.captured != m.captured || o.path != m.path) {
			return true
		}
	}
	return false
}

// MoveText writes m, a move of variant v, in the shortest unambiguous form
// among the legal moves of its position: start and end, or the full path
// when another legal move shares start and end.
func MoveText(v *Variant, legal []Move, m *Move, n Notation) string {
	return FormatMove(v, m, n, Ambiguous(legal, m))
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	var b [4]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
