package export

import (
	"fmt"
	"strings"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// gamesFrom is the FROM clause the game filters are written against.
const gamesFrom = `games g
	JOIN sources s ON s.id = g.source_id
	LEFT JOIN players w ON w.id = g.white_id
	LEFT JOIN players b ON b.id = g.black_id`

// where writes f as a WHERE clause over gamesFrom, appending its
// parameters to args ($1 is args[0]); it always selects the sources (by
// default the archive sources).
func (f *Filter) where(args *[]any) string {
	var conds []string
	arg := func(v any) string {
		*args = append(*args, v)
		return fmt.Sprintf("$%d", len(*args))
	}
	if f.Variant != nil {
		conds = append(conds, "g.variant = "+arg(codec.VariantID(f.Variant))+"::smallint")
	}
	if len(f.Events) > 0 {
		conds = append(conds, "g.event ILIKE ANY("+arg(f.Events)+"::text[])")
	}
	if len(f.Players) > 0 {
		p := arg(f.Players)
		conds = append(conds, "(w.name ILIKE ANY("+p+"::text[]) OR b.name ILIKE ANY("+p+"::text[]))")
	}
	if f.From != "" || f.To != "" {
		conds = append(conds, "g.date NOT LIKE '????%'")
	}
	if f.From != "" {
		conds = append(conds, fmt.Sprintf("left(g.date, %d) >= %s::text", len(f.From), arg(f.From)))
	}
	if f.To != "" {
		conds = append(conds, fmt.Sprintf("left(g.date, %d) <= %s::text", len(f.To), arg(f.To)))
	}
	if f.MinPly > 0 {
		conds = append(conds, "g.ply_count >= "+arg(int32(f.MinPly))+"::int")
	}
	if f.MinRating > 0 {
		r := arg(int32(f.MinRating))
		conds = append(conds, "g.white_rating >= "+r+"::int AND g.black_rating >= "+r+"::int")
	}
	sources := f.Sources
	if sources == "" {
		sources = schema.DefaultSources
	}
	conds = append(conds, "g.source_id = ANY ((SELECT draughtsdb_source_ids("+arg(sources)+"::text))::bigint[])")
	if len(f.Positions) > 0 {
		vs := make([]int16, len(f.Positions))
		hs := make([]int64, len(f.Positions))
		for i, p := range f.Positions {
			vs[i], hs[i] = codec.VariantID(p.Variant), int64(p.Hash)
		}
		conds = append(conds, "(g.variant, g.id) IN (SELECT p.v, draughtsdb_games_at(p.h) FROM unnest("+arg(vs)+
			"::smallint[], "+arg(hs)+"::bigint[]) AS p(v, h))")
	}
	return " WHERE " + strings.Join(conds, " AND ")
}
