package queries_test

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/jackc/pgx/v5/pgxpool"
)

// tally is one move's results, counted in Go.
type tally struct{ games, white, draws, black int }

func (t *tally) add(r replay.Result) {
	t.games++
	switch r {
	case replay.WhiteWins:
		t.white++
	case replay.Draw:
		t.draws++
	case replay.BlackWins:
		t.black++
	}
}

// goTree is the independent opening tree: for each (variant, position) the
// next moves of the games' first 40 plies (short text in the variant's
// notation) with their results, each game counted once per position (at
// its first visit).
type goTree map[string]map[string]*tally

func treeKey(v *rules.Variant, h uint64) string { return fmt.Sprintf("%s/%x", v.Name, h) }

func buildTree(games []game) goTree {
	t := goTree{}
	for _, g := range games {
		visited := map[uint64]bool{}
		for ply := 0; ply < len(g.moves) && ply < openings.DefaultDepth; ply++ {
			h := g.hashes[ply]
			if visited[h] {
				continue
			}
			visited[h] = true
			k := treeKey(g.variant, h)
			if t[k] == nil {
				t[k] = map[string]*tally{}
			}
			m := g.short[ply] + "|" + g.algebraic[ply]
			if t[k][m] == nil {
				t[k][m] = &tally{}
			}
			t[k][m].add(g.result)
		}
	}
	return t
}

// checkTree compares the opening_tree query and openings.Tree at pos with
// the Go tree.
func checkTree(t *testing.T, pool *pgxpool.Pool, tree goTree, pos *rules.Position, what string) {
	t.Helper()
	v := pos.Variant()
	want := tree[treeKey(v, pos.Hash())]
	if len(want) == 0 {
		t.Fatalf("%s: the test data has no game through it", what)
	}
	res := run(t, pool, "opening_tree", map[string]string{"variant": v.Name, "hash": strconv.FormatInt(int64(pos.Hash()), 10), "limit": "1000"})
	mv, alg, n, w, d, b, sc := col(t, res, "move"), col(t, res, "algebraic"), col(t, res, "games"), col(t, res, "white_wins"), col(t, res, "draws"), col(t, res, "black_wins"), col(t, res, "score")
	if len(res.Rows) != len(want) {
		t.Errorf("%s: opening_tree has %d moves, replay %d: %v", what, len(res.Rows), len(want), res.Rows)
	}
	for _, row := range res.Rows {
		x := want[row[mv]+"|"+row[alg]]
		if x == nil {
			t.Errorf("%s: opening_tree move %s (%s) not in the replay", what, row[mv], row[alg])
			continue
		}
		got := row[n] + " " + row[w] + " " + row[d] + " " + row[b]
		if exp := fmt.Sprintf("%d %d %d %d", x.games, x.white, x.draws, x.black); got != exp {
			t.Errorf("%s %s: opening_tree %s, replay %s", what, row[mv], got, exp)
		}
		if decided := x.white + x.draws + x.black; decided > 0 {
			exp := fmt.Sprintf("%.1f", 100*(float64(x.white)+float64(x.draws)/2)/float64(decided))
			if row[sc] != exp {
				t.Errorf("%s %s: score %s, replay %s", what, row[mv], row[sc], exp)
			}
		}
	}

	node, err := openings.Tree(context.Background(), pool, pos)
	if err != nil {
		t.Fatal(err)
	}
	if len(node.Branch) != len(want) {
		t.Errorf("%s: openings.Tree has %d moves, replay %d", what, len(node.Branch), len(want))
	}
	total := 0
	for _, x := range want {
		total += x.games
	}
	if node.Games != int64(total) {
		t.Errorf("%s: openings.Tree counts %d games, replay %d", what, node.Games, total)
	}
	for i, br := range node.Branch {
		// The replay keys moves by start and end; the tree writes full
		// paths where two captures share them.
		x := want[rules.FormatMove(v, &br.Move, v.DefaultNotation, false)+"|"+rules.FormatMove(v, &br.Move, rules.Algebraic, false)]
		if x == nil {
			t.Errorf("%s: openings.Tree move %s (%s) not in the replay", what, br.Text, br.Algebraic)
			continue
		}
		if br.Games != int64(x.games) || br.WhiteWins != int64(x.white) || br.Draws != int64(x.draws) || br.BlackWins != int64(x.black) {
			t.Errorf("%s %s: openings.Tree %+v, replay %+v", what, br.Text, br, *x)
		}
		if i > 0 && br.Games > node.Branch[i-1].Games {
			t.Errorf("%s: not ordered by games", what)
		}
		child := *pos
		child.Play(&br.Move)
		if child.Hash() != br.Child {
			t.Errorf("%s %s: child hash %x, playing the move gives %x", what, br.Text, br.Child, child.Hash())
		}
	}
}

