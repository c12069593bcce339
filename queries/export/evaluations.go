package export

import (
	"context"
	"strconv"
	"time"

	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// evaluationsSource: table evaluations, one row per (position, engine,
// setting), filtered by --variant, --engine and --setting.
type evaluationsSource struct{ o *Options }

var evaluationColumns = []Column{
	{Name: "variant", Kind: String, Dict: true, Doc: "variant name"},
	{Name: "zobrist", Kind: String, Doc: "the position's Zobrist hash, 16 hex digits (as positions.zobrist)"},
	{Name: "engine", Kind: String, Dict: true, Doc: "engine name"},
	{Name: "setting", Kind: String, Dict: true, Doc: "engine setting (depth=8, movetime=500)"},
	{Name: "score", Kind: Int, Doc: "hundredths of a man, from the side to move's view"},
	{Name: "mate", Kind: Bool, Doc: "a forced win or loss"},
	{Name: "depth", Kind: Int, Doc: "depth of the last completed iteration"},
	{Name: "best_move", Kind: String, Nullable: true, Doc: "best move, Hub notation; null when there is no legal move"},
	{Name: "pv", Kind: String, Doc: "principal variation, Hub notation, space separated"},
	{Name: "nodes", Kind: Int, Doc: "nodes searched"},
	{Name: "time_ms", Kind: Int, Doc: "search time in milliseconds"},
	{Name: "engine_version", Kind: String, Dict: true, Doc: "engine version"},
	{Name: "evaluated_at", Kind: Time, Doc: "when it was stored (UTC, microseconds)"},
}

func (evaluationsSource) columns() []Column { return evaluationColumns }

func (e evaluationsSource) where(s *session) (string, []any) {
	var v *int16
	if e.o.Filter.Variant != nil {
		id := codec.VariantID(e.o.Filter.Variant)
		v = &id
	}
	return ` WHERE ($1::smallint IS NULL OR variant = $1) AND ($2::text IS NULL OR engine = $2) AND ($3::text IS NULL OR setting = $3)`,
		[]any{v, s.engine, s.setting}
}

func (e evaluationsSource) count(ctx context.Context, s *session) (int64, error) {
	where, args := e.where(s)
	var n int64
	err := s.main.QueryRow(ctx, "SELECT count(*) FROM evaluations"+where, args...).Scan(&n)
	return n, err
}

func (e evaluationsSource) rows(ctx context.Context, s *session, emit func([]Value) error) error {
	where, args := e.where(s)
	rows, err := s.main.Query(ctx, `SELECT variant, hash, engine, setting, score, mate, depth, best_move, pv, nodes, time_ms, engine_version, evaluated_at
		FROM evaluations`+where+` ORDER BY variant, hash, engine, setting`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	row := make([]Value, len(evaluationColumns))
	for rows.Next() {
		var (
			variant                      int16
			hash, nodes                  int64
			engine, setting, pv, version string
			score, depth, timeMS         int32
			mate                         bool
			best                         *string
			at                           time.Time
		)
		if err := rows.Scan(&variant, &hash, &engine, &setting, &score, &mate, &depth, &best, &pv, &nodes, &timeMS, &version, &at); err != nil {
			return err
		}
		row[0] = str(variantName(variant))
		row[1] = str(hex64(uint64(hash)))
		row[2], row[3] = str(engine), str(setting)
		row[4], row[5], row[6] = num(int64(score)), boolean(mate), num(int64(depth))
		row[7], row[8] = optStr(best), str(pv)
		row[9], row[10], row[11] = num(nodes), num(int64(timeMS)), str(version)
		row[12] = timestamp(at)
		if err := emit(row); err != nil {
			return err
		}
	}
	return rows.Err()
}

// variantName is the name of a GameType number, or the number itself.
func variantName(gt int16) string {
	if v, err := codec.VariantByID(gt); err == nil {
		return v.Name
	}
	return strconv.Itoa(int(gt))
}
