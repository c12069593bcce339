package export

import (
	"context"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/schema"
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

// batchKeys returns the distinct positions of games (replayed).
func batchKeys(games []gameRec) []posKey {
	var keys []posKey
	seen := map[posKey]bool{}
	for i := range games {
		for _, h := range games[i].hashes {
			k := posKey{games[i].Variant, int64(h)}
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
	err = schema.PickExportEvaluations(ctx, tx, vs, hs, s.evals, func(e *schema.ExportPick) error {
		out[posKey{e.Variant, e.Hash}] = pickedOf(e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// pickedOf is the store's chosen evaluation as a row's eval columns take
// it.
func pickedOf(e *schema.ExportPick) picked {
	return picked{score: e.Score, mate: e.Mate, depth: e.Depth, best: e.BestMove, engine: e.Engine, setting: e.Setting}
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
	err = schema.AllExportEvaluations(ctx, tx, vs, hs, s.evals, func(e *schema.ExportEval) error {
		k := posKey{e.Variant, e.Hash}
		out[k] = append(out[k], pdn.Evaluation{
			Engine: e.Engine, Setting: e.Setting, Score: e.Score, Mate: e.Mate, Depth: e.Depth, BestMove: e.BestMove,
			PV: e.PV, Nodes: e.Nodes, TimeMS: e.TimeMS, EngineVersion: e.EngineVersion, EvaluatedAt: e.EvaluatedAt,
		})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
