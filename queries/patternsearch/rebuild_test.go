package patternsearch

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay/pattern"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestRebuildPatternIndex: a database whose pattern_index lost its rows (as
// one imported before migration 0015) is searched with those games counted
// as unindexed; ingest.RebuildPatternIndex writes the rows the import
// wrote, byte for byte, and the search finds the same games again.
func TestRebuildPatternIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	path := filepath.Join(t.TempDir(), "g.pdn")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := synth.Write(f, synth.Options{Variant: rules.International, Games: 300, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := ingest.Import(ctx, pool, []string{path}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	p, _ := pattern.Parse(rules.International, "W:W28:B19")
	opts := Options{Variant: rules.International, Limit: 1000, Query: pattern.Query{Patterns: []pattern.Pattern{p}, MinPly: -1, MaxPly: -1}}
	before, err := Search(ctx, pool, opts)
	if err != nil {
		t.Fatal(err)
	}
	rowsOf := func() [][]byte {
		var out [][]byte
		rows, err := pool.Query(ctx, `SELECT entries FROM pattern_index ORDER BY first_game`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var b []byte
			if err := rows.Scan(&b); err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
		return out
	}
	imported := rowsOf()
	if _, err := pool.Exec(ctx, `DELETE FROM pattern_index`); err != nil {
		t.Fatal(err)
	}
	gone, err := Search(ctx, pool, opts)
	if err != nil {
		t.Fatal(err)
	}
	if gone.Games != 0 || gone.Scanned != 0 || gone.Unindexed != 300 {
		t.Fatalf("without rows: %d games, %d scanned, %d unindexed", gone.Games, gone.Scanned, gone.Unindexed)
	}
	sum, err := ingest.RebuildPatternIndex(ctx, pool, ingest.PatternRebuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Sources != 1 || sum.Games != 300 || sum.Undecodable != 0 {
		t.Fatalf("rebuild: %+v", sum)
	}
	rebuilt := rowsOf()
	if len(rebuilt) != len(imported) {
		t.Fatalf("%d rows rebuilt, the import wrote %d", len(rebuilt), len(imported))
	}
	for i := range rebuilt {
		if !bytes.Equal(rebuilt[i], imported[i]) {
			t.Fatalf("row %d differs from the import's", i)
		}
	}
	after, err := Search(ctx, pool, opts)
	if err != nil {
		t.Fatal(err)
	}
	if after.Games != before.Games || after.Positions != before.Positions || after.Unindexed != 0 || before.Games == 0 {
		t.Fatalf("after the rebuild %d games %d positions (%d unindexed); before %d, %d", after.Games, after.Positions, after.Unindexed, before.Games, before.Positions)
	}
	// Nothing left to do: a second rebuild touches no source.
	if sum, err := ingest.RebuildPatternIndex(ctx, pool, ingest.PatternRebuildOptions{}); err != nil || sum.Sources != 0 {
		t.Fatalf("second rebuild: %+v %v", sum, err)
	}
}
