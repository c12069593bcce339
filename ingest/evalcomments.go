package ingest

import (
	"context"
	"fmt"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
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
	var rows schema.EvaluationRows
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
			rows.Add(&schema.EvaluationRow{
				Variant: e.Variant, Hash: e.Hash, Engine: e.Engine, Setting: e.Setting,
				Score: e.Score, Mate: e.Mate, Depth: e.Depth, BestMove: e.BestMove, PV: e.PV,
				Nodes: e.Nodes, TimeMS: e.TimeMS, EngineVersion: e.EngineVersion, EvaluatedAt: e.EvaluatedAt,
			})
		}
	}
	if err := schema.InsertEvaluations(ctx, tx, &rows); err != nil {
		return fmt.Errorf("evaluations from comments: %w", err)
	}
	return nil
}
