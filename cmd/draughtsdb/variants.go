package main

import (
	"strings"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// variantList names every variant rules plays, in its order, for help
// texts ("russian, international, ..., frisian or frysk"): a variant added
// to rules is offered by every command without an edit here (a test checks
// every command's help).
func variantList() string { return variantNames(nil, "or") }

// variantNames names the variants rules plays that keep passes (nil: all),
// joined by commas and conj.
func variantNames(keep func(*rules.Variant) bool, conj string) string {
	var names []string
	for _, v := range rules.Variants() {
		if keep == nil || keep(v) {
			names = append(names, v.Name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}
