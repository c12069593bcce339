package replay

import (
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestDCTLMoveTextsResolve reads the legal move lists of dctl's
// International and Italian rule-article positions (testdata/dctl_legal_moves.json, a
// copy of shared/testdata/legal_moves) as move text, in dctl's own notation
// (zero-padded numeric start and end, 08-02, 01x15): each listed text must
// resolve to exactly the legal move it names, the texts to different moves,
// and together to every legal move. Each move also resolves back from the
// texts draughtsdb writes for it: start-end where that is unambiguous and
// the full path, numeric and algebraic.
func TestDCTLMoveTextsResolve(t *testing.T) {
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
		v, err := rules.VariantByName(c.Variant)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		n[c.Variant]++
		name := c.Suite + "/" + c.Name + " " + c.FEN
		pos, err := rules.ParseFEN(v, c.FEN)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		legal := pos.LegalMoves(nil)
		if len(legal) != len(c.Legal) {
			t.Errorf("%s: %d legal moves, dctl lists %d", name, len(legal), len(c.Legal))
		}
		var resolved []rules.Move
		for _, text := range c.Legal {
			from, to, capture := dctlSquares(t, text)
			g, err := PlayLine(v, c.FEN, []string{text})
			if err != nil {
				t.Errorf("%s: %s: %v", name, text, err)
				continue
			}
			m := g.Moves[0]
			if m.From() != from || m.To() != to || m.IsCapture() != capture {
				t.Errorf("%s: %s resolved to %s", name, text, rules.FormatMove(v, &m, rules.Numeric, true))
			}
			if !slices.ContainsFunc(legal, func(o rules.Move) bool { return o.SameAs(&m) }) {
				t.Errorf("%s: %s resolved to %s, not a legal move", name, text, rules.FormatMove(v, &m, rules.Numeric, true))
			}
			for _, o := range resolved {
				if o.SameAs(&m) {
					t.Errorf("%s: %s resolved to the same move as another listed text", name, text)
				}
			}
			resolved = append(resolved, m)
		}
		for i := range legal {
			m := &legal[i]
			for _, text := range []string{
				rules.MoveText(v, legal, m, rules.Numeric),
				rules.MoveText(v, legal, m, rules.Algebraic),
				rules.FormatMove(v, m, rules.Numeric, true),
				rules.FormatMove(v, m, rules.Algebraic, true),
			} {
				g, err := PlayLine(v, c.FEN, []string{text})
				if err != nil {
					t.Errorf("%s: %s: %v", name, text, err)
					continue
				}
				if !g.Moves[0].SameAs(m) {
					t.Errorf("%s: %s resolved to %s", name, text, rules.FormatMove(v, &g.Moves[0], rules.Numeric, true))
				}
			}
		}
	}
	if n["international"] != 20 || n["italian"] != 16 {
		t.Errorf("ran %v cases, want 20 International and 16 Italian", n)
	}
}

// dctlSquares reads dctl's "08-02" / "01x15".
func dctlSquares(t *testing.T, text string) (from, to int, capture bool) {
	t.Helper()
	sep := strings.IndexAny(text, "-x")
	if sep < 0 {
		t.Fatalf("dctl move %q", text)
	}
	a, err1 := strconv.Atoi(text[:sep])
	b, err2 := strconv.Atoi(text[sep+1:])
	if err1 != nil || err2 != nil {
		t.Fatalf("dctl move %q", text)
	}
	return a, b, text[sep] == 'x'
}
