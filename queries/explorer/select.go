package explorer

import (
	"context"
	"fmt"
	"math"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5"
)

// How a filtered selection finds its games (selectGames).
const (
	// DefaultMaxScanGames bounds the game ids a scan of the newest games
	// looks at for one request (Options.MaxScanGames).
	DefaultMaxScanGames = 100_000
	// scanWindow is the ids one statement of a scan reads: each statement
	// is short, and the scan stops between two of them (Server.window;
	// the tests lower it).
	scanWindow = 5000
	// A position is popular, and scanned rather than listed through the
	// position index, when the opening statistics count at least
	// scanMinGames games through it and at least 1/scanShare of the
	// ids a scan walks (every stored game's, of any variant).
	scanMinGames = 2000
	scanShare    = 8
)

// hit is a game that passes a filter and reaches the position: its row,
// its result and the move it played from the position's first visit
// (hasNext false when it ended there, or when the moves were not read).
type hit struct {
	row     GameRow
	result  int16
	next    rules.Move
	hasNext bool
}

// selection is where selectGames stopped looking: below is the id under
// which it looked at no game (0: it looked at every game); budget says it
// stopped there because of Options.MaxScanGames.
type selection struct {
	below  int64
	budget bool
}

// noBelow is the bound of a selection from the newest game.
const noBelow = math.MaxInt64

// selectGames calls fn for the games of p's variant with an id below
// below that pass f and reach p, newest first, at most limit of them,
// until fn returns false. With withMoves (and whenever the way to the
// games reads them anyway) each game's stored moves are decoded up to the
// position (codec.FirstVisit): a game whose hash matched only the index's
// 44 bits is left out, and hit.next is the move from the position. Memory stays bounded whatever the number of games:
// rows are handed on one at a time and nothing of a game is kept.
//
// It picks one of three ways to the same games:
//   - a player with at most Options.MaxFilterGames games passing the other
//     filters: their games, through the indexes on white_id and black_id
//     (schema.ForEachFilteredPlayerGame);
//   - a popular position (the opening statistics count at least 1/8 of the
//     stored games through it) without an event to look for (a narrow
//     filter): the variant's games newest first, in windows of ids, each
//     decoded (schema.ForEachFilteredGameIn), at most Options.MaxScanGames
//     ids per request; the result says where it stopped;
//   - otherwise the position index (schema.ForEachFilteredGameAt): every
//     game at the position, filtered in SQL.
func (s *Server) selectGames(ctx context.Context, tx pgx.Tx, p *position, f *filter, below int64, limit int, withMoves bool,
	fn func(*hit) bool) (selection, error) {
	v, pos := p.v, &p.line.Final
	hash := pos.Hash()
	n := 0
	// decode: the way to the games reads the moves, and they are decoded
	// to check the position (the scan's games are any games) and find
	// the move from it.
	decode := withMoves
	var vis codec.Visitor
	visit := func(g *storedGame) (bool, error) {
		h := hit{row: g.row, result: g.result}
		if decode {
			_, next, hasNext, found, err := vis.FirstVisit(v, g.startFEN, g.moves, hash)
			if err != nil {
				return false, fmt.Errorf("game %d: stored moves do not decode: %w", g.ID, err)
			}
			if !found {
				return true, nil
			}
			h.next, h.hasNext = next, hasNext
		}
		n++
		return fn(&h) && n < limit, nil
	}
	if f.Player != "" {
		games, ok, err := playerGames(ctx, tx, v, f, below, s.opt.MaxFilterGames)
		if err != nil {
			return selection{}, err
		}
		if ok {
			decode = true
			for i := range games {
				if err := ctx.Err(); err != nil {
					return selection{}, err
				}
				more, err := visit(&games[i])
				if err != nil || !more {
					return selection{}, err
				}
			}
			return selection{}, nil
		}
	}
	// An event is a narrow filter: through the position index it costs
	// the position's games, a scan could read MaxScanGames and find few.
	popular := false
	if f.Event == "" {
		var err error
		if popular, err = s.popular(ctx, tx, p); err != nil {
			return selection{}, err
		}
	}
	if popular {
		decode = true
		return s.scanGames(ctx, tx, v, f, below, visit)
	}
	err := schema.ForEachFilteredGameAt(ctx, tx, int64(hash), codec.VariantID(v), f.store(), below, limit+1, withMoves,
		storedGames(v, visit))
	return selection{}, err
}

// popular says whether p is reached by so many games that reading the
// newest games is cheaper than listing every game at p: the opening
// statistics (a few milliseconds) count at least scanMinGames games
// through it and at least 1/scanShare of the span of game ids, which a
// scan walks whatever the games' variants.
func (s *Server) popular(ctx context.Context, tx pgx.Tx, p *position) (bool, error) {
	node, err := openings.Tree(ctx, tx, &p.line.Final)
	if err != nil {
		return false, err
	}
	if node.Games < int64(s.scanMin) {
		return false, nil
	}
	lo, hi, ok, err := schema.GameIDRange(ctx, tx)
	if err != nil {
		return false, err
	}
	return ok && node.Games*scanShare >= hi-lo+1, nil
}

// scanGames hands visit the games of v below below that pass f, newest
// first, a window of ids at a time, until visit stops or
// Options.MaxScanGames ids were looked at.
func (s *Server) scanGames(ctx context.Context, tx pgx.Tx, v *rules.Variant, f *filter, below int64,
	visit func(*storedGame) (bool, error)) (selection, error) {
	s.scans.Add(1)
	lo, hi, ok, err := schema.GameIDRange(ctx, tx)
	if err != nil || !ok {
		return selection{}, err
	}
	top := min(below, hi+1)
	stopped := false
	for at := top; at > lo; at -= s.window {
		if top-at >= int64(s.opt.MaxScanGames) {
			return selection{below: at, budget: true}, nil
		}
		from := max(at-s.window, lo)
		err := schema.ForEachFilteredGameIn(ctx, tx, codec.VariantID(v), f.store(), from, at, storedGames(v, func(g *storedGame) (bool, error) {
			more, err := visit(g)
			stopped = !more
			return more, err
		}))
		if err != nil || stopped {
			return selection{}, err
		}
	}
	return selection{}, nil
}

// playerGames returns the games of f.Player with an id below below that
// pass f, newest first, with their moves; ok is false when there are more
// than max of them (then the position index or a scan is the cheaper
// way).
func playerGames(ctx context.Context, tx pgx.Tx, v *rules.Variant, f *filter, below int64, max int) (games []storedGame, ok bool, err error) {
	err = schema.ForEachFilteredPlayerGame(ctx, tx, codec.VariantID(v), f.store(), below, max+1, storedGames(v, func(g *storedGame) (bool, error) {
		games = append(games, *g)
		return true, nil
	}))
	if err != nil || len(games) > max {
		return nil, false, err
	}
	return games, true, nil
}

// storedGames turns fn, which takes the explorer's storedGame, into a
// visitor of the store's filtered games of v.
func storedGames(v *rules.Variant, fn func(*storedGame) (bool, error)) func(*schema.FilteredGame) (bool, error) {
	return func(fg *schema.FilteredGame) (bool, error) {
		g := storedGame{ID: fg.ID, startFEN: fg.StartFEN, moves: fg.Moves, result: fg.Result,
			row: GameRow{ID: fg.ID, Variant: v.Name, White: fg.White, Black: fg.Black, Event: fg.Event, Date: fg.Date,
				Result: codec.ResultOf(fg.Result).Format(v), Plies: fg.Plies}}
		return fn(&g)
	}
}
