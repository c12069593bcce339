// Package pattern is the search of stored games by partial positions,
// material and manoeuvres: a query's parts (Parse, ParseMaterial,
// ParseMove), its compiled form (Query.Compile) and the test of a position
// or a ply against it. It knows boards through package rules and nothing
// of storage: the scan of the stored plies is queries/pattern's. Pure: no
// IO.
package pattern

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Pattern is a partial position: the squares where a white man, a white
// king, a black man or a black king must stand, and the squares that must
// be empty. Every other square may hold anything.
type Pattern struct {
	WhiteMen, WhiteKings, BlackMen, BlackKings, Empty Set
}

// Side is a side-to-move condition: Either, or White or Black to move.
type Side int8

const (
	Either Side = iota
	WhiteToMove
	BlackToMove
)

// ParseSide reads "white", "black" (or "w", "b") and "" (either).
func ParseSide(s string) (Side, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return Either, nil
	case "w", "white":
		return WhiteToMove, nil
	case "b", "black":
		return BlackToMove, nil
	}
	return Either, fmt.Errorf("side to move %q: want white or black", s)
}

func (s Side) String() string {
	switch s {
	case WhiteToMove:
		return "white"
	case BlackToMove:
		return "black"
	}
	return ""
}

func (s Side) reversed() Side {
	switch s {
	case WhiteToMove:
		return BlackToMove
	case BlackToMove:
		return WhiteToMove
	}
	return Either
}

func (s Side) allows(c rules.Color) bool {
	return s == Either || (s == WhiteToMove) == (c == rules.White)
}

// Parse reads a partial position written as a FEN of the variant's board:
// "W:W28,32,K46:B19,23" (a K before a square marks a king, A-B a range of
// squares, squares numeric or algebraic). The side field of a FEN before
// the first colon may be given and is ignored: the side to move is a
// condition of its own (Query.Side), as the pattern is only the board.
// Each square may be given once. A third field "E5,6" lists squares that must be empty.
func Parse(v *rules.Variant, s string) (Pattern, error) {
	var p Pattern
	b := v.Board
	seen := Set{}
	fields := strings.Split(strings.TrimSuffix(strings.TrimSpace(s), "."), ":")
	for i, f := range fields {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		up := strings.ToUpper(f)
		if i == 0 && (up == "W" || up == "B") && len(fields) > 1 {
			continue
		}
		var men, kings *Set
		switch up[0] {
		case 'W':
			men, kings = &p.WhiteMen, &p.WhiteKings
		case 'B':
			men, kings = &p.BlackMen, &p.BlackKings
		case 'E':
			men = &p.Empty
		default:
			return p, fmt.Errorf("pattern %q: field %q: want W, B or E and its squares", s, f)
		}
		for item := range strings.SplitSeq(f[1:], ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			set := men
			if item[0] == 'K' || item[0] == 'k' {
				if kings == nil {
					return p, fmt.Errorf("pattern %q: %q: an empty square holds no king", s, item)
				}
				set, item = kings, item[1:]
			}
			sqs, err := parseSquares(b, item)
			if err != nil {
				return p, fmt.Errorf("pattern %q: %w", s, err)
			}
			for _, sq := range sqs {
				if seen.Has(sq) {
					return p, fmt.Errorf("pattern %q: square %s given twice", s, item)
				}
				seen.Add(sq)
				set.Add(sq)
			}
		}
	}
	return p, nil
}

// ParseSquares reads a list of squares ("5,6,31-35"; numeric or algebraic)
// of the variant's board.
func ParseSquares(v *rules.Variant, s string) (Set, error) {
	var out Set
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		sqs, err := parseSquares(v.Board, item)
		if err != nil {
			return out, err
		}
		for _, sq := range sqs {
			out.Add(sq)
		}
	}
	return out, nil
}

func parseSquares(b *rules.Board, item string) ([]int, error) {
	if lo, hi, ok := strings.Cut(item, "-"); ok && lo != "" && hi != "" {
		a, err := b.ParseSquare(lo)
		if err != nil {
			return nil, fmt.Errorf("square %q: %w", item, err)
		}
		z, err := b.ParseSquare(hi)
		if err != nil {
			return nil, fmt.Errorf("square %q: %w", item, err)
		}
		if a > z {
			return nil, fmt.Errorf("square range %q runs backwards", item)
		}
		out := make([]int, 0, z-a+1)
		for sq := a; sq <= z; sq++ {
			out = append(out, sq)
		}
		return out, nil
	}
	sq, err := b.ParseSquare(item)
	if err != nil {
		return nil, fmt.Errorf("square %q: %w", item, err)
	}
	return []int{sq}, nil
}

