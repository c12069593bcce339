package schema

import (
	"reflect"
	"strings"
	"testing"
)

// TestExportFilterRenders: the WHERE clause an ExportFilter renders, and
// its arguments, are exactly these, which the export's results and plans
// were checked with: each field's condition only when it is set,
// parameters numbered in order, a pattern list used twice (players: White
// or Black) one parameter, the sources always selected.
func TestExportFilterRenders(t *testing.T) {
	t.Parallel()
	intl, russian := int16(20), int16(25)
	for _, c := range []struct {
		f    ExportFilter
		sql  string
		args []any
	}{
		{ExportFilter{}, "WHERE g.source_id = ANY ((SELECT draughtsdb_source_ids($1::text))::bigint[])", []any{"archive"}},
		{
			ExportFilter{Variant: &intl, Events: []string{"a%", "b"}, Players: []string{"x"}, From: "1990", To: "2005.06", MinPly: 20, MinRating: 2000, Sources: "all",
				Positions: []ExportPosition{{Variant: intl, Hash: -1 << 63}, {Variant: russian, Hash: 5}}},
			"WHERE g.variant = $1::smallint AND g.event ILIKE ANY($2::text[]) AND (w.name ILIKE ANY($3::text[]) OR b.name ILIKE ANY($3::text[])) AND g.date NOT LIKE '????%' AND left(g.date, 4) >= $4::text AND left(g.date, 7) <= $5::text AND g.ply_count >= $6::int AND g.white_rating >= $7::int AND g.black_rating >= $7::int AND g.source_id = ANY ((SELECT draughtsdb_source_ids($8::text))::bigint[]) AND (g.variant, g.id) IN (SELECT p.v, draughtsdb_games_at(p.h) FROM unnest($9::smallint[], $10::bigint[]) AS p(v, h))",
			[]any{int16(20), []string{"a%", "b"}, []string{"x"}, "1990", "2005.06", int32(20), int32(2000), "all", []int16{20, 25}, []int64{-1 << 63, 5}},
		},
		{ExportFilter{To: "2001.02.03"}, "WHERE g.date NOT LIKE '????%' AND left(g.date, 10) <= $1::text AND g.source_id = ANY ((SELECT draughtsdb_source_ids($2::text))::bigint[])", []any{"2001.02.03", "archive"}},
	} {
		sql, args := c.f.render("SELECT 1 FROM games g\n/* filter */\nORDER BY g.id")
		want := "SELECT 1 FROM games g\n" + c.sql + "\nORDER BY g.id"
		if sql != want || !reflect.DeepEqual(args, c.args) {
			t.Errorf("%+v:\n got %q %#v\nwant %q %#v", c.f, sql, args, want, c.args)
		}
	}
}

// TestExportStatementsHaveTheirMarks: every filtered statement has its
// mark once (exportFiltered checks it at initialisation; this checks that
// the check runs), and the two statements that choose a position's
// evaluation choose it in the same order, so that positions and distinct
// positions exports agree.
func TestExportStatementsHaveTheirMarks(t *testing.T) {
	t.Parallel()
	func() {
		defer func() {
			if recover() == nil {
				t.Error("a statement without the filter mark was accepted")
			}
		}()
		exportFiltered("SELECT 1 FROM games g")
	}()
	if !strings.Contains(sqlSetSnapshot, snapshotMark) {
		t.Errorf("set-snapshot has no %s mark: %q", snapshotMark, sqlSetSnapshot)
	}
	const order = "ORDER BY depth DESC, evaluated_at DESC, engine, setting LIMIT 1"
	for name, stmt := range map[string]string{"pick-evaluations": sqlExportPickEvals, "distinct-positions": sqlExportDistinct} {
		if strings.Count(stmt, order) != 1 {
			t.Errorf("%s does not choose an evaluation by %q:\n%s", name, order, stmt)
		}
	}
}
