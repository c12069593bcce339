package ingest

import (
	"context"
	"fmt"
	"time"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5"
)

// Evaluation is one row of table evaluations: an evaluation comment's
// evaluation (pdn.Evaluation, ingest/pdn/evalcomment.go: the comments'
// syntax) and the position it evaluates. An import stores a comment's
// evaluation unless its key (variant, hash, engine, setting) is already
// in the table (ON CONFLICT DO NOTHING), in the transaction of the game's
// batch.
type Evaluation struct {
	Variant int16
	Hash    int64
	pdn.Evaluation
}

// gameEvaluations collects the evaluation comments of a verified game
// (pdn.ParseEvalComment): a comment before the first move evaluates the
// start position, a comment after a move the position after it. It runs
// on the replay workers; a game without comments costs one pass over its
// moves.
func gameEvaluations(g *replay.Game) []Evaluation {
	var out []Evaluation
	variant := codec.VariantID(g.Variant)
	add := func(comments []string, hash uint64, side rules.Color) {
		for _, c := range comments {
			e, ok, err := pdn.ParseEvalComment(c, side == rules.White)
			if !ok || err != nil {
				continue // not an evaluation, or a malformed one: left as a comment
			}
			out = append(out, Evaluation{Variant: variant, Hash: int64(hash), Evaluation: e})
		}
	}
	if len(g.PDN.Comments) > 0 {
		add(g.PDN.Comments, g.Start.Hash(), g.Start.SideToMove())
	}
	side := g.Start.SideToMove()
	setup := 0
	for i := range g.Moves {
		if setup < len(g.Setups) && g.Setups[setup].BeforePly == i+1 {
			side = g.Setups[setup].Position.SideToMove()
			setup++
		}
		side = side.Opponent() // to move after ply i+1
		if i >= len(g.Tokens) || i >= len(g.Hashes) {
			continue
		}
		src := &g.PDN.Moves[g.Tokens[i]]
		if src.Note != nil && len(src.Note.Comments) > 0 {
			add(src.Note.Comments, g.Hashes[i], side)
		}
	}
	return out
}

// writeEvaluations stores the evaluation comments of the batch's accepted
// games (duplicates included: an evaluation belongs to a position, not to
// a game) in the batch's transaction; a key already present is kept.
func writeEvaluations(ctx context.Context, tx pgx.Tx, items []Item) error {
	var (
		vs                 []int16
		hs, nodes          []int64
		engines, settings  []string
		scores, depths, ts []int32
		mates              []bool
		bests              []*string
		pvs, versions      []string
		ats                []*time.Time
	)
	for i := range items {
		if !items[i].Accepted {
			continue
		}
		st, ok := items[i].Prepared.(*stored)
		if !ok {
			continue
		}
		for j := range st.evals {
			e := &st.evals[j]
			vs, hs = append(vs, e.Variant), append(hs, e.Hash)
			engines, settings = append(engines, e.Engine), append(settings, e.Setting)
			scores, mates, depths = append(scores, e.Score), append(mates, e.Mate), append(depths, e.Depth)
			bests, pvs = append(bests, e.BestMove), append(pvs, e.PV)
			nodes, ts, versions = append(nodes, e.Nodes), append(ts, e.TimeMS), append(versions, e.EngineVersion)
			var at *time.Time
			if !e.EvaluatedAt.IsZero() {
				t := e.EvaluatedAt
				at = &t
			}
			ats = append(ats, at)
		}
	}
	if len(vs) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `
		INSERT INTO evaluations (variant, hash, engine, setting, score, mate, depth, best_move, pv, nodes, time_ms, engine_version, evaluated_at)
		SELECT v, h, e, s, sc, m, d, b, p, n, t, ver, coalesce(at, now())
		FROM unnest($1::smallint[], $2::bigint[], $3::text[], $4::text[], $5::int[], $6::bool[], $7::int[],
		            $8::text[], $9::text[], $10::bigint[], $11::int[], $12::text[], $13::timestamptz[])
		     AS x(v, h, e, s, sc, m, d, b, p, n, t, ver, at)
		ON CONFLICT (variant, hash, engine, setting) DO NOTHING`,
		vs, hs, engines, settings, scores, mates, depths, bests, pvs, nodes, ts, versions, ats)
	if err != nil {
		return fmt.Errorf("evaluations from comments: %w", err)
	}
	return nil
}