// String writes the pattern back in the form Parse reads.
func (p Pattern) String() string {
	var sb strings.Builder
	side := func(c byte, men, kings Set) {
		sb.WriteByte(c)
		var all Set
		all[0], all[1] = men[0]|kings[0], men[1]|kings[1]
		for i, sq := range all.Squares(nil) {
			if i > 0 {
				sb.WriteByte(',')
			}
			if kings.Has(sq) {
				sb.WriteByte('K')
			}
			sb.WriteString(strconv.Itoa(sq))
		}
	}
	side('W', p.WhiteMen, p.WhiteKings)
	sb.WriteByte(':')
	side('B', p.BlackMen, p.BlackKings)
	if !p.Empty.Empty() {
		sb.WriteString(":E")
		for i, sq := range p.Empty.Squares(nil) {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(strconv.Itoa(sq))
		}
	}
	return sb.String()
}

// Material bounds the men and kings of each side: index 0 White's men, 1
// White's kings, 2 Black's men, 3 Black's kings, 4 White's pieces, 5
// Black's pieces; a bound of -1 is none.
type Material struct {
	Min, Max [6]int
}

var materialKeys = map[string]int{"wm": 0, "wk": 1, "bm": 2, "bk": 3, "w": 4, "b": 5}

// ParseMaterial reads bounds written as KEY=RANGE, separated by commas or
// spaces: keys wm, wk, bm, bk (White's men and kings, Black's men and
// kings), w and b (all of a side's pieces); ranges N, A-B, A- (at least)
// and -B (at most). "wm=10-12,wk=0,bk=1-" is White with 10 to 12 men and no
// king against Black with at least one king.
func ParseMaterial(s string) (*Material, error) {
	m := &Material{}
	for i := range m.Min {
		m.Min[i], m.Max[i] = -1, -1
	}
	any := false
	for term := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		key, rng, ok := strings.Cut(term, "=")
		idx, known := materialKeys[strings.ToLower(key)]
		if !ok || !known {
			return nil, fmt.Errorf("material %q: term %q: want wm, wk, bm, bk, w or b = N, A-B, A- or -B", s, term)
		}
		lo, hi, err := parseRange(rng)
		if err != nil {
			return nil, fmt.Errorf("material %q: term %q: %w", s, term, err)
		}
		m.Min[idx], m.Max[idx] = lo, hi
		any = true
	}
	if !any {
		return nil, fmt.Errorf("material %q: no bound given", s)
	}
	return m, nil
}

// ParsePlies reads a ply range "A-B", "A-", "-B" or "N" (ply 0 is the start
// position) and returns its bounds, -1 for none.
func ParsePlies(s string) (lo, hi int, err error) {
	lo, hi, err = parseRange(s)
	if err != nil {
		return 0, 0, fmt.Errorf("plies %q: %w", s, err)
	}
	return lo, hi, nil
}

func parseRange(s string) (lo, hi int, err error) {
	s = strings.TrimSpace(s)
	num := func(t string) (int, error) {
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q is not a count", t)
		}
		return n, nil
	}
	a, z, isRange := strings.Cut(s, "-")
	if !isRange {
		n, err := num(s)
		return n, n, err
	}
	lo, hi = -1, -1
	if a != "" {
		if lo, err = num(a); err != nil {
			return
		}
	}
	if z != "" {
		if hi, err = num(z); err != nil {
			return
		}
	}
	if a == "" && z == "" {
		return 0, 0, errors.New("empty range")
	}
	if lo >= 0 && hi >= 0 && lo > hi {
		return 0, 0, fmt.Errorf("range %q runs backwards", s)
	}
	return lo, hi, nil
}

func (m *Material) reversed() *Material {
	if m == nil {
		return nil
	}
	r := *m
	for _, p := range [][2]int{{0, 2}, {1, 3}, {4, 5}} {
		r.Min[p[0]], r.Min[p[1]] = m.Min[p[1]], m.Min[p[0]]
		r.Max[p[0]], r.Max[p[1]] = m.Max[p[1]], m.Max[p[0]]
	}
	return &r
}

func (m *Material) allows(b *Board) bool {
	wk, bk := b.White.and(b.Kings).Count(), b.Black.and(b.Kings).Count()
	w, bl := b.White.Count(), b.Black.Count()
	n := [6]int{w - wk, wk, bl - bk, bk, w, bl}
	for i, v := range n {
		if m.Min[i] >= 0 && v < m.Min[i] || m.Max[i] >= 0 && v > m.Max[i] {
			return false
		}
	}
	return true
}

func (s Set) and(o Set) Set { return Set{s[0] & o[0], s[1] & o[1]} }