func TestOpeningsAgreeWithReplay(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	pool, games, _ := setup(t)
	tree := buildTree(games)
	ctx := context.Background()

	t.Run("initial positions", func(t *testing.T) {
		seen := map[*rules.Variant]bool{}
		for _, g := range games {
			if g.fromStart && !seen[g.variant] {
				seen[g.variant] = true
				start := g.variant.StartPosition()
				checkTree(t, pool, tree, &start, g.variant.Name+" start")
			}
		}
		if len(seen) < 3 {
			t.Fatalf("variants from the start: %v", seen)
		}
	})

	t.Run("international after 32-28", func(t *testing.T) {
		pos, err := replay.PositionAfter(rules.International, "", []string{"32-28"})
		if err != nil {
			t.Fatal(err)
		}
		checkTree(t, pool, tree, &pos, "international 32-28")
	})

	t.Run("transposition", func(t *testing.T) {
		// A position two games reach by different move orders, with a move
		// played from it within the counted plies.
		type seenAt struct {
			game  int
			order string
		}
		first := map[string]seenAt{}
		var pos *rules.Position
		var orders [2]string
	search:
		for gi, g := range games {
			if !g.fromStart {
				continue
			}
			for ply := 1; ply < len(g.moves) && ply < openings.DefaultDepth; ply++ {
				k := treeKey(g.variant, g.hashes[ply])
				order := strings.Join(g.moves[:ply], " ")
				if s, ok := first[k]; ok && s.game != gi && s.order != order {
					p, err := replay.PositionAfter(g.variant, "", g.moves[:ply])
					if err != nil {
						t.Fatal(err)
					}
					pos, orders = &p, [2]string{s.order, order}
					break search
				}
				if _, ok := first[k]; !ok {
					first[k] = seenAt{gi, order}
				}
			}
		}
		if pos == nil {
			t.Fatal("no transposition in the test data")
		}
		t.Logf("transposition: %q and %q", orders[0], orders[1])
		checkTree(t, pool, tree, pos, "transposition")
		// Every game through the position counts, by either move order.
		n := 0
		for _, x := range tree[treeKey(pos.Variant(), pos.Hash())] {
			n += x.games
		}
		if n < 2 {
			t.Fatalf("transposed position has %d games", n)
		}
	})

	t.Run("names and mean evaluations", func(t *testing.T) {
		start := rules.Russian.StartPosition()
		node, err := openings.Tree(ctx, pool, &start)
		if err != nil {
			t.Fatal(err)
		}
		named := 0
		for _, b := range node.Branch {
			if b.Name != "" {
				named++
				t.Logf("russian %s: %s", b.Text, b.Name)
			}
		}
		if named == 0 {
			t.Errorf("no first move of the Russian games is named: %+v", node.Branch)
		}
		// Two engines evaluated the position after White's most played
		// first move at +0.40 and +0.60 for Black (to move there): the
		// tree shows -0.50 from White's view.
		intl := rules.International.StartPosition()
		node, err = openings.Tree(ctx, pool, &intl)
		if err != nil {
			t.Fatal(err)
		}
		child := node.Branch[0].Child
		for i, score := range []int{40, 60} {
			if _, err := pool.Exec(ctx, `INSERT INTO evaluations (variant, hash, engine, setting, score, mate, depth, pv, nodes, time_ms, engine_version)
				VALUES (20, $1, $2, 'depth=4', $3, false, 4, '', 1, 1, 'test')`, int64(child), fmt.Sprint("engine", i), score); err != nil {
				t.Fatal(err)
			}
		}
		node, err = openings.Tree(ctx, pool, &intl)
		if err != nil {
			t.Fatal(err)
		}
		b := node.Branch[0]
		if b.Eval == nil || *b.Eval != -0.5 || b.EvalCount != 2 {
			t.Errorf("%s: eval %v over %d, want -0.50 over 2", b.Text, b.Eval, b.EvalCount)
		}
		if node.Branch[1].Eval != nil {
			t.Errorf("%s has an evaluation", node.Branch[1].Text)
		}
	})

	t.Run("games_by_opening", func(t *testing.T) {
		for _, c := range []struct {
			v     *rules.Variant
			moves string
		}{{rules.International, "32-28 19-23"}, {rules.International, "33-28"}, {rules.Russian, "c3-d4"}} {
			line, err := replay.PlayLine(c.v, "", strings.Fields(c.moves))
			if err != nil {
				t.Fatal(err)
			}
			numeric := make([]string, len(line.Moves))
			for i := range line.Moves {
				numeric[i] = rules.FormatMove(c.v, &line.Moves[i], rules.Numeric, true)
			}
			want := 0
			for _, g := range games {
				if g.variant == c.v && g.fromStart && len(g.moves) >= len(numeric) && strings.Join(g.moves[:len(numeric)], " ") == strings.Join(numeric, " ") {
					want++
				}
			}
			for _, hash := range []string{strconv.FormatInt(int64(line.Final.Hash()), 10), ""} {
				res := run(t, pool, "games_by_opening", map[string]string{"variant": c.v.Name,
					"moves": strings.Join(numeric, " "), "hash": hash, "limit": "100000"})
				if len(res.Rows) != want || want == 0 {
					t.Errorf("%s %s (hash %q): %d games, replay %d", c.v.Name, c.moves, hash, len(res.Rows), want)
				}
			}
		}
	})

	t.Run("opening_stats", func(t *testing.T) {
		for _, v := range []*rules.Variant{rules.International, rules.Russian} {
			for _, n := range []int{1, 2, 3} {
				want := map[string]*tally{}
				for _, g := range games {
					if g.variant == v && g.fromStart && len(g.moves) >= n {
						k := strings.Join(g.ownFull[:n], " ")
						if want[k] == nil {
							want[k] = &tally{}
						}
						want[k].add(g.result)
					}
				}
				res := run(t, pool, "opening_stats", map[string]string{"variant": v.Name, "n": strconv.Itoa(n), "limit": "100000"})
				mv, cnt, w, d, b := col(t, res, "moves"), col(t, res, "games"), col(t, res, "white_wins"), col(t, res, "draws"), col(t, res, "black_wins")
				if len(res.Rows) != len(want) {
					t.Errorf("%s n=%d: %d openings, replay %d", v.Name, n, len(res.Rows), len(want))
				}
				for _, row := range res.Rows {
					x := want[row[mv]]
					if x == nil {
						t.Errorf("%s n=%d: %q not in the replay", v.Name, n, row[mv])
						continue
					}
					if got, exp := row[cnt]+" "+row[w]+" "+row[d]+" "+row[b], fmt.Sprintf("%d %d %d %d", x.games, x.white, x.draws, x.black); got != exp {
						t.Errorf("%s n=%d %s: %s, replay %s", v.Name, n, row[mv], got, exp)
					}
				}
			}
		}
	})

	t.Run("exact after --force and a deleted source", func(t *testing.T) {
		start := rules.International.StartPosition()
		before, err := openings.Tree(ctx, pool, &start)
		if err != nil {
			t.Fatal(err)
		}
		sum, err := ingest.Import(ctx, pool, inputs[:1], ingest.Options{Force: true, BatchSize: 97})
		if err != nil || sum.Imported == 0 {
			t.Fatalf("re-import: %+v %v", sum, err)
		}
		after, err := openings.Tree(ctx, pool, &start)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(summarise(before)) != fmt.Sprint(summarise(after)) {
			t.Fatalf("tree changed by --force:\n%v\n%v", summarise(before), summarise(after))
		}
		checkTree(t, pool, tree, &start, "international start after --force")
		// Remove the Russian source: its games leave the statistics.
		if _, err := pool.Exec(ctx, `DELETE FROM sources WHERE name LIKE '%online/russian.pdn.gz'`); err != nil {
			t.Fatal(err)
		}
		var rest []game
		for _, g := range games {
			if !strings.HasSuffix(g.source, "online/russian.pdn.gz") {
				rest = append(rest, g)
			}
		}
		if len(rest) == len(games) {
			t.Fatal("no game from online/russian.pdn.gz")
		}
		russian := rules.Russian.StartPosition()
		checkTree(t, pool, buildTree(rest), &russian, "russian start without online/russian.pdn.gz")
	})
}

