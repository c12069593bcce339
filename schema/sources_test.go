package schema_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestRemoveSourceIsAtomic: a removal stopped before it commits (here:
// cancelled while an import holds the lock) leaves the source whole; run
// again it removes the source and every row that names it; the selection
// function reads kinds, ids and names and refuses what names no source.
func TestRemoveSourceIsAtomic(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	dir := t.TempDir()
	var paths []string
	for i, text := range []string{
		"[Event \"a\"][GameType \"20\"][Result \"2-0\"]\n1. 32-28 19-23 2-0\n\n[Event \"a\"][GameType \"20\"]\n1. 33-28 *\n\n[GameType \"20\"]\n1. 50-44 *\n",
		"[Event \"b\"][GameType \"20\"][Result \"1-1\"]\n1. 32-28 18-23 1-1\n",
	} {
		p := filepath.Join(dir, []string{"a.pdn", "b.pdn"}[i])
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if _, err := ingest.Import(ctx, pool, paths, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	list, err := schema.ListSources(ctx, pool)
	if err != nil || len(list) != 2 || list[0].Games != 2 || list[0].Rejected != 1 || list[1].Games != 1 || list[0].Kind != schema.KindArchive {
		t.Fatalf("sources %+v, %v", list, err)
	}
	a := list[0]
	rowsOf := func(id int64) (n int64) {
		for _, table := range []string{"games", "position_index", "opening_index", "rejected_games", "duplicates"} {
			var c int64
			if err := pool.QueryRow(ctx, `SELECT count(*) FROM `+table+` WHERE source_id = $1`, id).Scan(&c); err != nil {
				t.Fatal(err)
			}
			n += c
		}
		return n
	}
	before := rowsOf(a.ID)
	if before < 4 {
		t.Fatalf("source %d has %d rows", a.ID, before)
	}

	// An import holds the lock: the removal waits, is cancelled, and
	// leaves everything.
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", schema.ImportLock); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	_, err = schema.RemoveSource(short, pool, a.ID)
	cancel()
	if err == nil {
		t.Fatal("the removal ran while the import lock was held")
	}
	if got := rowsOf(a.ID); got != before {
		t.Fatalf("a stopped removal left %d of %d rows", got, before)
	}
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_unlock($1)", schema.ImportLock); err != nil {
		t.Fatal(err)
	}
	conn.Release()

	r, err := schema.RemoveSource(ctx, pool, a.ID)
	if err != nil || r.Source.Games != 2 || r.Source.Rejected != 1 {
		t.Fatalf("remove: %+v, %v", r, err)
	}
	if got := rowsOf(a.ID); got != 0 {
		t.Errorf("%d rows of the removed source remain", got)
	}
	if _, err := schema.RemoveSource(ctx, pool, a.ID); !errors.Is(err, schema.ErrNoSource) {
		t.Errorf("removing it again: %v", err)
	}

	// Selections.
	b := list[1]
	for sel, want := range map[string][]int64{"archive": {b.ID}, "match": {}, "all": {b.ID}, b.Name: {b.ID}, " all , archive": {b.ID}} {
		got, err := schema.ResolveSources(ctx, pool, sel)
		if err != nil || len(got) != len(want) || (len(want) == 1 && got[0] != want[0]) {
			t.Errorf("ResolveSources(%q) = %v, %v; want %v", sel, got, err, want)
		}
	}
	for _, sel := range []string{"99", "nosuch", "archive,nosuch", " "} {
		if _, err := schema.ResolveSources(ctx, pool, sel); !errors.Is(err, schema.ErrBadSources) {
			t.Errorf("ResolveSources(%q): %v, want ErrBadSources", sel, err)
		}
	}
	if err := schema.RenameSource(ctx, pool, b.ID, "renamed"); err != nil {
		t.Fatal(err)
	}
	if s, err := schema.FindSource(ctx, pool, "renamed"); err != nil || s.ID != b.ID {
		t.Errorf("FindSource(renamed) = %+v, %v", s, err)
	}
}
