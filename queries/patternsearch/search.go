// Package patternsearch answers pattern, material and manoeuvre searches
// over the stored games: it reads a variant's pattern_index rows (migration
// 0015; the format is schema/codec's) on several connections at once,
// replays each game's plies as square sets and tests every position (or
// ply) against a compiled replay/pattern query. It only reads.
package patternsearch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/draughtsdb/draughtsdb/replay/pattern"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Options is a search.
type Options struct {
	Variant *rules.Variant
	Query   pattern.Query
	// Limit is the most matches listed (the counts cover all); 0: none
	// listed.
	Limit int
	// Workers is the connections reading and testing rows at once; <= 0:
	// 2.
	Workers int
	// Read, when set, runs fn in a transaction of its choice (the
	// explorer's read-only one as draughtsdb_reader); each worker calls it
	// once. nil: a read-only transaction on the pool.
	Read func(ctx context.Context, fn func(pgx.Tx) error) error
}

// Match is a game found: where it first matches, and its headers.
type Match struct {
	GameID int64 `json:"game_id"`
	// Ply is the first matching position's ply (0: the start position);
	// for a move pattern, the position the matching move is played from.
	Ply int `json:"ply"`
	// Positions is how many of the game's positions (or plies) match.
	Positions int `json:"positions"`
	// Reversed: the first match is of the colour-reversed query only.
	Reversed bool   `json:"reversed"`
	FEN      string `json:"fen"`
	// Move is the matching move (move patterns only), from and to in the
	// variant's notation.
	Move   string `json:"move,omitempty"`
	White  string `json:"white"`
	Black  string `json:"black"`
	Result string `json:"result"`
	Date   string `json:"date"`
	Event  string `json:"event"`
}

// Result is what a search found.
type Result struct {
	// Games is the number of distinct games that match.
	Games int `json:"games"`
	// Positions is the number of matching positions over all games, each
	// (game, ply) once (plies, for a move pattern).
	Positions int64 `json:"positions"`
	// Matches lists the first Limit games found, by id.
	Matches []Match `json:"matches"`
	// Scanned is the games of the variant read from pattern_index.
	Scanned int64 `json:"games_scanned"`
	// Unindexed is the games without pattern_index rows in the sources
	// holding games of the variant (imported, or begun, before migration
	// 0015: draughtsdb search --rebuild-index adds them).
	Unindexed int64 `json:"games_unindexed"`
}

type found struct {
	id        int64
	ply       int
	positions int
	reversed  bool
	board     pattern.Board
	from, to  int
	capture   bool
}

type part struct {
	games     int
	positions int64
	scanned   int64
	list      []found // the first Limit of the part, by id
}

