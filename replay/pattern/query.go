package pattern

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Move is a move pattern: who plays (Side, and Kind: 0 any, 1 a man, 2 a
// king), from and to which squares (0: any) and whether it captures
// (Capture: 0 either, 1 a capture, 2 a plain move).
type Move struct {
	Side     Side
	Kind     int8
	From, To int
	Capture  int8
}

// ParseMove reads a move pattern: space-separated words, each optional,
// "white" or "black", "man" or "king", then the move: "19-24" (a plain
// move), "28x19" (a capture from 28 ending on 19), "*" for any square
// ("*x46": a capture ending on 46, "32-*": a plain move from 32), a lone
// "x" any capture, a lone "-" any plain move. "white king *x46" is a white
// king capturing on 46; "black 19-24" is Black playing 19-24.
func ParseMove(v *rules.Variant, s string) (*Move, error) {
	m := &Move{}
	words := strings.Fields(s)
	if len(words) == 0 {
		return nil, fmt.Errorf("move %q: empty", s)
	}
	seenMove := false
	for _, w := range words {
		switch lw := strings.ToLower(w); lw {
		case "white", "w":
			m.Side = WhiteToMove
			continue
		case "black", "b":
			m.Side = BlackToMove
			continue
		case "man":
			m.Kind = 1
			continue
		case "king":
			m.Kind = 2
			continue
		case "x":
			m.Capture, seenMove = 1, true
			continue
		case "-":
			m.Capture, seenMove = 2, true
			continue
		}
		if seenMove {
			return nil, fmt.Errorf("move %q: %q: a second move", s, w)
		}
		sep := strings.IndexAny(w, "-x")
		if sep < 0 {
			return nil, fmt.Errorf("move %q: %q: want white, black, man, king or a move such as 19-24, 28x19, *x46", s, w)
		}
		m.Capture = 2
		if w[sep] == 'x' {
			m.Capture = 1
		}
		var err error
		if m.From, err = moveSquare(v, w[:sep]); err != nil {
			return nil, fmt.Errorf("move %q: %w", s, err)
		}
		if m.To, err = moveSquare(v, w[sep+1:]); err != nil {
			return nil, fmt.Errorf("move %q: %w", s, err)
		}
		seenMove = true
	}
	return m, nil
}

func moveSquare(v *rules.Variant, s string) (int, error) {
	if s == "" || s == "*" {
		return 0, nil
	}
	sq, err := v.Board.ParseSquare(s)
	if err != nil {
		return 0, fmt.Errorf("square %q: %w", s, err)
	}
	return sq, nil
}

// String writes the move pattern in the form ParseMove reads.
func (m *Move) String() string {
	var w []string
	if s := m.Side.String(); s != "" {
		w = append(w, s)
	}
	switch m.Kind {
	case 1:
		w = append(w, "man")
	case 2:
		w = append(w, "king")
	}
	sq := func(s int) string {
		if s == 0 {
			return "*"
		}
		return strconv.Itoa(s)
	}
	switch {
	case m.From == 0 && m.To == 0 && m.Capture == 1:
		w = append(w, "x")
	case m.From == 0 && m.To == 0 && m.Capture == 2:
		w = append(w, "-")
	case m.From != 0 || m.To != 0:
		sep := "-"
		if m.Capture == 1 {
			sep = "x"
		}
		w = append(w, sq(m.From)+sep+sq(m.To))
	}
	return strings.Join(w, " ")
}

// Query is a search: positions that match any of Patterns (none: every
// position) and none of Exclude, with Side to move, within Material and
// plies MinPly..MaxPly (-1: unbounded; ply 0 is the start position). With
// Move, a match is a ply: the position it is played from passes the
// conditions above and the move matches Move. Reversed also finds all of
// it with the colours swapped and the board turned (a pattern of White's
// men on 31-35 then also finds Black's men on 16-20).
type Query struct {
	Patterns       []Pattern
	Exclude        []Pattern
	Side           Side
	Material       *Material
	MinPly, MaxPly int
	Move           *Move
	Reversed       bool
}

// Matcher is a compiled Query for one variant.
type Matcher struct {
	// MinPly and MaxPly bound the plies tested (MaxPly -1: none).
	MinPly, MaxPly int
	dirs           []dir // the query, then its colour-reversed form
	move           bool
	// single, when set, is the query's one pattern, with nothing else to
	// test (the common case, tested without the general loop).
	single *cpat
}

type dir struct {
	pats, excl []cpat
	side       Side
	mat        *Material
	move       *Move
}

// cpat is a pattern as the masks a board is tested with.
type cpat struct {
	white, black, kings, men, empty Set
}

func compilePattern(p *Pattern) cpat {
	var c cpat
	for w := 0; w < 2; w++ {
		c.white[w] = p.WhiteMen[w] | p.WhiteKings[w]
		c.black[w] = p.BlackMen[w] | p.BlackKings[w]
		c.kings[w] = p.WhiteKings[w] | p.BlackKings[w]
		c.men[w] = p.WhiteMen[w] | p.BlackMen[w]
		c.empty[w] = p.Empty[w]
	}
	return c
}

func (c *cpat) match(b *Board) bool {
	return b.White[0]&c.white[0] == c.white[0] && b.Black[0]&c.black[0] == c.black[0] &&
		b.Kings[0]&c.kings[0] == c.kings[0] && b.Kings[0]&c.men[0] == 0 &&
		(b.White[0]|b.Black[0])&c.empty[0] == 0 &&
		b.White[1]&c.white[1] == c.white[1] && b.Black[1]&c.black[1] == c.black[1] &&
		b.Kings[1]&c.kings[1] == c.kings[1] && b.Kings[1]&c.men[1] == 0 &&
		(b.White[1]|b.Black[1])&c.empty[1] == 0
}

// Reverse returns the pattern with the colours swapped and the board
// turned half a circle, on variant v's board.
func (p *Pattern) Reverse(v *rules.Variant) Pattern {
	rot := rotation(v.Board)
	turn := func(s Set) Set {
		var o Set
		for _, sq := range s.Squares(nil) {
			o.Add(rot[sq])
		}
		return o
	}
	return Pattern{
		WhiteMen: turn(p.BlackMen), WhiteKings: turn(p.BlackKings),
		BlackMen: turn(p.WhiteMen), BlackKings: turn(p.WhiteKings),
		Empty: turn(p.Empty),
	}
}

// rotation maps each square of b to the square half a turn away (the same
// square seen from the other side).
func rotation(b *rules.Board) []int {
	rot := make([]int, b.Squares()+1)
	for sq := 1; sq <= b.Squares(); sq++ {
		f, r := b.Coords(sq)
		rot[sq] = b.SquareAt(b.Width+1-f, b.Height+1-r)
	}
	return rot
}

// Compile checks the query against variant v and returns its matcher.
func (q *Query) Compile(v *rules.Variant) (*Matcher, error) {
	n := v.Board.Squares()
	check := func(what string, p *Pattern) error {
		var all Set
		for _, s := range []Set{p.WhiteMen, p.WhiteKings, p.BlackMen, p.BlackKings} {
			for w := 0; w < 2; w++ {
				if all[w]&s[w] != 0 {
					return fmt.Errorf("%s %s: a square holds two pieces", what, p.String())
				}
				all[w] |= s[w]
			}
		}
		for _, sq := range append(all.Squares(nil), p.Empty.Squares(nil)...) {
			if sq > n {
				return fmt.Errorf("%s %s: square %d is not on the %s board (1-%d)", what, p.String(), sq, v.Name, n)
			}
		}
		if all[0]&p.Empty[0] != 0 || all[1]&p.Empty[1] != 0 {
			return fmt.Errorf("%s %s: a square is both occupied and empty", what, p.String())
		}
		return nil
	}
	for i := range q.Patterns {
		if err := check("pattern", &q.Patterns[i]); err != nil {
			return nil, err
		}
	}
	for i := range q.Exclude {
		if err := check("exclude pattern", &q.Exclude[i]); err != nil {
			return nil, err
		}
	}
	if q.MinPly >= 0 && q.MaxPly >= 0 && q.MinPly > q.MaxPly {
		return nil, fmt.Errorf("plies %d-%d run backwards", q.MinPly, q.MaxPly)
	}
	if mv := q.Move; mv != nil {
		if mv.From > n || mv.To > n {
			return nil, fmt.Errorf("move %s: a square is not on the %s board (1-%d)", mv, v.Name, n)
		}
	}
	m := &Matcher{MinPly: max(q.MinPly, 0), MaxPly: q.MaxPly, move: q.Move != nil}
	fwd := dir{side: q.Side, mat: q.Material, move: q.Move}
	for i := range q.Patterns {
		fwd.pats = append(fwd.pats, compilePattern(&q.Patterns[i]))
	}
	for i := range q.Exclude {
		fwd.excl = append(fwd.excl, compilePattern(&q.Exclude[i]))
	}
	m.dirs = append(m.dirs, fwd)
	if q.Reversed {
		rot := rotation(v.Board)
		rev := dir{side: q.Side.reversed(), mat: q.Material.reversed()}
		for i := range q.Patterns {
			r := q.Patterns[i].Reverse(v)
			rev.pats = append(rev.pats, compilePattern(&r))
		}
		for i := range q.Exclude {
			r := q.Exclude[i].Reverse(v)
			rev.excl = append(rev.excl, compilePattern(&r))
		}
		if mv := q.Move; mv != nil {
			r := *mv
			r.Side = mv.Side.reversed()
			r.From, r.To = rot[mv.From], rot[mv.To]
			rev.move = &r
		}
		m.dirs = append(m.dirs, rev)
	}
	if d := &m.dirs[0]; len(m.dirs) == 1 && len(d.pats) == 1 && len(d.excl) == 0 && d.side == Either && d.mat == nil {
		m.single = &d.pats[0]
	}
	return m, nil
}

// Moves reports whether the matcher tests plies (a move pattern), not
// positions.
func (m *Matcher) Moves() bool { return m.move }

func (d *dir) position(b *Board) bool {
	if !d.side.allows(b.Side) {
		return false
	}
	if len(d.pats) > 0 {
		ok := false
		for i := range d.pats {
			if d.pats[i].match(b) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	for i := range d.excl {
		if d.excl[i].match(b) {
			return false
		}
	}
	return d.mat == nil || d.mat.allows(b)
}

// Position reports whether position b matches (for a query without a move
// pattern), and whether only in its colour-reversed form.
func (m *Matcher) Position(b *Board) (match, reversed bool) {
	if m.single != nil {
		return m.single.match(b), false
	}
	if m.dirs[0].position(b) {
		return true, false
	}
	if len(m.dirs) > 1 && m.dirs[1].position(b) {
		return true, true
	}
	return false, false
}

// Ply reports whether the ply from..to (captured: the squares it
// captures), played from position b, matches the move pattern and b the
// rest of the query, and whether only in the colour-reversed form.
func (m *Matcher) Ply(b *Board, from, to int, captured []byte) (match, reversed bool) {
	for i := range m.dirs {
		d := &m.dirs[i]
		if d.move.matches(b, from, to, len(captured) > 0) && d.position(b) {
			return true, i == 1
		}
	}
	return false, false
}

func (mv *Move) matches(b *Board, from, to int, capture bool) bool {
	if mv.From != 0 && mv.From != from || mv.To != 0 && mv.To != to {
		return false
	}
	if mv.Capture == 1 && !capture || mv.Capture == 2 && capture {
		return false
	}
	if !mv.Side.allows(b.Side) {
		return false
	}
	switch mv.Kind {
	case 1:
		return !b.Kings.Has(from)
	case 2:
		return b.Kings.Has(from)
	}
	return true
}
