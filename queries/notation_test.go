package queries_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestSQLNotationAgreesWithGo: the SQL functions that write squares, move
// codes and games.moves in a variant's notation write what Go writes, on
// random games of every variant.
func TestSQLNotationAgreesWithGo(t *testing.T) {
	pool := pgtest.NewDB(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 7))
	for _, v := range []*rules.Variant{rules.Russian, rules.International, rules.English, rules.Brazilian, rules.Canadian} {
		for game := 0; game < 6; game++ {
			pos := v.StartPosition()
			var moves []byte
			var want []string
			for ply := 0; ply < 120; ply++ {
				legal := pos.LegalMoves(nil)
				if len(legal) == 0 {
					break
				}
				m := &legal[rng.IntN(len(legal))]
				// The opening-tree text of the move: start and end.
				for _, alg := range []bool{false, true} {
					n := rules.Numeric
					if alg {
						n = rules.Algebraic
					}
					var got string
					if err := pool.QueryRow(ctx, `SELECT draughtsdb_move_code_text($1, $2, $3)`, v.GameType, int32(codec.MoveCodeOf(m)), alg).Scan(&got); err != nil {
						t.Fatal(err)
					}
					if exp := replay.FormatMove(v, m, n, false); got != exp {
						t.Fatalf("%s: move code text %q, Go %q", v.Name, got, exp)
					}
				}
				want = append(want, replay.FormatMove(v, m, v.DefaultNotation, true))
				// games.moves as the import stores it.
				moves = codec.AppendMoves(moves, []rules.Move{*m})
				pos.Play(m)
			}
			var got string
			var prefix []byte
			if err := pool.QueryRow(ctx, `SELECT draughtsdb_moves_text($1::bytea, $2), draughtsdb_moves_prefix($1::bytea, 3)`, moves, v.GameType).Scan(&got, &prefix); err != nil {
				t.Fatal(err)
			}
			if exp := strings.Join(want, " "); got != exp {
				t.Fatalf("%s: moves text\n%s\nGo:\n%s", v.Name, got, exp)
			}
			var prefixText string
			if err := pool.QueryRow(ctx, `SELECT draughtsdb_moves_text($1::bytea, $2)`, prefix, v.GameType).Scan(&prefixText); err != nil {
				t.Fatal(err)
			}
			if exp := strings.Join(want[:3], " "); prefixText != exp {
				t.Fatalf("%s: first 3 plies %q, Go %q", v.Name, prefixText, exp)
			}
		}
	}
}

// TestSQLResultTextAgreesWithGo: draughtsdb_result_text writes every
// result of every variant as replay.Result.Format does (the first mover's
// score first: an English Black win is 1-0).
func TestSQLResultTextAgreesWithGo(t *testing.T) {
	pool := pgtest.NewDB(t)
	ctx := context.Background()
	checked := 0
	for _, v := range rules.Variants() {
		for code := 0; code <= 4; code++ {
			var got string
			if err := pool.QueryRow(ctx, `SELECT draughtsdb_result_text($1::smallint, $2::smallint)`, v.GameType, code).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if want := replay.Result(code).Format(v); got != want {
				t.Errorf("%s result %d: SQL %q, Go %q", v, code, got, want)
			}
			checked++
		}
	}
	if checked < 25 {
		t.Fatalf("checked %d", checked)
	}
}