// Search runs a search over the games of opts.Variant.
func Search(ctx context.Context, pool *pgxpool.Pool, opts Options) (*Result, error) {
	v := opts.Variant
	if v == nil {
		return nil, errors.New("pattern search: no variant")
	}
	m, err := opts.Query.Compile(v)
	if err != nil {
		return nil, err
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = 2
	}
	read := opts.Read
	if read == nil {
		read = func(ctx context.Context, fn func(pgx.Tx) error) error { return schema.WithReadOnlyTx(ctx, pool, fn) }
	}
	id := codec.VariantID(v)
	var firsts []int64
	res := &Result{Matches: []Match{}}
	err = read(ctx, func(tx pgx.Tx) error {
		var err error
		if firsts, err = schema.PatternRowStarts(ctx, tx, id); err != nil {
			return err
		}
		// A source's games without rows: imported (or begun) before
		// migration 0015.
		res.Unindexed, err = schema.PatternUnindexed(ctx, tx, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	// Contiguous ranges of rows, one per worker.
	workers = max(1, min(workers, len(firsts)))
	parts := make([]part, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := len(firsts)*w/workers, len(firsts)*(w+1)/workers
		if lo == hi {
			continue
		}
		upper := int64(1<<63 - 1)
		if hi < len(firsts) {
			upper = firsts[hi]
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = read(ctx, func(tx pgx.Tx) error {
				parts[w] = part{}
				return scanRange(ctx, tx, id, firsts[lo], upper, v, m, opts.Limit, &parts[w])
			})
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var list []found
	for _, p := range parts {
		res.Games += p.games
		res.Positions += p.positions
		res.Scanned += p.scanned
		list = append(list, p.list...)
	}
	slices.SortFunc(list, func(a, b found) int { return int(a.id - b.id) })
	if len(list) > opts.Limit {
		list = list[:opts.Limit]
	}
	if err := read(ctx, func(tx pgx.Tx) error { return describe(ctx, tx, v, list, res) }); err != nil {
		return nil, err
	}
	return res, nil
}

func scanRange(ctx context.Context, tx pgx.Tx, variant int16, lo, hi int64, v *rules.Variant, m *pattern.Matcher, limit int, out *part) error {
	start := v.StartPosition()
	initial := pattern.FromPosition(&start)
	return schema.ScanPatternRows(ctx, tx, variant, lo, hi, func(first int64, entries []byte) error {
		if err := scanRow(first, entries, &initial, m, limit, out); err != nil {
			return fmt.Errorf("pattern_index row of first_game %d: %w", first, err)
		}
		return ctx.Err()
	})
}

// scanRow tests every game of one row's entries.
func scanRow(first int64, entries []byte, initial *pattern.Board, m *pattern.Matcher, limit int, out *part) error {
	r := codec.NewPatternReader(first, entries)
	moves := m.Moves()
	minPly, maxPly := m.MinPly, m.MaxPly
	for r.More() {
		g, err := r.Game()
		if err != nil {
			return err
		}
		out.scanned++
		b := *initial
		if g.Setup {
			b = pattern.Board{Side: g.Side}
			for j := 0; j < len(g.Pieces); j += 2 {
				sq, pc := int(g.Pieces[j]), rules.Piece(g.Pieces[j+1])
				if sq < 1 || sq > 128 {
					return fmt.Errorf("game %d: setup square %d", g.ID, sq)
				}
				if pc == rules.WhiteMan || pc == rules.WhiteKing {
					b.White.Add(sq)
				} else {
					b.Black.Add(sq)
				}
				if pc.IsKing() {
					b.Kings.Add(sq)
				}
			}
		}
		var f found
		f.ply = -1
		last := g.Plies
		if maxPly >= 0 && maxPly < last {
			last = maxPly
		}
		for ply := 0; ply <= g.Plies; ply++ {
			if ply == g.Plies {
				if !moves && ply >= minPly && ply <= last {
					if ok, rev := m.Position(&b); ok {
						f.hit(ply, rev, &b, 0, 0, false)
					}
				}
				break
			}
			from, to, prom, capt, ok := r.Ply()
			if !ok {
				return fmt.Errorf("game %d: ply %d cut short", g.ID, ply+1)
			}
			if ply >= minPly && ply <= last {
				if moves {
					if hit, rev := m.Ply(&b, from, to, capt); hit {
						f.hit(ply, rev, &b, from, to, len(capt) > 0)
					}
				} else if hit, rev := m.Position(&b); hit {
					f.hit(ply, rev, &b, 0, 0, false)
				}
			}
			if from < 1 || to < 1 {
				return fmt.Errorf("game %d: ply %d: square 0", g.ID, ply+1)
			}
			b.Play(from, to, prom, capt)
		}
		if f.positions > 0 {
			f.id = g.ID
			out.games++
			out.positions += int64(f.positions)
			if len(out.list) < limit {
				out.list = append(out.list, f)
			}
		}
	}
	return nil
}

func (f *found) hit(ply int, rev bool, b *pattern.Board, from, to int, capture bool) {
	f.positions++
	if f.ply < 0 {
		f.ply, f.reversed, f.board = ply, rev, *b
		f.from, f.to, f.capture = from, to, capture
	}
}

// describe adds the headers of the listed games to res.Matches.
func describe(ctx context.Context, tx pgx.Tx, v *rules.Variant, list []found, res *Result) error {
	res.Matches = res.Matches[:0]
	if len(list) == 0 {
		return nil
	}
	ids := make([]int64, len(list))
	for i := range list {
		ids[i] = list[i].id
	}
	heads, err := schema.GameHeads(ctx, tx, ids)
	if err != nil {
		return err
	}
	for _, f := range list {
		h := heads[f.id]
		p := f.board.Position(v)
		mt := Match{GameID: f.id, Ply: f.ply, Positions: f.positions, Reversed: f.reversed, FEN: p.FEN(),
			White: h.White, Black: h.Black, Result: h.Result, Date: h.Date, Event: h.Event}
		if f.from != 0 {
			mt.Move = squareText(v, f.from) + map[bool]string{false: "-", true: "x"}[f.capture] + squareText(v, f.to)
		}
		res.Matches = append(res.Matches, mt)
	}
	return nil
}

func squareText(v *rules.Variant, sq int) string {
	if v.DefaultNotation == rules.Algebraic {
		return v.Board.Algebraic(sq)
	}
	return strconv.Itoa(sq)
}
