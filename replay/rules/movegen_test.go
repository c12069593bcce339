package rules

import (
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDCTLLegalMoves checks dctl's positions for the articles of the
// International and Italian rules: the legal moves exactly.
func TestDCTLLegalMoves(t *testing.T) {
	data, err := os.ReadFile("testdata/dctl_legal_moves.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			Variant, Suite, Name, FEN string
			Legal                     []string
		}
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, c := range f.Cases {
		v, err := VariantByName(c.Variant)
		if err != nil {
			t.Fatalf("%s/%s: %v", c.Suite, c.Name, err)
		}
		n[c.Variant]++
		pos, err := ParseFEN(v, c.FEN)
		if err != nil {
			t.Fatalf("%s/%s: %v", c.Suite, c.Name, err)
		}
		var got []string
		for _, m := range pos.LegalMoves(nil) {
			got = append(got, dctlText(&m))
		}
		want := slices.Clone(c.Legal)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s/%s %s: got %v, want %v", c.Suite, c.Name, c.FEN, got, want)
		}
	}
	if n["international"] != 20 || n["italian"] != 16 {
		t.Errorf("ran %v cases, want 20 International and 16 Italian", n)
	}
}

// dctlText writes a move as dctl does: zero-padded start and end.
func dctlText(m *Move) string {
	pad := func(n int) string {
		s := strconv.Itoa(n)
		if len(s) < 2 {
			s = "0" + s
		}
		return s
	}
	sep := "-"
	if m.IsCapture() {
		sep = "x"
	}
	return pad(m.From()) + sep + pad(m.To())
}

func TestMoveAccessors(t *testing.T) {
	// Russian: a man captures, promotes on the last row and continues as a
	// flying king.
	pos, err := ParseFEN(Russian, "W:Wc5:Bd6,f6,f4")
	if err != nil {
		t.Fatal(err)
	}
	moves := pos.LegalMoves(nil)
	var texts []string
	for i := range moves {
		texts = append(texts, FormatMove(pos.Variant(), &moves[i], Algebraic, true)+"/"+strconv.FormatBool(moves[i].Promotes()))
	}
	slices.Sort(texts)
	// d6 jumped to e7, f6 to g5, then f4 backwards to e3 (Russian men
	// capture backwards).
	if strings.Join(texts, " ") != "c5:e7:g5:e3/false" {
		t.Errorf("got %v", texts)
	}
	m := moves[0]
	if got := m.Path(nil); !slices.Equal(got, []int{pos.Board().mustSq("e7"), pos.Board().mustSq("g5"), pos.Board().mustSq("e3")}) {
		t.Errorf("path %v", got)
	}
	if got := m.Captured(nil); len(got) != 3 || m.CaptureCount() != 3 {
		t.Errorf("captured %v", got)
	}

	// Promotion mid-capture in Russian: the new king continues.
	pos, _ = ParseFEN(Russian, "W:Wb6:Bc7,e7")
	moves = pos.LegalMoves(nil)
	if got := formatAll(moves); !slices.Equal(got, []string{"9x2x11", "9x2x16", "9x2x20"}) || !moves[0].Promotes() {
		t.Errorf("russian promote-continue: %v", got)
	}
	if s := FormatMove(Russian, &moves[0], Algebraic, true); s != "b6:d8:f6" && s != "b6:d8:g5" && s != "b6:d8:h4" {
		t.Errorf("algebraic %s", s)
	}
	// International: passing through the last row the man goes on as a man.
	pos, _ = ParseFEN(International, "W:W15:B9,10")
	moves = pos.LegalMoves(nil)
	if len(moves) != 1 || FormatMove(International, &moves[0], Numeric, true) != "15x4x13" || moves[0].Promotes() {
		t.Errorf("international pass-through: %v", formatAll(moves))
	}
	// English: men capture forward only, kings one step.
	pos, _ = ParseFEN(English, "B:W14,K22:B9,K31")
	moves = pos.LegalMoves(nil)
	if got := formatAll(moves); !slices.Equal(got, []string{"9x18x25"}) {
		t.Errorf("english: %v", got)
	}
}

func formatAll(moves []Move) []string {
	var s []string
	for i := range moves {
		s = append(s, FormatMove(Russian, &moves[i], Numeric, true))
	}
	slices.Sort(s)
	return s
}

func (b *Board) mustSq(s string) int {
	sq, err := b.ParseSquare(s)
	if err != nil {
		panic(err)
	}
	return sq
}
