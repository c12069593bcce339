package schema_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

var updateZobrist = flag.Bool("update-zobrist", false, "rewrite the Zobrist key block of migration 0016 from package rules")

const (
	zobristFile  = "migrations/0016_sources.sql"
	zobristBegin = "-- BEGIN ZOBRIST KEYS (generated from package rules: go test ./schema -run TestZobristKeysUpToDate -update-zobrist)\n"
	zobristEnd   = "-- END ZOBRIST KEYS\n"
)

// zobristSQL writes the Zobrist keys of package rules as the INSERTs of
// migration 0016, found through the exported API only: the key of a piece
// on a square is the hash of the position holding only it XOR the hash of
// the empty position, the side key the empty position's with Black to move
// XOR with White, the variant key the empty position's hash.
func zobristSQL() string {
	var b strings.Builder
	type board struct{ width, squares int }
	done := map[board]bool{}
	b.WriteString("INSERT INTO draughtsdb_zobrist_keys (width, squares, square, piece, key) VALUES\n")
	var rows []string
	for _, v := range rules.Variants() {
		bd := board{v.Board.Width, v.Board.Squares()}
		if done[bd] {
			continue
		}
		done[bd] = true
		empty := rules.NewPosition(v, rules.White)
		black := rules.NewPosition(v, rules.Black)
		rows = append(rows, fmt.Sprintf("(%d, %d, 0, 0, %d)", bd.width, bd.squares, int64(empty.Hash()^black.Hash())))
		for sq := 1; sq <= bd.squares; sq++ {
			for pc := rules.WhiteMan; pc <= rules.BlackKing; pc++ {
				p := rules.NewPosition(v, rules.White)
				p.SetPiece(sq, pc)
				rows = append(rows, fmt.Sprintf("(%d, %d, %d, %d, %d)", bd.width, bd.squares, sq, pc, int64(p.Hash()^empty.Hash())))
			}
		}
	}
	b.WriteString(strings.Join(rows, ",\n"))
	b.WriteString(";\n")
	rows = rows[:0]
	b.WriteString("INSERT INTO draughtsdb_zobrist_variants (variant, key, start_fen, white_promotes, black_promotes) VALUES\n")
	for _, v := range rules.Variants() {
		empty := rules.NewPosition(v, rules.White)
		start := v.StartPosition()
		var wp, bp []string
		for sq := 1; sq <= v.Board.Squares(); sq++ {
			if _, err := rules.ParseFEN(v, "W:W"+strconv.Itoa(sq)+":B"); errors.Is(err, rules.ErrFENPromotionRow) {
				wp = append(wp, strconv.Itoa(sq))
			}
			if _, err := rules.ParseFEN(v, "W:W:B"+strconv.Itoa(sq)); errors.Is(err, rules.ErrFENPromotionRow) {
				bp = append(bp, strconv.Itoa(sq))
			}
		}
		rows = append(rows, fmt.Sprintf("(%d, %d, '%s', '{%s}', '{%s}')", codec.VariantID(v), int64(empty.Hash()), start.FEN(),
			strings.Join(wp, ","), strings.Join(bp, ",")))
	}
	b.WriteString(strings.Join(rows, ",\n"))
	b.WriteString(";\n")
	return b.String()
}

// TestZobristKeysUpToDate: migration 0016's key tables are package rules'
// keys (-update-zobrist rewrites them).
func TestZobristKeysUpToDate(t *testing.T) {
	t.Parallel()
	checkGeneratedBlock(t, zobristFile, zobristBegin, zobristEnd, zobristSQL(), *updateZobrist,
		"the Zobrist keys differ from package rules'; go test ./schema -run TestZobristKeysUpToDate -update-zobrist rewrites them")
}

