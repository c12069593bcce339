package explorer

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestGameAnnotations: /api/game has the author's comments under the
// moves, strength marks and NAGs, and variations (nested too) with the
// position after each verified move, so the viewer can step into them;
// an unverified variation has texts only; the PDN has them all; both
// results are there.
func TestGameAnnotations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "annotated.pdn")
	text := `[Event "Annotated"]
[GameType "20"]
[Result "1-1"]
{Opening comment.} 1. 32-28 {Centre first.} 19-23! 2. 28x19 14x23 (2... 13x24 {the other way} 3. 34-29 (3. 31-27 {nested}) 3... 20-25) (2... 99-98) 3. 37-32? {A loose move.} 18-22!? 4. 41-37 $14 1-1

[Event "Proven"]
[GameType "20"]
[FEN "W:W33:B28"]
[Result "1-1"]
1. 33x22 1-1
`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	pool := pgtest.NewDB(t)
	if sum, err := ingest.Import(ctx, pool, []string{path}, ingest.Options{}); err != nil || sum.Imported != 2 {
		t.Fatalf("import: %+v, %v", sum, err)
	}
	ts := testServer(t, pool, Options{DefaultVariant: "international"})
	var g GameAnswer
	if st, body := get(t, ts, "/api/game/1", nil, &g); st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	if !slices.Equal(g.Comments, []string{"Opening comment."}) || g.ResultProven != "*" || g.Result != "1-1" {
		t.Errorf("comments %q, results %q %q", g.Comments, g.Result, g.ResultProven)
	}
	if m := g.Moves[0]; !slices.Equal(m.Comments, []string{"Centre first."}) {
		t.Errorf("ply 1: %+v", m)
	}
	if m := g.Moves[1]; m.Strength != "!" || len(m.Comments) != 0 {
		t.Errorf("ply 2: %+v", m)
	}
	if m := g.Moves[4]; m.Strength != "?" || !slices.Equal(m.Comments, []string{"A loose move."}) {
		t.Errorf("ply 5: %+v", m)
	}
	if m := g.Moves[6]; !slices.Equal(m.NAGs, []int{14}) {
		t.Errorf("ply 7: %+v", m)
	}
	vars := g.Moves[3].Variations
	if len(vars) != 2 || !vars[0].Verified || vars[1].Verified || len(vars[0].Moves) != 3 {
		t.Fatalf("variations at ply 4: %+v", vars)
	}
	v := vars[0]
	// 2... 13x24 from the position before ply 4, then 3. 34-29 3... 20-25.
	if m := v.Moves[0]; m.Move != "13x24" || m.From != 13 || m.To != 24 || !slices.Equal(m.Captured, []int{19}) ||
		!slices.Equal(m.Comments, []string{"the other way"}) || m.FEN == "" || m.FEN == g.Moves[3].FEN {
		t.Errorf("variation move 1: %+v", m)
	}
	if m := v.Moves[2]; m.Move != "20-25" || !strings.Contains(m.FEN, "25") {
		t.Errorf("variation move 3: %+v", m)
	}
	nested := v.Moves[1].Variations
	if len(nested) != 1 || !nested[0].Verified || nested[0].Moves[0].Move != "31-27" || nested[0].Moves[0].FEN == "" ||
		!slices.Equal(nested[0].Moves[0].Comments, []string{"nested"}) {
		t.Errorf("nested variation: %+v", nested)
	}
	if m := vars[1].Moves[0]; m.Move != "99-98" || m.FEN != "" {
		t.Errorf("unverified variation: %+v", vars[1])
	}
	if !slices.ContainsFunc(g.Warnings, func(w string) bool { return strings.Contains(w, "kept as written, not verified") }) {
		t.Errorf("warnings %q", g.Warnings)
	}
	for _, want := range []string{"{Opening comment.}", "{Centre first.}", "19-23!", "(2... 13x24 {the other way} 3. 34-29 (3. 31-27 {nested}) 20-25)",
		"(2... 99-98)", "37-32? {A loose move.}", "18-22!?", "41-37 $14"} {
		if !strings.Contains(strings.Join(strings.Fields(g.PDN), " "), want) {
			t.Errorf("PDN lacks %q:\n%s", want, g.PDN)
		}
	}

	var p GameAnswer
	if st, body := get(t, ts, "/api/game/2", nil, &p); st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	if p.Result != "1-1" || p.ResultProven != "2-0" || len(p.Comments) != 0 || p.Moves[0].Strength != "" {
		t.Errorf("a draw written where Black has no piece left: result %q, proven %q", p.Result, p.ResultProven)
	}
}
