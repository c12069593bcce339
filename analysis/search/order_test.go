package search_test

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// orderGoldenFile holds positions of OCA and International games searched
// at a fixed depth by the baseline engine (testdata/README.md): variant,
// depth, FEN, then that engine's best move, score and node count.
// TestGenerateOrderGolden (order_golden_gen_test.go, -tags tools) wrote
// the last three columns (the best move as hub.FormatMove writes it), run
// in a checkout of the baseline.
const orderGoldenFile = "testdata/order_golden.tsv"

// orderGolden is one line of orderGoldenFile.
type orderGolden struct {
	variant *rules.Variant
	name    string
	depth   int
	fen     string
	pos     rules.Position
	best    string
	score   int
	nodes   uint64
	line    int
}

// readOrderGolden parses orderGoldenFile; withResults also parses the
// three result columns (the generator reads only the first three).
func readOrderGolden(t *testing.T, withResults bool) []orderGolden {
	t.Helper()
	f, err := os.Open(orderGoldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []orderGolden
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if sc.Text() == "" || strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 3 || withResults && len(c) < 6 {
			t.Fatalf("%s:%d: %d columns", orderGoldenFile, n, len(c))
		}
		g := orderGolden{name: c[0], fen: c[2], line: n}
		if g.variant, err = rules.VariantByName(c[0]); err != nil {
			t.Fatalf("%s:%d: %v", orderGoldenFile, n, err)
		}
		if g.depth, err = strconv.Atoi(c[1]); err != nil {
			t.Fatalf("%s:%d: depth: %v", orderGoldenFile, n, err)
		}
		if g.pos, err = rules.ParseFEN(g.variant, g.fen); err != nil {
			t.Fatalf("%s:%d: %v", orderGoldenFile, n, err)
		}
		if withResults {
			g.best = c[3]
			if g.score, err = strconv.Atoi(c[4]); err != nil {
				t.Fatalf("%s:%d: score: %v", orderGoldenFile, n, err)
			}
			if g.nodes, err = strconv.ParseUint(c[5], 10, 64); err != nil {
				t.Fatalf("%s:%d: nodes: %v", orderGoldenFile, n, err)
			}
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOrderGolden holds the search to the baseline's results, node counts
// included, on positions where the order of moves with equal ordering
// keys decides the best move: a sort of the moves after the first two
// picks instead of a selection per move gave another best move
// in the file's first ten positions (one of them with another score) and
// another node count in all fifteen, and scoring the plain moves after
// the table move's subtree (which changes the history) also changed
// node counts. Any change of which move is
// searched when (ordering keys, ties, the table, pruning) shows here; if
// one is meant, say so in the commit and regenerate the file with the new
// engine (TestGenerateOrderGolden), knowing that analyze's stored
// evaluations then differ from the baseline's.
func TestOrderGolden(t *testing.T) {
	for _, g := range readOrderGolden(t, true) {
		r := search.Search(g.pos, search.Options{Depth: g.depth, HandSet: true}, nil)
		if best := hub.FormatMove(&r.Best); best != g.best || r.Score != g.score || r.Nodes != g.nodes {
			t.Errorf("%s:%d: %s %s depth %d: best %s score %d nodes %d, f6de099 %s %d %d",
				orderGoldenFile, g.line, g.name, g.fen, g.depth, best, r.Score, r.Nodes, g.best, g.score, g.nodes)
		}
	}
}

// TestGameOrderDiffsIndependent keeps testdata/gameorder_diffs.tsv, the
// list of the positions where analyze's game order picks another best
// move than the baseline, true to its baseline columns: each of its
// positions searched on its own at depth 8 (as the baseline searched them,
// and as analyze --independent does) gives the best move and score the
// list says the baseline gave. The game-order columns need each game's earlier
// positions and are not checked here. With DRAUGHTSDB_DEEP_SEARCH set it
// also checks the d12 columns (both moves searched at depth 12: the child
// after each at depth 11), about two minutes.
func TestGameOrderDiffsIndependent(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	deep := os.Getenv("DRAUGHTSDB_DEEP_SEARCH") != ""
	const file = "testdata/gameorder_diffs.tsv"
	rows := tsvRows(t, file)
	for i, c := range rows {
		if len(c) < 11 {
			t.Fatalf("%s: row %d: %d columns", file, i+1, len(c))
		}
		v, err := rules.VariantByName(c[0])
		if err != nil {
			t.Fatalf("%s: row %d: %v", file, i+1, err)
		}
		pos, err := rules.ParseFEN(v, c[3])
		if err != nil {
			t.Fatalf("%s: row %d: %v", file, i+1, err)
		}
		score, err := strconv.Atoi(c[5])
		if err != nil {
			t.Fatalf("%s: row %d: score: %v", file, i+1, err)
		}
		r := search.Search(pos, search.Options{Depth: 8, HandSet: true}, nil)
		if best := hub.FormatMove(&r.Best); best != c[4] || r.Score != score {
			t.Errorf("%s: row %d: %s %s: best %s score %d, the list has f6de099's %s %d", file, i+1, c[0], c[3], best, r.Score, c[4], score)
		}
		if deep {
			for k, mv := range []string{c[4], c[6]} {
				if got, want := depth12(t, pos, mv), c[9+k]; got != want {
					t.Errorf("%s: row %d: %s %s: %s at depth 12 scores %s, the list says %s", file, i+1, c[0], c[3], mv, got, want)
				}
			}
		}
	}
	if len(rows) != 130 {
		t.Errorf("%s: %d positions, the search package's doc says 130", file, len(rows))
	}
}

// depth12 is the score of move mv (Hub notation) of pos searched at depth
// 12: minus the score of the position after it at depth 11.
func depth12(t *testing.T, pos rules.Position, mv string) string {
	for _, m := range pos.LegalMoves(nil) {
		if hub.FormatMove(&m) == mv {
			child := pos
			child.Play(&m)
			return strconv.Itoa(-search.Search(child, search.Options{Depth: 11, HandSet: true}, nil).Score)
		}
	}
	t.Fatalf("%s: no legal move %s", pos.FEN(), mv)
	return ""
}

// TestGameOrderDiffsExternal keeps testdata/gameorder_diffs_external.tsv,
// two other engines' reading of the positions of gameorder_diffs.tsv, true
// to that list (the same positions and moves, in the same order) and to
// the counts the package documentation gives: each row's "prefers" column
// must follow from its two scores, and doc.go must state the counts of
// the file as it is.
func TestGameOrderDiffsExternal(t *testing.T) {
	type key struct{ variant, game, ply, old, new string }
	var want []key
	for _, c := range tsvRows(t, "testdata/gameorder_diffs.tsv") {
		want = append(want, key{c[0], c[1], c[2], c[4], c[6]})
	}
	const file = "testdata/gameorder_diffs_external.tsv"
	rows := tsvRows(t, file)
	if len(rows) != len(want) {
		t.Fatalf("%s: %d positions, gameorder_diffs.tsv has %d", file, len(rows), len(want))
	}
	type tally struct {
		engine, variant       string
		n, newer, older, same int
	}
	var tallies []*tally
	for i, c := range rows {
		if len(c) < 12 {
			t.Fatalf("%s: row %d: %d columns", file, i+1, len(c))
		}
		if k := (key{c[0], c[1], c[2], c[3], c[4]}); k != want[i] {
			t.Fatalf("%s: row %d is %v, gameorder_diffs.tsv has %v there", file, i+1, k, want[i])
		}
		old, err1 := strconv.Atoi(c[8])
		nw, err2 := strconv.Atoi(c[9])
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: row %d: scores %q %q", file, i+1, c[8], c[9])
		}
		prefers := "neither"
		switch {
		case nw > old:
			prefers = "game order"
		case old > nw:
			prefers = "f6de099"
		}
		if c[10] != prefers {
			t.Errorf("%s: row %d: prefers %q, its scores (%d, %d) say %q", file, i+1, c[10], old, nw, prefers)
		}
		if len(tallies) == 0 || tallies[len(tallies)-1].engine != c[5] || tallies[len(tallies)-1].variant != c[0] {
			tallies = append(tallies, &tally{engine: c[5], variant: c[0]})
		}
		tl := tallies[len(tallies)-1]
		tl.n++
		switch prefers {
		case "game order":
			tl.newer++
		case "f6de099":
			tl.older++
		default:
			tl.same++
		}
	}
	// The counts are quoted in BENCHMARKS.md, with the other measured
	// comparisons of the search.
	doc, err := os.ReadFile("../../BENCHMARKS.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	for _, tl := range tallies {
		s := fmt.Sprintf("%s on the %d %s positions prefers the game-order move in %d, f6de099's in %d, neither in %d",
			tl.engine, tl.n, tl.variant, tl.newer, tl.older, tl.same)
		if !strings.Contains(text, s) {
			t.Errorf("BENCHMARKS.md does not say %q (%s as it is)", s, file)
		}
	}
}

// tsvRows returns the rows of a testdata list, less comments and header.
func tsvRows(t *testing.T, file string) [][]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		c := strings.Split(line, "\t")
		if strings.HasPrefix(line, "#") || c[0] == "variant" {
			continue
		}
		rows = append(rows, c)
	}
	return rows
}
