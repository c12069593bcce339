package export

import (
	"context"
	"io"
	"unicode/utf8"

	"github.com/draughtsdb/draughtsdb/schema"
)

// rejectedSource: table rejected_games, one row per rejected game.
type rejectedSource struct{ o *Options }

var rejectedColumns = []Column{
	{Name: "id", Kind: Int, Doc: "rejected_games.id"},
	{Name: "source", Kind: String, Dict: true, Doc: "name of the imported source"},
	{Name: "ordinal", Kind: Int, Doc: "1-based position of the game in its source"},
	{Name: "byte_offset", Kind: Int, Doc: "offset of the game's first line in the source"},
	{Name: "line", Kind: Int, Doc: "line of the game's first line in the source"},
	{Name: "reason", Kind: String, Dict: true, Doc: "illegal move, ambiguous move, invalid FEN, syntax error, ..."},
	{Name: "ply", Kind: Int, Nullable: true, Doc: "the offending ply, when there is one"},
	{Name: "move", Kind: String, Nullable: true, Doc: "the move as written"},
	{Name: "fen", Kind: String, Nullable: true, Doc: "the position before it"},
	{Name: "message", Kind: String, Doc: "the full explanation"},
	{Name: "raw", Kind: String, Doc: "the game's text as read (bytes that are not UTF-8 are read as Windows-1252); --format pdn writes the exact bytes"},
}

func (rejectedSource) columns() []Column { return rejectedColumns }

func (rejectedSource) count(ctx context.Context, s *session) (int64, error) {
	return schema.CountExportRejected(ctx, s.main)
}

func (rejectedSource) rows(ctx context.Context, s *session, emit func([]Value) error) error {
	row := make([]Value, len(rejectedColumns))
	return schema.ForEachExportRejected(ctx, s.main, func(r *schema.ExportRejected) error {
		row[0], row[1], row[2], row[3], row[4], row[5] = num(r.ID), str(r.Source), num(int64(r.Ordinal)), num(r.ByteOffset), num(int64(r.Line)), str(r.Reason)
		if r.Ply != nil {
			row[6] = num(int64(*r.Ply))
		} else {
			row[6] = null()
		}
		row[7], row[8], row[9] = optStr(r.Move), optStr(r.FEN), str(r.Message)
		row[10] = str(rawText(r.Raw))
		return emit(row)
	})
}

// writePDN writes every rejected game's bytes exactly as read, each
// followed by a blank line (as validate --rejects does).
func (rejectedSource) writePDN(ctx context.Context, s *session, w io.Writer, progress func()) error {
	return schema.ForEachExportRejectedRaw(ctx, s.main, func(raw []byte) error {
		if _, err := w.Write(raw); err != nil {
			return err
		}
		sep := "\n"
		if len(raw) == 0 || raw[len(raw)-1] != '\n' {
			sep = "\n\n"
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		progress()
		return nil
	})
}

// cp1252 maps the bytes 0x80-0x9F of Windows-1252 (0 where undefined: kept
// as the Latin-1 control character).
var cp1252 = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}

// rawText returns raw as text: as is when it is UTF-8, else decoded as
// Windows-1252, as the PDN reader decodes such games.
func rawText(raw []byte) string {
	if utf8.Valid(raw) {
		return string(raw)
	}
	out := make([]rune, 0, len(raw))
	for _, b := range raw {
		switch {
		case b >= 0x80 && b < 0xA0 && cp1252[b-0x80] != 0:
			out = append(out, cp1252[b-0x80])
		default:
			out = append(out, rune(b))
		}
	}
	return string(out)
}
