package patternsearch

import (
	"context"
	"github.com/jackc/pgx/v5/pgxpool"
	"maps"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/pattern"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// sqlAgreesWithSearch: draughtsdb_pattern_games (migration 0015) finds
// the games Search finds, with the same first ply and matching positions,
// normally and colour-reversed, with and without a side to move.
func sqlAgreesWithSearch(t *testing.T, pool *pgxpool.Pool) {
	cases := []struct {
		variant, pattern, side string
	}{
		{"international", "W:W28,32:B19,23", ""},
		{"international", "W:W24,K46:B:E29", "black"},
		{"russian", "W:W22,23:B11", "white"},
		{"russian", "W:W:BK30", ""},
	}
	for _, c := range cases {
		v, err := rules.VariantByName(c.variant)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pattern.Parse(v, c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		side, err := pattern.ParseSide(c.side)
		if err != nil {
			t.Fatal(err)
		}
		for _, rev := range []bool{false, true} {
			res, err := Search(context.Background(), pool, Options{Variant: v, Limit: 1 << 30,
				Query: pattern.Query{Patterns: []pattern.Pattern{p}, Side: side, MinPly: -1, MaxPly: -1, Reversed: rev}})
			if err != nil {
				t.Fatal(err)
			}
			exp := map[int64]want{}
			for _, m := range res.Matches {
				exp[m.GameID] = want{m.Ply, m.Positions}
			}
			rows, err := pool.Query(context.Background(), `SELECT game_id, ply, positions FROM draughtsdb_pattern_games($1, $2, $3, $4)`,
				int(codec.VariantID(v)), c.pattern, rev, c.side)
			if err != nil {
				t.Fatal(err)
			}
			got := map[int64]want{}
			for rows.Next() {
				var id, n int64
				var ply int
				if err := rows.Scan(&id, &ply, &n); err != nil {
					t.Fatal(err)
				}
				got[id] = want{ply, int(n)}
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, exp) {
				t.Errorf("%s %s side %q reversed=%v: SQL %d games, Search %d", c.variant, c.pattern, c.side, rev, len(got), len(exp))
			} else if len(exp) == 0 {
				t.Errorf("%s %s side %q reversed=%v: no game: not a test", c.variant, c.pattern, c.side, rev)
			}
		}
	}
}
