package main

import (
	"context"
	"fmt"

	"github.com/draughtsdb/draughtsdb/analysis/engine/book"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/spf13/pflag"
)

// bookFlags are the opening book's flags of match, dxp and hub.
type bookFlags struct {
	minGames int64
	minScore float64
	maxPly   int
}

func (b *bookFlags) add(f *pflag.FlagSet, who string) {
	f.Int64Var(&b.minGames, "book-min-games", 0, who+": play from an opening book of the database's opening statistics: in a position the move at least this many games played that scored best for the side to move; 0 = no book")
	f.Float64Var(&b.minScore, "book-min-score", 50, "with --book-min-games: the least score of a book move for the side that plays it, in percent (draws count half)")
	f.IntVar(&b.maxPly, "book-max-ply", 0, "with --book-min-games: book moves only in the first N plies of a game; 0 = as deep as the opening statistics go (import.opening_depth)")
}

// on reports whether a book was asked for.
func (b *bookFlags) on() bool { return b.minGames > 0 }

// check names the flag of a bad value.
func (b *bookFlags) check(changed func(string) bool) error {
	switch {
	case b.minGames < 0:
		return fmt.Errorf("--book-min-games %d: want 0 (no book) or more", b.minGames)
	case b.minScore < 0 || b.minScore > 100:
		return fmt.Errorf("--book-min-score %v: want a percentage, 0..100", b.minScore)
	case b.maxPly < 0:
		return fmt.Errorf("--book-max-ply %d: want 0 (no bound) or more", b.maxPly)
	case !b.on() && (changed("book-min-score") || changed("book-max-ply")):
		return fmt.Errorf("--book-min-score and --book-max-ply go with --book-min-games")
	}
	return nil
}

// setting is the book's part of a match's identity ("" without a book).
func (b *bookFlags) setting() string {
	if !b.on() {
		return ""
	}
	return fmt.Sprintf(" book=%d,%g,%d", b.minGames, b.minScore, b.maxPly)
}

// build reads the book of variant v from the database (nil without
// --book-min-games).
func (b *bookFlags) build(ctx context.Context, a *app, v *rules.Variant) (*book.Book, error) {
	if !b.on() {
		return nil, nil
	}
	pool, err := openDatabase(ctx, a.cfg)
	if err != nil {
		return nil, fmt.Errorf("--book-min-games: %w", err)
	}
	defer pool.Close()
	bk, err := book.Build(ctx, pool, v, book.Options{MinGames: b.minGames, MinScore: b.minScore, MaxPly: b.maxPly})
	if err != nil {
		return nil, fmt.Errorf("--book-min-games: %w", err)
	}
	return bk, nil
}
