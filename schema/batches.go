package schema

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

//go:embed batches.sql
var batchesText string

var (
	batchesSQL            = storeSQL("batches.sql", batchesText)
	sqlBatchPlayers       = batchesSQL.get("players")
	sqlDuplicateCands     = batchesSQL.get("duplicate-candidates")
	sqlNoGames            = batchesSQL.get("no-games")
	sqlReserveGameIDs     = batchesSQL.get("reserve-game-ids")
	sqlCopyGames          = batchesSQL.get("copy-games")
	sqlCopyPositionIndex  = batchesSQL.get("copy-position-index")
	sqlBatchEvaluations   = batchesSQL.get("evaluations")
	sqlBatchSourceTotals  = batchesSQL.get("source-totals")
	rejectedGamesTable    = pgx.Identifier{"rejected_games"}
	rejectedGamesColumns  = []string{"source_id", "ordinal", "byte_offset", "line", "raw", "reason", "ply", "move", "fen", "message"}
	duplicatesTable       = pgx.Identifier{"duplicates"}
	duplicatesColumns     = []string{"source_id", "ordinal", "byte_offset", "of_source_id", "of_ordinal"}
	positionIndexColumns  = copyColumns("copy-position-index", sqlCopyPositionIndex)
	gameCopyColumnsParsed = copyColumns("copy-games", sqlCopyGames)
)

// GameCopyColumns are the columns of CopyGames' stream, in order: ingest
// encodes the games rows itself (binary COPY, on its replay workers) in
// this order, and takes their number from here rather than from a count
// of its own that could drift from the statement.
func GameCopyColumns() []string { return append([]string(nil), gameCopyColumnsParsed...) }

// PositionIndexColumns are the columns of CopyPositionIndex's stream.
func PositionIndexColumns() []string { return append([]string(nil), positionIndexColumns...) }

// copyColumns returns the column list of the COPY statement stmt, named
// name; a statement without one panics (at package initialisation).
func copyColumns(name, stmt string) []string {
	var sql strings.Builder // stmt without its comments, which may hold parentheses
	for _, line := range strings.Split(stmt, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "--") {
			sql.WriteString(line + "\n")
		}
	}
	_, rest, ok := strings.Cut(sql.String(), "(")
	list, _, ok2 := strings.Cut(rest, ")")
	if !ok || !ok2 {
		panic("schema: batches.sql: " + name + " has no column list")
	}
	var cols []string
	for _, c := range strings.Split(list, ",") {
		cols = append(cols, strings.TrimSpace(c))
	}
	return cols
}

// BatchPlayers returns the ids of names (players of a batch), creating
// those that are not stored yet. A name given twice is one player.
func BatchPlayers(ctx context.Context, q Querier, names []string) (map[string]int32, error) {
	found := map[string]int32{}
	if len(names) == 0 {
		return found, nil
	}
	rows, err := q.Query(ctx, sqlBatchPlayers, names)
	if err != nil {
		return nil, fmt.Errorf("players: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int32
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, err
		}
		found[name] = id
	}
	return found, rows.Err()
}

// DuplicateCandidate is a stored game as duplicate detection compares it:
// its place, the key two games must share (variant, moves hash, players,
// date) and what must not differ (result, and Event, Site and Round where
// both games give them).
type DuplicateCandidate struct {
	SourceID           int64
	Ordinal            int32
	Variant            int16
	MovesHash          int64
	White, Black       int32 // 0: no player
	Date               string
	Result             int16
	Event, Site, Round string // "" for none
}

// ForEachDuplicateCandidate calls fn with each stored game whose moves
// hash is one of hashes; fn's candidate is reused by the next call.
func ForEachDuplicateCandidate(ctx context.Context, q Querier, hashes []int64, fn func(*DuplicateCandidate)) error {
	rows, err := q.Query(ctx, sqlDuplicateCands, hashes)
	if err != nil {
		return err
	}
	defer rows.Close()
	var g DuplicateCandidate
	for rows.Next() {
		if err := rows.Scan(&g.SourceID, &g.Ordinal, &g.Variant, &g.MovesHash, &g.White, &g.Black, &g.Date,
			&g.Result, &g.Event, &g.Site, &g.Round); err != nil {
			return err
		}
		fn(&g)
	}
	return rows.Err()
}

// NoGames reports whether the database holds no game at all.
func NoGames(ctx context.Context, q RowQuerier) (bool, error) {
	var empty bool
	err := q.QueryRow(ctx, sqlNoGames).Scan(&empty)
	return empty, err
}

// ReserveGameIDs draws n (> 0) consecutive game ids and returns the first.
// The block is consecutive only while no other session draws ids: the
// caller holds ImportLock.
func ReserveGameIDs(ctx context.Context, q RowQuerier, n int) (first int64, err error) {
	var last int64
	if err := q.QueryRow(ctx, sqlReserveGameIDs, n).Scan(&last); err != nil {
		return 0, err
	}
	return last - int64(n) + 1, nil
}

