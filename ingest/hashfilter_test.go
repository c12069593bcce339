package ingest

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestHashFilter: every hash added is held, across the filter's growth,
// and few others are.
func TestHashFilter(t *testing.T) {
	t.Parallel()
	f := newHashFilter()
	r := rand.New(rand.NewPCG(1, 2))
	var in []int64
	for range 200_000 {
		h := int64(r.Uint64())
		f.add(h)
		in = append(in, h)
	}
	for _, h := range in {
		if !f.mayHold(h) {
			t.Fatalf("%x added but not held", h)
		}
	}
	fp := 0
	for range 100_000 {
		if f.mayHold(int64(r.Uint64())) {
			fp++
		}
	}
	if len(f.sets) < 3 || fp > 1000 {
		t.Fatalf("%d filters, %d false positives in 100,000", len(f.sets), fp)
	}
}

// TestDuplicatesFoundWithFilter: an import into an empty database looks
// for duplicates only where its filter of the games it stored may hold
// them; the games repeated later in the file (other batches) are still
// all found, and linked to their first copy.
func TestDuplicatesFoundWithFilter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	var b bytes.Buffer
	if err := synth.Write(&b, synth.Options{Variant: rules.International, Games: 300, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	games := strings.SplitAfter(b.String(), "\n\n[Event")
	// The first 40 games again after the 300 (same text, same header).
	text := b.String() + "\n" + strings.Join(games[:40], "")
	text = strings.TrimSuffix(text, "[Event")
	path := filepath.Join(t.TempDir(), "dups.pdn")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := Import(ctx, pool, []string{path}, Options{BatchSize: 64})
	if err != nil {
		t.Fatal(err)
	}
	if sum.GamesRead != 340 || sum.Imported != 300 || sum.Duplicates != 40 {
		t.Fatalf("%+v", sum)
	}
	if n := count(t, pool, `SELECT count(*) FROM duplicates WHERE of_ordinal = ordinal - 300`); n != 40 {
		t.Fatalf("%d duplicates linked to their first copy, want 40", n)
	}
}
