package openings

import (
	"context"
	"fmt"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// Filter narrows the games a tree counts beyond its sources. The opening
// statistics are kept per source, not per game, so a tree with a filter is
// counted from the games themselves (FilteredTreeFrom), not read.
type Filter struct {
	// MinRating keeps the games whose players are both rated at least
	// this (games.white_rating and black_rating, from the WhiteRating or
	// WhiteElo tags); a game with a player without a rating is left out.
	// 0: no bound.
	MinRating int
}

// IsZero says that f selects every game of the sources.
func (f Filter) IsZero() bool { return f.MinRating == 0 }

// Check refuses a filter that cannot mean what was asked.
func (f Filter) Check() error {
	if f.MinRating < 0 {
		return fmt.Errorf("minimum rating %d: want 0 (none) or more", f.MinRating)
	}
	return nil
}

// FilteredTreeFrom is TreeFrom over the games of the sources that pass f.
// With a zero filter it is TreeFrom (the statistics). Otherwise it reads
// and decodes every game of the sources that reaches pos and passes f,
// and counts each at its first visit of pos, at whatever ply: unlike the
// statistics (the first import.opening_depth plies), a position deep in
// the game is counted too. Its cost is that of the games at pos.
func FilteredTreeFrom(ctx context.Context, q Querier, pos *rules.Position, sources string, f Filter) (*Node, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	if f.IsZero() {
		return TreeFrom(ctx, q, pos, sources)
	}
	if sources == "" {
		sources = schema.DefaultSources
	}
	v := pos.Variant()
	h := pos.Hash()
	var vis codec.Visitor
	byCode := map[codec.MoveCode]int{}
	var found []counted
	err := schema.ForEachGameAt(ctx, q, int64(h), codec.VariantID(v), sources, int32(f.MinRating), func(startFEN *string, moves []byte, result int16) error {
		fen := ""
		if startFEN != nil {
			fen = *startFEN
		}
		_, next, hasNext, ok, err := vis.FirstVisit(v, fen, moves, h)
		if err != nil {
			return fmt.Errorf("stored moves do not decode: %w", err)
		}
		if !ok || !hasNext {
			return nil // another position with the same 44 bits, or the game ended here
		}
		code := codec.MoveCodeOf(&next)
		i, seen := byCode[code]
		if !seen {
			i = len(found)
			byCode[code] = i
			found = append(found, counted{code: code})
		}
		b := &found[i].b
		b.Games++
		switch result {
		case codec.ResultWhiteWins:
			b.WhiteWins++
		case codec.ResultDraw:
			b.Draws++
		case codec.ResultBlackWins:
			b.BlackWins++
		default:
			b.Unfinished++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	nodes, err := buildNodes(ctx, q, []rules.Position{*pos}, sources, [][]counted{found})
	if err != nil {
		return nil, err
	}
	// buildNodes counted the games ending at the nodes over every rating;
	// the filtered tree counts those that pass the filter.
	if err := countEnding(ctx, q, codec.VariantID(v), nodes, f.MinRating); err != nil {
		return nil, err
	}
	nodes[0].Filter = f
	return nodes[0], nil
}
