package schema_test

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// line is one game for the SQL: its start FEN ("" for the initial
// position), its move text and the Go hashes after each ply (the start's
// first).
type line struct {
	name   string
	fen    string
	text   string
	hashes []uint64
}

// randomLine plays a random legal game of v in Go and writes it as PDN
// move text: move numbers, and each move either start and end only
// ("28x19", "c3:e5") where that names one legal move (rules.MatchFromTo)
// or its full path, in the variant's notation or, for numbered boards,
// sometimes numerically.
func randomLine(r *rand.Rand, v *rules.Variant, plies int) line {
	p := v.StartPosition()
	l := line{name: v.Name, hashes: []uint64{p.Hash()}}
	var sb strings.Builder
	var legal []rules.Move
	for ply := 0; ply < plies; ply++ {
		legal = p.LegalMoves(legal[:0])
		if len(legal) == 0 {
			break
		}
		m := legal[r.IntN(len(legal))]
		n := v.DefaultNotation
		if r.IntN(4) == 0 {
			n = rules.Numeric
		}
		full := r.IntN(2) == 0
		if _, count := rules.MatchFromTo(v.Board, legal, m.From(), m.To()); count > 1 {
			full = true
		}
		if ply%2 == 0 {
			sb.WriteString(strconv.Itoa(ply/2+1) + ". ")
		}
		sb.WriteString(rules.FormatMove(v, &m, n, full) + " ")
		p.Play(&m)
		l.hashes = append(l.hashes, p.Hash())
	}
	l.text = sb.String()
	return l
}

// sqlLines runs draughtsdb_hash_line over lines of one variant in one
// query; got[i] are line i's hashes by ply.
func sqlLines(t *testing.T, pool *pgxpool.Pool, variant string, lines []line) ([][]int64, error) {
	fens := make([]string, len(lines))
	texts := make([]string, len(lines))
	for i, l := range lines {
		fens[i], texts[i] = l.fen, l.text
	}
	rows, err := pool.Query(context.Background(), `
		SELECT u.i, h.ply, h.hash
		FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS u(fen, moves, i),
		     LATERAL draughtsdb_hash_line($1, u.fen, u.moves) h
		ORDER BY u.i, h.ply`, variant, fens, texts)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	got := make([][]int64, len(lines))
	for rows.Next() {
		var i, ply int
		var h int64
		if err := rows.Scan(&i, &ply, &h); err != nil {
			return nil, err
		}
		if ply != len(got[i-1]) {
			t.Fatalf("%s line %d: ply %d after %d rows", variant, i, ply, len(got[i-1]))
		}
		got[i-1] = append(got[i-1], h)
	}
	return got, rows.Err()
}

func checkLines(t *testing.T, pool *pgxpool.Pool, variant string, lines []line) {
	t.Helper()
	got, err := sqlLines(t, pool, variant, lines)
	if err != nil {
		t.Errorf("%s: %v", variant, err)
		return
	}
	for i, l := range lines {
		if len(got[i]) != len(l.hashes) {
			t.Errorf("%s %s: SQL played %d plies of %d: %s", variant, l.name, len(got[i])-1, len(l.hashes)-1, l.text)
			continue
		}
		for ply := range l.hashes {
			if got[i][ply] != int64(l.hashes[ply]) {
				t.Errorf("%s %s ply %d: SQL hash %d, Go %d; moves %s", variant, l.name, ply, got[i][ply], int64(l.hashes[ply]), l.text)
				break
			}
		}
	}
}

// TestSQLHashMovesEqualsGo: draughtsdb_hash_line (and so
// draughtsdb_hash_moves) gives, after every prefix of random legal games
// of every variant, the hash package rules gives, and the last one is
// draughtsdb_hash_moves'.
func TestSQLHashMovesEqualsGo(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewDB(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(35, 19))
	games := 0
	for _, v := range rules.Variants() {
		var lines []line
		for i := 0; i < 24; i++ {
			lines = append(lines, randomLine(r, v, 40+r.IntN(120)))
		}
		checkLines(t, pool, v.Name, lines)
		games += len(lines)
		l := lines[0]
		var h int64
		if err := pool.QueryRow(ctx, `SELECT draughtsdb_hash_moves($1, $2)`, v.Name, l.text).Scan(&h); err != nil || h != int64(l.hashes[len(l.hashes)-1]) {
			t.Errorf("%s: draughtsdb_hash_moves %d, %v; want %d", v.Name, h, err, int64(l.hashes[len(l.hashes)-1]))
		}
	}
	t.Logf("%d random games", games)
}

