package queries_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5"
)

// TestSQLNotationAgreesWithGo: the SQL functions that write squares, move
// codes and games.moves in a variant's notation write what Go writes, on
// random games of every variant rules plays (a variant added later is
// checked without a change here), and every square of every board by
// number in both notations.
func TestSQLNotationAgreesWithGo(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	pool := pgtest.NewDB(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 7))
	for _, v := range rules.Variants() {
		id := codec.VariantID(v)
		var alg bool
		if err := pool.QueryRow(ctx, `SELECT draughtsdb_algebraic($1)`, id).Scan(&alg); err != nil {
			t.Fatal(err)
		}
		if alg != (v.DefaultNotation == rules.Algebraic) {
			t.Errorf("%s: draughtsdb_algebraic %v, DefaultNotation %v", v.Name, alg, v.DefaultNotation)
		}
		// Every square: a one-ply "game" from it to itself reads the
		// square's name as the variant writes it.
		for sq := 1; sq <= v.Board.Squares(); sq++ {
			var num, name string
			if err := pool.QueryRow(ctx, `SELECT draughtsdb_square_text($1, $2, false), draughtsdb_square_text($1, $2, true)`,
				id, sq).Scan(&num, &name); err != nil {
				t.Fatal(err)
			}
			if want := squareName(v, sq); num != strconv.Itoa(sq) || name != want {
				t.Fatalf("%s square %d: SQL %q %q, Go %d %q", v.Name, sq, num, name, sq, want)
			}
		}
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
					if err := pool.QueryRow(ctx, `SELECT draughtsdb_move_code_text($1, $2, $3)`, id, int32(codec.MoveCodeOf(m)), alg).Scan(&got); err != nil {
						t.Fatal(err)
					}
					if exp := rules.FormatMove(v, m, n, false); got != exp {
						t.Fatalf("%s: move code text %q, Go %q", v.Name, got, exp)
					}
				}
				want = append(want, rules.FormatMove(v, m, v.DefaultNotation, true))
				// games.moves as the import stores it.
				moves = codec.AppendMoves(moves, []rules.Move{*m})
				pos.Play(m)
			}
			var got string
			var prefix []byte
			if err := pool.QueryRow(ctx, `SELECT draughtsdb_moves_text($1::bytea, $2), draughtsdb_moves_prefix($1::bytea, 3)`, moves, id).Scan(&got, &prefix); err != nil {
				t.Fatal(err)
			}
			if exp := strings.Join(want, " "); got != exp {
				t.Fatalf("%s: moves text\n%s\nGo:\n%s", v.Name, got, exp)
			}
			var prefixText string
			if err := pool.QueryRow(ctx, `SELECT draughtsdb_moves_text($1::bytea, $2)`, prefix, id).Scan(&prefixText); err != nil {
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
	t.Parallel()
	pool := pgtest.NewDB(t)
	ctx := context.Background()
	checked := 0
	for _, v := range rules.Variants() {
		for code := 0; code <= 4; code++ {
			var got string
			if err := pool.QueryRow(ctx, `SELECT draughtsdb_result_text($1::smallint, $2::smallint)`, codec.VariantID(v), code).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if want := replay.Result(code).Format(v); got != want {
				t.Errorf("%s result %d: SQL %q, Go %q", v, code, got, want)
			}
			checked++
		}
	}
	if checked != 5*len(rules.Variants()) {
		t.Fatalf("checked %d", checked)
	}
}

// squareName is square sq of variant v as draughtsdb writes it
// algebraically (English named from Black's side): the name of the square
// in a plain move from it, cut at the separator.
func squareName(v *rules.Variant, sq int) string {
	b := v.Board
	f, r := b.Coords(sq)
	// The name is taken from a written move, not from SquareName, so that
	// the SQL is checked against what games.moves holds: a lone king's
	// step to a neighbour (every square has one), along a diagonal or, on
	// Turkish's board, a rank or file.
	for _, d := range [][2]int{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		to := b.SquareAt(f+d[0], r+d[1])
		if to == 0 {
			continue
		}
		pos := rules.NewPosition(v, rules.White)
		pos.SetPiece(sq, rules.WhiteKing)
		for _, m := range pos.LegalMoves(nil) {
			if m.From() == sq && m.To() == to {
				text := rules.FormatMove(v, &m, rules.Algebraic, false)
				return text[:strings.IndexByte(text, '-')]
			}
		}
	}
	panic(fmt.Sprintf("%s: no king step from square %d", v.Name, sq))
}

