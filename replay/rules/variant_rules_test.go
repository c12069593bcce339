package rules

import (
	"slices"
	"strings"
	"testing"
)

// ruleCase is a hand-checked position: every legal move written with its
// full path in algebraic notation (c3:e5:g7), sorted.
type ruleCase struct {
	v    *Variant
	name string
	fen  string
	want string // space-separated, any order
}

var ruleCases = []ruleCase{
	// Czech: a king that can capture must. The king on a1 takes c3 and
	// goes on over g7 (landing d4..f6, then h8) or over f4 (from e5); the
	// man's e3:g5 is not legal. Russian lets either capture.
	{Czech, "king precedence", "W:WKa1,e3:Bc3,f4,g7", "a1:d4:h8 a1:e5:g3 a1:e5:h2"},
	{Russian, "no king precedence", "W:WKa1,e3:Bc3,f4,g7", "a1:d4:h8 a1:e5:g3 a1:e5:h2 e3:g5"},
	// Czech: the king's captures win over the man's c1:e3:g5 (two pieces)
	// whatever their size; Pool (free choice) lists all.
	{Czech, "king before quantity", "W:WKa1,c1:Bc3,d2,f4,e7", "a1:e5:g3 a1:e5:h2 a1:f6:d8"},
	{Pool, "free choice", "W:WKa1,c1:Bc3,d2,f4,e7", "a1:e5:g3 a1:e5:h2 a1:f6:d8 c1:e3:g5"},
	// Czech: men capture forwards only; no king, so free choice.
	{Czech, "men forwards", "W:We3,c3:Bd2,f4,b4,d6", "c3:a5 e3:g5"},
	// Spanish, on the mirrored board (a1 light): of three single jumps
	// only the one taking the king on e4 is legal; with no king to take,
	// all three are.
	{Spanish, "most kings", "W:Wb3,d3:Bc4,Ke4", "d3:f5"},
	{Spanish, "single jumps", "W:Wb3,d3:Bc4,e4", "b3:d5 d3:b5 d3:f5"},
	// Spanish: quantity first, two men beat one king.
	{Spanish, "quantity before kings", "W:Wb3,d3:Bc4,Ke4,c6", "b3:d5:b7 d3:b5:d7"},
	// Spanish numbers from White's side: 1 = h1, 9 = h3, 10 = f3.
	{Spanish, "numbering", "W:W10:B30", "f3-e4 f3-g4"},
	// Thai: a flying king lands directly behind the piece it jumps, and a
	// jumped piece leaves at once, so the king may turn straight back over
	// its square. Russian: the king lands anywhere beyond and the jumped
	// f6 blocks the way back.
	{Thai, "land behind", "W:WKa1:Bd4", "a1:e5"},
	{Thai, "turn back", "W:WKd4:Bf6,b2", "d4:a1:g7 d4:g7:a1"},
	{Russian, "no turning back", "W:WKd4:Bf6,b2", "d4:a1 d4:g7 d4:h8"},
	// Thai: men capture forwards only; free choice.
	{Thai, "men forwards", "W:Wc3,g3:Bd4,b2,h4,f4", "c3:e5 g3:e5"},
	// Killer: a king's capture that ends over a king stops directly
	// behind it; over a man it lands anywhere beyond, as International.
	{Killer, "halt behind king", "W:WKa1:BKc3", "a1:d4"},
	{Killer, "man: any landing", "W:WKa1:Bc3", "a1:d4 a1:e5 a1:f6 a1:g7 a1:h8 a1:i9 a1:j10"},
	{International, "king: any landing", "W:WKa1:BKc3", "a1:d4 a1:e5 a1:f6 a1:g7 a1:h8 a1:i9 a1:j10"},
	// Killer: where a landing square beyond the king lets the chain go on
	// (f6 then over g5), the king must take it; it is not held on d4.
	{Killer, "chain goes on", "W:WKa1:BKc3,g5", "a1:f6:h4 a1:f6:i3 a1:f6:j2"},
	// Turkish: men step forwards and sideways, capture the same ways (not
	// backwards), a man that reaches the far row in a capture goes on as a
	// man (b6:b8:d8), kings do not turn straight back (c4 over e4 may not
	// come back over b4), the most pieces must be taken.
	{Turkish, "man steps", "W:Wd4:Bh8", "d4-c4 d4-d5 d4-e4"},
	{Turkish, "man captures", "W:Wd4:Bc4,d3,d5", "d4:b4 d4:d6"},
	{Turkish, "on through the far row", "W:Wb6:Bb7,c8", "b6:b8:d8"},
	{Turkish, "no turning back", "W:WKc4:Bb4,e4", "c4:a4 c4:f4 c4:g4 c4:h4"},
	{Turkish, "majority", "W:Wd4:Bc4,a5,d5,d7", "d4:d6:d8"},
	{Turkish, "king flies", "W:WKa1:Bh8", "a1-a2 a1-a3 a1-a4 a1-a5 a1-a6 a1-a7 a1-a8 a1-b1 a1-c1 a1-d1 a1-e1 a1-f1 a1-g1 a1-h1"},
	// Italian: a man may not take a king; a king may.
	{Italian, "men do not take kings", "W:Wd3,Kh3:BKe4,g4", "h3:f5"},
}

