package ingest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestRepairEveryVariant: a source marked for repair that holds games of
// every variant rules plays is repaired without error and left as it was
// (it stopped at Killer's stored number 0, which rules.VariantByGameType
// does not know, and with it draughtsdb's start).
func TestRepairEveryVariant(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	var all bytes.Buffer
	for _, v := range rules.Variants() {
		if err := synth.Write(&all, synth.Options{Variant: v, Games: 4, Seed: 31}); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "every.pdn")
	if err := os.WriteFile(path, all.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := Import(ctx, pool, []string{path}, Options{})
	if err != nil || sum.Imported != 4*len(rules.Variants()) {
		t.Fatalf("import: %+v %v", sum, err)
	}
	before := gameFacts(t, pool, true)
	if _, err := pool.Exec(ctx, `UPDATE sources SET repair = true`); err != nil {
		t.Fatal(err)
	}
	rs, err := RepairSources(ctx, pool, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Sources != 1 || rs.Games != sum.Imported {
		t.Errorf("repair: %+v", rs)
	}
	after := gameFacts(t, pool, true)
	if len(before) != len(after) {
		t.Fatalf("facts: %d before, %d after", len(before), len(after))
	}
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("changed by the repair: %s -> %s", before[i], after[i])
		}
	}
}
