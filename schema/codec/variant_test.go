package codec

import (
	"errors"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestVariantIDs: every variant has its own stored number and reads back
// from it, Killer (no PDN GameType) included; the numbers of the variants
// stored before this function existed are their GameTypes.
func TestVariantIDs(t *testing.T) {
	seen := map[int16]string{}
	for _, v := range rules.Variants() {
		id := VariantID(v)
		if other, dup := seen[id]; dup {
			t.Fatalf("%s and %s share the stored number %d", other, v.Name, id)
		}
		seen[id] = v.Name
		back, err := VariantByID(id)
		if err != nil || back != v {
			t.Fatalf("%s: VariantByID(%d) = %v, %v", v.Name, id, back, err)
		}
	}
	for name, want := range map[string]int16{"russian": 25, "international": 20, "english": 21, "brazilian": 26,
		"canadian": 27, "killer": 0, "pool": 23, "thai": 31} {
		v, err := rules.VariantByName(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := VariantID(v); got != want {
			t.Errorf("%s: stored as %d, want %d", name, got, want)
		}
	}
	if _, err := rules.VariantByGameType(0); err == nil {
		t.Log("rules now knows GameType 0; VariantByID still must")
	}
	if _, err := VariantByID(12345); !errors.Is(err, rules.ErrUnknownVariant) {
		t.Fatalf("unknown number: %v", err)
	}
}