// ruleNumericCases are like ruleCases in the variant's numeric notation.
var ruleNumericCases = []ruleCase{
	// Spanish 1 = h1: White's men on 1-12 move towards 32.
	{Spanish, "start", "", "10-13 10-14 11-14 11-15 12-15 12-16 9-13"},
	// Thai (PDN 31,B,8,8,N2,0: square 1 is the top left seen from Black,
	// who moves first): 1 = g1, so White's men start on 1-8 and Black's on
	// 25-32, two rows each.
	{Thai, "start", "", "25-21 25-22 26-22 26-23 27-23 27-24 28-24"},
	// Frisian: men capture along rows (f4 over h4 to j4) and columns (f4
	// over f6 to f8) too.
	{Frisian, "row capture", "W:W33:B34", "33x35"},
	{Frisian, "column capture", "W:W33:B23", "33x13"},
	{International, "no row capture", "W:W33:B34", "33-28 33-29"},
	// A step along a row must not wrap into the next row: j4 (35) and a3
	// (36) are neighbours in bits only.
	{Frisian, "no wrap right", "W:W35:B36", "35-30"},
	{Frisian, "no wrap left", "W:W36:B35", "36-31"},
	// Frisian value: king and man (almost three) beat two men; International
	// counts two each.
	{Frisian, "value", "W:W28:BK22,12,33,43", "28x17x8"},
	{International, "count", "W:W28:BK22,12,33,43", "28x17x8 28x39x48"},
	// Frisian: at equal value the king must capture.
	{Frisian, "king at equal value", "W:WK50,28:B22,39", "50x33"},
	{International, "no king precedence", "W:WK50,28:B22,39", "28x17 50x33"},
	// Frisian kings capture along rows from afar (a1 over g1 to i1) but
	// move only diagonally.
	{Frisian, "king row capture", "W:WK46:BK49", "46x50"},
	{Frisian, "king moves", "W:WK46:B5", "46-10 46-14 46-19 46-23 46-28 46-32 46-37 46-41"},
	// Frysk!: five men each on the back row.
	{Frysk, "start", "", "46-41 47-41 47-42 48-42 48-43 49-43 49-44 50-44 50-45"},
	// Italian 1 = a8 (top left), 21 = b3: White's men on 21-32 move
	// towards 1 (the championship file opens 21-17, 23-19).
	{Italian, "start", "", "21-17 21-18 22-18 22-19 23-19 23-20 24-20"},
}

func TestVariantRules(t *testing.T) {
	for i, c := range append(slices.Clone(ruleCases), ruleNumericCases...) {
		n := Algebraic
		if i >= len(ruleCases) {
			n = Numeric
		}
		pos := c.v.StartPosition()
		if c.fen != "" {
			var err error
			if pos, err = ParseFEN(c.v, c.fen); err != nil {
				t.Fatalf("%s %s: %v", c.v.Name, c.name, err)
			}
		}
		var got []string
		for _, m := range pos.LegalMoves(nil) {
			got = append(got, FormatMove(c.v, &m, n, true))
		}
		slices.Sort(got)
		want := strings.Fields(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s %s %s: got %v, want %v", c.v.Name, c.name, c.fen, got, want)
		}
	}
}

func TestOutcome(t *testing.T) {
	cases := []struct {
		v    *Variant
		fen  string
		want Outcome
	}{
		{International, "", Undecided},
		{International, "W:W:B1", BlackWins},      // no pieces: lost
		{International, "B:W10,14:B5", WhiteWins}, // Black blocked
		{Antidraughts, "W:W:B1", WhiteWins},       // no pieces: won
		{Antidraughts, "B:W10,14:B5", BlackWins},  // blocked: won
		{Antidraughts, "", Undecided},
		{Breakthrough, "B:WK3:B20", WhiteWins},  // White just crowned
		{Breakthrough, "W:W30:BK48", BlackWins}, // Black just crowned
		{Breakthrough, "W:WK3:BK48", BlackWins}, // the side that just moved
		{Breakthrough, "W:W30:B20", Undecided},
		{Breakthrough, "W:W:B20", BlackWins}, // no move still loses
		{Russian, "B:W18,21-32:B1-12", Undecided},
	}
	for _, c := range cases {
		pos := c.v.StartPosition()
		if c.fen != "" {
			var err error
			if pos, err = ParseFEN(c.v, c.fen); err != nil {
				t.Fatal(err)
			}
		}
		if got := pos.Outcome(); got != c.want {
			t.Errorf("%s %q: %v, want %v", c.v.Name, c.fen, got, c.want)
		}
	}
}

