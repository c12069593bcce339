package search

import (
	"math/rand/v2"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestFastBoardAgrees: on the positions of random games of every variant
// with a fast layout, and of random placements of men and kings, the fast
// layout answers exactly what the generic path does: the evaluation equals
// evaluator.evaluate, hasCapture equals "the first legal move is a
// capture" for both sides, hasMove "there is a legal move" where there is
// no capture, and the board fastBoard.play makes from a move equals the
// board loaded from the position after it.
func TestFastBoardAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 5))
	s := newSearcher(1)
	covered := 0
	for _, v := range rules.Variants() {
		f := fastBoards[v]
		if f == nil {
			continue
		}
		covered++
		var checked, captures, kings int
		check := func(pos *rules.Position, fb *fboard) {
			t.Helper()
			checked++
			var want fboard
			f.load(pos, &want)
			if *fb != want {
				t.Fatalf("%s %s: board %+v, loaded %+v", v.Name, pos.FEN(), *fb, want)
			}
			if got, want := f.evaluate(fb, pos.SideToMove()), f.eval.evaluate(pos); got != want {
				t.Fatalf("%s %s: fast evaluation %d, generic %d", v.Name, pos.FEN(), got, want)
			}
			for _, c := range []rules.Color{rules.White, rules.Black} {
				q := *pos
				q.SetSideToMove(c)
				legal := q.LegalMoves(nil)
				capture := len(legal) > 0 && legal[0].IsCapture()
				if got := f.hasCapture(fb, c); got != capture {
					t.Fatalf("%s %s, %v to move: hasCapture %v, legal moves %d (capture %v)", v.Name, pos.FEN(), c, got, len(legal), capture)
				}
				if capture {
					captures++
				} else if got := f.hasMove(fb, c); got != (len(legal) > 0) {
					t.Fatalf("%s %s, %v to move: hasMove %v, %d legal moves", v.Name, pos.FEN(), c, got, len(legal))
				}
			}
			if fb.kings[0]|fb.kings[1] != 0 {
				kings++
			}
			// decidedFast (beyond the horizon, where the position is not
			// made) decides as decided does.
			s.win = v.Win
			n := len(pos.LegalMoves(nil))
			for _, k := range []int{n, min(n, 1)} {
				gs, gover := s.decidedFast(fb, pos.SideToMove(), k, 5)
				ws, wover := s.decided(pos, k, 5)
				if gs != ws || gover != wover {
					t.Fatalf("%s %s: decidedFast %d %v, decided %d %v", v.Name, pos.FEN(), gs, gover, ws, wover)
				}
			}
		}
		// Random games, each position reached through fastBoard.play.
		for game := 0; game < 40; game++ {
			pos := v.StartPosition()
			var fb fboard
			f.load(&pos, &fb)
			for ply := 0; ply < 250; ply++ {
				check(&pos, &fb)
				legal := pos.LegalMoves(nil)
				if len(legal) == 0 {
					break
				}
				m := &legal[rng.IntN(len(legal))]
				var next fboard
				f.play(&fb, &next, m, pos.SideToMove())
				pos.Play(m)
				fb = next
			}
		}
		// Random placements: kings far from where games put them, men
		// packed so that captures in every direction occur.
		b := v.Board
		for range 3000 {
			pos := rules.NewPosition(v, rules.Color(rng.IntN(2)))
			for s := 1; s <= b.Squares(); s++ {
				_, rank := b.Coords(s)
				switch r := rng.IntN(10); {
				case r < 2:
					if rank != b.Height {
						pos.SetPiece(s, rules.WhiteMan)
					}
				case r < 4:
					if rank != 1 {
						pos.SetPiece(s, rules.BlackMan)
					}
				case r == 4:
					pos.SetPiece(s, rules.WhiteKing+rules.Piece(2*rng.IntN(2)))
				}
			}
			var fb fboard
			f.load(&pos, &fb)
			check(&pos, &fb)
		}
		if captures < checked/10 || kings < checked/10 {
			t.Errorf("%s: %d positions, only %d with a capture and %d with kings", v.Name, checked, captures, kings)
		}
	}
	// The variants a search is most often run on take the fast path.
	for _, v := range []*rules.Variant{rules.International, rules.English, rules.Russian, rules.Brazilian,
		rules.Italian, rules.Spanish, rules.Czech, rules.Pool, rules.Killer, rules.Antidraughts, rules.Breakthrough} {
		if fastBoards[v] == nil {
			t.Errorf("%s has no fast layout", v.Name)
		}
	}
	if covered == 0 {
		t.Fatal("no variant has a fast layout")
	}
}
