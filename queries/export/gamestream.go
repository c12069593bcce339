package export

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// gameRec is one stored game as streamed from the database, with what the
// workers derive from it.
type gameRec struct {
	schema.ExportGame

	// Set by decodeAnnotations.
	ann *codec.Annotations

	// Set by decode.
	v     *rules.Variant
	start rules.Position
	err   error // the game could not be decoded

	// Set by replay (positions, PDN with evaluations): per position, the
	// start (0) and after every ply: its hash, side to move and FEN (FENs
	// only when asked); texts[i] is the move of ply i+1, canonical.
	hashes []uint64
	sides  []rules.Color
	fens   []string
	texts  []string
}

// gameBatch is a run of consecutive games handled by one worker.
type gameBatch struct {
	games []gameRec
	done  chan struct{}
	extra any   // what lookup returned
	err   error // lookup's error
}

const gamesPerBatch = 256

// streamGames runs the games query of f in the main transaction and hands
// the games, in id order, to consume in batches; prepare runs on every
// game first and then lookup, when not nil, on the batch (its result is
// consume's extra), on workers goroutines in parallel with each other and
// with consume. At most a few batches are in memory at any time, whatever
// the number of games.
func streamGames(ctx context.Context, s *session, f *Filter, workers int, prepare func(*gameRec),
	lookup func([]gameRec) (any, error), consume func(games []gameRec, extra any) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sf := f.store()

	jobs := make(chan *gameBatch, workers)
	order := make(chan *gameBatch, workers+1)
	fetchErr := make(chan error, 1)
	go func() {
		defer close(order)
		defer close(jobs)
		fetchErr <- fetch(ctx, s, sf, jobs, order)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range jobs {
				for i := range b.games {
					prepare(&b.games[i])
				}
				if lookup != nil && ctx.Err() == nil {
					b.extra, b.err = lookup(b.games)
				}
				close(b.done)
			}
		}()
	}
	var err error
	for b := range order {
		if err != nil {
			continue // draining after a failure
		}
		select {
		case <-b.done:
		case <-ctx.Done():
			err = ctx.Err()
			cancel()
			continue
		}
		if err = b.err; err == nil {
			err = consume(b.games, b.extra)
		}
		if err != nil {
			cancel()
		}
	}
	wg.Wait()
	if ferr := <-fetchErr; err == nil {
		err = ferr
	}
	return err
}

func fetch(ctx context.Context, s *session, f *schema.ExportFilter, jobs, order chan<- *gameBatch) error {
	b := &gameBatch{games: make([]gameRec, 0, gamesPerBatch), done: make(chan struct{})}
	send := func() bool {
		select {
		case order <- b:
		case <-ctx.Done():
			return false
		}
		select {
		case jobs <- b:
		case <-ctx.Done():
			close(b.done)
			return false
		}
		b = &gameBatch{games: make([]gameRec, 0, gamesPerBatch), done: make(chan struct{})}
		return true
	}
	stopped := false // by the consumer: ctx's error, not the query's
	err := schema.ForEachExportGame(ctx, s.main, f, func(g *schema.ExportGame) error {
		b.games = append(b.games, gameRec{ExportGame: *g})
		if len(b.games) == gamesPerBatch && !send() {
			stopped = true
			return ctx.Err()
		}
		return nil
	})
	if stopped {
		return err
	}
	if err != nil {
		return fmt.Errorf("games: %w", err)
	}
	if len(b.games) > 0 && !send() {
		return ctx.Err()
	}
	return nil
}

// decode sets g.v and g.start, without decoding the moves.
func decode(g *gameRec) bool {
	v, err := codec.VariantByID(g.Variant)
	if err != nil {
		g.err = err
		return false
	}
	g.v = v
	g.start = v.StartPosition()
	if g.StartFEN != nil {
		if g.start, err = rules.ParseFEN(v, *g.StartFEN); err != nil {
			g.err = fmt.Errorf("start FEN: %w", err)
			return false
		}
	}
	return true
}

// replayGame decodes g (codec.Decode: it sets g.v and g.start as decode
// does) and fills hashes, sides, texts and, with fens, FENs.
func replayGame(g *gameRec, fens bool) {
	v, err := codec.VariantByID(g.Variant)
	if err != nil {
		g.err = err
		return
	}
	g.v = v
	fen := ""
	if g.StartFEN != nil {
		fen = *g.StartFEN
	}
	d, err := codec.Decode(v, fen, g.Moves)
	if err != nil {
		g.err = err // a start FEN that does not parse says "start FEN: ", as in decode
		return
	}
	g.start = *d.Start()
	n := len(d.Positions)
	g.hashes = make([]uint64, 0, n)
	g.sides = make([]rules.Color, 0, n)
	g.texts = make([]string, 0, len(d.Moves))
	if fens {
		g.fens = make([]string, 0, n)
	}
	for i := range d.Positions {
		pos := &d.Positions[i]
		g.hashes = append(g.hashes, pos.Hash())
		g.sides = append(g.sides, pos.SideToMove())
		if fens {
			g.fens = append(g.fens, pos.FEN())
		}
		if i < len(d.Moves) {
			g.texts = append(g.texts, rules.FormatMove(v, &d.Moves[i], v.DefaultNotation, true))
		}
	}
}

// undecodable is the error of an export that meets a game it cannot
// decode (it should not happen: every stored game was verified).
func undecodable(g *gameRec) error {
	return fmt.Errorf("game %d (source %s, game %d): %w", g.ID, g.Source, g.Ordinal, g.err)
}
