package hub

import (
	"fmt"
	"strings"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// scanNames are the values Scan (3.x, the reference Hub engine) gives its
// "variant" parameter for the variants it plays, other than draughtsdb's
// own names (rules.Variant.Name): "normal" is International draughts,
// "bt" breakthrough (Scan reads "breakthrough" too), "losing"
// antidraughts; "killer" and "frisian" are the same in both. Hub GUIs
// written for Scan send these.
var scanNames = map[string]string{"normal": "international", "bt": "breakthrough", "losing": "antidraughts"}

// VariantNames returns the names a Hub engine or GUI may give variant v in
// the "variant" parameter: draughtsdb's own first, then Scan's.
func VariantNames(v *rules.Variant) []string {
	names := []string{v.Name}
	for scan, own := range scanNames {
		if own == v.Name {
			names = append(names, scan)
		}
	}
	return names
}

// VariantByName reads a "variant" parameter value: draughtsdb's names and
// the other names rules.VariantByName reads ("standard", "american", ...),
// or Scan's (see VariantNames), in any case.
func VariantByName(name string) (*rules.Variant, error) {
	if own, ok := scanNames[strings.ToLower(strings.TrimSpace(name))]; ok {
		name = own
	}
	return rules.VariantByName(name)
}

// allVariantNames is the "values" of the variant parameter Serve
// declares: every variant rules plays, then Scan's names for those it has
// one for, so that a GUI that offers or checks the declared values finds
// the name it knows.
func allVariantNames() []string {
	var own, scan []string
	for _, v := range rules.Variants() {
		names := VariantNames(v)
		own = append(own, names[0])
		scan = append(scan, names[1:]...)
	}
	return append(own, scan...)
}

// engineVariantName returns the name under which an engine that declared
// the variant values names plays v, or "" and an error wrapping
// ErrVariant when it declares none of v's names.
func engineVariantName(names []string, v *rules.Variant) (string, error) {
	for _, n := range VariantNames(v) {
		for _, e := range names {
			if strings.EqualFold(e, n) {
				return e, nil
			}
		}
	}
	return "", fmt.Errorf("%w: %s (the engine plays %s)", ErrVariant, v.Name, strings.Join(names, ", "))
}
