package replay

import (
	"errors"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// campionatoGame46 is game 46 of "Campionato Assoluto 2005.pdn" in the PDN
// test suite (Italian, 69th Assoluto, round 6). Its last move, 3x26, fits
// two captures of three men, 3x10x19x26 (taking 6, 14, 22) and 3x10x17x26
// (taking 6, 13, 21); Italian rules let Black choose between them, and no
// move follows to tell them apart.
const campionatoGame46 = `[Dati "69° ASSOLUTO 6° TURNO"]
[Anno "2005"]
[Bianco "STIRA Leonardo"]
[Nero "MAIJNELLI Michele"]
[Risultato "0-1"]
[Apertura "0020"]

1. 21-17 11-15 2. 26-21 15-19 3. 22x15 12x19 4. 23x14 10x19 5. 28-23 19x28 
6. 32x23  5-10 7. 29-26  6-11 8. 26-22  8-12 9. 22-18 10-14 10. 27-22 12-15 
11. 17-13 14-19 12. 23x14 15-20 13. 24x6  3x26 `

// withTail is campionatoGame46 with moves written after 3x26.
func withTail(tail string) string { return campionatoGame46 + tail + " *\n" }

func TestAmbiguousMoveResolvedByTheRestOfTheGame(t *testing.T) {
	cases := []struct {
		name, tail string
		want       string // the move ply 26 resolves to; "" when the game stays rejected
		detail     string // in the warning, or in the rejection
	}{
		// After 3x10x19x26 White keeps 13 and has no capture: 13-10 is
		// legal only after that reading.
		{"13-10 fits only the first", "14. 13-10", "3x10x19x26", `only 3x10x19x26 lets the moves after it replay, not 3x10x17x26 (ply 27 "13-10" is then an illegal move)`},
		// After 3x10x17x26 White must take back on 26: 30x21 is legal
		// only after that reading.
		{"30x21 fits only the second", "14. 30x21 9-13", "3x10x17x26", `only 3x10x17x26 lets the moves after it replay, not 3x10x19x26 (ply 27 "30x21" is then an illegal move)`},
		{"a later move illegal after both", "14. 31-26", "", "the rest of the game replays after none of them"},
		// An unrecorded move cannot rule either reading out.
		{"an unrecorded move after it", "14. --", "", "the rest of the game replays after more than one of them"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkPly26(t, withTail(c.tail), c.want, warnResolvedByRest+`: ply 26 "3x26" fits 2 legal moves; `, c.detail)
		})
	}
}

// checkPly26 replays text, a version of campionatoGame46. With want ""
// the game must be rejected at ply 26 as ambiguous, its detail saying
// detail; otherwise ply 26 must be want and a warning starting with
// prefix must say detail (and every warning must have a kind).
func checkPly26(t *testing.T, text, want, prefix, detail string) {
	t.Helper()
	g, err := replayText(t, text, Options{})
	if want == "" {
		var re *RejectError
		if !errors.Is(err, ErrAmbiguousMove) || !errors.As(err, &re) || re.Ply != 26 {
			t.Fatalf("err = %v, want ply 26 ambiguous", err)
		}
		if !strings.Contains(re.Detail, detail) {
			t.Errorf("detail %q does not say %q", re.Detail, detail)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if got := rules.FormatMove(rules.Italian, &g.Moves[25], rules.Numeric, true); got != want {
		t.Errorf("ply 26 = %s, want %s", got, want)
	}
	found := false
	for _, w := range g.Warnings {
		if strings.HasPrefix(w.Text, prefix) && strings.Contains(w.Text, detail) {
			found = true
		}
		if w.Kind.String() == "other" {
			t.Errorf("warning %q has no kind", w)
		}
	}
	if !found {
		t.Errorf("no warning %q in %q", detail, g.Warnings)
	}
}

// With no move after it, game 46's 3x26 is resolved by its result: the
// file says Black won (0-1, "Nero Vince"), and only after 3x10x19x26 is
// Black not a man down once White's forced capture is played. A result
// for White picks the other reading; a draw or "*" picks none.
func TestAmbiguousLastMoveResolvedByTheResult(t *testing.T) {
	cases := []struct {
		result, want, detail string
	}{
		{"0-1", "3x10x19x26", `the result 0-1 favours 3x10x19x26 (material +0 for Black after the forced captures), not 3x10x17x26 (material -1 for Black after the forced captures)`},
		{"1-0", "3x10x17x26", `the result 1-0 favours 3x10x17x26 (material +1 for White after the forced captures), not 3x10x19x26 (material +0 for White after the forced captures)`},
		{"1/2-1/2", "", "it is the game's last move, so neither the rest of the game nor its result tells them apart"},
		{"*", "", "neither the rest of the game nor its result tells them apart"},
	}
	for _, c := range cases {
		t.Run(c.result, func(t *testing.T) {
			text := strings.Replace(campionatoGame46, `[Risultato "0-1"]`, `[Risultato "`+c.result+`"]`, 1) + c.result + "\n"
			checkPly26(t, text, c.want, warnResolvedByResult+`: ply 26 "3x26" fits 2 legal moves`, c.detail)
		})
	}
}

// In schildpad.pdn game 3 (International) the king's 36x16 at ply 69 fits
// 36x18x7x16 and 36x13x2x16; after the first, the king's 49x16 at ply 85
// is itself ambiguous and neither of its readings lets the game go on, so
// the nested look ahead rules the first out.
func TestNestedAmbiguityInTheLookAhead(t *testing.T) {
	g, err := replayText(t, schildpadGame3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := rules.FormatMove(rules.International, &g.Moves[68], rules.Numeric, true); got != "36x13x2x16" {
		t.Errorf("ply 69 = %s, want 36x13x2x16", got)
	}
	want := `only 36x13x2x16 lets the moves after it replay, not 36x18x7x16 (ply 85 "49x16" then fits several moves, and the game replays after none of them)`
	if len(g.Warnings) == 0 || !strings.Contains(strings.Join(WarningTexts(g.Warnings), "\n"), want) {
		t.Errorf("warnings %q lack %q", g.Warnings, want)
	}
}

// Past the look ahead's budget a reading cannot be ruled out: with one ply
// of budget, the second reading of 3x26 is not replayed, so both count and
// the move stays ambiguous; with the default budget 13-10 rules it out.
func TestLookAheadBudgetKeepsTheRejection(t *testing.T) {
	tail := withTail("14. 13-10 9-13")
	if _, err := replayText(t, tail, Options{}); err != nil {
		t.Fatalf("default budget: %v", err)
	}
	defer func(n int) { maxLookaheadPlies = n }(maxLookaheadPlies)
	maxLookaheadPlies = 1
	_, err := replayText(t, tail, Options{})
	if !errors.Is(err, ErrAmbiguousMove) || !strings.Contains(err.Error(), "more than one of them") {
		t.Fatalf("budget 1: err = %v, want ambiguous", err)
	}
}
