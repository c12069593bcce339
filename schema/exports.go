package schema

import (
	"context"
	_ "embed"
	"time"

	"github.com/jackc/pgx/v5"
)

//go:embed exports.sql
var exportsText string

var (
	exportsSQL             = storeSQL("exports.sql", exportsText)
	sqlExportGames         = exportFiltered(exportsSQL.get("games"))
	sqlExportCountGames    = exportFiltered(exportsSQL.get("count-games"))
	sqlExportCountPos      = exportFiltered(exportsSQL.get("count-positions"))
	sqlExportHasEvals      = exportsSQL.get("has-evaluations")
	sqlExportPickEvals     = exportsSQL.get("pick-evaluations")
	sqlExportAllEvals      = exportsSQL.get("all-evaluations")
	sqlExportCountEvals    = exportsSQL.get("count-evaluations")
	sqlExportEvals         = exportsSQL.get("evaluations")
	sqlExportCountRejected = exportsSQL.get("count-rejected")
	sqlExportRejected      = exportsSQL.get("rejected")
	sqlExportRejectedRaw   = exportsSQL.get("rejected-raw")
	sqlExportCreateDist    = exportsSQL.get("create-distinct")
	sqlExportDistinct      = exportsSQL.get("distinct-positions")
	exportDistinctTable    = pgx.Identifier{"export_positions"}
	exportDistinctColumns  = []string{"variant", "hash", "fen", "result", "ply"}
)

// ExportGame is a stored game as an export reads it.
type ExportGame struct {
	ID                 int64
	Variant            int16 // games.variant (codec.VariantByID)
	Basis, Source      string
	Ordinal            int32
	Event, Site, Round *string
	Date               string
	White, Black       *string
	Result             int16 // games.result (codec's Result* constants)
	Plies              int16
	StartFEN           *string // nil for the variant's start position
	Moves              []byte  // codec's compact moves
	FinalHash          int64
	MovesHash          int64
	Tags               *string // the other PDN tags, a JSON object
	Warnings           []string
	ResultProven       *int16 // nil for games imported before migration 0014
	Annotations        []byte // codec.AppendAnnotations; nil for none
}

// ForEachExportGame calls fn with each game f selects, in id order, on q.
// It streams: one row at a time is read, whatever the number of games, and
// the query stays open while fn runs. *g is reused from one call to the
// next: fn copies it to keep it (its strings, slices and pointers are
// fresh each row and may be kept). fn's error stops the scan and is
// returned.
func ForEachExportGame(ctx context.Context, q Querier, f *ExportFilter, fn func(g *ExportGame) error) error {
	sql, args := f.render(sqlExportGames)
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var g ExportGame
	for rows.Next() {
		g = ExportGame{}
		if err := rows.Scan(&g.ID, &g.Variant, &g.Basis, &g.Source, &g.Ordinal, &g.Event, &g.Site, &g.Date, &g.Round,
			&g.White, &g.Black, &g.Result, &g.Plies, &g.StartFEN, &g.Moves, &g.FinalHash, &g.MovesHash, &g.Tags, &g.Warnings,
			&g.ResultProven, &g.Annotations); err != nil {
			return err
		}
		if err := fn(&g); err != nil {
			return err
		}
	}
	return rows.Err()
}

// CountExportGames counts the games f selects.
func CountExportGames(ctx context.Context, q Querier, f *ExportFilter) (n int64, err error) {
	sql, args := f.render(sqlExportCountGames)
	err = q.QueryRow(ctx, sql, args...).Scan(&n)
	return n, err
}

// CountExportPositions counts the positions of the games f selects: the
// start of each and one after each ply.
func CountExportPositions(ctx context.Context, q Querier, f *ExportFilter) (n int64, err error) {
	sql, args := f.render(sqlExportCountPos)
	err = q.QueryRow(ctx, sql, args...).Scan(&n)
	return n, err
}

// ExportEvalFilter restricts the evaluations an export uses; nil: any.
type ExportEvalFilter struct {
	Variant         *int16 // only for ForEachExportEvaluation and its count
	Engine, Setting *string
}

// HasExportEvaluations reports whether some evaluation passes f's engine and
// setting.
func HasExportEvaluations(ctx context.Context, q Querier, f ExportEvalFilter) (ok bool, err error) {
	err = q.QueryRow(ctx, sqlExportHasEvals, f.Engine, f.Setting).Scan(&ok)
	return ok, err
}

