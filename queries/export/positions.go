package export

import (
	"context"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
)

// positionsSource: one row per (game, ply), the start position being ply
// 0, from replaying each game's moves in Go.
type positionsSource struct{ o *Options }

// evalColumns end every positions row: the evaluation picked for the
// position (see picked), null when there is none.
var evalColumns = []Column{
	{Name: "eval_score", Kind: Int, Nullable: true, Doc: "evaluation in hundredths of a man from the side to move's view (the deepest, then latest, evaluation passing --engine/--setting)"},
	{Name: "eval_mate", Kind: Bool, Nullable: true, Doc: "the evaluation is a forced win or loss"},
	{Name: "eval_depth", Kind: Int, Nullable: true, Doc: "its search depth"},
	{Name: "best_move", Kind: String, Nullable: true, Doc: "its best move, Hub notation (32-28, 28x19x23)"},
	{Name: "eval_engine", Kind: String, Nullable: true, Dict: true, Doc: "its engine"},
	{Name: "eval_setting", Kind: String, Nullable: true, Dict: true, Doc: "its engine setting (depth=8, movetime=500)"},
}

var positionColumns = append([]Column{
	{Name: "game_id", Kind: Int, Doc: "games.id"},
	{Name: "ply", Kind: Int, Doc: "plies played before the position: 0 is the start position"},
	{Name: "variant", Kind: String, Dict: true, Doc: "variant name"},
	{Name: "fen", Kind: String, Doc: "the position's FEN (W:W31,32:B1,K2 form)"},
	{Name: "zobrist", Kind: String, Doc: "the position's Zobrist hash, 16 hex digits (evaluations.hash and the position index use the same 64 bits, signed)"},
	{Name: "side_to_move", Kind: String, Dict: true, Doc: "white or black"},
	{Name: "result", Kind: Float, Nullable: true, Doc: "the game's result from the side to move's view: 1 win, 0.5 draw, 0 loss (0-0: 0); null when unknown"},
	{Name: "move", Kind: String, Nullable: true, Doc: "the move the game played from here, as in games.moves; null at the last position"},
}, evalColumns...)

func (positionsSource) columns() []Column { return positionColumns }

func (p positionsSource) count(ctx context.Context, s *session) (int64, error) {
	return schema.CountExportPositions(ctx, s.main, p.o.Filter.store())
}

func sideName(c rules.Color) string {
	if c == rules.White {
		return "white"
	}
	return "black"
}

func (p positionsSource) rows(ctx context.Context, s *session, emit func([]Value) error) error {
	row := make([]Value, len(positionColumns))
	prepare := func(g *gameRec) { replayGame(g, true) }
	var lookup func([]gameRec) (any, error)
	if s.hasEvals {
		lookup = func(games []gameRec) (any, error) { return s.pickEvals(ctx, batchKeys(games)) }
	}
	return streamGames(ctx, s, &p.o.Filter, p.o.Workers, prepare, lookup, func(games []gameRec, extra any) error {
		evals, _ := extra.(map[posKey]picked)
		for i := range games {
			g := &games[i]
			if g.err != nil {
				return undecodable(g)
			}
			row[0] = num(g.ID)
			row[2] = str(g.v.Name)
			for ply, h := range g.hashes {
				row[1] = num(int64(ply))
				row[3] = str(g.fens[ply])
				row[4] = str(hex64(h))
				row[5] = str(sideName(g.sides[ply]))
				row[6] = sideResult(g.Result, g.sides[ply])
				if ply < len(g.texts) {
					row[7] = str(g.texts[ply])
				} else {
					row[7] = null()
				}
				e, ok := evals[posKey{g.Variant, int64(h)}]
				setEval(row[8:], e, ok)
				if err := emit(row); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// setEval fills the evalColumns of a row.
func setEval(dst []Value, e picked, ok bool) {
	if !ok {
		for i := range evalColumns {
			dst[i] = null()
		}
		return
	}
	dst[0] = num(e.score)
	dst[1] = boolean(e.mate)
	dst[2] = num(e.depth)
	dst[3] = optStr(e.best)
	dst[4] = str(e.engine)
	dst[5] = str(e.setting)
}
