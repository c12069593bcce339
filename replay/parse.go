package replay

import (
	"fmt"
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

// resolve finds the one legal move that r.mt describes, by this rule:
//
//  1. A move whose full path (start and every landing square) is exactly
//     the text wins, even when a longer capture with the same start and end
//     also fits the text: "h4:f6:h8" is h4:f6:h8, not h4:f6:d8:a5:c3:h8.
//  2. Otherwise the moves the text fits (matches: same start and end, the
//     written intermediate squares among the landing squares, in order);
//     moves that differ only in the order of capture (same start, end and
//     captured set, rules.Move.SameAs) count as one.
//  3. One such move is the answer; several are ErrAmbiguousMove, listing
//     them; none is ErrIllegalMove with an explanation.
//
// So start-end text ("d6:b8") is ambiguous when several captures share its
// start and end and none is the single jump d6:b8 itself; it stays an error
// because we never guess which pieces the writer meant to take.
//
// A text with intermediate squares is also matched against every capture
// order (AppendMoves with keep): duplicate removal keeps one path per move,
// and the text may name another path of the same move.
func (r *Replayer) resolve(pos *rules.Position, ply int, text string) (rules.Move, error) {
	mt := &r.mt
	// Most moves are plain moves written start-end: check that one move
	// without generating them all (PlainMove is exact, and a plain move is
	// the only legal move with its start and end).
	if !mt.short && mt.n == 2 && !mt.capture {
		if m, ok := pos.PlainMove(mt.sq[0], mt.sq[1]); ok {
			return m, nil
		}
	}
	r.legal = pos.LegalMoves(r.legal[:0])
	if !mt.short && mt.n == 2 {
		// The common case, start and end only: one move with them.
		if found, count := rules.MatchFromTo(r.board, r.legal, mt.sq[0], mt.sq[1]); count == 1 {
			return r.legal[found], nil
		}
	}
	found, exact, distinct := r.pick(r.legal, true)
	if exact {
		return r.legal[found], nil
	}
	if mt.short || mt.n == 2 {
		// Only start and end are written: every capture order of a move
		// fits iff its kept representative does, so r.legal decides.
		switch {
		case distinct == 1:
			return r.legal[found], nil
		case distinct > 1:
			return rules.Move{}, r.ambiguous(pos, ply, text, r.legal, true)
		}
		return rules.Move{}, r.reject(ErrIllegalMove, pos, ply, text, r.explainIllegal(pos))
	}
	r.keep = pos.AppendMoves(r.keep[:0], true)
	kfound, kexact, kdistinct := r.pick(r.keep, false)
	switch {
	case kexact:
		return r.keep[kfound], nil
	case kdistinct <= 1 && distinct == 1:
		return r.legal[found], nil // the canonical path of that move
	case kdistinct == 1:
		return r.keep[kfound], nil
	case kdistinct > 1:
		return rules.Move{}, r.ambiguous(pos, ply, text, r.keep, false)
	case distinct > 1:
		return rules.Move{}, r.ambiguous(pos, ply, text, r.legal, true)
	}
	return rules.Move{}, r.reject(ErrIllegalMove, pos, ply, text, r.explainIllegal(pos))
}

// maxClasses bounds the different moves pick tells apart in a capture-order
// list; past it, the text is ambiguous anyway.
const maxClasses = 16

// pick applies resolve's rule to moves. found is the index of the move
// whose full path is the text (exact) or else of the first move the text
// fits; distinct counts the different moves (SameAs) the text fits, 1 when
// exact. deduped says moves holds no two SameAs moves (LegalMoves), which
// saves comparing them.
func (r *Replayer) pick(moves []rules.Move, deduped bool) (found int, exact bool, distinct int) {
	found = -1
	var classes [maxClasses]int
	for i := range moves {
		m := &moves[i]
		if !r.matches(m) {
			continue
		}
		if r.isFullPath(m) {
			return i, true, 1
		}
		if found < 0 {
			found = i
		}
		if !deduped {
			seen := false
			for _, c := range classes[:min(distinct, maxClasses)] {
				if moves[c].SameAs(m) {
					seen = true
					break
				}
			}
			if seen {
				continue
			}
			if distinct < maxClasses {
				classes[distinct] = i
			}
		}
		distinct++
	}
	return found, false, distinct
}

// matches reports whether legal move m fits the parsed text: same start and
// end (or, for the Russian short form, the end and the start's file), and
// the text's intermediate squares among m's landing squares, in order.
func (r *Replayer) matches(m *rules.Move) bool {
	mt := &r.mt
	if mt.short {
		if m.To() != mt.sq[0] {
			return false
		}
		file, _ := r.board.Coords(m.From())
		return file == mt.shortFile
	}
	if m.From() != mt.sq[0] || m.To() != mt.sq[mt.n-1] {
		return false
	}
	if mt.n == 2 {
		return true
	}
	r.path = m.Path(r.path[:0])
	j := 0
	for _, sq := range r.path[:max(0, len(r.path)-1)] {
		if j < mt.n-2 && sq == mt.sq[1+j] {
			j++
		}
	}
	return j == mt.n-2
}

// isFullPath reports whether the text is exactly m's start followed by all
// its landing squares (for a plain move or a single jump: start and end).
func (r *Replayer) isFullPath(m *rules.Move) bool {
	mt := &r.mt
	if mt.short || m.From() != mt.sq[0] {
		return false
	}
	r.path = m.Path(r.path[:0])
	if len(r.path) != mt.n-1 {
		return false
	}
	for i, sq := range r.path {
		if sq != mt.sq[1+i] {
			return false
		}
	}
	return true
}

// ambiguous is the ErrAmbiguousMove rejection: it lists every different
// move of moves that the text fits, with its full path in the variant's
// notation.
func (r *Replayer) ambiguous(pos *rules.Position, ply int, text string, moves []rules.Move, deduped bool) error {
	v := pos.Variant()
	var alts []string
	var fit []*rules.Move
next:
	for i := range moves {
		m := &moves[i]
		if !r.matches(m) {
			continue
		}
		if !deduped {
			for _, o := range fit {
				if o.SameAs(m) {
					continue next
				}
			}
		}
		fit = append(fit, m)
		alts = append(alts, FormatMove(v, m, v.DefaultNotation, true))
	}
	return r.reject(ErrAmbiguousMove, pos, ply, text, fmt.Sprintf("%d legal moves fit it: %s", len(alts), strings.Join(alts, ", ")))
}
