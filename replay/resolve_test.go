package replay

import (
	"errors"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// h4f6h8 is the position before ply 31 of game 4953 that
// `draughtsdb gen --variant russian --seed 1` writes: the white man on h4
// may take two pieces (h4:f6:h8) or, promoting on d8 and going on as a
// king, five (h4:f6:d8:a5:c3:h8), both ending on h8. The generator wrote
// the first as h4:f6:h8, which also fits the second as a subsequence, and
// replay used to reject the game as ambiguous.
const h4f6h8 = "W:W19,20,25,28,29,32:B6,7,8,16,17"

func TestFullPathWinsOverLongerCapture(t *testing.T) {
	cases := []struct {
		text string
		want string // full path of the resolved move; "" for ambiguous
	}{
		{"h4:f6:h8", "h4:f6:h8"}, // exact full path of the short capture
		{"20x11x4", "h4:f6:h8"},  // the same in numeric squares
		{"h4:f6:d8:a5:c3:h8", "h4:f6:d8:a5:c3:h8"},
		{"h4:d8:h8", "h4:f6:d8:a5:c3:h8"}, // fits only the long capture
		{"h4:c3:h8", "h4:f6:d8:a5:c3:h8"},
		{"h4:h8", ""}, // start and end only: different pieces, ambiguous
		{"h4:f6:c3:h8", "h4:f6:d8:a5:c3:h8"},
	}
	for _, c := range cases {
		g, err := PlayLine(rules.Russian, h4f6h8, []string{c.text})
		if c.want == "" {
			var re *RejectError
			if !errors.Is(err, ErrAmbiguousMove) || !errors.As(err, &re) {
				t.Errorf("%s: err = %v, want ambiguous", c.text, err)
				continue
			}
			// The error lists both candidates.
			for _, alt := range []string{"h4:f6:h8", "h4:f6:d8:a5:c3:h8"} {
				if !strings.Contains(re.Detail, alt) {
					t.Errorf("%s: %q does not list %s", c.text, re.Detail, alt)
				}
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		if got := rules.FormatMove(rules.Russian, &g.Moves[0], rules.Algebraic, true); got != c.want {
			t.Errorf("%s resolved to %s, want %s", c.text, got, c.want)
		}
	}
}

// A single jump written start-end is its own full path, so it wins over a
// longer capture between the same squares (d6:b8 against the king's loop
// d6:f8:h6:f4:b8, from gen --variant russian --seed 1, game 550).
func TestSingleJumpIsItsOwnFullPath(t *testing.T) {
	// White king on d6 (square 10); Black men on c7, e7, g7, g5 (6, 7, 8, 16).
	const fen = "W:WK10:B6,7,8,16"
	g, err := PlayLine(rules.Russian, fen, []string{"d6:b8"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rules.FormatMove(rules.Russian, &g.Moves[0], rules.Algebraic, true); got != "d6:b8" {
		t.Fatalf("d6:b8 resolved to %s", got)
	}
	g, err = PlayLine(rules.Russian, fen, []string{"d6:h6:b8"})
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Moves[0].CaptureCount(); got < 2 {
		t.Fatalf("d6:h6:b8 resolved to a capture of %d pieces", got)
	}
}

// Capture orders of one move (same start, end and captured set) are one
// move: a text that fits several of them is that move, not ambiguous.
func TestCaptureOrdersOfOneMoveAreOneMove(t *testing.T) {
	// Black man on h4 (20) takes g5, e5, e3, g3 round the loop and comes
	// back to h4, either way round.
	const fen = "B:W15,16,22,23,24,28,29,30,31,32:B2,3,4,5,8,12,20"
	var want *rules.Move
	for _, text := range []string{"h4:f6:d4:f2:h4", "h4:f2:d4:f6:h4", "h4:d4:h4", "h4:h4"} {
		g, err := PlayLine(rules.Russian, fen, []string{text})
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		m := &g.Moves[0]
		if m.CaptureCount() != 4 {
			t.Errorf("%s: captures %d pieces", text, m.CaptureCount())
		}
		if want == nil {
			want = m
		} else if !want.SameAs(m) {
			t.Errorf("%s is a different move", text)
		}
	}
}
