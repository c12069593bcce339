package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// czechFiles are the Czech federation's files of the PDN test suite: no
// GameType, algebraic 8x8 moves.
var czechFiles = []string{
	"testsuite/succeed/mrcd2000kval.pdn.gz", "testsuite/succeed/mrcd2006.pdn.gz",
	"testsuite/succeed/mrcd2007.pdn.gz", "testsuite/fail/mrdrcd07.pdn.gz", "testsuite/fail/mrdrcd08.pdn.gz",
}

// inferred is what the pipeline handed on for one game.
type inferred struct {
	file              string
	ordinal           int
	accepted          bool
	variant, basis    string
	warnings          []string
	list              []replay.Warning
	prepared, pdnKept bool
}

// runInferred runs paths through the pipeline with source inference, as
// validate (keep false, no Prepare), normalize (keep) or the import
// (prepare: the parsed game is dropped, so the source is read again) do.
func runInferred(t *testing.T, paths []string, keep, prepare bool, skip func(*source.Source) int) []inferred {
	t.Helper()
	srcs, errs := source.Expand(paths)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	cfg := Config{Workers: 2, BatchSize: 16, Keep: keep, Skip: skip}
	if prepare {
		cfg.Prepare = func(g *replay.Game) any { return g.Variant.Name + " " + string(g.Basis) }
	}
	var out []inferred
	err := Run(context.Background(), srcs, cfg, inferSources(cfg, func(ev *Event) error {
		if ev.Kind != Games {
			return nil
		}
		for _, it := range ev.Items {
			g := inferred{file: filepath.Base(ev.Source.Name), ordinal: it.Ordinal, accepted: it.Accepted, warnings: replay.WarningTexts(it.GameWarnings), list: it.GameWarnings, pdnKept: it.PDN != nil}
			switch {
			case it.Game != nil:
				g.variant, g.basis = it.Game.Variant.Name, string(it.Game.Basis)
			case it.Prepared != nil:
				g.variant, g.basis, _ = strings.Cut(it.Prepared.(string), " ")
				g.prepared = true
			}
			out = append(out, g)
		}
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSourceInferenceReadsCzechFilesAsCzech: of the 298 games of the Czech
// files, 250 replay only as Czech and Russian accepts 47 more, every one
// of which Czech accepts; game 6 of mrdrcd07 Russian rejects and both
// Brazilian and Czech accept. All 298 are Czech: 250 by replay, 48 by
// their source, each with a warning naming the evidence. Before source
// inference 47 were Russian and one rejected.
func TestSourceInferenceReadsCzechFilesAsCzech(t *testing.T) {
	t.Parallel()
	var paths []string
	for _, f := range czechFiles {
		paths = append(paths, filepath.Join(sharedDir, f))
	}
	for _, mode := range []struct {
		name          string
		keep, prepare bool
	}{{"normalize (keep)", true, false}, {"import (prepare, read again)", false, true}} {
		t.Run(mode.name, func(t *testing.T) {
			games := runInferred(t, paths, mode.keep, mode.prepare, nil)
			counts := map[string]int{}
			for _, g := range games {
				if !g.accepted {
					t.Errorf("%s game %d rejected", g.file, g.ordinal)
					continue
				}
				counts[g.variant+" "+g.basis]++
				if mode.prepare && (!g.prepared || g.pdnKept) {
					t.Errorf("%s game %d: not rebuilt as a worker does (prepared %v, parsed game kept %v)", g.file, g.ordinal, g.prepared, g.pdnKept)
				}
				if g.basis != string(replay.BasisSource) {
					continue
				}
				w := strings.Join(g.warnings, "\n")
				if !strings.Contains(w, replay.TextVariantBySource+" czech: no GameType, Variant or Italian tags; russian (by notation) ") ||
					!evidenceText.MatchString(w) {
					t.Errorf("%s game %d: warnings %q", g.file, g.ordinal, g.warnings)
				}
			}
			want := map[string]int{"czech replay": 250, "czech source": 48}
			if len(games) != 298 || !mapsEqual(counts, want) {
				t.Fatalf("%d games: %v, want 298: %v", len(games), counts, want)
			}
		})
	}
}

// evidenceText is how a warning names the evidence.
var evidenceText = regexp.MustCompile(`The source reads as czech: of its first \d+ 8x8 algebraic games without GameType, Variant or Italian tags, \d+ replay only as czech \(the first is game \d+, line \d+\) and czech accepts all \d+ that russian \(by notation\) accepts`)

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A resumed import skips the games it had stored; it reads the skipped
// ones again to decide as the first run did: here the only game that
// replays only as Czech is the first, which the run skips.
func TestSourceInferenceAfterASkip(t *testing.T) {
	t.Parallel()
	czech := gameTexts(t, filepath.Join(sharedDir, "testsuite/succeed/mrcd2007.pdn.gz"), 1, 6, 10)
	path := writeGames(t, czech...)
	got := describe(runInferred(t, []string{path}, false, true, func(*source.Source) int { return 1 }))
	if want := []string{"2 czech source", "3 czech source"}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// gameTexts returns the raw text of the games with the given ordinals of a
// gzipped PDN file, in the order asked.
func gameTexts(t *testing.T, path string, ordinals ...int) []string {
	t.Helper()
	byOrdinal := map[int]string{}
	rd := pdn.NewReader(bytes.NewReader(readGz(t, path)), path)
	for {
		g, err := rd.Next()
		if err == io.EOF {
			break
		}
		var se *pdn.SyntaxError
		if err != nil && !errors.As(err, &se) {
			t.Fatal(err)
		}
		if g != nil && slices.Contains(ordinals, g.Ordinal) {
			byOrdinal[g.Ordinal] = string(g.Raw)
		}
	}
	var out []string
	for _, o := range ordinals {
		out = append(out, byOrdinal[o])
	}
	return out
}

// writeGames writes texts as one PDN file.
func writeGames(t *testing.T, texts ...string) string {
	t.Helper()
	var b bytes.Buffer
	for _, s := range texts {
		b.WriteString(strings.TrimSpace(s))
		b.WriteString("\n\n")
	}
	path := filepath.Join(t.TempDir(), "mixed.pdn")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func describe(games []inferred) []string {
	var out []string
	for _, g := range games {
		out = append(out, fmt.Sprintf("%d %s %s", g.ordinal, g.variant, g.basis))
	}
	return out
}

// The evidence must be clear: mrcd2007 game 1 replays only as Czech, but
// ussr1947 game 1 (Russian: a man takes backwards at ply 12) is a game
// Russian accepts and Czech rejects, so Czech does not explain the source
// and nothing changes. mrcd2007 game 6, which both accept, stays Russian.
func TestSourceInferenceNeedsEveryGameExplained(t *testing.T) {
	t.Parallel()
	czech := gameTexts(t, filepath.Join(sharedDir, "testsuite/succeed/mrcd2007.pdn.gz"), 1, 6)
	russian := gameTexts(t, filepath.Join(sharedDir, "testsuite/succeed/ussr1947.pdn.gz"), 1)
	got := describe(runInferred(t, []string{writeGames(t, czech[0], czech[1], russian[0])}, true, false, nil))
	want := []string{"1 czech replay", "2 russian notation", "3 russian notation"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	// Without the Russian game the same two games are Czech.
	got = describe(runInferred(t, []string{writeGames(t, czech[0], czech[1])}, true, false, nil))
	if want := []string{"1 czech replay", "2 czech source"}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// Only the window decides. Past it, a game the source's variant rejects
// keeps the variant of its squares, with a warning; and evidence that
// first shows past the window changes nothing.
func TestSourceInferenceWindow(t *testing.T) {
	defer func(n int) { inferWindow = n }(inferWindow)
	inferWindow = 2
	czech := gameTexts(t, filepath.Join(sharedDir, "testsuite/succeed/mrcd2007.pdn.gz"), 1, 6, 10)
	russian := gameTexts(t, filepath.Join(sharedDir, "testsuite/succeed/ussr1947.pdn.gz"), 1)

	games := runInferred(t, []string{writeGames(t, czech[0], czech[1], russian[0], czech[2])}, false, true, nil)
	want := []string{"1 czech replay", "2 czech source", "3 russian notation", "4 czech source"}
	if got := describe(games); !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if w := strings.Join(games[2].warnings, "\n"); !strings.Contains(w, replay.TextSourceVariantRejects+` czech rejects ply 12 "a5:c7": illegal move; kept as russian (by notation). The source reads as czech: of its first 2 8x8 algebraic games`) {
		t.Errorf("game 3 warnings %q", games[2].warnings)
	}
	if w := games[2].list[len(games[2].list)-1]; w.Kind != replay.WarnSourceVariantRejects || w.Kind.String() != "the variant of its source rejects it" || w.Variant != "czech" {
		t.Errorf("kind %q, variant %q", w.Kind, w.Variant)
	}

	got := describe(runInferred(t, []string{writeGames(t, czech[1], czech[2], czech[0])}, false, true, nil))
	if want := []string{"1 russian notation", "2 russian notation", "3 czech replay"}; !slices.Equal(got, want) {
		t.Fatalf("evidence past the window: got %q, want %q", got, want)
	}
}

// A forced variant leaves nothing to infer, and a source without a game
// decided by replay is handed on unchanged (OCA: English by notation).
func TestSourceInferenceLeavesOthersAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	cfg := Config{Replay: replay.Options{Variant: rules.Czech}}
	called := false
	sink := func(*Event) error { called = true; return nil }
	if w := inferSources(cfg, sink); w(&Event{}) != nil || !called {
		t.Fatal("a forced variant: the sink is not the caller's")
	}
	oca := gameTexts(t, filepath.Join(sharedDir, "english/OCA_2.0.pdn.gz"), 1, 2, 3)
	for _, g := range runInferred(t, []string{writeGames(t, oca...)}, true, false, nil) {
		if g.variant != "english" || g.basis != "notation" || len(g.warnings) != 0 {
			t.Errorf("OCA game %d: %s %s %q", g.ordinal, g.variant, g.basis, g.warnings)
		}
	}
}

// TestImportCzechFilesStoresCzech imports the Czech files: every game is
// stored as Czech, by replay or by its source.
func TestImportCzechFilesStoresCzech(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	pool := pgtest.NewDB(t)
	var paths []string
	for _, f := range czechFiles {
		paths = append(paths, filepath.Join(sharedDir, f))
	}
	sum, err := Import(context.Background(), pool, paths, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rejected != 0 {
		t.Fatalf("summary %+v", sum)
	}
	czech := codec.VariantID(rules.Czech)
	if n := count(t, pool, fmt.Sprintf(`SELECT count(*) FROM games WHERE variant = %d AND variant_basis = 'source'`, czech)); n != 48-sum.Duplicates && n != 48 {
		t.Errorf("%d games czech by source, want 48 (less duplicates: %d)", n, sum.Duplicates)
	}
	if n := count(t, pool, fmt.Sprintf(`SELECT count(*) FROM games WHERE variant <> %d`, czech)); n != 0 {
		t.Errorf("%d games not czech", n)
	}
	if n := count(t, pool, `SELECT count(*) FROM games`); n+sum.Duplicates != 298 {
		t.Errorf("%d games stored and %d duplicates, want 298", n, sum.Duplicates)
	}
}