// TestKingMoveCounter plays a Frisian king three times in a row: the
// fourth move of that king is not allowed, other pieces' moves are, and a
// man's move lifts the limit; with kings only there is no limit.
func TestKingMoveCounter(t *testing.T) {
	pos, err := ParseFEN(Frisian, "W:WK46,K50,35:B3,4")
	if err != nil {
		t.Fatal(err)
	}
	var k KingMoveCounter
	play := func(from, to int) {
		t.Helper()
		for _, m := range pos.LegalMoves(nil) {
			if m.From() == from && m.To() == to {
				if !k.Allowed(&pos, &m) {
					t.Fatalf("%d-%d not allowed in %s (%+v)", from, to, pos.FEN(), k)
				}
				k.Update(&pos, &m)
				pos.Play(&m)
				return
			}
		}
		t.Fatalf("%d-%d is not legal in %s", from, to, pos.FEN())
	}
	allowed := func(from, to int) bool {
		t.Helper()
		for _, m := range pos.LegalMoves(nil) {
			if m.From() == from && m.To() == to {
				return k.Allowed(&pos, &m)
			}
		}
		t.Fatalf("%d-%d is not legal in %s", from, to, pos.FEN())
		return false
	}
	// Black's men on 3 and 4 wander where no white piece can take them.
	play(46, 41)
	play(3, 8)
	play(41, 46)
	play(4, 9)
	play(46, 41)
	play(8, 12)
	if allowed(41, 46) {
		t.Error("a fourth move of the same king is allowed")
	}
	if !allowed(50, 45) || !allowed(35, 30) {
		t.Error("another king or a man may not move")
	}
	legal := pos.LegalMoves(nil)
	of41 := 0
	for _, m := range legal {
		if m.From() == 41 {
			of41++
		}
	}
	if n := len(k.Filter(&pos, pos.LegalMoves(nil))); of41 == 0 || n != len(legal)-of41 {
		t.Errorf("Filter left %d of %d moves (%d of the king on 41)", n, len(legal), of41)
	}
	play(35, 30)
	play(9, 13)
	if !allowed(41, 46) {
		t.Error("the king may not move after a man did")
	}
	// Kings only: no limit.
	pos, _ = ParseFEN(Frisian, "W:WK46:B3,4")
	k = KingMoveCounter{}
	play(46, 41)
	play(3, 8)
	play(41, 46)
	play(4, 9)
	play(46, 41)
	play(8, 12)
	if !allowed(41, 46) {
		t.Error("limited with kings only")
	}
	// International has no limit.
	pos, _ = ParseFEN(International, "W:WK46,35:B3,4")
	k = KingMoveCounter{}
	play(46, 41)
	play(3, 8)
	play(41, 46)
	play(4, 9)
	play(46, 41)
	play(8, 12)
	if !allowed(41, 46) {
		t.Error("International limited")
	}
}

// TestEndOnCapturedSquare: where jumped pieces leave at once, a king may
// end its chain on the square of a piece it jumped earlier: here Black's
// king g7:g2:b2:b4:f4:f2 jumps g4, f2, b3, d4 and f3 and ends on f2, whose
// white man it jumped second. Play and the perft play must remove the
// captured pieces before they place the king (the old order dropped the
// king and broke the incremental hash).
func TestEndOnCapturedSquare(t *testing.T) {
	pos, err := ParseFEN(Turkish, "B:W36,39,42,46,54:BK15,16,20")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range pos.LegalMoves(nil) {
		if !hasBit(m.captured, int(m.to)) {
			continue
		}
		found = true
		q := pos
		q.Play(&m)
		if q.Piece(m.To()) != BlackKing {
			t.Errorf("%s: %s leaves %v on its last square", pos.FEN(), FormatMove(pos.Variant(), &m, Algebraic, true), q.Piece(m.To()))
		}
		if q.Hash() != q.ComputeHash() {
			t.Errorf("%s: incremental hash %#x, from scratch %#x", FormatMove(pos.Variant(), &m, Algebraic, true), q.Hash(), q.ComputeHash())
		}
		r := pos
		playTurkish(&r, &m)
		r.hash = q.hash
		if r != q {
			t.Errorf("%s: perft play %s, Play %s", FormatMove(pos.Variant(), &m, Algebraic, true), r.FEN(), q.FEN())
		}
	}
	if !found {
		t.Fatal("no move ends on a captured square")
	}
}
