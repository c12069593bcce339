package export

import (
	"fmt"
	"strings"

	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// gamesFrom is the FROM clause the game filters are written against.
const gamesFrom = `games g
	JOIN sources s ON s.id = g.source_id
	LEFT JOIN players w ON w.id = g.white_id
	LEFT JOIN players b ON b.id = g.black_id`

// where writes f as a WHERE clause over gamesFrom ("" when f is empty),
// appending its parameters to args ($1 is args[0]).
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
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}