// TestSQLHashMovesRealGames: the games of the real archives in the
// repository, their moves as written there, give in SQL the hashes the
// importer (package replay) gives after every ply.
func TestSQLHashMovesRealGames(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewDB(t)
	files := []string{
		"../replay/testdata/russian.pdn", "../replay/testdata/ussr1947.pdn", "../replay/testdata/brazilian.pdn",
		"../replay/testdata/american.pdn", "../ingest/pdn/testdata/shared/international/babasy1.pdn.gz",
		"../ingest/pdn/testdata/shared/international/sur01.pdn.gz",
	}
	online, _ := filepath.Glob("../ingest/pdn/testdata/shared/online/*.pdn.gz")
	files = append(files, online...)
	byVariant := map[string][]line{}
	total := 0
	for _, f := range files {
		for _, l := range realLines(t, f, 150) {
			byVariant[l.name] = append(byVariant[l.name], l)
			total++
		}
	}
	for name, lines := range byVariant {
		for i := range lines {
			lines[i].name = name + " game " + strconv.Itoa(i+1)
		}
		checkLines(t, pool, name, lines)
	}
	if total < 300 {
		t.Fatalf("only %d real games", total)
	}
	t.Logf("%d real games, variants %d", total, len(byVariant))
}

// realLines reads up to max games of a PDN file that the importer accepts
// without a setup, a look-ahead or a joined split capture (those resolve
// a move from more than its own text, which a hash of moves does not do).
func realLines(t *testing.T, path string, max int) []line {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var in io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		in = z
	}
	rd := pdn.NewReader(in, path)
	rp := replay.NewReplayer(replay.Options{})
	var out []line
	for len(out) < max {
		pg, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			continue
		}
		var g replay.Game
		if rp.Replay(pg, nil, &g) != nil || len(g.Setups) > 0 || len(g.Moves) == 0 || len(g.Warnings) > 0 {
			continue
		}
		var texts []string
		for _, m := range pg.Moves {
			if m.Text != "" {
				texts = append(texts, m.Text)
			}
		}
		if len(texts) != len(g.Moves) {
			continue
		}
		l := line{name: g.Variant.Name, fen: g.StartFEN, hashes: []uint64{g.Start.Hash()}}
		l.hashes = append(l.hashes, g.Hashes...)
		l.text = strings.Join(texts, " ")
		out = append(out, l)
	}
	return out
}

// TestSQLHashMovesErrors: a move no legal move fits, a start-end capture
// that two legal captures fit, a text that is no move and an unknown
// variant are errors that name the ply and the move, never a hash.
func TestSQLHashMovesErrors(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewDB(t)
	ctx := context.Background()
	for _, c := range []struct {
		variant, fen, moves string
		want                []string
	}{
		{"international", "", "1. 32-28 19-23 2. 28-22", []string{"ply 3", "'28-22'", "not a legal move", "28x19"}},
		{"international", "", "1. 32-28 19-23 2. 28x19 14x23 3. 32-27", []string{"ply 5", "'32-27'"}},
		{"international", "", "1. 32-28 zz", []string{"ply 2", "not a move"}},
		{"international", "", "1. 32-28 19-23 2. 28x17", []string{"ply 3", "not a legal move"}},
		{"russian", "", "1. c3-d4 f6-e5 2. d4-c5", []string{"ply 3", "not a legal move", "d4:f6"}},
		// The man on h4 takes two pieces (h4:f6:h8) or, crowned on d8,
		// five (h4:f6:d8:a5:c3:h8): start and end do not say which.
		{"russian", h4f6h8, "h4:h8", []string{"ply 1", "ambiguous", "h4:f6:h8", "h4:f6:d8:a5:c3:h8"}},
		{"chess", "", "1. e4", []string{"chess", "not a variant"}},
	} {
		var h int64
		err := pool.QueryRow(ctx, `SELECT draughtsdb_hash_moves($1, $2, $3)`, c.variant, c.fen, c.moves).Scan(&h)
		if err == nil {
			t.Errorf("%s %q %q: hash %d, want an error", c.variant, c.fen, c.moves, h)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s %q %q: %v; want it to say %q", c.variant, c.fen, c.moves, err, w)
			}
		}
		// Go refuses them as well.
		if v, verr := rules.VariantByName(c.variant); verr == nil {
			var toks []string
			for _, f := range strings.Fields(c.moves) {
				if !strings.HasSuffix(f, ".") {
					toks = append(toks, f)
				}
			}
			if _, gerr := replay.PlayLine(v, c.fen, toks); gerr == nil {
				t.Errorf("%s %q %q: Go plays it", c.variant, c.fen, c.moves)
			}
		}
	}
}

// h4f6h8 is replay's test position (resolve_test.go) where a Russian man
// on h4 takes two pieces or, crowned on the way, five, both ending on h8.
const h4f6h8 = "W:W19,20,25,28,29,32:B6,7,8,16,17"

// TestSQLHashMovesResolvesAsReplay: texts with intermediate squares pick
// the move replay picks (the exact full path first, else the one move
// whose landing squares hold the written ones), so the SQL hash is Go's.
func TestSQLHashMovesResolvesAsReplay(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewDB(t)
	ctx := context.Background()
	for _, text := range []string{"h4:f6:h8", "20x11x4", "h4:f6:d8:a5:c3:h8", "h4:d8:h8", "h4:c3:h8", "h4:f6:c3:h8", "h4:h8"} {
		g, gerr := replay.PlayLine(rules.Russian, h4f6h8, []string{text})
		var h int64
		err := pool.QueryRow(ctx, `SELECT draughtsdb_hash_moves('russian', $1, $2)`, h4f6h8, text).Scan(&h)
		switch {
		case gerr != nil && err == nil:
			t.Errorf("%s: Go refuses it (%v), SQL hash %d", text, gerr, h)
		case gerr == nil && err != nil:
			t.Errorf("%s: SQL %v, Go %d", text, err, int64(g.Final.Hash()))
		case gerr == nil && h != int64(g.Final.Hash()):
			t.Errorf("%s: SQL %d, Go %d", text, h, int64(g.Final.Hash()))
		}
	}
}

