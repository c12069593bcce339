package search

import (
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/endgame"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestEndgameTables: with the tables, a shallow search scores an ending as
// the full search that sees its end does (the same mate distance), and
// plays a move that keeps the win; without them a search of the same
// depth sees no end.
func TestEndgameTables(t *testing.T) {
	tb, err := endgame.Generate(rules.English, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, fen := range []string{
		"W:WK14,K23:BK29", // two kings v one: won
		"B:WK14,K23:BK29", // the same, the lone king to move: lost
		"W:W28:B4",        // man v man
		"W:WK10:BK27",     // king v king
	} {
		pos, err := rules.ParseFEN(rules.English, fen)
		if err != nil {
			t.Fatal(err)
		}
		v, ok := tb.Probe(&pos)
		if !ok {
			t.Fatalf("%s: not in the tables", fen)
		}
		with := Search(pos, Options{Depth: 2, Endgame: tb}, nil)
		want := 0
		if won, d := v.Win(); won {
			want = Win - d
		} else if lost, d := v.Loss(); lost {
			want = -(Win - d)
		}
		if with.Score != want {
			t.Errorf("%s (%v): depth 2 with the tables scores %d, want %d", fen, v, with.Score, want)
		}
		if won, _ := v.Win(); won {
			c := pos
			c.Play(&with.Best)
			if cv, _ := tb.Probe(&c); cv >= 0 || -int(cv)-1 != int(v)-1 {
				t.Errorf("%s (%v): best move %v leads to %v, want a loss in %d", fen, v, with.Best, cv, int(v)-1)
			}
		}
		if d := v.Plies(); v != 0 && d <= 11 {
			if full := Search(pos, Options{Depth: d + 2}, nil); full.Score != want {
				t.Errorf("%s (%v): depth %d without the tables scores %d, want %d", fen, v, d+2, full.Score, want)
			}
		}
	}
	// Another variant's tables are not used.
	pos := rules.Brazilian.StartPosition()
	a := Search(pos, Options{Depth: 5, Endgame: tb}, nil)
	b := Search(pos, Options{Depth: 5}, nil)
	if a.Nodes != b.Nodes || a.Score != b.Score {
		t.Errorf("brazilian with english tables: %d nodes, %d; without %d, %d", a.Nodes, a.Score, b.Nodes, b.Score)
	}
}

// TestKingPlies: Russian draws after 30 plies of king moves without a
// capture or a man move. A table's win counts only while the count of the
// line cannot reach 30 first (endgame.Value.Exact), and a line that
// reaches it is drawn.
func TestKingPlies(t *testing.T) {
	tb, err := endgame.Generate(rules.Russian, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	const fen = "W:WK1,K2:BK28" // two kings v one, kings only: every move but the last capture counts
	pos, err := rules.ParseFEN(rules.Russian, fen)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := tb.Probe(&pos); v != 7 {
		t.Fatalf("%s: %v, want a win in 7", fen, v)
	}
	for _, c := range []struct {
		kingPlies int
		mate      bool
	}{{0, true}, {22, true}, {23, false}} {
		r := Search(pos, Options{Depth: 2, Endgame: tb, KingPlies: c.kingPlies}, nil)
		if c.mate && r.Score != Win-7 || !c.mate && r.Mate {
			t.Errorf("%s with %d plies counted: score %d (mate %v), want mate %v (win in 7 plies: %d)", fen, c.kingPlies, r.Score, r.Mate, c.mate, Win-7)
		}
	}
	// One ply before the limit every move draws: none captures.
	if r := Search(pos, Options{Depth: 4, KingPlies: 29}, nil); r.Score != 0 {
		t.Errorf("%s with 29 plies counted: score %d, want 0 (drawn by the 30th)", fen, r.Score)
	}
	if r := Search(pos, Options{Depth: 4}, nil); r.Score <= 0 {
		t.Errorf("%s with a fresh count: score %d, want a win", fen, r.Score)
	}
}
