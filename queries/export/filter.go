package export

import (
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// store is f in the store's terms (variant numbers, position keys); the
// store renders it as SQL.
func (f *Filter) store() *schema.ExportFilter {
	sf := &schema.ExportFilter{
		Events: f.Events, Players: f.Players, From: f.From, To: f.To,
		MinPly: f.MinPly, MinRating: f.MinRating, Sources: f.Sources,
	}
	if f.Variant != nil {
		id := codec.VariantID(f.Variant)
		sf.Variant = &id
	}
	for _, p := range f.Positions {
		sf.Positions = append(sf.Positions, schema.ExportPosition{Variant: codec.VariantID(p.Variant), Hash: int64(p.Hash)})
	}
	return sf
}
