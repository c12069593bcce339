package schema

import (
	"context"
	_ "embed"
	"encoding/binary"
	"errors"

	"github.com/jackc/pgx/v5"
)

//go:embed patterns.sql
var patternsText string

var (
	patternsSQL            = storeSQL("patterns.sql", patternsText)
	sqlPatternRebuildSrcs  = patternsSQL.get("sources-to-rebuild")
	sqlPatternDeleteSource = patternsSQL.get("delete-source-rows")
	sqlPatternSourceGames  = patternsSQL.get("source-games")
	sqlPatternRowStarts    = patternsSQL.get("row-starts")
	sqlPatternUnindexed    = patternsSQL.get("unindexed")
	sqlPatternRows         = patternsSQL.get("rows")
	sqlPatternGameHeads    = patternsSQL.get("game-heads")
	patternColumns         = []string{"source_id", "variant", "first_game", "games", "entries"}
	patternTable           = pgx.Identifier{"pattern_index"}
)

// PatternRow is one row of pattern_index: games of one source and variant
// from FirstGame on, their records in Entries (codec.AppendPatternEntry).
type PatternRow struct {
	SourceID  int64
	Variant   int16
	FirstGame int64
	Games     int32
	Entries   []byte
}

// CopyPatternRows writes rows to pattern_index in tx, by COPY.
func CopyPatternRows(ctx context.Context, tx pgx.Tx, rows []PatternRow) error {
	src := make([][]any, len(rows))
	for i, r := range rows {
		src[i] = []any{r.SourceID, r.Variant, r.FirstGame, r.Games, r.Entries}
	}
	_, err := tx.CopyFrom(ctx, patternTable, patternColumns, pgx.CopyFromRows(src))
	return err
}

// PatternSource is a source to index again, with its stored games.
type PatternSource struct {
	ID    int64
	Games int
}

// PatternSourcesToRebuild returns the sources whose pattern_index rows do
// not hold all their games (imported, or begun, before migration 0015),
// or every source when all is set; sources without games are left out.
func PatternSourcesToRebuild(ctx context.Context, q Querier, all bool) ([]PatternSource, error) {
	rows, err := q.Query(ctx, sqlPatternRebuildSrcs, all)
	if err != nil {
		return nil, err
	}
	var out []PatternSource
	for rows.Next() {
		var s PatternSource
		if err := rows.Scan(&s.ID, &s.Games); err != nil {
			rows.Close()
			return nil, err
		}
		if s.Games > 0 {
			out = append(out, s)
		}
	}
	return out, rows.Err()
}

// DeletePatternRows deletes a source's pattern_index rows in tx.
func DeletePatternRows(ctx context.Context, tx pgx.Tx, sourceID int64) error {
	_, err := tx.Exec(ctx, sqlPatternDeleteSource, sourceID)
	return err
}

// StoredGame is a game as stored, for the rebuilds that replay it.
type StoredGame struct {
	ID       int64
	Variant  int16
	StartFEN string // "" for the variant's start position
	Moves    []byte // codec's compact moves
}

// ForEachSourceGame calls fn with each game of a source, by id, on q (a
// connection of its own: the rebuilds write on another meanwhile). fn's
// error stops the scan and is returned. g.Moves is fn's to keep.
func ForEachSourceGame(ctx context.Context, q Querier, sourceID int64, fn func(g *StoredGame) error) error {
	rows, err := q.Query(ctx, sqlPatternSourceGames, sourceID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var g StoredGame
		if err := rows.Scan(&g.ID, &g.Variant, &g.StartFEN, &g.Moves); err != nil {
			return err
		}
		if err := fn(&g); err != nil {
			return err
		}
	}
	return rows.Err()
}

// PatternRowStarts returns the first game of each pattern_index row of a
// variant, in order.
func PatternRowStarts(ctx context.Context, q Querier, variant int16) ([]int64, error) {
	rows, err := q.Query(ctx, sqlPatternRowStarts, variant)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// PatternUnindexed counts the games without pattern_index rows in the
// sources that hold games of a variant.
func PatternUnindexed(ctx context.Context, q Querier, variant int16) (n int64, err error) {
	err = q.QueryRow(ctx, sqlPatternUnindexed, variant).Scan(&n)
	return n, err
}

// ScanPatternRows calls fn with each pattern_index row of a variant whose
// first game is in [lo, hi), in order. It reads the rows' raw bytes, not
// copies: entries is valid only until fn returns. fn's error stops the
// scan and is returned.
func ScanPatternRows(ctx context.Context, q Querier, variant int16, lo, hi int64, fn func(first int64, entries []byte) error) error {
	rows, err := q.Query(ctx, sqlPatternRows, variant, lo, hi)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		// The scan reads every row of the index: decoding first_game (int8,
		// binary format) by hand and leaving entries in the read buffer
		// spares a copy per row.
		raw := rows.RawValues()
		if len(raw) != 2 || len(raw[0]) != 8 {
			return errors.New("pattern_index: unexpected row format")
		}
		if err := fn(int64(binary.BigEndian.Uint64(raw[0])), raw[1]); err != nil {
			return err
		}
	}
	return rows.Err()
}

// GameHead is what a listing shows of a game.
type GameHead struct {
	White, Black, Result, Date, Event string
}

// GameHeads returns the headers of the games ids, by id; the result is
// in the variant's notation (draughtsdb_result_text).
func GameHeads(ctx context.Context, q Querier, ids []int64) (map[int64]GameHead, error) {
	heads := make(map[int64]GameHead, len(ids))
	rows, err := q.Query(ctx, sqlPatternGameHeads, ids)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id int64
		var h GameHead
		if err := rows.Scan(&id, &h.White, &h.Black, &h.Result, &h.Date, &h.Event); err != nil {
			rows.Close()
			return nil, err
		}
		heads[id] = h
	}
	return heads, rows.Err()
}
