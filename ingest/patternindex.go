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

var patternColumns = []string{"source_id", "variant", "first_game", "games", "entries"}

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
	rows := make([][]any, 0, len(order))
	for _, v := range order {
		r := byVariant[v]
		rows = append(rows, []any{sourceID, v, r.first, r.games, r.entries})
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"pattern_index"}, patternColumns, pgx.CopyFromRows(rows)); err != nil {
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
	unlock, err := schema.Lock(ctx, conn, schema.ImportLock)
	if err != nil {
		return nil, err
	}
	defer unlock()
	type src struct {
		id    int64
		games int
	}
	var srcs []src
	total := 0
	rows, err := conn.Query(ctx, `SELECT s.id, (SELECT count(*) FROM games g WHERE g.source_id = s.id)::int AS n
		FROM sources s WHERE $1 OR s.games_imported <> coalesce((SELECT sum(p.games) FROM pattern_index p WHERE p.source_id = s.id), 0)
		ORDER BY s.id`, opts.All)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var s src
		if err := rows.Scan(&s.id, &s.games); err != nil {
			rows.Close()
			return nil, err
		}
		if s.games > 0 {
			srcs = append(srcs, s)
			total += s.games
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	reader, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer reader.Release()
	sum := &PatternRebuildSummary{}
	for _, s := range srcs {
		n, bad, err := rebuildPatternSource(ctx, reader.Conn(), conn.Conn(), s.id, func(n int) {
			if opts.Progress != nil {
				opts.Progress(sum.Games+n, total)
			}
		})
		if err != nil {
			return sum, fmt.Errorf("pattern index of source %d: %w", s.id, err)
		}
		sum.Sources++
		sum.Games += n
		sum.Undecodable += bad
	}
	return sum, nil
}

func rebuildPatternSource(ctx context.Context, reader, conn *pgx.Conn, sourceID int64, progress func(int)) (games, undecodable int, err error) {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck
	if _, err := tx.Exec(ctx, `DELETE FROM pattern_index WHERE source_id = $1`, sourceID); err != nil {
		return 0, 0, err
	}
	rows, err := reader.Query(ctx, `SELECT id, variant, coalesce(start_fen, ''), moves FROM games WHERE source_id = $1 ORDER BY id`, sourceID)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	var (
		ids  []int64
		news []*stored
	)
	flush := func() error {
		err := writePatternRows(ctx, tx, sourceID, ids, news)
		ids, news = ids[:0], news[:0]
		return err
	}
	for rows.Next() {
		var (
			id    int64
			gt    int16
			fen   string
			moves []byte
		)
		if err := rows.Scan(&id, &gt, &fen, &moves); err != nil {
			return 0, 0, err
		}
		v, err := codec.VariantByID(gt)
		if err != nil {
			return 0, 0, fmt.Errorf("game %d: %w", id, err)
		}
		g, err := codec.Decode(v, fen, moves)
		if err != nil {
			var bad *codec.DecodeError
			if errors.As(err, &bad) {
				undecodable++
				continue
			}
			return 0, 0, fmt.Errorf("game %d: %w", id, err)
		}
		ids = append(ids, id)
		news = append(news, &stored{variant: gt, pattern: codec.AppendPatternGame(nil, g.Start(), fen == "", g.Moves)})
		if games++; len(ids) == patternBatch {
			if err := flush(); err != nil {
				return 0, 0, err
			}
			progress(games)
		}
	}
	if err := rows.Err(); err != nil {
		return 0, 0, err
	}
	if err := flush(); err != nil {
		return 0, 0, err
	}
	progress(games)
	return games, undecodable, tx.Commit(ctx)
}
