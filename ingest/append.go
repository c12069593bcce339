package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/jackc/pgx/v5/pgxpool"
)

// AppendSummary is what one Append stored.
type AppendSummary struct {
	SourceID int64
	// First and Last are the ordinals the games got in the source (Last <
	// First when the text held no game).
	First, Last                    int
	Imported, Duplicates, Rejected int
}

// Append stores the games of text (PDN) at the end of the source whose
// identity is schema.AppendPrefix+key, creating it, named name, on first use: a
// source that grows, such as the games of an engine match as they end.
// The games get the ordinals after the source's last (sources.games_read)
// and go through the import's own replay and writer, so they are stored
// exactly as importing the same PDN would store them (games, position
// index, opening statistics at opts.OpeningDepth, players; a duplicate of
// a stored game goes to duplicates, a game replay refuses to
// rejected_games), in one transaction with the source's new resume point:
// after a crash the games of text are all stored or none is. The source is
// left "done", with the name given. It holds the import lock
// (schema.ImportLock) while it writes, as Import does. Only opts.Variant
// and opts.OpeningDepth are read.
func Append(ctx context.Context, pool *pgxpool.Pool, key, name string, text []byte, opts Options) (*AppendSummary, error) {
	if key == "" {
		return nil, errors.New("append: no source key")
	}
	depth := opts.OpeningDepth
	if depth <= 0 {
		depth = openings.DefaultDepth
	}
	if depth > openings.MaxDepth {
		return nil, fmt.Errorf("append: an opening depth of %d plies: at most %d", depth, openings.MaxDepth)
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	var sum *AppendSummary
	err = schema.WithLock(ctx, conn, schema.ImportLock, func() error {
		st := &sourceState{name: name}
		var read int
		src, ok, err := schema.FindAppendSource(ctx, conn, key)
		switch {
		case err != nil:
			return err
		case !ok:
			if st.id, err = schema.CreateAppendSource(ctx, conn, key, dbText(name), int16(depth)); err != nil {
				return err
			}
			st.openingDepth = depth
		default:
			st.id, read = src.ID, src.GamesRead
			st.openingDepth = depth
			if src.OpeningDepth != nil {
				st.openingDepth = int(*src.OpeningDepth) // the statistics of one source count one depth
			}
		}
		sum = &AppendSummary{SourceID: st.id, First: read + 1, Last: read}

		items, err := replayText(text, name, read, opts.Variant, preparer(st.openingDepth))
		if err != nil {
			return err
		}
		if len(items) > 0 {
			w := &writer{conn: conn.Conn(), players: map[string]int32{}}
			c, err := w.writeBatch(ctx, st, items)
			if err != nil {
				return err
			}
			sum.Last = items[len(items)-1].Ordinal
			sum.Imported, sum.Duplicates, sum.Rejected = c.imported, c.duplicates, c.rejected
		}
		return schema.FinishAppendSource(ctx, conn, st.id, dbText(name))
	})
	return sum, err
}

// replayText reads and replays every game of text, numbering them from
// after+1, as the import's workers do (one goroutine: an appended text is
// a few games).
func replayText(text []byte, name string, after int, v *rules.Variant, prepare func(*replay.Game) any) ([]Item, error) {
	rd := pdn.NewReader(bytes.NewReader(text), name)
	r := replay.NewReplayer(replay.Options{Variant: v})
	var scratch replay.Game
	var items []Item
	for {
		pg, err := rd.Next()
		if err == io.EOF {
			break
		}
		var se *pdn.SyntaxError
		if err != nil && !errors.As(err, &se) {
			return nil, fmt.Errorf("append: %s: game %d: %w", name, len(items)+1, err)
		}
		if pg == nil {
			continue
		}
		it := Item{Ordinal: after + pg.Ordinal, Offset: pg.Offset, Line: pg.Line, PDN: pg, ReadErr: err}
		if rerr := r.Replay(pg, err, &scratch); rerr != nil {
			it.Reject = rerr
		} else {
			it.Accepted, it.Plies, it.Warnings = true, scratch.Plies(), len(scratch.Warnings)
			it.Prepared = prepare(&scratch)
		}
		items = append(items, it)
	}
	return items, nil
}
