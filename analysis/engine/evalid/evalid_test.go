package evalid

import (
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/search"
)

func TestVersion(t *testing.T) {
	v := Version()
	fp, ok := strings.CutPrefix(v, search.Version+"+eval.")
	if !ok || len(fp) != 8 || strings.Trim(fp, "0123456789abcdef") != "" {
		t.Fatalf("Version %q, want %s+eval. and 8 hex digits", v, search.Version)
	}
	// Computed afresh (new engines, new tables) it is the same.
	if again := compute(); again != fp {
		t.Errorf("fingerprint %s, computed again %s", fp, again)
	}
}

func BenchmarkFingerprint(b *testing.B) {
	for b.Loop() {
		compute()
	}
}