// CopyGames copies into games, in tx, the rows r streams: PostgreSQL's
// binary COPY format, header and trailer included, with the columns
// GameCopyColumns. r is read as the connection sends, so the rows can be
// encoded while PostgreSQL takes the first ones.
func CopyGames(ctx context.Context, tx pgx.Tx, r io.Reader) error {
	_, err := tx.Conn().PgConn().CopyFrom(ctx, r, sqlCopyGames)
	return err
}

// CopyPositionIndex copies into position_index, in tx, the rows r streams
// (binary COPY format, PositionIndexColumns).
func CopyPositionIndex(ctx context.Context, tx pgx.Tx, r io.Reader) error {
	_, err := tx.Conn().PgConn().CopyFrom(ctx, r, sqlCopyPositionIndex)
	return err
}

// RejectedGame is a row of rejected_games: a game that replay refused,
// kept byte for byte with why.
type RejectedGame struct {
	SourceID  int64
	Ordinal   int32
	Offset    int64 // of its first byte in the source's text
	Line      int32
	Raw       []byte // never nil: the column is NOT NULL
	Reason    string
	Ply       *int32 // the move refused; nil when not a move's fault
	Move, FEN *string
	Message   string
}

// CopyRejectedGames writes rows to rejected_games in tx, by COPY.
func CopyRejectedGames(ctx context.Context, tx pgx.Tx, rows []RejectedGame) error {
	_, err := tx.CopyFrom(ctx, rejectedGamesTable, rejectedGamesColumns, pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
		r := &rows[i]
		return []any{r.SourceID, r.Ordinal, r.Offset, r.Line, r.Raw, r.Reason, r.Ply, r.Move, r.FEN, r.Message}, nil
	}))
	return err
}

// Duplicate is a row of duplicates: a game read and not stored, because it
// is the game (OfSourceID, OfOrdinal).
type Duplicate struct {
	SourceID   int64
	Ordinal    int32
	Offset     int64
	OfSourceID int64
	OfOrdinal  int32
}

// CopyDuplicates writes rows to duplicates in tx, by COPY.
func CopyDuplicates(ctx context.Context, tx pgx.Tx, rows []Duplicate) error {
	_, err := tx.CopyFrom(ctx, duplicatesTable, duplicatesColumns, pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
		r := &rows[i]
		return []any{r.SourceID, r.Ordinal, r.Offset, r.OfSourceID, r.OfOrdinal}, nil
	}))
	return err
}

// EvaluationRows are rows of evaluations by column, as one statement
// inserts them: append one row with Add.
type EvaluationRows struct {
	variants                []int16
	hashes, nodes           []int64
	engines, settings       []string
	scores, depths, timesMS []int32
	mates                   []bool
	bestMoves               []*string
	pvs, versions           []string
	evaluatedAt             []*time.Time
}

// EvaluationRow is one row of evaluations.
type EvaluationRow struct {
	Variant       int16
	Hash          int64
	Engine        string
	Setting       string
	Score         int32
	Mate          bool
	Depth         int32
	BestMove      *string
	PV            string
	Nodes         int64
	TimeMS        int32
	EngineVersion string
	EvaluatedAt   time.Time // zero: when it is stored
}

// Add appends r.
func (e *EvaluationRows) Add(r *EvaluationRow) {
	e.variants, e.hashes = append(e.variants, r.Variant), append(e.hashes, r.Hash)
	e.engines, e.settings = append(e.engines, r.Engine), append(e.settings, r.Setting)
	e.scores, e.mates, e.depths = append(e.scores, r.Score), append(e.mates, r.Mate), append(e.depths, r.Depth)
	e.bestMoves, e.pvs = append(e.bestMoves, r.BestMove), append(e.pvs, r.PV)
	e.nodes, e.timesMS, e.versions = append(e.nodes, r.Nodes), append(e.timesMS, r.TimeMS), append(e.versions, r.EngineVersion)
	var at *time.Time
	if !r.EvaluatedAt.IsZero() {
		t := r.EvaluatedAt
		at = &t
	}
	e.evaluatedAt = append(e.evaluatedAt, at)
}

// Len is the number of rows added.
func (e *EvaluationRows) Len() int { return len(e.variants) }

// InsertEvaluations stores rows in evaluations; a row whose key (variant,
// hash, engine, setting) is stored already is left out, and the stored
// one kept.
func InsertEvaluations(ctx context.Context, q Execer, rows *EvaluationRows) error {
	if rows.Len() == 0 {
		return nil
	}
	_, err := q.Exec(ctx, sqlBatchEvaluations, rows.variants, rows.hashes, rows.engines, rows.settings,
		rows.scores, rows.mates, rows.depths, rows.bestMoves, rows.pvs, rows.nodes, rows.timesMS, rows.versions, rows.evaluatedAt)
	return err
}

// AddBatchTotals records a batch in its source, in the batch's
// transaction: the ordinal of the last game read (where a resumed import
// goes on) and the games it stored, found duplicate and rejected.
func AddBatchTotals(ctx context.Context, q Execer, sourceID int64, gamesRead, imported, duplicates, rejected int) error {
	_, err := q.Exec(ctx, sqlBatchSourceTotals, sourceID, gamesRead, imported, duplicates, rejected)
	return err
}
