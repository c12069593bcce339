package export

import (
	"context"
	"math"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// openingsSource: the opening statistics as rows, one per (position,
// move). The positions come from walking the opening tree breadth first
// from each variant's initial position (openings.Walk), through moves
// played at least Options.MinGames times, to Options.MaxPly plies; each
// position once, at the smallest ply that reaches it. Memory grows with
// the positions of one ply of the walk and the set of positions seen, so
// on large collections --min-games bounds it (and the time: about 2,000
// positions per batch of three queries).
type openingsSource struct{ o *Options }

var openingColumns = []Column{
	{Name: "variant", Kind: String, Dict: true, Doc: "variant name"},
	{Name: "ply", Kind: Int, Doc: "plies from the initial position to the position (the fewest, over transpositions)"},
	{Name: "fen", Kind: String, Doc: "the position's FEN"},
	{Name: "zobrist", Kind: String, Doc: "the position's Zobrist hash, 16 hex digits"},
	{Name: "side_to_move", Kind: String, Dict: true, Doc: "white or black: who plays the move"},
	{Name: "move", Kind: String, Doc: "the move in the variant's notation (full capture path only where two captures share start and end)"},
	{Name: "algebraic", Kind: String, Doc: "the move in algebraic notation"},
	{Name: "games", Kind: Int, Doc: "games that played the move in the position (transpositions merged, each game once)"},
	{Name: "white_wins", Kind: Int, Doc: "of them, won by White"},
	{Name: "draws", Kind: Int, Doc: "drawn"},
	{Name: "black_wins", Kind: Int, Doc: "won by Black"},
	{Name: "score", Kind: Float, Nullable: true, Doc: "White's score in percent over the games with a result; null when none has one"},
	{Name: "name", Kind: String, Nullable: true, Dict: true, Doc: "the named opening (ballot) the move reaches"},
	{Name: "eval", Kind: Float, Nullable: true, Doc: "mean engine evaluation of the position after the move, in men from White's view"},
	{Name: "eval_count", Kind: Int, Doc: "evaluations averaged in eval (engines and settings)"},
}

func (openingsSource) columns() []Column { return openingColumns }

func (openingsSource) count(context.Context, *session) (int64, error) { return -1, nil }

func (src openingsSource) rows(ctx context.Context, s *session, emit func([]Value) error) error {
	variants := rules.Variants()
	if src.o.Filter.Variant != nil {
		variants = []*rules.Variant{src.o.Filter.Variant}
	}
	minGames := max(src.o.MinGames, 1)
	row := make([]Value, len(openingColumns))
	for _, v := range variants {
		start := v.StartPosition()
		err := openings.WalkFrom(ctx, s.main, &start, minGames, src.o.MaxPly, src.o.Filter.Sources, func(ply int, node *openings.Node) error {
			side := "white"
			if node.Side == rules.Black {
				side = "black"
			}
			for _, b := range node.Branch {
				if b.Games < minGames {
					continue
				}
				row[0], row[1], row[2] = str(v.Name), num(int64(ply)), str(node.FEN)
				row[3], row[4] = str(hex64(node.Hash)), str(side)
				row[5], row[6] = str(b.Text), str(b.Algebraic)
				row[7], row[8], row[9], row[10] = num(b.Games), num(b.WhiteWins), num(b.Draws), num(b.BlackWins)
				row[11] = null()
				if !math.IsNaN(b.Score) {
					row[11] = flt(b.Score)
				}
				row[12] = null()
				if b.Name != "" {
					row[12] = str(b.Name)
				}
				row[13], row[14] = null(), num(int64(b.EvalCount))
				if b.Eval != nil {
					row[13] = flt(*b.Eval)
				}
				if err := emit(row); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
