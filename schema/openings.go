package schema

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"sort"
	"strings"

	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5"
)

//go:embed openings.sql
var openingsText string

var (
	openingsSQL              = storeSQL("openings.sql", openingsText)
	sqlOpeningCoverage       = openingsSQL.get("coverage")
	sqlOpeningFilteredGames  = openingsSQL.get("filtered-games")
	sqlOpeningFirstMoves     = openingsSQL.get("first-moves")
	sqlOpeningSourcesToCount = openingsSQL.get("sources-to-count")
	sqlOpeningDeleteSource   = openingsSQL.get("delete-source-rows")
	sqlOpeningSourceGames    = openingsSQL.get("source-games")
	sqlOpeningTree           = openingsSQL.get("tree")
	sqlOpeningNames          = openingsSQL.get("names")
	sqlOpeningMeanEvals      = openingsSQL.get("mean-evaluations")
	openingColumns           = []string{"source_id", "variant", "bucket", "entries"}
	openingTable             = pgx.Identifier{"opening_index"}
)

// openingQuerier is what the readers of the statistics need: *pgx.Conn,
// *pgxpool.Pool and pgx.Tx all are.
type openingQuerier = interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// OpeningCoverage reads how far the statistics of a variant reach: the
// fewest plies any counted source holding games of it was counted to
// (nil when none is), and how many sources holding games of it have no
// statistics (imported before draughtsdb kept them, or marked for a
// recount). startHash is the hash of the variant's initial position: a
// counted source holds games of the variant when its statistics hold it.
func OpeningCoverage(ctx context.Context, q RowQuerier, variant int16, startHash uint64) (depth *int16, uncounted int, err error) {
	err = q.QueryRow(ctx, sqlOpeningCoverage, variant, codec.PositionBucket(startHash)).Scan(&depth, &uncounted)
	return depth, uncounted, err
}

// ForEachGameAt calls fn with each game of a variant and of the sources a
// selection names (draughtsdb_source_ids) that may reach the position of
// hash (the position index keeps 44 bits of it: fn checks the rest), and
// whose players are both rated at least minRating. startFEN is nil for
// the variant's start position. fn's error stops the scan and is
// returned.
func ForEachGameAt(ctx context.Context, q openingQuerier, hash int64, variant int16, sources string, minRating int32, fn func(startFEN *string, moves []byte, result int16) error) error {
	rows, err := q.Query(ctx, sqlOpeningFilteredGames, hash, variant, sources, minRating)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var startFEN *string
		var moves []byte
		var result int16
		if err := rows.Scan(&startFEN, &moves, &result); err != nil {
			return err
		}
		if err := fn(startFEN, moves, result); err != nil {
			return err
		}
	}
	return rows.Err()
}

// FirstMoveCount is how the games of a variant that open with one move
// went; From and To are the move's squares, as the compact moves store
// them.
type FirstMoveCount struct {
	Variant                                        int16
	From, To                                       int
	Games, WhiteWins, Draws, BlackWins, Unfinished int
}

// MostPlayedFirstMoves returns, per variant, the most played first move
// of the games from the variant's initial position in the sources, by
// variant.
func MostPlayedFirstMoves(ctx context.Context, q openingQuerier, sourceIDs []int64) ([]FirstMoveCount, error) {
	rows, err := q.Query(ctx, sqlOpeningFirstMoves, sourceIDs)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []FirstMoveCount
	for rows.Next() {
		var f FirstMoveCount
		var variant int
		if err := rows.Scan(&variant, &f.From, &f.To, &f.Games, &f.WhiteWins, &f.Draws, &f.BlackWins, &f.Unfinished); err != nil {
			return nil, err
		}
		f.Variant = int16(variant)
		out = append(out, f)
	}
	return out, rows.Err()
}

// OpeningSource is a source whose statistics are to be counted again,
// with its stored games.
type OpeningSource struct {
	ID    int64
	Games int
}

