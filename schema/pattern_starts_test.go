package schema_test

import (
	"context"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/pattern"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestPatternStarts: draughtsdb_pattern_starts (migration 0015) holds every
// variant's initial position as package rules has it, and nothing else.
func TestPatternStarts(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewDB(t)
	bitsOf := func(s pattern.Set, n int) string {
		var b strings.Builder
		for sq := 1; sq <= n; sq++ {
			if s.Has(sq) {
				b.WriteByte('1')
			} else {
				b.WriteByte('0')
			}
		}
		return b.String()
	}
	var rows int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM draughtsdb_pattern_starts`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != len(rules.Variants()) {
		t.Errorf("draughtsdb_pattern_starts has %d rows, rules %d variants", rows, len(rules.Variants()))
	}
	for _, v := range rules.Variants() {
		var n int
		var white, black, kings string
		var whiteFirst bool
		err := pool.QueryRow(context.Background(), `SELECT squares, white::text, black::text, kings::text, white_first
			FROM draughtsdb_pattern_starts WHERE variant = $1`, codec.VariantID(v)).Scan(&n, &white, &black, &kings, &whiteFirst)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		p := v.StartPosition()
		b := pattern.FromPosition(&p)
		sq := v.Board.Squares()
		if n != sq || white != bitsOf(b.White, sq) || black != bitsOf(b.Black, sq) || kings != bitsOf(b.Kings, sq) ||
			whiteFirst != (p.SideToMove() == rules.White) {
			t.Errorf("%s: row (%d, %s, %s, %s, %v) is not its initial position", v.Name, n, white, black, kings, whiteFirst)
		}
	}
}
