package hub

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestServeSeesRepetitions: the moves of a pos line are the game's
// history: the server declines a move back into a position they passed
// through when another scores better (two kings against one, Black's king
// moving at random until the search without the history would repeat).
func TestServeSeesRepetitions(t *testing.T) {
	start, err := rules.ParseFEN(rules.International, "W:WK48,K28:BK3")
	if err != nil {
		t.Fatal(err)
	}
	const depth = 4
	for seed := uint64(1); seed <= 50; seed++ {
		rnd := rand.New(rand.NewPCG(seed, 0))
		pos := start
		var moves []rules.Move
		var hist []uint64 // the positions before pos
		for len(moves) < 40 {
			legal := pos.LegalMoves(nil)
			if len(legal) == 0 || pos.Outcome() != rules.Undecided {
				break
			}
			if pos.SideToMove() == rules.Black {
				m := legal[rnd.IntN(len(legal))]
				hist = append(hist, pos.Hash())
				moves = append(moves, m)
				pos.Play(&m)
				continue
			}
			with := search.Search(pos, search.Options{Depth: depth, History: append(slices.Clone(hist), pos.Hash())}, nil)
			without := search.Search(pos, search.Options{Depth: depth}, nil)
			after := pos
			after.Play(&without.Best)
			if slices.Contains(hist, after.Hash()) && !without.Best.SameAs(&with.Best) {
				texts := make([]string, len(moves))
				for i := range moves {
					texts[i] = FormatMove(&moves[i])
				}
				s := newSession(t, Options{TTSizeMB: 4, Variant: "international"})
				s.send("hub", "init")
				s.until("ready")
				s.send(`pos pos=`+FormatPosition(&start)+` moves="`+strings.Join(texts, " ")+`"`, "level depth=4", "go think")
				got := s.until("done")
				done := ParseLine(got[len(got)-1])
				if mv, _ := done.Get("move"); mv != FormatMove(&with.Best) {
					t.Errorf("seed %d: after %d moves the server played %s, want %s (not the repeating %s)",
						seed, len(moves), mv, FormatMove(&with.Best), FormatMove(&without.Best))
				}
				s.send("quit")
				return
			}
			hist = append(hist, pos.Hash())
			moves = append(moves, with.Best)
			pos.Play(&with.Best)
		}
	}
	t.Fatal("no game of 50 reached a position where the search without history repeats")
}