// TestSQLLegalMovesEqualGo: in random positions of every variant (pieces
// and kings anywhere, either side to move), the SQL generator's legal
// moves are package rules' LegalMoves: the same starts, ends, pieces
// taken and crownings. Random games rarely reach the positions where the
// precedence rules (kings first, the most kings, Italian's order, Frisian's
// values) decide; random positions with kings do all the time.
func TestSQLLegalMovesEqualGo(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewDB(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(35, 4))
	key := func(from, to int, caps []int, promotes bool) string {
		c := append([]int(nil), caps...)
		slices.Sort(c)
		return fmt.Sprintf("%d-%d%v%t", from, to, c, promotes)
	}
	for _, v := range rules.Variants() {
		var fens []string
		var want []map[string]bool
		var legal []rules.Move
		for len(fens) < 120 {
			p := randomPosition(r, v)
			legal = p.LegalMoves(legal[:0])
			m := map[string]bool{}
			for i := range legal {
				m[key(legal[i].From(), legal[i].To(), legal[i].Captured(nil), legal[i].Promotes())] = true
			}
			fens = append(fens, p.FEN())
			want = append(want, m)
		}
		rows, err := pool.Query(ctx, `
			SELECT u.i, c.from_sq, c.to_sq, c.captured, c.promotes
			FROM unnest($2::text[]) WITH ORDINALITY AS u(fen, i),
			     LATERAL draughtsdb_fen_board($1, u.fen) f,
			     draughtsdb_move_rules r,
			     LATERAL unnest(draughtsdb_legal_moves(r, f.board, f.side)) c
			WHERE r.variant = draughtsdb_variant_id($1)`, v.Name, fens)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		got := make([]map[string]bool, len(fens))
		for rows.Next() {
			var i, from, to int
			var caps []int32
			var promotes bool
			if err := rows.Scan(&i, &from, &to, &caps, &promotes); err != nil {
				t.Fatal(err)
			}
			c := make([]int, len(caps))
			for k, x := range caps {
				c[k] = int(x)
			}
			if got[i-1] == nil {
				got[i-1] = map[string]bool{}
			}
			got[i-1][key(from, to, c, promotes)] = true
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		bad := 0
		for i := range fens {
			if !maps.Equal(got[i], want[i]) && !(len(got[i]) == 0 && len(want[i]) == 0) {
				if bad++; bad <= 3 {
					t.Errorf("%s %s: SQL moves %v, Go %v", v.Name, fens[i], slices.Sorted(maps.Keys(got[i])), slices.Sorted(maps.Keys(want[i])))
				}
			}
		}
	}
}

// TestSQLLegalMovesDCTL: the SQL generator's legal moves in the positions
// that illustrate the official International and Italian rule articles
// are the lists dctl's tests give (start and end, zero-padded, one per
// start, end and captured set).
func TestSQLLegalMovesDCTL(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewDB(t)
	b, err := os.ReadFile("../replay/testdata/dctl_legal_moves.json")
	if err != nil {
		t.Fatal(err)
	}
	var suite struct {
		Cases []struct {
			Variant, Name, Fen string
			Legal              []string
		}
	}
	if err := json.Unmarshal(b, &suite); err != nil {
		t.Fatal(err)
	}
	variants := map[string]bool{}
	for _, c := range suite.Cases {
		var got []string
		if err := pool.QueryRow(context.Background(), `
			SELECT coalesce(array_agg(t ORDER BY t), '{}') FROM (
				SELECT DISTINCT ON (c.from_sq, c.to_sq, (SELECT array_agg(x ORDER BY x) FROM unnest(c.captured) x))
				       lpad(c.from_sq::text, 2, '0') || CASE WHEN cardinality(c.captured) > 0 THEN 'x' ELSE '-' END || lpad(c.to_sq::text, 2, '0') AS t
				FROM draughtsdb_fen_board($1, $2) f, draughtsdb_move_rules r,
				     unnest(draughtsdb_legal_moves(r, f.board, f.side)) c
				WHERE r.variant = draughtsdb_variant_id($1)) q`, c.Variant, c.Fen).Scan(&got); err != nil {
			t.Fatalf("%s %s: %v", c.Variant, c.Name, err)
		}
		want := slices.Sorted(slices.Values(c.Legal))
		if !slices.Equal(got, want) {
			t.Errorf("%s %s (%s): SQL %v, dctl %v", c.Variant, c.Name, c.Fen, got, want)
		}
		variants[c.Variant] = true
	}
	if len(suite.Cases) < 30 || !variants["italian"] || !variants["international"] {
		t.Fatalf("%d cases of %v", len(suite.Cases), variants)
	}
}
