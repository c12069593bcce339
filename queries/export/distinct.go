package export

import (
	"context"
	"fmt"

	"github.com/draughtsdb/draughtsdb/schema"
)

// distinctSource: one row per distinct (variant, position) reached by the
// selected games, with the results of the games that reached it. The
// positions are computed in Go as for positionsSource and loaded into a
// temporary table (COPY, in the session's auxiliary transaction), which
// PostgreSQL aggregates (spilling to disk as needed), so the export's own
// memory stays constant; the temporary table costs disk space in
// proportion to the positions (about 100 bytes each) until the export
// ends. A game counts once per position even when it repeats it.
type distinctSource struct{ o *Options }

var distinctColumns = append([]Column{
	{Name: "variant", Kind: String, Dict: true, Doc: "variant name"},
	{Name: "fen", Kind: String, Doc: "the position's FEN"},
	{Name: "zobrist", Kind: String, Doc: "Zobrist hash, 16 hex digits"},
	{Name: "side_to_move", Kind: String, Dict: true, Doc: "white or black"},
	{Name: "games", Kind: Int, Doc: "selected games that reached the position"},
	{Name: "wins", Kind: Int, Doc: "of them, won by the side to move"},
	{Name: "draws", Kind: Int, Doc: "drawn"},
	{Name: "losses", Kind: Int, Doc: "lost by the side to move (0-0 counts as a loss)"},
	{Name: "unknown", Kind: Int, Doc: "with an unknown result (*)"},
	{Name: "score", Kind: Float, Nullable: true, Doc: "(wins + draws/2) / (wins + draws + losses); null when no game has a known result"},
	{Name: "min_ply", Kind: Int, Doc: "the earliest ply at which a game reached it"},
}, evalColumns...)

func (distinctSource) columns() []Column { return distinctColumns }

func (distinctSource) count(context.Context, *session) (int64, error) { return -1, nil }

func (d distinctSource) rows(ctx context.Context, s *session, emit func([]Value) error) error {
	aux, err := s.auxTx(ctx)
	if err != nil {
		return err
	}
	dist, err := schema.NewExportDistinct(ctx, aux)
	if err != nil {
		return err
	}
	type entry struct {
		g   *gameRec
		ply int
	}
	var batch []entry
	inGame := map[uint64]bool{}
	prepare := func(g *gameRec) { replayGame(g, true) }
	err = streamGames(ctx, s, &d.o.Filter, d.o.Workers, prepare, nil, func(games []gameRec, _ any) error {
		batch = batch[:0]
		for i := range games {
			g := &games[i]
			if g.err != nil {
				return undecodable(g)
			}
			clear(inGame)
			for ply, h := range g.hashes {
				if !inGame[h] {
					inGame[h] = true
					batch = append(batch, entry{g, ply})
				}
			}
		}
		return dist.Add(ctx, len(batch), func(i int) schema.ExportDistinctPosition {
			e := batch[i]
			var res *int16
			if v := sideResult(e.g.Result, e.g.sides[e.ply]); !v.Null {
				r := int16(v.F * 2)
				res = &r
			}
			return schema.ExportDistinctPosition{Variant: e.g.Variant, Hash: int64(e.g.hashes[e.ply]), FEN: e.g.fens[e.ply], Result: res, Ply: int16(e.ply)}
		})
	})
	if err != nil {
		return err
	}
	row := make([]Value, len(distinctColumns))
	var emitErr error // the writer's, reported as it is
	err = dist.Aggregate(ctx, s.evals, func(p *schema.ExportDistinctRow) error {
		row[0] = str(variantName(p.Variant))
		row[1] = str(p.FEN)
		row[2] = str(hex64(uint64(p.Hash)))
		side := "white"
		if len(p.FEN) > 0 && p.FEN[0] == 'B' {
			side = "black"
		}
		row[3] = str(side)
		row[4], row[5], row[6], row[7], row[8] = num(p.Games), num(p.Wins), num(p.Draws), num(p.Losses), num(p.Unknown)
		if decided := p.Wins + p.Draws + p.Losses; decided > 0 {
			row[9] = flt((float64(p.Wins) + float64(p.Draws)/2) / float64(decided))
		} else {
			row[9] = null()
		}
		row[10] = num(int64(p.MinPly))
		setEval(row[11:], pickedOf(&p.Eval), p.HasEval)
		emitErr = emit(row)
		return emitErr
	})
	if err != nil && emitErr == nil {
		return fmt.Errorf("distinct positions: %w", err)
	}
	return err
}
