package openings_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// firstMoveTally counts a PDN file's first moves from its text alone: the
// first move after "1." in each game and the game's Result tag. It
// knows nothing of the store, so it checks MostPlayedFirstMoves from
// outside (ussr1947.pdn: Russian, algebraic, every game with the initial
// position as its FEN tag; babasy1.pdn: International, numeric, results
// "*").
func firstMoveTally(t *testing.T, file string) map[string]*openings.FirstMove {
	t.Helper()
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	game := regexp.MustCompile(`(?s)\[Result "([^"]*)"\].*?\n\s*1\.\s*([a-h0-9]+-[a-h0-9]+)`)
	out := map[string]*openings.FirstMove{}
	for _, m := range game.FindAllStringSubmatch(string(text), -1) {
		f := out[m[2]]
		if f == nil {
			f = &openings.FirstMove{Move: m[2]}
			out[m[2]] = f
		}
		f.Games++
		switch m[1] {
		case "1-0":
			f.WhiteWins++
		case "0-1":
			f.BlackWins++
		case "1/2-1/2":
			f.Draws++
		default:
			f.Unfinished++
		}
	}
	return out
}

// TestMostPlayedFirstMoves: the import's summary line names, per
// variant, the first move played most often from the initial position,
// with its games' results, as the files' text counts them.
func TestMostPlayedFirstMoves(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	var ids []int64
	want := map[string]openings.FirstMove{}
	for _, c := range []struct {
		file string
		v    *rules.Variant
	}{{"ussr1947.pdn", rules.Russian}, {"babasy1.pdn", rules.International}} {
		path := filepath.Join("testdata", "firstmoves", c.file)
		sum, err := ingest.Import(ctx, pool, []string{path}, ingest.Options{Variant: c.v})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Duplicates != 0 || sum.Imported == 0 {
			t.Fatalf("%s: %d imported, %d duplicates: the tally counts every game of the text", c.file, sum.Imported, sum.Duplicates)
		}
		ids = append(ids, sum.SourceIDs...)
		var best *openings.FirstMove
		total := 0
		tally := firstMoveTally(t, path)
		for _, f := range tally {
			total += f.Games
			if best == nil || f.Games > best.Games {
				best = f
			}
		}
		// Checked once the maximum is known: a tie below it is no tie.
		for _, f := range tally {
			if f != best && f.Games == best.Games {
				t.Fatalf("%s: %s and %s are both played %d times: no single most played move to check", c.file, f.Move, best.Move, f.Games)
			}
		}
		if total != sum.Imported {
			t.Fatalf("%s: the text has %d games, the import stored %d", c.file, total, sum.Imported)
		}
		best.Variant = c.v
		want[c.v.Name] = *best
	}
	got, err := openings.MostPlayedFirstMoves(ctx, pool, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d variants: %+v; want %d", len(got), got, len(want))
	}
	for _, g := range got {
		if w, ok := want[g.Variant.Name]; !ok || g != w {
			t.Errorf("%s: %+v\nwant %+v", g.Variant.Name, g, w)
		}
	}
	// Only the sources asked about count.
	if got, err := openings.MostPlayedFirstMoves(ctx, pool, ids[:1]); err != nil || len(got) != 1 || got[0].Variant != rules.Russian {
		t.Errorf("the first source alone: %+v, %v", got, err)
	}
}
