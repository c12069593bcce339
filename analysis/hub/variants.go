package hub

import (
	"fmt"
	"slices"
	"strings"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// VariantNames returns the names a Hub engine or GUI may give variant v in
// the "variant" parameter: draughtsdb's own first, then Scan's
// (rules.Variant.HubNames: "normal" for International, ...).
func VariantNames(v *rules.Variant) []string {
	return append([]string{v.Name}, v.HubNames...)
}

// VariantByName reads a "variant" parameter value: draughtsdb's names and
// the other names rules.VariantByName reads ("standard", "american", ...),
// or Scan's (see VariantNames), in any case.
func VariantByName(name string) (*rules.Variant, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, v := range rules.Variants() {
		if slices.Contains(v.HubNames, n) {
			return v, nil
		}
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
