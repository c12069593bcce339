package patternsearch

import (
	"context"
	"github.com/jackc/pgx/v5/pgxpool"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/pattern"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// indexReplaysEveryPosition: the pattern index of the shared archives,
// replayed as square sets, gives every position export --what positions
// gives, game by game and ply by ply.
func indexReplaysEveryPosition(t *testing.T, pool *pgxpool.Pool) {
	for _, name := range []string{"international", "russian", "english"} {
		v, err := rules.VariantByName(name)
		if err != nil {
			t.Fatal(err)
		}
		type key struct {
			id  int64
			ply int
		}
		fens := map[key]string{}
		for _, r := range exportPositions(t, pool, v) {
			fens[key{r.GameID, r.Ply}] = r.FEN
		}
		rows, err := pool.Query(context.Background(), `SELECT first_game, entries FROM pattern_index WHERE variant = $1`, codec.VariantID(v))
		if err != nil {
			t.Fatal(err)
		}
		start := v.StartPosition()
		seen, bad := 0, 0
		for rows.Next() {
			var first int64
			var entries []byte
			if err := rows.Scan(&first, &entries); err != nil {
				t.Fatal(err)
			}
			r := codec.NewPatternReader(first, entries)
			for r.More() {
				g, err := r.Game()
				if err != nil {
					t.Fatal(err)
				}
				b := pattern.FromPosition(&start)
				if g.Setup {
					p := rules.NewPosition(v, g.Side)
					for j := 0; j < len(g.Pieces); j += 2 {
						p.SetPiece(int(g.Pieces[j]), rules.Piece(g.Pieces[j+1]))
					}
					b = pattern.FromPosition(&p)
				}
				for ply := 0; ply <= g.Plies; ply++ {
					p := b.Position(v)
					if want := fens[key{g.ID, ply}]; p.FEN() != want {
						if bad++; bad < 5 {
							t.Errorf("%s game %d ply %d: %s, export %s", name, g.ID, ply, p.FEN(), want)
						}
					}
					seen++
					if ply < g.Plies {
						from, to, prom, capt, ok := r.Ply()
						if !ok {
							t.Fatalf("game %d: cut short", g.ID)
						}
						b.Play(from, to, prom, capt)
					}
				}
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if seen != len(fens) {
			t.Errorf("%s: %d positions in the index, %d exported", name, seen, len(fens))
		}
	}
}