// checkGeneratedBlock fails unless the text of file between the lines
// begin and end is want; with update it writes want there instead. A
// migration holds such a block where its SQL is generated from package
// rules: the test keeps the two from drifting apart, and the flag is how a
// change to rules reaches a new migration's copy.
func checkGeneratedBlock(t *testing.T, file, begin, end, want string, update bool, differ string) {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(file))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no generated block between %q and %q", file, begin, end)
	}
	if got := text[i+len(begin) : j]; got != want {
		if update {
			if err := os.WriteFile(filepath.FromSlash(file), []byte(text[:i+len(begin)]+want+text[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Fatalf("%s: %s", file, differ)
	}
}

// randomPosition is a legal-looking position of v: pieces on random
// squares, no man on its own promotion row, either side to move.
func randomPosition(r *rand.Rand, v *rules.Variant) rules.Position {
	side := rules.White
	if r.IntN(2) == 1 {
		side = rules.Black
	}
	for {
		p := rules.NewPosition(v, side)
		n := 1 + r.IntN(v.Board.Squares()/2)
		for k := 0; k < n; k++ {
			sq := 1 + r.IntN(v.Board.Squares())
			pc := rules.Piece(1 + r.IntN(4))
			p.SetPiece(sq, pc)
		}
		if q, err := rules.ParseFEN(v, p.FEN()); err == nil && q.Hash() == p.Hash() {
			return p
		}
	}
}

// TestSQLHashEqualsGo: draughtsdb_hash(variant, fen) is the Go hash of
// random positions of every variant, their FENs written as Go writes them
// and in other forms PDN allows (ranges, a K on every king, lower case
// side, quotes and a trailing dot, algebraic squares where the board has
// names); a FEN Go refuses is an error there too, never a hash.
func TestSQLHashEqualsGo(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	r := rand.New(rand.NewPCG(1, 2))
	for _, v := range rules.Variants() {
		var fens []string
		var want []int64
		add := func(fen string, h uint64) { fens = append(fens, fen); want = append(want, int64(h)) }
		start := v.StartPosition()
		add(start.FEN(), start.Hash())
		add(strings.ToLower(start.FEN()[:1])+start.FEN()[1:]+".", start.Hash())
		add(`"`+start.FEN()+`"`, start.Hash())
		for i := 0; i < 60; i++ {
			p := randomPosition(r, v)
			add(p.FEN(), p.Hash())
			if alg := algebraicFEN(v, &p); alg != "" {
				add(alg, p.Hash())
			}
		}
		add(rangedFEN(v, &start), start.Hash())
		var got []int64
		if err := pool.QueryRow(ctx, `SELECT array_agg(draughtsdb_hash($1, f) ORDER BY i) FROM unnest($2::text[]) WITH ORDINALITY AS u(f, i)`,
			v.Name, fens).Scan(&got); err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		for i := range fens {
			if got[i] != want[i] {
				t.Errorf("%s %s: SQL %d, Go %d", v.Name, fens[i], got[i], want[i])
			}
		}
		var sqlStart string
		if err := pool.QueryRow(ctx, `SELECT draughtsdb_start_fen($1)`, v.Name).Scan(&sqlStart); err != nil || sqlStart != start.FEN() {
			t.Errorf("%s: draughtsdb_start_fen %q, %v; want %q", v.Name, sqlStart, err, start.FEN())
		}
	}
	for _, c := range []struct{ variant, fen, want string }{
		{"international", "", "empty FEN"},
		{"international", "X:W31:B1", "side to move"},
		{"international", "W:W51:B1", "51"},
		{"international", "W:W31,31:B1", "twice"},
		{"international", "W:W3:B40", "promotion row"},
		{"international", "W:W40-31:B1", "backwards"},
		{"international", "W:Q31", "W or B"},
		{"chess", "W:W31:B1", "chess"},
	} {
		var h int64
		err := pool.QueryRow(ctx, `SELECT draughtsdb_hash($1, $2)`, c.variant, c.fen).Scan(&h)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("draughtsdb_hash(%s, %q) = %d, %v; want an error naming %q", c.variant, c.fen, h, err, c.want)
		}
		if _, gerr := func() (rules.Position, error) {
			v, err := rules.VariantByName(c.variant)
			if err != nil {
				return rules.Position{}, err
			}
			return rules.ParseFEN(v, c.fen)
		}(); gerr == nil {
			t.Errorf("%q: Go accepts it", c.fen)
		}
	}
}

// algebraicFEN writes p's FEN with algebraic squares where the board names
// them (8x8 and the others), "" when a name is a number.
func algebraicFEN(v *rules.Variant, p *rules.Position) string {
	side := "W"
	if p.SideToMove() == rules.Black {
		side = "B"
	}
	var w, b []string
	for sq := 1; sq <= v.Board.Squares(); sq++ {
		pc := p.Piece(sq)
		if pc == rules.Empty {
			continue
		}
		name := v.Board.Algebraic(sq)
		if name == "" {
			return ""
		}
		if pc.IsKing() {
			name = "K" + name
		}
		if pc.Color() == rules.White {
			w = append(w, name)
		} else {
			b = append(b, name)
		}
	}
	return side + ":W" + strings.Join(w, ",") + ":B" + strings.Join(b, ",")
}

// rangedFEN writes p's FEN with runs of men as ranges (31-50).
func rangedFEN(v *rules.Variant, p *rules.Position) string {
	side := "W"
	if p.SideToMove() == rules.Black {
		side = "B"
	}
	part := func(man rules.Piece) string {
		var out []string
		for sq := 1; sq <= v.Board.Squares(); sq++ {
			switch p.Piece(sq) {
			case man:
				end := sq
				for end+1 <= v.Board.Squares() && p.Piece(end+1) == man {
					end++
				}
				if end > sq {
					out = append(out, fmt.Sprintf("%d-%d", sq, end))
				} else {
					out = append(out, strconv.Itoa(sq))
				}
				sq = end
			case man + 1:
				out = append(out, "K"+strconv.Itoa(sq))
			}
		}
		return strings.Join(out, ",")
	}
	return side + ":W" + part(rules.WhiteMan) + ":B" + part(rules.BlackMan)
}
