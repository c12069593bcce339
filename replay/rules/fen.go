package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseFEN reads a position of variant v from a FEN such as
// `W:W31-50:B1-20` or `B:WK4,a1:Bb8`. See doc.go for the forms accepted.
// Errors are *FENError values wrapping one of the ErrFEN* sentinels.
func ParseFEN(v *Variant, s string) (Position, error) {
	orig := s
	fail := func(err error, format string, a ...any) (Position, error) {
		return Position{}, &FENError{FEN: orig, Detail: fmt.Sprintf(format, a...), Err: err}
	}
	s = strings.TrimSpace(s)
	s = strings.Trim(s, "\"'")
	s = strings.TrimSpace(s)
	s = strings.TrimRight(s, ". \t")
	if s == "" {
		return fail(ErrFENSyntax, "empty FEN")
	}
	fields := strings.Split(s, ":")
	side, ok := parseColor(strings.TrimSpace(fields[0]))
	if !ok {
		return fail(ErrFENColor, "side to move %q (want W or B)", strings.TrimSpace(fields[0]))
	}
	b := v.Board
	p := NewPosition(v, side)
	seen := make([]bool, b.nsq+1)
	for _, f := range fields[1:] {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		c, ok := parseColor(f[:1])
		if !ok {
			switch f[0] {
			case 'H', 'h', 'F', 'f': // lidraughts: halfmove clock, move number
				continue
			}
			return fail(ErrFENColor, "field %q does not start with W or B", f)
		}
		for _, tok := range strings.Split(f[1:], ",") {
			tok = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(tok), "."))
			if tok == "" {
				continue
			}
			king := false
			if kingPrefix(b, tok) {
				king = true
				tok = strings.TrimSpace(tok[1:])
			}
			lo, hi := tok, tok
			if i := strings.IndexByte(tok, '-'); i > 0 {
				lo, hi = strings.TrimSpace(tok[:i]), strings.TrimSpace(tok[i+1:])
				if kingPrefix(b, hi) {
					hi = hi[1:]
				}
			}
			a, err := parseFENSquare(b, lo)
			if err != nil {
				return fail(err, "%s", fenSquareDetail(b, lo, err))
			}
			z := a
			if hi != lo {
				if z, err = parseFENSquare(b, hi); err != nil {
					return fail(err, "%s", fenSquareDetail(b, hi, err))
				}
				if z < a {
					return fail(ErrFENSyntax, "range %q runs backwards", tok)
				}
			}
			for sq := a; sq <= z; sq++ {
				if seen[sq] {
					return fail(ErrFENDuplicate, "square %d given twice", sq)
				}
				seen[sq] = true
				pc := WhiteMan
				if c == Black {
					pc = BlackMan
				}
				if king {
					pc++
				} else if hasBit(b.promotionRow(c), b.bitOf(sq)) {
					return fail(ErrFENPromotionRow, "%s man on square %d", c, sq)
				}
				p.SetPiece(sq, pc)
			}
		}
	}
	return p, nil
}

func parseColor(s string) (Color, bool) {
	switch s {
	case "W", "w":
		return White, true
	case "B", "b":
		return Black, true
	}
	return 0, false
}

// parseFENSquare maps ParseSquare's errors to FEN sentinels.
// kingPrefix reports whether tok starts with the king prefix K (or k).
// On a board eleven or more squares wide k is also a file, and a
// lowercase k followed by a digit is that file's square: Canadian
// "k11" is square 12, not a king on 11 (a king there is "Kk11").
func kingPrefix(b *Board, tok string) bool {
	switch {
	case tok == "":
		return false
	case tok[0] == 'K':
		return true
	case tok[0] != 'k':
		return false
	}
	return b.Width < 11 || len(tok) < 2 || tok[1] < '0' || tok[1] > '9'
}

func parseFENSquare(b *Board, s string) (int, error) {
	if n, err := strconv.Atoi(s); err == nil {
		if !b.Valid(n) {
			return 0, ErrFENSquare
		}
		return n, nil
	}
	sq, err := b.ParseSquare(s)
	if err != nil {
		if len(s) >= 2 && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
			if _, e := strconv.Atoi(s[1:]); e == nil {
				return 0, ErrFENSquare // a light square or off the board
			}
		}
		return 0, ErrFENSyntax
	}
	return sq, nil
}

func fenSquareDetail(b *Board, s string, err error) string {
	if err == ErrFENSquare {
		return fmt.Sprintf("square %q is not a playable square of the %s board (1-%d)", s, b.Name, b.nsq)
	}
	return fmt.Sprintf("%q is not a square", s)
}

// FEN writes the canonical numeric FEN: side to move, White's squares then
// Black's, ascending, kings prefixed with K, no ranges, e.g.
// `W:W31,32,33:BK1,2`.
func (p Position) FEN() string { return p.fen(false) }

// FENRanges is FEN with runs of three or more consecutive squares of the
// same piece kind written as ranges: `W:W31-50:B1-20`.
func (p Position) FENRanges() string { return p.fen(true) }

func (p *Position) fen(ranges bool) string {
	var sb strings.Builder
	sb.WriteString([]string{"W", "B"}[p.side])
	b := p.v.Board
	for _, c := range []Color{White, Black} {
		sb.WriteByte(':')
		sb.WriteString([]string{"W", "B"}[c])
		first := true
		for sq := 1; sq <= b.nsq; sq++ {
			pc := p.Piece(sq)
			if pc == Empty || pc.Color() != c {
				continue
			}
			end := sq
			if ranges {
				for end < b.nsq && p.Piece(end+1) == pc {
					end++
				}
				if end-sq < 2 {
					end = sq
				}
			}
			if !first {
				sb.WriteByte(',')
			}
			first = false
			if pc.IsKing() {
				sb.WriteByte('K')
			}
			sb.WriteString(strconv.Itoa(sq))
			if end > sq {
				sb.WriteByte('-')
				sb.WriteString(strconv.Itoa(end))
				sq = end
			}
		}
	}
	return sb.String()
}