// ExportPick is the evaluation chosen for a position: the deepest, then
// the latest (evaluated_at), then by engine and setting name, among those
// passing an ExportEvalFilter.
type ExportPick struct {
	Variant         int16
	Hash            int64
	Score, Depth    int64
	Mate            bool
	BestMove        *string // nil when there is no legal move
	Engine, Setting string
}

// PickExportEvaluations calls fn with the chosen evaluation (ExportPick) of each
// position of variants and hashes (pairwise) that has one passing f's
// engine and setting, one index probe per position. *e is reused as
// ForEachExportGame's g is. fn's error stops the scan and is returned.
func PickExportEvaluations(ctx context.Context, q Querier, variants []int16, hashes []int64, f ExportEvalFilter, fn func(e *ExportPick) error) error {
	rows, err := q.Query(ctx, sqlExportPickEvals, variants, hashes, f.Engine, f.Setting)
	if err != nil {
		return err
	}
	defer rows.Close()
	var e ExportPick
	for rows.Next() {
		e = ExportPick{}
		if err := rows.Scan(&e.Variant, &e.Hash, &e.Score, &e.Mate, &e.Depth, &e.BestMove, &e.Engine, &e.Setting); err != nil {
			return err
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ExportEval is one row of evaluations.
type ExportEval struct {
	Variant         int16
	Hash            int64
	Engine, Setting string
	Score           int32 // hundredths of a man, from the side to move's view
	Mate            bool
	Depth           int32
	BestMove        *string // Hub notation; nil when there is no legal move
	PV              string
	Nodes           int64
	TimeMS          int32
	EngineVersion   string
	EvaluatedAt     time.Time
}

// scanExportEval scans a row of the evaluations' columns in table order.
func scanExportEval(rows pgx.Rows, e *ExportEval) error {
	return rows.Scan(&e.Variant, &e.Hash, &e.Engine, &e.Setting, &e.Score, &e.Mate, &e.Depth, &e.BestMove, &e.PV,
		&e.Nodes, &e.TimeMS, &e.EngineVersion, &e.EvaluatedAt)
}

// AllExportEvaluations calls fn with every evaluation of each position of
// variants and hashes (pairwise) passing f's engine and setting, a
// position's by engine and setting. *e is reused as ForEachExportGame's g
// is. fn's error stops the scan and is returned.
func AllExportEvaluations(ctx context.Context, q Querier, variants []int16, hashes []int64, f ExportEvalFilter, fn func(e *ExportEval) error) error {
	rows, err := q.Query(ctx, sqlExportAllEvals, variants, hashes, f.Engine, f.Setting)
	if err != nil {
		return err
	}
	return eachExportEval(rows, fn)
}

func eachExportEval(rows pgx.Rows, fn func(e *ExportEval) error) error {
	defer rows.Close()
	var e ExportEval
	for rows.Next() {
		e = ExportEval{}
		if err := scanExportEval(rows, &e); err != nil {
			return err
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// CountExportEvaluations counts the evaluations f selects (variant,
// engine and setting).
func CountExportEvaluations(ctx context.Context, q Querier, f ExportEvalFilter) (n int64, err error) {
	err = q.QueryRow(ctx, sqlExportCountEvals, f.Variant, f.Engine, f.Setting).Scan(&n)
	return n, err
}

// ForEachExportEvaluation calls fn with each evaluation f selects, by
// variant, hash, engine and setting, streaming as ForEachExportGame does
// (and reusing *e as it reuses g). fn's error stops the scan and is
// returned.
func ForEachExportEvaluation(ctx context.Context, q Querier, f ExportEvalFilter, fn func(e *ExportEval) error) error {
	rows, err := q.Query(ctx, sqlExportEvals, f.Variant, f.Engine, f.Setting)
	if err != nil {
		return err
	}
	return eachExportEval(rows, fn)
}

// ExportRejected is one row of rejected_games, with its source's name.
type ExportRejected struct {
	ID         int64
	Source     string
	Ordinal    int32
	ByteOffset int64
	Line       int32
	Reason     string
	Ply        *int32 // the offending ply, when there is one
	Move, FEN  *string
	Message    string
	Raw        []byte // the game's bytes as read
}

// CountExportRejected counts the rejected games.
func CountExportRejected(ctx context.Context, q Querier) (n int64, err error) {
	err = q.QueryRow(ctx, sqlExportCountRejected).Scan(&n)
	return n, err
}

// ForEachExportRejected calls fn with each rejected game, by id, streaming as
// ForEachExportGame does (and reusing *r as it reuses g). fn's error
// stops the scan and is returned.
func ForEachExportRejected(ctx context.Context, q Querier, fn func(r *ExportRejected) error) error {
	rows, err := q.Query(ctx, sqlExportRejected)
	if err != nil {
		return err
	}
	defer rows.Close()
	var r ExportRejected
	for rows.Next() {
		r = ExportRejected{}
		if err := rows.Scan(&r.ID, &r.Source, &r.Ordinal, &r.ByteOffset, &r.Line, &r.Reason, &r.Ply, &r.Move, &r.FEN, &r.Message, &r.Raw); err != nil {
			return err
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ForEachExportRejectedRaw calls fn with each rejected game's bytes as read, by
// id. raw is the row's own buffer, not a copy (the games are written out
// as they come): it is valid only until fn returns. fn's error stops the
// scan and is returned.
func ForEachExportRejectedRaw(ctx context.Context, q Querier, fn func(raw []byte) error) error {
	rows, err := q.Query(ctx, sqlExportRejectedRaw)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows.RawValues()[0]); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ExportDistinctPosition is one position of one game, for ExportDistinct to
// aggregate.
type ExportDistinctPosition struct {
	Variant int16
	Hash    int64
	FEN     string
	// Result is the game's result from the side to move's view, doubled:
	// 2 win, 1 draw, 0 loss; nil when unknown.
	Result *int16
	Ply    int16
}

// ExportDistinct gathers positions of games in a temporary table of tx
// (which ends with tx) and aggregates them by (variant, position) in
// PostgreSQL, which spills to disk as needed: the caller's memory stays
// bounded by one batch whatever the number of positions.
type ExportDistinct struct {
	tx pgx.Tx
}

// NewExportDistinct creates the temporary table in tx. tx must not be
// read only, and one transaction holds one at a time.
func NewExportDistinct(ctx context.Context, tx pgx.Tx) (*ExportDistinct, error) {
	if _, err := tx.Exec(ctx, sqlExportCreateDist); err != nil {
		return nil, err
	}
	return &ExportDistinct{tx: tx}, nil
}

// Add writes n positions, the i-th being at(i), by COPY. A game should add
// a position once however often it reaches it: Aggregate counts rows.
func (d *ExportDistinct) Add(ctx context.Context, n int, at func(i int) ExportDistinctPosition) error {
	_, err := d.tx.CopyFrom(ctx, exportDistinctTable, exportDistinctColumns, pgx.CopyFromSlice(n, func(i int) ([]any, error) {
		p := at(i)
		return []any{p.Variant, p.Hash, p.FEN, p.Result, p.Ply}, nil
	}))
	return err
}

// ExportDistinctRow is one distinct position with the games that reached it.
type ExportDistinctRow struct {
	Variant                             int16
	Hash                                int64
	FEN                                 string // the least of the FENs added for it, byte-wise
	Games, Wins, Draws, Losses, Unknown int64
	MinPly                              int16
	// HasEval tells whether Eval, the evaluation chosen as PickExportEvaluations
	// chooses, was found.
	HasEval bool
	Eval    ExportPick
}

// Aggregate calls fn with each distinct position added, most played first,
// then by variant and hash, with its evaluation passing f's engine and
// setting; *r is reused as ForEachExportGame's g is. fn's error stops the
// scan and is returned.
func (d *ExportDistinct) Aggregate(ctx context.Context, f ExportEvalFilter, fn func(r *ExportDistinctRow) error) error {
	rows, err := d.tx.Query(ctx, sqlExportDistinct, f.Engine, f.Setting)
	if err != nil {
		return err
	}
	defer rows.Close()
	var r ExportDistinctRow
	for rows.Next() {
		var (
			score, depth          *int64
			mate                  *bool
			best, engine, setting *string
		)
		r = ExportDistinctRow{}
		if err := rows.Scan(&r.Variant, &r.Hash, &r.FEN, &r.Games, &r.Wins, &r.Draws, &r.Losses, &r.Unknown, &r.MinPly,
			&score, &mate, &depth, &best, &engine, &setting); err != nil {
			return err
		}
		if score != nil {
			r.HasEval = true
			r.Eval = ExportPick{Variant: r.Variant, Hash: r.Hash, Score: *score, Mate: *mate, Depth: *depth, BestMove: best, Engine: *engine, Setting: *setting}
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
	return rows.Err()
}