func summarise(n *openings.Node) []string {
	var out []string
	for _, b := range n.Branch {
		out = append(out, fmt.Sprintf("%s:%d/%d/%d/%d", b.Text, b.Games, b.WhiteWins, b.Draws, b.BlackWins))
	}
	sort.Strings(out)
	return out
}

// TestOpeningsWalk: the walk visits each position with enough games once,
// and its branches are the trees of those positions.
func TestOpeningsWalk(t *testing.T) {
	t.Parallel()
	pool, games, _ := setup(t)
	tree := buildTree(games)
	start := rules.International.StartPosition()
	visited := map[uint64]int{}
	err := openings.Walk(context.Background(), pool, &start, 20, 4, func(ply int, node *openings.Node) error {
		visited[node.Hash]++
		if ply > 4 {
			t.Errorf("ply %d beyond 4", ply)
		}
		want := tree[treeKey(rules.International, node.Hash)]
		if len(node.Branch) != len(want) {
			t.Errorf("%s: %d branches, replay %d", node.FEN, len(node.Branch), len(want))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Independently: positions within 4 plies reached through moves played
	// at least 20 times.
	want := map[uint64]bool{start.Hash(): true}
	frontier := []uint64{start.Hash()}
	for ply := 0; ply < 4; ply++ {
		var next []uint64
		for _, h := range frontier {
			for _, g := range games {
				if g.variant != rules.International {
					continue
				}
				for i := 0; i < len(g.moves) && i < openings.DefaultDepth; i++ {
					if g.hashes[i] == h {
						x := tree[treeKey(g.variant, h)][g.short[i]+"|"+g.algebraic[i]]
						if c := g.hashes[i+1]; x.games >= 20 && !want[c] {
							want[c] = true
							next = append(next, c)
						}
						break
					}
				}
			}
		}
		frontier = next
	}
	for h := range want {
		if len(tree[treeKey(rules.International, h)]) > 0 && visited[h] != 1 {
			t.Errorf("position %x visited %d times", h, visited[h])
		}
	}
	for h, n := range visited {
		if !want[h] || n != 1 {
			t.Errorf("visited %x %d times, expected %v", h, n, want[h])
		}
	}
	if len(visited) < 5 {
		t.Errorf("only %d positions", len(visited))
	}
}
