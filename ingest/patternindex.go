package ingest

import (
	"context"
	"errors"
	"fmt"

	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// patternBody is a game's record of pattern_index but for its id delta
// (codec.AppendPatternGame), built on the replay workers.
func patternBody(g *replay.Game) []byte {
	start := g.Start
	return codec.AppendPatternGame(make([]byte, 0, 3*len(g.Moves)+4), &start, g.StartFEN == "", g.Moves)
}

// patternIndexOff leaves pattern_index unwritten: for the benchmark that
// measures the import with and without it, never set otherwise.
var patternIndexOff = false

// writePatternRows stores the pattern_index rows of a batch's new games
// (news, with ids from ids[0] in order): one row per variant.
func writePatternRows(ctx context.Context, tx pgx.Tx, sourceID int64, ids []int64, news []*stored) error {
	if patternIndexOff || len(news) == 0 {
		return nil
	}
	type row struct {
		first, last int64
		games       int32
		entries     []byte
	}
	byVariant := map[int16]*row{}
	var order []int16
	for i, st := range news {
		r := byVariant[st.variant]
		if r == nil {
			r = &row{first: ids[i], last: ids[i]}
			byVariant[st.variant] = r
			order = append(order, st.variant)
		}
		r.entries = codec.AppendPatternEntry(r.entries, ids[i]-r.last, st.pattern)
		r.last = ids[i]
		r.games++
	}
	rows := make([]schema.PatternRow, 0, len(order))
	for _, v := range order {
		r := byVariant[v]
		rows = append(rows, schema.PatternRow{SourceID: sourceID, Variant: v, FirstGame: r.first, Games: r.games, Entries: r.entries})
	}
	if err := schema.CopyPatternRows(ctx, tx, rows); err != nil {
		return fmt.Errorf("copy pattern index: %w", err)
	}
	return nil
}

// PatternRebuildOptions control RebuildPatternIndex.
type PatternRebuildOptions struct {
	// All rebuilds every source; otherwise only the sources whose rows do
	// not hold all their games (imported, or begun, before migration
	// 0015).
	All bool
	// Progress, when set, is called after each batch with the games done
	// and the games to do.
	Progress func(done, total int)
}

// PatternRebuildSummary is what RebuildPatternIndex did.
type PatternRebuildSummary struct {
	Sources int `json:"sources"`
	Games   int `json:"games"`
	// Undecodable games (stored moves that no longer replay) are left out
	// of the index.
	Undecodable int `json:"undecodable"`
}

// patternBatch is the games per pattern_index row a rebuild writes, as
// many as an import batch holds by default.
const patternBatch = 5000

// RebuildPatternIndex writes the pattern_index rows of stored games from
// their compact moves: for sources imported before migration 0015, or all
// of them. Each source is rebuilt in one transaction holding the import
// lock (schema.ImportLock), so no import runs meanwhile.
func RebuildPatternIndex(ctx context.Context, pool *pgxpool.Pool, opts PatternRebuildOptions) (*PatternRebuildSummary, error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	var sum *PatternRebuildSummary
	err = schema.WithLock(ctx, conn, schema.ImportLock, func() error {
		srcs, err := schema.PatternSourcesToRebuild(ctx, conn, opts.All)
		if err != nil {
			return err
		}
		total := 0
		for _, s := range srcs {
			total += s.Games
		}
		reader, err := pool.Acquire(ctx)
		if err != nil {
			return err
		}
		defer reader.Release()
		sum = &PatternRebuildSummary{}
		for _, s := range srcs {
			n, bad, err := rebuildPatternSource(ctx, reader.Conn(), conn.Conn(), s.ID, func(n int) {
				if opts.Progress != nil {
					opts.Progress(sum.Games+n, total)
				}
			})
			if err != nil {
				return fmt.Errorf("pattern index of source %d: %w", s.ID, err)
			}
			sum.Sources++
			sum.Games += n
			sum.Undecodable += bad
		}
		return nil
	})
	return sum, err
}

// rebuildPatternSource replaces a source's pattern_index rows in one
// transaction on conn, reading its games on reader.
func rebuildPatternSource(ctx context.Context, reader, conn *pgx.Conn, sourceID int64, progress func(int)) (games, undecodable int, err error) {
	err = schema.WithTx(ctx, conn, func(tx pgx.Tx) error {
		if err := schema.DeletePatternRows(ctx, tx, sourceID); err != nil {
			return err
		}
		var (
			ids  []int64
			news []*stored
		)
		flush := func() error {
			err := writePatternRows(ctx, tx, sourceID, ids, news)
			ids, news = ids[:0], news[:0]
			return err
		}
		err := schema.ForEachSourceGame(ctx, reader, sourceID, func(sg *schema.StoredGame) error {
			v, err := codec.VariantByID(sg.Variant)
			if err != nil {
				return fmt.Errorf("game %d: %w", sg.ID, err)
			}
			g, err := codec.Decode(v, sg.StartFEN, sg.Moves)
			if err != nil {
				var bad *codec.DecodeError
				if errors.As(err, &bad) {
					undecodable++
					return nil
				}
				return fmt.Errorf("game %d: %w", sg.ID, err)
			}
			ids = append(ids, sg.ID)
			news = append(news, &stored{variant: sg.Variant, pattern: codec.AppendPatternGame(nil, g.Start(), sg.StartFEN == "", g.Moves)})
			if games++; len(ids) == patternBatch {
				if err := flush(); err != nil {
					return err
				}
				progress(games)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := flush(); err != nil {
			return err
		}
		progress(games)
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	return games, undecodable, nil
}
