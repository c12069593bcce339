package rules

import (
	"errors"
	"strings"
	"testing"
)

// Every name and number a variant goes by names it alone, and each lookup
// reads exactly its own: VariantByName the name and Aliases, VariantByTag
// those and TagNames, VariantByGameType GameType and OtherGameTypes.
func TestVariantIdentity(t *testing.T) {
	if Default != variants[0] || Default != Russian {
		t.Fatalf("Default is %v, the first variant %v", Default, variants[0])
	}
	owner := map[string]*Variant{}
	numbers := map[int]*Variant{}
	claim := func(v *Variant, name, field string) {
		if name != strings.ToLower(strings.TrimSpace(name)) || name == "" {
			t.Errorf("%s: %s %q is not lower case and trimmed", v.Name, field, name)
		}
		if o := owner[name]; o != nil && o != v {
			t.Errorf("%s: %s %q also names %s", v.Name, field, name, o.Name)
		}
		owner[name] = v
	}
	for _, v := range variants {
		claim(v, v.Name, "name")
		for _, a := range v.Aliases {
			claim(v, a, "alias")
			if got, err := VariantByName(" " + strings.ToUpper(a) + " "); err != nil || got != v {
				t.Errorf("VariantByName(%q) = %v, %v; want %s", a, got, err, v.Name)
			}
		}
		for _, a := range v.TagNames {
			claim(v, a, "tag name")
			if _, err := VariantByName(a); !errors.Is(err, ErrUnknownVariant) {
				t.Errorf("VariantByName(%q): %v; tag names are for Variant tags only", a, err)
			}
			if got, err := VariantByTag(strings.ToUpper(a)); err != nil || got != v {
				t.Errorf("VariantByTag(%q) = %v, %v; want %s", a, got, err, v.Name)
			}
		}
		for _, a := range v.HubNames {
			claim(v, a, "Hub name")
		}
		for _, n := range append([]int{v.GameType}, v.OtherGameTypes...) {
			if n == 0 {
				continue
			}
			if o := numbers[n]; o != nil {
				t.Errorf("%s: GameType %d is also %s", v.Name, n, o.Name)
			}
			numbers[n] = v
			if got, err := VariantByGameType(n); err != nil || got != v {
				t.Errorf("VariantByGameType(%d) = %v, %v; want %s", n, got, err, v.Name)
			}
		}
		if got, err := VariantByTag(v.Name); err != nil || got != v {
			t.Errorf("VariantByTag(%q) = %v, %v", v.Name, got, err)
		}
	}
	for _, bad := range []string{"", "tic-tac-toe", "normal", "losing"} {
		if _, err := VariantByName(bad); !errors.Is(err, ErrUnknownVariant) {
			t.Errorf("VariantByName(%q): %v", bad, err)
		}
	}
	if _, err := VariantByGameType(0); !errors.Is(err, ErrUnknownVariant) {
		t.Errorf("GameType 0: %v", err)
	}
}
