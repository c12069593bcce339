package codec

import (
	"fmt"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// VariantID is the number that stands for variant v in the database:
// games.variant, evaluations.variant, opening_index.variant,
// opening_names.variant and the SQL functions' variant arguments (the
// table draughtsdb_variants of migration 0008 lists them). It is the PDN
// GameType number, and 0 for the one variant without one (Killer), as the
// import has always stored it. Stored rows keep it, so it must never
// change for a variant.
func VariantID(v *rules.Variant) int16 { return int16(v.GameType) }

// VariantByID returns the variant stored as id (see VariantID). Unlike
// rules.VariantByGameType it knows 0, Killer's number. An id no variant
// has is an error wrapping rules.ErrUnknownVariant that names it.
func VariantByID(id int16) (*rules.Variant, error) {
	for _, v := range rules.Variants() {
		if VariantID(v) == id {
			return v, nil
		}
	}
	return nil, fmt.Errorf("%w: stored variant number %d", rules.ErrUnknownVariant, id)
}