// TestSQLVariantsAgreeWithGo: draughtsdb_variants (migration 0008) has a
// row for every variant rules plays and no other, with its board,
// numbering, first mover, notation, the side its algebraic squares are
// named from and exactly its rules.Variant.Aliases, and the name and
// number functions convert every name and alias as rules does. A variant
// added to rules, or an alias, fails here until a migration writes it.
func TestSQLVariantsAgreeWithGo(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewDB(t)
	ctx := context.Background()
	for _, v := range rules.Variants() {
		id := codec.VariantID(v)
		var (
			name, first, notation          string
			aliases                        []string
			width                          int
			mirrored, reversed, allSquares bool
			fromBlack                      bool
			byName                         *int16
			nameOf                         *string
		)
		err := pool.QueryRow(ctx, `SELECT name, aliases, width, mirrored, reversed, all_squares, first_to_move, notation, algebraic_from_black,
				draughtsdb_variant_id(upper(name)), draughtsdb_variant_name(id)
			FROM draughtsdb_variants WHERE id = $1`, id).Scan(&name, &aliases, &width, &mirrored, &reversed, &allSquares, &first, &notation, &fromBlack, &byName, &nameOf)
		if errors.Is(err, pgx.ErrNoRows) {
			t.Errorf("%s (stored as %d): no row in draughtsdb_variants; add it with a new migration", v.Name, id)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		wantFirst, wantNotation := "white", "numeric"
		if v.FirstToMove == rules.Black {
			wantFirst = "black"
		}
		if v.DefaultNotation == rules.Algebraic {
			wantNotation = "algebraic"
		}
		if name != v.Name || width != v.Board.Width || v.Board.Height != v.Board.Width || mirrored != v.Board.Mirrored ||
			reversed != v.Board.Reversed || allSquares != v.Board.AllSquares || first != wantFirst || notation != wantNotation {
			t.Errorf("%s: row %q width %d mirrored %v reversed %v all squares %v first %s notation %s; rules: %s %dx%d %v %v %v %s %s", v.Name,
				name, width, mirrored, reversed, allSquares, first, notation,
				v.Name, v.Board.Width, v.Board.Height, v.Board.Mirrored, v.Board.Reversed, v.Board.AllSquares, wantFirst, wantNotation)
		}
		if fromBlack != v.AlgebraicFromBlack {
			t.Errorf("%s: algebraic_from_black %v, rules %v", v.Name, fromBlack, v.AlgebraicFromBlack)
		}
		if got, want := slices.Sorted(slices.Values(aliases)), slices.Sorted(slices.Values(v.Aliases)); !slices.Equal(got, want) {
			t.Errorf("%s: aliases %q, rules %q", v.Name, got, want)
		}
		if byName == nil || *byName != id || nameOf == nil || *nameOf != v.Name {
			t.Errorf("%s: draughtsdb_variant_id(%q) = %v, draughtsdb_variant_name(%d) = %v", v.Name, strings.ToUpper(v.Name), byName, id, nameOf)
		}
		for _, a := range aliases {
			var got *int16
			if err := pool.QueryRow(ctx, `SELECT draughtsdb_variant_id($1)`, " "+a+" ").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if gv, err := rules.VariantByName(a); err != nil || gv != v || got == nil || *got != id {
				t.Errorf("alias %q: SQL %v, rules %v (%v), want %s", a, got, gv, err, v.Name)
			}
		}
	}
	var rows int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM draughtsdb_variants`).Scan(&rows); err != nil || rows != len(rules.Variants()) {
		t.Errorf("draughtsdb_variants has %d rows (%v), rules plays %d variants", rows, err, len(rules.Variants()))
	}
	var unknown *int16
	if err := pool.QueryRow(ctx, `SELECT draughtsdb_variant_id('tic-tac-toe')`).Scan(&unknown); err != nil || unknown != nil {
		t.Fatalf("unknown name: %v, %v", unknown, err)
	}
	// User SQL runs as draughtsdb_reader: it may call the functions, which
	// read the table with its rights.
	err := schema.ReadOnly(ctx, pool, func(tx pgx.Tx) error {
		var name, result, square string
		if err := tx.QueryRow(ctx, `SELECT draughtsdb_variant_name(draughtsdb_variant_id('thai')),
				draughtsdb_result_text(31::smallint, 1::smallint), draughtsdb_square_text(22, 1, true)`).Scan(&name, &result, &square); err != nil {
			return err
		}
		if name != "thai" || result != "0-1" || square != "a8" {
			return fmt.Errorf("as the reader: %q %q %q, want thai 0-1 a8", name, result, square)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
