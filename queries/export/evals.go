package export

import (
	"context"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
)

// posKey is a position as table evaluations keys it.
type posKey struct {
	variant int16
	hash    int64
}

// picked is the evaluation chosen for a position in positions exports:
// the deepest, then the latest, then by engine and setting (so the choice
// is deterministic), among those passing --engine/--setting.
type picked struct {
	score, depth    int64
	mate            bool
	best            *string
	engine, setting string
}

// pickSQL orders a position's evaluations best first (see picked).
const pickSQL = `depth DESC, evaluated_at DESC, engine, setting`

// batchKeys returns the distinct positions of games (replayed).
func batchKeys(games []gameRec) []posKey {
	var keys []posKey
	seen := map[posKey]bool{}
	for i := range games {
		for _, h := range games[i].hashes {
			k := posKey{games[i].variantID, int64(h)}
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	return keys
}

func keyArrays(keys []posKey) ([]int16, []int64) {
	vs, hs := make([]int16, len(keys)), make([]int64, len(keys))
	for i, k := range keys {
		vs[i], hs[i] = k.variant, k.hash
	}
	return vs, hs
}

// pickEvals returns the chosen evaluation of each of keys that has one.
func (s *session) pickEvals(ctx context.Context, keys []posKey) (map[posKey]picked, error) {
	out := map[posKey]picked{}
	if !s.hasEvals || len(keys) == 0 {
		return out, nil
	}
	s.auxMu.Lock()
	defer s.auxMu.Unlock()
	tx, err := s.auxTx(ctx)
	if err != nil {
		return nil, err
	}
	vs, hs := keyArrays(keys)
	// One index probe per key (LATERAL): the plan stays a nested loop over
	// the primary key whatever the table's size and statistics.
	rows, err := tx.Query(ctx, `SELECT k.v, k.h, e.score, e.mate, e.depth, e.best_move, e.engine, e.setting
		FROM unnest($1::smallint[], $2::bigint[]) AS k(v, h)
		CROSS JOIN LATERAL (SELECT score, mate, depth, best_move, engine, setting FROM evaluations e
			WHERE e.variant = k.v AND e.hash = k.h
			  AND ($3::text IS NULL OR e.engine = $3) AND ($4::text IS NULL OR e.setting = $4)
			ORDER BY `+pickSQL+` LIMIT 1) e`, vs, hs, s.engine, s.setting)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var k posKey
		var p picked
		if err := rows.Scan(&k.variant, &k.hash, &p.score, &p.mate, &p.depth, &p.best, &p.engine, &p.setting); err != nil {
			return nil, err
		}
		out[k] = p
	}
	return out, rows.Err()
}

// allEvals returns every evaluation of each of keys (passing
// --engine/--setting), by engine and setting.
func (s *session) allEvals(ctx context.Context, keys []posKey) (map[posKey][]pdn.Evaluation, error) {
	out := map[posKey][]pdn.Evaluation{}
	if !s.hasEvals || len(keys) == 0 {
		return out, nil
	}
	s.auxMu.Lock()
	defer s.auxMu.Unlock()
	tx, err := s.auxTx(ctx)
	if err != nil {
		return nil, err
	}
	vs, hs := keyArrays(keys)
	rows, err := tx.Query(ctx, `SELECT k.v, k.h, e.engine, e.setting, e.score, e.mate, e.depth, e.best_move, e.pv, e.nodes, e.time_ms, e.engine_version, e.evaluated_at
		FROM unnest($1::smallint[], $2::bigint[]) AS k(v, h)
		CROSS JOIN LATERAL (SELECT * FROM evaluations e
			WHERE e.variant = k.v AND e.hash = k.h
			  AND ($3::text IS NULL OR e.engine = $3) AND ($4::text IS NULL OR e.setting = $4)
			ORDER BY e.engine, e.setting) e`, vs, hs, s.engine, s.setting)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var k posKey
		var e pdn.Evaluation
		if err := rows.Scan(&k.variant, &k.hash, &e.Engine, &e.Setting, &e.Score, &e.Mate, &e.Depth, &e.BestMove, &e.PV, &e.Nodes, &e.TimeMS, &e.EngineVersion, &e.EvaluatedAt); err != nil {
			return nil, err
		}
		out[k] = append(out[k], e)
	}
	return out, rows.Err()
}
