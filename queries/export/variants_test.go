package export

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/annotate"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// variantGames is the number of synthetic games per variant of
// TestExportsEveryVariant.
const variantGames = 6

// everyVariantDB imports synthetic games of every variant rules plays and
// evaluates the first plies of each with the builtin engine at depth 1.
func everyVariantDB(t *testing.T) *pgxpool.Pool {
	t.Helper()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	dir := t.TempDir()
	for _, v := range rules.Variants() {
		f, err := os.Create(filepath.Join(dir, v.Name+".pdn"))
		if err != nil {
			t.Fatal(err)
		}
		if err := synth.Write(f, synth.Options{Variant: v, Games: variantGames, Seed: 23}); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	// And a rejected game, for --what rejected.
	if err := os.WriteFile(filepath.Join(dir, "rejected.pdn"), []byte("[GameType \"29\"]\n1. c3-d4 d4-e5 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := ingest.Import(ctx, pool, []string{dir}, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Imported != variantGames*len(rules.Variants()) || sum.Rejected != 1 {
		t.Fatalf("import: %+v", sum)
	}
	asum, err := annotate.Run(ctx, pool, annotate.Options{
		Engine: "draughtsdb", EngineVersion: "test", Setting: "depth=1",
		NewEvaluator: func() (annotate.Evaluator, error) { return annotate.NewBuiltin(annotate.Limit{Depth: 1}, 1), nil },
		Workers:      1, Where: "true", MaxPly: 6,
		Thresholds: annotate.Thresholds{Inaccuracy: 30, Mistake: 80, Blunder: 200},
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := sqlCount(t, pool, `SELECT count(DISTINCT variant) FROM evaluations`); n != int64(len(rules.Variants())) {
		t.Fatalf("evaluations of %d variants (%+v)", n, asum)
	}
	return pool
}

// TestExportsEveryVariant: every export (each --what in CSV, JSON lines,
// Parquet and PDN) works for games of every variant rules plays: the same
// checks as TestExports on synthetic games of each, the variant column
// names each variant with its games, and the PDN export imports back as
// the same games and evaluations (Killer, which has no PDN GameType,
// included).
func TestExportsEveryVariant(t *testing.T) {
	t.Parallel()
	pool := everyVariantDB(t)
	runExportTests(t, pool, false)
	t.Run("VariantColumn", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		for _, v := range rules.Variants() {
			path, sum := exportTo(t, pool, dir, v.Name+".jsonl", Options{What: Games, Format: JSONL, Filter: Filter{Variant: v}})
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if sum.Rows != variantGames || len(lines) != variantGames {
				t.Fatalf("--variant %s: %d rows", v.Name, sum.Rows)
			}
			for _, l := range lines {
				var row struct {
					Variant string `json:"variant"`
					Basis   string `json:"variant_basis"`
				}
				if err := json.Unmarshal([]byte(l), &row); err != nil {
					t.Fatal(err)
				}
				if row.Variant != v.Name {
					t.Errorf("--variant %s exported a %s game", v.Name, row.Variant)
				}
			}
			for _, what := range []string{Positions, Evaluations, Openings} {
				if _, sum := exportTo(t, pool, dir, v.Name+"-"+what+".csv", Options{What: what, Format: CSV, Filter: Filter{Variant: v}}); sum.Rows == 0 {
					t.Errorf("--what %s --variant %s: no rows", what, v.Name)
				}
			}
		}
	})
}
