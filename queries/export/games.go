package export

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// gamesSource: one row per stored game.
type gamesSource struct{ o *Options }

var gameColumns = []Column{
	{Name: "id", Kind: Int, Doc: "games.id"},
	{Name: "variant", Kind: String, Dict: true, Doc: variantList(nil, "or")},
	{Name: "event", Kind: String, Nullable: true, Dict: true, Doc: "Event tag"},
	{Name: "site", Kind: String, Nullable: true, Dict: true, Doc: "Site tag"},
	{Name: "date", Kind: String, Dict: true, Doc: "YYYY.MM.DD, ?? for unknown parts"},
	{Name: "round", Kind: String, Nullable: true, Dict: true, Doc: "Round tag"},
	{Name: "white", Kind: String, Nullable: true, Dict: true, Doc: "White player (cleaned; null when none)"},
	{Name: "black", Kind: String, Nullable: true, Dict: true, Doc: "Black player"},
	{Name: "result", Kind: String, Dict: true, Doc: "in the variant's form, the first mover's score first: 2-0 1-1 0-2 (international), 1-0 1/2-1/2 0-1 (others; in " +
		variantList(func(v *rules.Variant) bool { return v.FirstToMove == rules.Black }, "and") + " Black moves first: 1-0 is a Black win), 0-0 double forfeit, * unknown"},
	{Name: "white_score", Kind: Float, Nullable: true, Doc: "White's result: 1 win, 0.5 draw, 0 loss (also for 0-0); null when unknown"},
	{Name: "ply_count", Kind: Int, Doc: "moves played (plies)"},
	{Name: "moves", Kind: String, Doc: "the moves in the variant's notation with full capture paths, space separated: algebraic (c3-d4 f6:d4:b6) for " +
		variantList(func(v *rules.Variant) bool { return v.DefaultNotation == rules.Algebraic }, "and") + ", numeric (32-28 19-23 28x19) for the others"},
	{Name: "start_fen", Kind: String, Nullable: true, Doc: "the start position's FEN; null for the initial position"},
	{Name: "final_zobrist", Kind: String, Doc: "Zobrist hash of the final position, 16 hex digits"},
	{Name: "moves_hash", Kind: Int, Doc: "games.moves_hash: identifies variant, start and moves (equal for games with the same moves)"},
	{Name: "tags", Kind: String, Nullable: true, Doc: "the other PDN tags as a JSON object"},
	{Name: "warnings", Kind: String, Nullable: true, Doc: "replay remarks as a JSON array of strings"},
	{Name: "source", Kind: String, Dict: true, Doc: "name of the imported source (file, zip entry, -)"},
	{Name: "ordinal", Kind: Int, Doc: "1-based position of the game in its source"},
	{Name: "variant_basis", Kind: String, Dict: true, Doc: "how the variant was decided: forced, GameType, Variant tag, Italian tags, FEN, notation, replay, source, default"},
	{Name: "result_proven", Kind: String, Nullable: true, Dict: true, Doc: "the result the final position proves, in result's form (the side to move has no move the game allows and has lost), * where it proves none; null for games imported before draughtsdb kept it"},
	{Name: "annotations", Kind: String, Nullable: true, Doc: "what the author wrote besides the moves, as a JSON object: comments (before the first move) and plies, each with ply, strength, nags, comments and variations (verified, comments, moves); null when none"},
}

// variantList names the variants rules plays that keep passes (all for
// nil), in rules' order, joined by commas and conj, for the column docs
// ("russian, brazilian and czech"): a variant added to rules appears in
// them, and the README test asks for it in the README.
func variantList(keep func(*rules.Variant) bool, conj string) string {
	var names []string
	for _, v := range rules.Variants() {
		if keep == nil || keep(v) {
			names = append(names, v.Name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

func (gamesSource) columns() []Column { return gameColumns }

func (g gamesSource) count(ctx context.Context, s *session) (int64, error) {
	return schema.CountExportGames(ctx, s.main, g.o.Filter.store())
}

func (g gamesSource) rows(ctx context.Context, s *session, emit func([]Value) error) error {
	row := make([]Value, len(gameColumns))
	var buf []byte
	prepare := func(r *gameRec) {
		if decode(r) {
			decodeAnnotations(r)
		}
	}
	return streamGames(ctx, s, &g.o.Filter, g.o.Workers, prepare, nil, func(games []gameRec, _ any) error {
		for i := range games {
			r := &games[i]
			if r.err != nil {
				return undecodable(r)
			}
			buf = appendMovesText(buf[:0], r.v, r.Moves)
			row[0] = num(r.ID)
			row[1] = str(r.v.Name)
			row[2] = optStr(r.Event)
			row[3] = optStr(r.Site)
			row[4] = str(r.Date)
			row[5] = optStr(r.Round)
			row[6] = optStr(r.White)
			row[7] = optStr(r.Black)
			row[8] = str(codec.ResultOf(r.Result).Format(r.v))
			row[9] = sideResult(r.Result, rules.White)
			row[10] = num(int64(r.Plies))
			row[11] = str(string(buf))
			row[12] = optStr(r.StartFEN)
			row[13] = str(hex64(uint64(r.FinalHash)))
			row[14] = num(r.MovesHash)
			row[15] = optStr(r.Tags)
			row[16] = null()
			if len(r.Warnings) > 0 {
				b, _ := json.Marshal(r.Warnings)
				row[16] = str(string(b))
			}
			row[17] = str(r.Source)
			row[18] = num(int64(r.Ordinal))
			row[19] = str(r.Basis)
			row[20] = null()
			if r.ResultProven != nil {
				row[20] = str(codec.ResultOf(*r.ResultProven).Format(r.v))
			}
			row[21] = annotationsValue(r.ann)
			if err := emit(row); err != nil {
				return err
			}
		}
		return nil
	})
}

// sideResult is the game's result from side's view: 1 win, 0.5 draw, 0
// loss (a double forfeit is a loss for both), null when unknown.
func sideResult(result int16, side rules.Color) Value {
	switch result {
	case codec.ResultWhiteWins:
		if side == rules.White {
			return flt(1)
		}
		return flt(0)
	case codec.ResultBlackWins:
		if side == rules.Black {
			return flt(1)
		}
		return flt(0)
	case codec.ResultDraw:
		return flt(0.5)
	case codec.ResultDoubleForfeit:
		return flt(0)
	}
	return null()
}

// appendMovesText writes the compact moves of games.moves (see
// codec.AppendMoves) in v's notation with full capture paths, exactly as
// rules.FormatMove(v, m, v.DefaultNotation, true) writes each move, but
// without replaying the game: the bytes hold every landing square.
func appendMovesText(dst []byte, v *rules.Variant, moves []byte) []byte {
	alg := v.DefaultNotation == rules.Algebraic
	board := v.Board
	square := func(dst []byte, b byte) []byte {
		if alg {
			return append(dst, board.Algebraic(int(b&0x7f))...)
		}
		return strconv.AppendInt(dst, int64(b&0x7f), 10)
	}
	sep := byte('x')
	if alg {
		sep = ':'
	}
	for i := 0; i < len(moves); {
		if i > 0 {
			dst = append(dst, ' ')
		}
		capture := moves[i]&0x80 != 0
		dst = square(dst, moves[i])
		i++
		if !capture {
			if i < len(moves) {
				dst = append(dst, '-')
				dst = square(dst, moves[i])
				i++
			}
			continue
		}
		for i < len(moves) {
			b := moves[i]
			i++
			dst = append(dst, sep)
			dst = square(dst, b)
			if b&0x80 == 0 {
				break
			}
		}
	}
	return dst
}
