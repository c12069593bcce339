package replay

import (
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
)

// TestProvenResult: Game.Proven is the result the final position proves,
// whatever was written: a contradicted draw keeps its written result (and
// warns) with the proof beside it; an unknown result is completed from it;
// a game whose final position proves nothing has none; the variant's Win
// rule decides who it proves the winner.
func TestProvenResult(t *testing.T) {
	cases := []struct {
		name, text      string
		result, proven  Result
		decided, warned bool
	}{
		{"a draw where Black has no piece", "[GameType \"20\"]\n[FEN \"W:W33:B28\"]\n[Result \"1-1\"]\n1. 33x22 1-1\n", Draw, WhiteWins, true, true},
		{"an unknown result completed", "[GameType \"20\"]\n[FEN \"W:W33:B28\"]\n1. 33x22 *\n", WhiteWins, WhiteWins, true, true},
		{"a written win the board proves", "[GameType \"20\"]\n[FEN \"W:W33:B28\"]\n[Result \"2-0\"]\n1. 33x22 2-0\n", WhiteWins, WhiteWins, true, false},
		{"nothing proven", "[GameType \"20\"]\n[Result \"0-2\"]\n1. 32-28 19-23 0-2\n", BlackWins, ResultUnknown, false, false},
		{"antidraughts: no move wins", "[GameType \"98\"]\n[FEN \"W:W33:B28\"]\n[Result \"*\"]\n1. 33x22 *\n", BlackWins, BlackWins, true, true},
	}
	r := NewReplayer(Options{})
	for _, c := range cases {
		pg, err := pdn.NewReader(strings.NewReader(c.text), "t.pdn").Next()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var g Game
		if err := r.Replay(pg, nil, &g); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		warned := false
		for _, w := range g.Warnings {
			if strings.Contains(w.Text, "final position") {
				warned = true
			}
		}
		if g.Result != c.result || g.Proven != c.proven || g.Decided != c.decided || warned != c.warned {
			t.Errorf("%s: result %v, proven %v, decided %v, warned %v (%q); want %v, %v, %v, %v",
				c.name, g.Result, g.Proven, g.Decided, warned, g.Warnings, c.result, c.proven, c.decided, c.warned)
		}
	}
}
