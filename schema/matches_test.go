package schema_test

import (
	"context"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestOpenMatchLocksTheKey: while one Match is open its key cannot be
// opened again, other keys can, and Close frees it; a match with no games
// yet has no source, no results and nothing to remove.
func TestOpenMatchLocksTheKey(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	const key = "0123456789abcdef0123"
	m, err := schema.OpenMatch(ctx, pool, key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schema.OpenMatch(ctx, pool, key); err == nil || !strings.Contains(err.Error(), "being played by another process") {
		t.Fatalf("second open: %v", err)
	}
	other, err := schema.OpenMatch(ctx, pool, "fedcba9876543210")
	if err != nil {
		t.Fatalf("another key: %v", err)
	}
	other.Close()
	if _, _, ok, err := m.Source(ctx); ok || err != nil {
		t.Fatalf("source of a new match: %v, %v", ok, err)
	}
	if res, err := m.Results(ctx); len(res) != 0 || err != nil {
		t.Fatalf("results of a new match: %v, %v", res, err)
	}
	if n, err := m.Remove(ctx); n != 0 || err != nil {
		t.Fatalf("remove of a new match: %d, %v", n, err)
	}
	m.Close()
	again, err := schema.OpenMatch(ctx, pool, key)
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	again.Close()
	for _, bad := range []string{"", "0123", "xyz456789abcdef0"} {
		if _, err := schema.OpenMatch(ctx, pool, bad); err == nil {
			t.Errorf("key %q accepted", bad)
		}
	}
}
