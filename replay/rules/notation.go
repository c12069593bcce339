package rules

import "strings"

// FormatMove writes m in notation n. full writes every landing square of a
// capture; otherwise only start and end. Numeric: 32-28, 28x19, 28x19x10.
// Algebraic: c3-d4, c3:e5, c3:e5:g7.
func FormatMove(m *Move, n Notation, full bool) string {
	b := m.b()
	name := func(sq int) string {
		if n == Algebraic {
			return b.Algebraic(sq)
		}
		return itoa(sq)
	}
	var sb strings.Builder
	sb.WriteString(name(m.From()))
	if m.n == 0 {
		sb.WriteByte('-')
		sb.WriteString(name(m.To()))
		return sb.String()
	}
	sep := byte('x')
	if n == Algebraic {
		sep = ':'
	}
	if !full {
		sb.WriteByte(sep)
		sb.WriteString(name(m.To()))
		return sb.String()
	}
	for _, i := range m.path[:m.n] {
		sb.WriteByte(sep)
		sb.WriteString(name(b.sqOf(int(i))))
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

// MoveText writes m in the shortest unambiguous form among the legal moves
// of its position: start and end, or the full path when another legal move
// shares start and end.
func MoveText(legal []Move, m *Move, n Notation) string {
	return FormatMove(m, n, Ambiguous(legal, m))
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
