package pattern

import (
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

func board(t *testing.T, v *rules.Variant, fen string) Board {
	t.Helper()
	p, err := rules.ParseFEN(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	return FromPosition(&p)
}

func TestParse(t *testing.T) {
	v := rules.International
	p, err := Parse(v, "W:W28,31-33,K46:B19,K23:E24,25")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.String(); got != "W28,31,32,33,K46:B19,K23:E24,25" {
		t.Errorf("String %q", got)
	}
	again, err := Parse(v, p.String())
	if err != nil || again != p {
		t.Errorf("round trip: %+v, %v", again, err)
	}
	r, err := Parse(rules.Russian, "W:Wc3,e3:BKf6")
	if err != nil {
		t.Fatal(err)
	}
	if !r.WhiteMen.Has(22) || !r.WhiteMen.Has(23) || !r.BlackKings.Has(11) || r.WhiteMen.Count() != 2 {
		t.Errorf("algebraic squares: %+v", r)
	}
	for _, bad := range []string{"W:W51", "W:W28,28", "X:W28", "W:W28:EK3", "W:W30-28", "W:Wx"} {
		if _, err := Parse(v, bad); err == nil || !strings.Contains(err.Error(), "pattern") {
			t.Errorf("Parse(%q): %v", bad, err)
		}
	}
	// Turkish: 64 squares.
	tp, err := Parse(rules.Turkish, "W:W9,64:B1")
	if err != nil || !tp.WhiteMen.Has(64) {
		t.Errorf("turkish: %+v %v", tp, err)
	}
}

func TestReverse(t *testing.T) {
	v := rules.International
	p, _ := Parse(v, "W:W24,29,K30:B19:E1")
	r := p.Reverse(v)
	if got := r.String(); got != "W32:BK21,22,27:E50" {
		t.Errorf("reversed %q", got)
	}
	if back := r.Reverse(v); back != p {
		t.Errorf("twice reversed: %+v", back)
	}
	e := rules.English
	q, _ := Parse(e, "W:W21:B1")
	if got := q.Reverse(e).String(); got != "W32:B12" {
		t.Errorf("english reversed %q", got)
	}
}

func TestMatcher(t *testing.T) {
	v := rules.International
	b := board(t, v, "B:W24,29,30,K46:B19,20,K5")
	must := func(q Query) *Matcher {
		t.Helper()
		m, err := q.Compile(v)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	pat := func(s string) Pattern {
		p, err := Parse(v, s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	mat := func(s string) *Material {
		m, err := ParseMaterial(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	cases := []struct {
		name      string
		q         Query
		match     bool
		reversed  bool
		plyMatch  bool
		from, to  int
		captured  []byte
		moveQuery bool
	}{
		{name: "pieces", q: Query{Patterns: []Pattern{pat("W:W24,29:B19")}}, match: true},
		{name: "king is not a man", q: Query{Patterns: []Pattern{pat("W:W46")}}},
		{name: "king", q: Query{Patterns: []Pattern{pat("W:WK46:BK5")}}, match: true},
		{name: "empty", q: Query{Patterns: []Pattern{pat("W:W24:E23,25")}}, match: true},
		{name: "not empty", q: Query{Patterns: []Pattern{pat("W:W24:E19")}}},
		{name: "or", q: Query{Patterns: []Pattern{pat("W:W1"), pat("W:W30")}}, match: true},
		{name: "exclude", q: Query{Patterns: []Pattern{pat("W:W24")}, Exclude: []Pattern{pat("B:B20")}}},
		{name: "exclude other", q: Query{Patterns: []Pattern{pat("W:W24")}, Exclude: []Pattern{pat("B:B21")}}, match: true},
		{name: "side", q: Query{Patterns: []Pattern{pat("W:W24")}, Side: WhiteToMove}},
		{name: "side black", q: Query{Patterns: []Pattern{pat("W:W24")}, Side: BlackToMove}, match: true},
		{name: "material", q: Query{Material: mat("wm=3,wk=1,b=3")}, match: true},
		{name: "material fails", q: Query{Material: mat("bm=3-")}},
		// Colour-reversed: Black's men on 27 and 22 (turned 24 and 29) are
		// White's men on 24 and 29 with colours swapped; the side swaps.
		{name: "reversed only", q: Query{Patterns: []Pattern{pat("W:W31,32:B27")}, Side: WhiteToMove, Reversed: true}, match: true, reversed: true},
		{name: "reversed not needed", q: Query{Patterns: []Pattern{pat("W:W24")}, Reversed: true}, match: true},
		{name: "reversed material", q: Query{Material: mat("bm=3,bk=1,w=3"), Reversed: true}, match: true, reversed: true},
	}
	for _, c := range cases {
		c.q.MinPly, c.q.MaxPly = -1, -1
		m := must(c.q)
		if ok, rev := m.Position(&b); ok != c.match || rev != c.reversed {
			t.Errorf("%s: match %v reversed %v, want %v %v", c.name, ok, rev, c.match, c.reversed)
		}
	}
	// Moves: Black (to move) plays 19-23 with a man; 5x... a king.
	mv := func(s string) *Move {
		m, err := ParseMove(v, s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	moves := []struct {
		spec             string
		from, to         int
		captured         []byte
		match, reversed  bool
		pattern, reverse bool
	}{
		{spec: "black 19-23", from: 19, to: 23, match: true},
		{spec: "white 19-23", from: 19, to: 23},
		{spec: "black man 19-*", from: 19, to: 23, match: true},
		{spec: "black king 19-*", from: 19, to: 23},
		{spec: "black king x", from: 5, to: 41, captured: []byte{46}, match: true},
		{spec: "black king *x41", from: 5, to: 41, captured: []byte{46}, match: true},
		{spec: "black king *-41", from: 5, to: 41, captured: []byte{46}},
		{spec: "-", from: 19, to: 23, match: true},
		// Reversed: White's 32-28 seen turned is Black's 19-23.
		{spec: "white 32-28", from: 19, to: 23, reverse: true, match: true, reversed: true},
	}
	for _, c := range moves {
		m := must(Query{Move: mv(c.spec), MinPly: -1, MaxPly: -1, Reversed: c.reverse})
		if !m.Moves() {
			t.Fatalf("%s: not a move query", c.spec)
		}
		if ok, rev := m.Ply(&b, c.from, c.to, c.captured); ok != c.match || rev != c.reversed {
			t.Errorf("move %q: match %v reversed %v, want %v %v", c.spec, ok, rev, c.match, c.reversed)
		}
	}
	// A move with a pattern: the pattern is of the position it is played from.
	m := must(Query{Move: mv("black 19-23"), Patterns: []Pattern{pat("W:W30")}, MinPly: -1, MaxPly: -1})
	if ok, _ := m.Ply(&b, 19, 23, nil); !ok {
		t.Error("black 19-23 with W30: no match")
	}
	m = must(Query{Move: mv("black 19-23"), Patterns: []Pattern{pat("W:W31")}, MinPly: -1, MaxPly: -1})
	if ok, _ := m.Ply(&b, 19, 23, nil); ok {
		t.Error("black 19-23 with W31: a match")
	}
}

func TestPlay(t *testing.T) {
	v := rules.International
	b := board(t, v, "W:W28,K46:B23,37")
	b.Play(28, 19, false, []byte{23})
	if got := b.Position(v).FEN(); got != "B:W19,K46:B37" {
		t.Errorf("after 28x19: %s", got)
	}
	b.Play(37, 41, false, nil)
	b.Play(46, 5, false, nil)
	if got := b.Position(v).FEN(); got != "B:WK5,19:B41" {
		t.Errorf("after 37-41 46-5: %s", got)
	}
	b.Play(41, 47, true, nil)
	if got := b.Position(v).FEN(); got != "W:WK5,19:BK47" {
		t.Errorf("after 41-47 promoting: %s", got)
	}
	// Canadian: squares above 64.
	c := rules.Canadian
	cb := board(t, c, "W:W70:B60")
	cb.Play(70, 65, false, nil)
	if got := cb.Position(c).FEN(); got != "B:W65:B60" {
		t.Errorf("canadian: %s", got)
	}
}

func TestParseErrors(t *testing.T) {
	v := rules.International
	for _, s := range []string{"", "white dog", "19-24 20-25", "19-99", "x-"} {
		if _, err := ParseMove(v, s); err == nil {
			t.Errorf("ParseMove(%q): no error", s)
		}
	}
	for _, s := range []string{"", "wm", "wm=a", "zz=1", "wm=5-3"} {
		if _, err := ParseMaterial(s); err == nil {
			t.Errorf("ParseMaterial(%q): no error", s)
		}
	}
	for _, s := range []string{"", "-", "a-b", "9-3"} {
		if _, _, err := ParsePlies(s); err == nil {
			t.Errorf("ParsePlies(%q): no error", s)
		}
	}
	if lo, hi, err := ParsePlies("10-"); err != nil || lo != 10 || hi != -1 {
		t.Errorf("ParsePlies(10-): %d %d %v", lo, hi, err)
	}
	if _, err := (&Query{Patterns: []Pattern{{WhiteMen: Set{1 << 60}}}, MinPly: -1, MaxPly: -1}).Compile(v); err == nil {
		t.Error("a square beyond 50 compiled")
	}
	if _, err := (&Query{MinPly: 5, MaxPly: 3}).Compile(v); err == nil {
		t.Error("plies 5-3 compiled")
	}
}
