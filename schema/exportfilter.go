package schema

import (
	"fmt"
	"strings"
)

// ExportFilter selects stored games for an export (games, positions). Its
// values are stored ones (variant numbers, normalised dates), checked by
// the caller; the zero value selects every game of DefaultSources.
type ExportFilter struct {
	Variant *int16 // games.variant; nil: any
	// Events and Players are case-insensitive LIKE patterns; a game
	// matches when any pattern matches its event (resp. White or Black).
	Events, Players []string
	// From and To bound games.date, inclusive, compared on their own
	// length (a year, a month or a day, in games.date's form); either
	// leaves out the games of an unknown year.
	From, To string
	MinPly   int // games of at least this many plies; 0: no bound
	// MinRating keeps games in which both players are rated at least
	// this; 0: no bound.
	MinRating int
	Sources   string // a source selection (ResolveSources); "": DefaultSources
	// Positions keeps the games that reach one of these positions, by the
	// position index.
	Positions []ExportPosition
}

// ExportPosition is a position as the store keys it: variant and Zobrist
// hash.
type ExportPosition struct {
	Variant int16
	Hash    int64
}

// exportFilterMark is where an export statement's WHERE clause goes: the .sql
// files hold whole statements, readable and runnable in psql with the mark
// left as a comment, and the filter renders only its conditions.
const exportFilterMark = "/* filter */"

// exportFiltered checks that stmt has the filter mark, at package
// initialisation, as get checks names.
func exportFiltered(stmt string) string {
	if strings.Count(stmt, exportFilterMark) != 1 {
		panic(fmt.Sprintf("schema: statement %.60q has no %s mark, or several", stmt, exportFilterMark))
	}
	return stmt
}

// render returns stmt with f's WHERE clause in place of its filter mark,
// and the clause's arguments ($1 is args[0]). The conditions are written
// only for the fields set, so that the planner sees the query a person
// would write for that filter (no "$1 IS NULL OR" branches: a generic plan
// of those would scan where an index serves); the sources are always
// selected.
func (f *ExportFilter) render(stmt string) (string, []any) {
	var args []any
	var conds []string
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if f.Variant != nil {
		conds = append(conds, "g.variant = "+arg(*f.Variant)+"::smallint")
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
		sources = DefaultSources
	}
	conds = append(conds, "g.source_id = ANY ((SELECT draughtsdb_source_ids("+arg(sources)+"::text))::bigint[])")
	if len(f.Positions) > 0 {
		vs := make([]int16, len(f.Positions))
		hs := make([]int64, len(f.Positions))
		for i, p := range f.Positions {
			vs[i], hs[i] = p.Variant, p.Hash
		}
		conds = append(conds, "(g.variant, g.id) IN (SELECT p.v, draughtsdb_games_at(p.h) FROM unnest("+arg(vs)+
			"::smallint[], "+arg(hs)+"::bigint[]) AS p(v, h))")
	}
	return strings.Replace(stmt, exportFilterMark, "WHERE "+strings.Join(conds, " AND "), 1), args
}
