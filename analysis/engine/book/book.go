// Package book builds an opening book from the database's opening
// statistics (package openings): in every position of the tree that
// enough games reached, the move that scored best for the side to move,
// when its score is good enough. engine.WithBook plays it while the game
// is inside the book, for match, hub and dxp (--book-min-games).
package book

import (
	"context"
	"fmt"
	"math"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Options choose the book's moves.
type Options struct {
	// MinGames is how many games must have played a move for it to count
	// (at least 1).
	MinGames int64
	// MinScore is the least score of a move for the side that plays it, in
	// percent over the games with a result (0..100; draws count half).
	MinScore float64
	// MaxPly bounds the book's depth in plies from the start (<= 0: the
	// statistics' own depth, the import's opening depth).
	MaxPly int
}

// Book is a position's move by its hash, for one variant.
type Book struct {
	variant *rules.Variant
	moves   map[uint64]rules.Move
}

// Build reads the opening statistics of variant v from its start position
// (openings.Walk) and keeps, in every position, the move of at least
// MinGames games with the best score for the side to move (ties: the most
// played, then the first in the tree's order) if that score is at least
// MinScore.
func Build(ctx context.Context, q openings.Querier, v *rules.Variant, o Options) (*Book, error) {
	if o.MinGames < 1 {
		return nil, fmt.Errorf("book: MinGames %d, want at least 1", o.MinGames)
	}
	if o.MinScore < 0 || o.MinScore > 100 || math.IsNaN(o.MinScore) {
		return nil, fmt.Errorf("book: MinScore %v, want 0..100 (percent)", o.MinScore)
	}
	b := &Book{variant: v, moves: map[uint64]rules.Move{}}
	start := v.StartPosition()
	err := openings.Walk(ctx, q, &start, o.MinGames, o.MaxPly, func(ply int, n *openings.Node) error {
		if o.MaxPly > 0 && ply >= o.MaxPly {
			return nil
		}
		best, bestScore := -1, -1.0
		for i, br := range n.Branch {
			if br.Games < o.MinGames || math.IsNaN(br.Score) {
				continue
			}
			s := br.Score
			if n.Side == rules.Black {
				s = 100 - s
			}
			if s > bestScore || s == bestScore && br.Games > n.Branch[best].Games {
				best, bestScore = i, s
			}
		}
		if best >= 0 && bestScore >= o.MinScore {
			b.moves[n.Hash] = n.Branch[best].Move
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("book of %s: %w", v.Name, err)
	}
	return b, nil
}

// Len is the number of positions with a book move.
func (b *Book) Len() int { return len(b.moves) }

// Move is the book's move in pos, if it has one that is legal there.
func (b *Book) Move(pos *rules.Position) (rules.Move, bool) {
	if b == nil || pos.Variant() != b.variant {
		return rules.Move{}, false
	}
	m, ok := b.moves[pos.Hash()]
	if !ok {
		return rules.Move{}, false
	}
	for _, l := range pos.LegalMoves(nil) {
		if l.SameAs(&m) {
			return l, true
		}
	}
	return rules.Move{}, false
}
