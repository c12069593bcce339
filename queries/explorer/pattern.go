package explorer

import (
	"context"

	"github.com/draughtsdb/draughtsdb/queries/patternsearch"
	"github.com/draughtsdb/draughtsdb/replay/pattern"
)

// patternParams are the parameters of /api/pattern, as draughtsdb search's
// flags: pattern (a partial position W:W28,32:B19:E23, K for kings), or
// (one more partial position), exclude (one that must not match), side
// (white or black to move), reversed (1: also colour-reversed), material
// (wm=10-12,bk=0 ...), plies (A-B), move (a manoeuvre: white king *x46),
// limit (games listed, default 50, at most 100, as the other pages).
var patternParams = []string{"variant", "pattern", "or", "exclude", "side", "reversed", "material", "plies", "move", "limit"}

// patternSearch is GET /api/pattern: patternsearch.Result (games,
// positions, games_scanned, games_unindexed, matches), read in read-only
// transactions as draughtsdb_reader (two at once, one per half of the
// index), as every request.
func (s *Server) patternSearch(ctx context.Context, rq *request) (any, error) {
	v, err := s.variantParam(rq)
	if err != nil {
		return nil, err
	}
	limit, err := rq.intParam("limit", 50, 0, 100)
	if err != nil {
		return nil, err
	}
	q := pattern.Query{MinPly: -1, MaxPly: -1, Reversed: rq.get("reversed") == "1" || rq.get("reversed") == "true"}
	for _, name := range []string{"pattern", "or", "exclude"} {
		text := rq.get(name)
		if text == "" {
			continue
		}
		p, err := pattern.Parse(v, text)
		if err != nil {
			return nil, badRequest("parameter %s: %v", name, err)
		}
		if name == "exclude" {
			q.Exclude = append(q.Exclude, p)
		} else {
			q.Patterns = append(q.Patterns, p)
		}
	}
	if q.Side, err = pattern.ParseSide(rq.get("side")); err != nil {
		return nil, badRequest("parameter side: %v", err)
	}
	if m := rq.get("material"); m != "" {
		if q.Material, err = pattern.ParseMaterial(m); err != nil {
			return nil, badRequest("parameter material: %v", err)
		}
	}
	if p := rq.get("plies"); p != "" {
		if q.MinPly, q.MaxPly, err = pattern.ParsePlies(p); err != nil {
			return nil, badRequest("parameter plies: %v", err)
		}
	}
	if mv := rq.get("move"); mv != "" {
		if q.Move, err = pattern.ParseMove(v, mv); err != nil {
			return nil, badRequest("parameter move: %v", err)
		}
	}
	if len(q.Patterns) == 0 && len(q.Exclude) == 0 && q.Material == nil && q.Move == nil {
		return nil, badRequest("nothing to search for: give pattern, exclude, material or move")
	}
	if _, err := q.Compile(v); err != nil {
		return nil, badRequest("variant %s: %v", v.Name, err)
	}
	return patternsearch.Search(ctx, s.pool, patternsearch.Options{Variant: v, Query: q, Limit: limit, Read: s.read})
}
