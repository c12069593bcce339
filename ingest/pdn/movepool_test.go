package pdn

import (
	"strings"
	"testing"
)

// TestReleaseMovesReusesAndClears: a released main line is cleared (it
// pins no strings or notes of its game) and the next game read takes it;
// the released game's move texts stay valid, and a line longer than the
// largest class is not pooled.
func TestReleaseMovesReusesAndClears(t *testing.T) {
	const text = `[Event "a"]
1. 32-28 19-23 {a note} 2. 28x19 14x23 1-0

[Event "b"]
1. 33-29 18-22 2. 29-24 20x29 0-1
`
	reused := false
	for try := 0; try < 20 && !reused; try++ { // sync.Pool may drop an entry (under -race, at random)
		rd := NewReader(strings.NewReader(text), "t.pdn")
		a, err := rd.Next()
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Moves) != 4 || a.Moves[1].Note == nil {
			t.Fatalf("game a: %+v", a.Moves)
		}
		line := a.Moves[:cap(a.Moves)]
		first := a.Moves[0].Text
		a.ReleaseMoves()
		if a.Moves != nil {
			t.Fatal("Moves not nil after ReleaseMoves")
		}
		for i, m := range line {
			if m != (Move{}) {
				t.Fatalf("released slot %d not cleared: %+v", i, m)
			}
		}
		if first != "32-28" {
			t.Fatalf("a released move's text changed: %q", first)
		}
		b, err := rd.Next()
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Moves) != 4 || b.Moves[0].Text != "33-29" || b.Moves[3].Text != "20x29" {
			t.Fatalf("game b: %+v", b.Moves)
		}
		reused = &b.Moves[:1][0] == &line[0]
	}
	if !reused {
		t.Error("the released slice was never reused by the next game")
	}

	long := &Game{Moves: make([]Move, 3, minMovesCap<<movesClasses)}
	backing := &long.Moves[0]
	long.ReleaseMoves()
	if got := getMoves(minMovesCap << movesClasses); &got[:1][0] == backing {
		t.Error("a slice beyond the largest class was pooled")
	}
}

func TestMovesClass(t *testing.T) {
	for _, c := range []struct{ n, class int }{{0, 0}, {1, 0}, {64, 0}, {65, 1}, {128, 1}, {129, 2}, {8192, 7}, {8193, 8}} {
		if got := movesClass(c.n); got != c.class {
			t.Errorf("movesClass(%d) = %d, want %d", c.n, got, c.class)
		}
		if c.class < movesClasses && minMovesCap<<c.class < c.n {
			t.Errorf("class %d (capacity %d) does not hold %d moves", c.class, minMovesCap<<c.class, c.n)
		}
	}
}