// OpeningSourcesToCount returns the sources without statistics at depth,
// or every source when all is set, by id.
func OpeningSourcesToCount(ctx context.Context, q openingQuerier, all bool, depth int16) ([]OpeningSource, error) {
	rows, err := q.Query(ctx, sqlOpeningSourcesToCount, all, depth)
	if err != nil {
		return nil, err
	}
	var out []OpeningSource
	for rows.Next() {
		var s OpeningSource
		if err := rows.Scan(&s.ID, &s.Games); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// DeleteOpeningRows deletes a source's statistics in tx.
func DeleteOpeningRows(ctx context.Context, tx Execer, sourceID int64) error {
	_, err := tx.Exec(ctx, sqlOpeningDeleteSource, sourceID)
	return err
}

// ForEachSourceGameResult calls fn with each game of a source, by id,
// with its result (games.result), on q (a connection of its own: the
// count writes on another meanwhile). fn's error stops the scan and is
// returned. g.Moves is fn's to keep; g.ID is not read.
func ForEachSourceGameResult(ctx context.Context, q openingQuerier, sourceID int64, fn func(g *StoredGame, result int16) error) error {
	rows, err := q.Query(ctx, sqlOpeningSourceGames, sourceID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var g StoredGame
		var result int16
		if err := rows.Scan(&g.Variant, &g.StartFEN, &g.Moves, &result); err != nil {
			return err
		}
		if err := fn(&g, result); err != nil {
			return err
		}
	}
	return rows.Err()
}

// OpeningRow is one row of opening_index: the entries of one variant and
// bucket of a batch of a source's games (codec.AppendOpeningEntries).
type OpeningRow struct {
	SourceID int64
	Variant  int16
	Bucket   int16
	Entries  []byte
}

// CopyOpeningRows writes rows to opening_index in tx, by COPY.
func CopyOpeningRows(ctx context.Context, tx pgx.Tx, rows []OpeningRow) error {
	src := make([][]any, len(rows))
	for i, r := range rows {
		src[i] = []any{r.SourceID, r.Variant, r.Bucket, r.Entries}
	}
	_, err := tx.CopyFrom(ctx, openingTable, openingColumns, pgx.CopyFromRows(src))
	return err
}

// OpeningMove is one move played at a position of an opening tree, by
// its code (codec.MoveCode), with its games by result.
type OpeningMove struct {
	Position                                       int // the index of the position in OpeningTree's hashes
	Code                                           int32
	Games, WhiteWins, Draws, BlackWins, Unfinished int64
}

// OpeningTree returns the moves played at each position of hashes (of
// one variant) in the games of the sources a selection names
// (draughtsdb_source_ids; a selection naming no source is the database's
// error), from the statistics (draughtsdb_opening_tree), in one query.
func OpeningTree(ctx context.Context, q openingQuerier, variant int16, hashes []int64, sources string) ([]OpeningMove, error) {
	rows, err := q.Query(ctx, sqlOpeningTree, variant, hashes, sources)
	if err != nil {
		return nil, err
	}
	var out []OpeningMove
	for rows.Next() {
		var m OpeningMove
		var i int64
		if err := rows.Scan(&i, &m.Code, &m.Games, &m.WhiteWins, &m.Draws, &m.BlackWins, &m.Unfinished); err != nil {
			rows.Close()
			return nil, err
		}
		m.Position = int(i - 1) // the ordinality counts from 1
		out = append(out, m)
	}
	return out, rows.Err()
}

// OpeningNames returns the names of the positions of hashes (of one
// variant) that have one, by hash; a position with several names (in
// several lists) gets them joined with " / ", by list and name.
func OpeningNames(ctx context.Context, q openingQuerier, variant int16, hashes []int64) (map[int64]string, error) {
	rows, err := q.Query(ctx, sqlOpeningNames, variant, hashes)
	if err != nil {
		return nil, err
	}
	names := map[int64]string{}
	for rows.Next() {
		var h int64
		var name string
		if err := rows.Scan(&h, &name); err != nil {
			rows.Close()
			return nil, err
		}
		names[h] = name
	}
	return names, rows.Err()
}

// MeanEvaluation is the mean score of a position's stored evaluations
// (hundredths of a man, the side to move's view) over Count of them.
type MeanEvaluation struct {
	Mean  float64
	Count int
}

// MeanEvaluations returns the mean evaluation of each position of hashes
// (of one variant) that has one, over every engine and setting, by hash.
func MeanEvaluations(ctx context.Context, q openingQuerier, variant int16, hashes []int64) (map[int64]MeanEvaluation, error) {
	rows, err := q.Query(ctx, sqlOpeningMeanEvals, variant, hashes)
	if err != nil {
		return nil, err
	}
	evals := map[int64]MeanEvaluation{}
	for rows.Next() {
		var h int64
		var e MeanEvaluation
		if err := rows.Scan(&h, &e.Mean, &e.Count); err != nil {
			rows.Close()
			return nil, err
		}
		evals[h] = e
	}
	return evals, rows.Err()
}

// OpeningName is one row of opening_names: a named opening (a ballot) by
// the hash of the position it stands for, and the list it comes from.
type OpeningName struct {
	Variant int16
	Hash    uint64
	Name    string
	List    string
}

// openingNamesInsertInto begins the INSERT of the named positions; the
// migrations that load them end with it and its rows.
const openingNamesInsertInto = "INSERT INTO opening_names"

// OpeningNamesInsert returns the INSERT of every named position, in a
// fixed order (variant, list, name, hash), as the migrations that load
// opening_names end with it (migration 0005 byte for byte).
func OpeningNamesInsert(named []OpeningName) []byte {
	named = append([]OpeningName(nil), named...)
	sort.Slice(named, func(i, j int) bool {
		a, b := named[i], named[j]
		if a.Variant != b.Variant {
			return a.Variant < b.Variant
		}
		if a.List != b.List {
			return a.List < b.List
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Hash < b.Hash
	})
	var buf bytes.Buffer
	buf.WriteString(openingNamesInsertInto + " (variant, hash, name, list) VALUES\n")
	for i, n := range named {
		sep := ","
		if i == len(named)-1 {
			sep = "\nON CONFLICT DO NOTHING;"
		}
		fmt.Fprintf(&buf, "(%d, %d, '%s', '%s')%s\n", n.Variant, int64(n.Hash),
			strings.ReplaceAll(n.Name, "'", "''"), n.List, sep)
	}
	return buf.Bytes()
}

// OpeningNamesLoaded reports whether the migration's SQL loads exactly
// insert (OpeningNamesInsert): it ends with it, from its INSERT on.
func OpeningNamesLoaded(migration, insert []byte) bool {
	i := bytes.Index(migration, []byte(openingNamesInsertInto))
	return i >= 0 && bytes.Equal(migration[i:], insert)
}

// OpeningNamesMigration returns the SQL of migration version that
// replaces the named positions whole with insert (OpeningNamesInsert): a
// change to the ballot lists, or to the Zobrist keys, is a new migration,
// since databases never see an edit of one they applied.
func OpeningNamesMigration(version int, insert []byte) []byte {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, `-- Code generated by go generate ./analysis/openings from analysis/openings/testdata/ballots; DO NOT EDIT.
-- %04d: the named openings (ballots) again, replacing what earlier
-- *_opening_names migrations loaded: the ballot lists or the Zobrist keys
-- changed. TestBallotMigrationUpToDate checks it is the newest load.
DELETE FROM opening_names;
`, version)
	buf.Write(insert)
	return buf.Bytes()
}
