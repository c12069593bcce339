package export

import (
	"context"
	"strconv"

	"github.com/draughtsdb/draughtsdb/schema"
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

// filter is --variant, --engine and --setting in the store's terms.
func (e evaluationsSource) filter(s *session) schema.ExportEvalFilter {
	f := s.evals
	if e.o.Filter.Variant != nil {
		id := codec.VariantID(e.o.Filter.Variant)
		f.Variant = &id
	}
	return f
}

func (e evaluationsSource) count(ctx context.Context, s *session) (int64, error) {
	return schema.CountExportEvaluations(ctx, s.main, e.filter(s))
}

func (e evaluationsSource) rows(ctx context.Context, s *session, emit func([]Value) error) error {
	row := make([]Value, len(evaluationColumns))
	return schema.ForEachExportEvaluation(ctx, s.main, e.filter(s), func(ev *schema.ExportEval) error {
		row[0] = str(variantName(ev.Variant))
		row[1] = str(hex64(uint64(ev.Hash)))
		row[2], row[3] = str(ev.Engine), str(ev.Setting)
		row[4], row[5], row[6] = num(int64(ev.Score)), boolean(ev.Mate), num(int64(ev.Depth))
		row[7], row[8] = optStr(ev.BestMove), str(ev.PV)
		row[9], row[10], row[11] = num(ev.Nodes), num(int64(ev.TimeMS)), str(ev.EngineVersion)
		row[12] = timestamp(ev.EvaluatedAt)
		return emit(row)
	})
}

// variantName is the name of a GameType number, or the number itself.
func variantName(gt int16) string {
	if v, err := codec.VariantByID(gt); err == nil {
		return v.Name
	}
	return strconv.Itoa(int(gt))
}
