package replay

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// A flying king's capture written hop by hop as separate moves
// (PlayStrategy's "e5xc3 7. c3xa1") may land on any square beyond the
// piece it takes from which the chain goes on, not only on the one the
// engine lists: joined hop by hop on the board, every such landing square
// gives the same move. Before, the hops were matched against the listed
// path only, so a king that landed elsewhere was rejected.
func TestSplitCaptureOtherLandingSquares(t *testing.T) {
	cases := []struct {
		name, fen string
		v         *rules.Variant
		// king, the two pieces it takes (on one diagonal) and the end.
		king, first, second, end string
		reply                    string // the opponent's next move
	}{
		{"russian", "W:WKa1:Bb2,f6,a7", rules.Russian, "a1", "b2", "f6", "g7", "a7-b6"},
		{"international", "W:WK46:B41,23,6", rules.International, "46", "41", "23", "19", "6-11"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, b := c.v, c.v.Board
			sq := func(s string) int {
				if s[0] >= 'a' {
					f, r := int(s[0]-'a')+1, 0
					fmt.Sscan(s[1:], &r)
					return b.SquareAt(f, r)
				}
				var n int
				fmt.Sscan(s, &n)
				return n
			}
			name := func(n int) string {
				if v.DefaultNotation == rules.Algebraic {
					return b.Algebraic(n)
				}
				return fmt.Sprint(n)
			}
			pos, err := rules.ParseFEN(v, c.fen)
			if err != nil {
				t.Fatal(err)
			}
			// The move: king to end, taking first and second.
			var want *rules.Move
			legal := pos.LegalMoves(nil)
			for i := range legal {
				if legal[i].From() == sq(c.king) && legal[i].To() == sq(c.end) {
					want = &legal[i]
				}
			}
			if want == nil {
				t.Fatalf("no legal move %s to %s among %d", c.king, c.end, len(legal))
			}
			listed := want.Path(nil)[0]
			// Every square between the two pieces is a landing square from
			// which the chain goes on straight ahead.
			f0, r0 := b.Coords(sq(c.first))
			f1, r1 := b.Coords(sq(c.second))
			df, dr := sign(f1-f0), sign(r1-r0)
			others := 0
			for k := 1; ; k++ {
				land := b.SquareAt(f0+k*df, r0+k*dr)
				if land == sq(c.second) {
					break
				}
				text := fmt.Sprintf("[FEN %q]\n1. %sx%s %sx%s 2. %s *", c.fen, c.king, name(land), name(land), c.end, c.reply)
				if v == rules.International {
					text = "[GameType \"20\"]\n" + text
				} else {
					text = "[GameType \"25\"]\n" + text
				}
				g, err := replayText(t, text, Options{})
				if err != nil {
					t.Fatalf("landing on %s (the engine lists %s): %v", name(land), name(listed), err)
				}
				if g.Plies() != 2 || !g.Moves[0].SameAs(want) || !slices.Equal(g.Moves[0].Captured(nil), want.Captured(nil)) {
					t.Fatalf("landing on %s: %d plies, first %s; want %s and the reply",
						name(land), g.Plies(), rules.FormatMove(v, &g.Moves[0], v.DefaultNotation, true), rules.FormatMove(v, want, v.DefaultNotation, true))
				}
				if land != listed {
					others++
				}
			}
			if others < 2 {
				t.Fatalf("only %d landing squares other than the listed %s: the case tests little", others, name(listed))
			}
		})
	}
	// A hop that breaks a rule does not join: the king cannot take the
	// second piece from a square it did not reach.
	_, err := replayText(t, "[GameType \"25\"]\n[FEN \"W:WKa1:Bb2,f6,a7\"]\n1. a1xd4 e5xg7 2. a7-b6 *", Options{})
	if err == nil || !strings.Contains(err.Error(), "a1xd4") {
		t.Fatalf("broken hops: %v, want a rejection of a1xd4", err)
	}
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}
