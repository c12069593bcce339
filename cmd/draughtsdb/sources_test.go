package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

const sharedInternational = "../../ingest/pdn/testdata/shared/international"

// treeJSON runs openings --format json and returns the moves by their
// text with their counts.
func treeJSON(t *testing.T, url string, args ...string) map[string][5]int64 {
	t.Helper()
	out, err := runCLIStdout(t, append([]string{"openings", "--database-url", url, "--variant", "international", "--format", "json"}, args...)...)
	if err != nil {
		t.Fatalf("openings %v: %v", args, err)
	}
	var moves []struct {
		Move       string `json:"move"`
		Games      int64  `json:"games"`
		WhiteWins  int64  `json:"white_wins"`
		Draws      int64  `json:"draws"`
		BlackWins  int64  `json:"black_wins"`
		Unfinished *int64 `json:"unfinished"`
	}
	if err := json.Unmarshal([]byte(out), &moves); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	got := map[string][5]int64{}
	for _, m := range moves {
		if m.Unfinished == nil {
			t.Fatalf("openings %v: %s has no key unfinished: %s", args, m.Move, out)
		}
		if m.Games != m.WhiteWins+m.Draws+m.BlackWins+*m.Unfinished {
			t.Errorf("openings %v: %s: %d games, %d+%d+%d+%d by result", args, m.Move, m.Games, m.WhiteWins, m.Draws, m.BlackWins, *m.Unfinished)
		}
		got[m.Move] = [5]int64{m.Games, m.WhiteWins, m.Draws, m.BlackWins, *m.Unfinished}
	}
	return got
}

type listedSource struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	Games      int64  `json:"games"`
	Rejected   int64  `json:"rejected"`
	Duplicates int64  `json:"duplicates"`
	ImportedAt string `json:"imported_at"`
}

func listSources(t *testing.T, url string) []listedSource {
	t.Helper()
	out, err := runCLIStdout(t, "sources", "--database-url", url, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var raw []map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := []string{"duplicates", "games", "id", "imported_at", "kind", "name", "rejected"}
	for _, o := range raw {
		var keys []string
		for k := range o {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if !reflect.DeepEqual(keys, want) {
			t.Fatalf("sources --json object keys %v, want exactly %v", keys, want)
		}
	}
	var list []listedSource
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	return list
}

func countRows(t *testing.T, pool *pgxpool.Pool, sql string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// TestSourcesListRemoveRenameAndKinds: sources lists what each source
// holds; removing one leaves every table without its rows and every tree
// equal to the tree of the other sources before; re-importing it restores
// the trees; a match source (ingest.Append, as draughtsdb match stores
// games) is left out of the opening tree and the named queries unless
// --source asks for it; unfinished counts agree with the games.
func TestSourcesListRemoveRenameAndKinds(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	ctx := context.Background()
	url := pgtest.NewDBURL(t)
	if _, err := runCLI(t, "import", "--database-url", url, "--quiet", sharedInternational); err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()

	list := listSources(t, url)
	if len(list) < 3 {
		t.Fatalf("%d sources listed", len(list))
	}
	var total int64
	for _, s := range list {
		if s.Kind != "archive" {
			t.Errorf("source %d %s: kind %q, want archive", s.ID, s.Name, s.Kind)
		}
		if got := countRows(t, pool, `SELECT count(*) FROM games WHERE source_id = $1`, s.ID); got != s.Games {
			t.Errorf("source %d: %d games listed, %d stored", s.ID, s.Games, got)
		}
		total += s.Games
	}
	if all := countRows(t, pool, `SELECT count(*) FROM games`); all != total {
		t.Fatalf("listed %d games in all, %d stored", total, all)
	}

	// The source with the most games leaves; the others' tree, counted
	// before with --source IDS, is the tree after.
	victim := list[0]
	var others []string
	for _, s := range list {
		if s.Games > victim.Games {
			victim = s
		}
	}
	for _, s := range list {
		if s.ID != victim.ID {
			others = append(others, strconv.FormatInt(s.ID, 10))
		}
	}
	lines := [][]string{nil, {"--moves", "32-28"}, {"--moves", "1. 32-28 19-23 2. 28x19 14x23"}, {"--moves", "33-28"}}
	before := map[int]map[string][5]int64{}
	othersBefore := map[int]map[string][5]int64{}
	for i, l := range lines {
		before[i] = treeJSON(t, url, l...)
		othersBefore[i] = treeJSON(t, url, append(l, "--source", strings.Join(others, ","))...)
		if len(before[i]) == 0 {
			t.Fatalf("empty tree at %v", l)
		}
	}
	if reflect.DeepEqual(before[0], othersBefore[0]) {
		t.Fatalf("source %d with %d games changes nothing in the tree at the start", victim.ID, victim.Games)
	}
	out, err := runCLIStdout(t, "sources", "remove", "--database-url", url, victim.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, fmt.Sprintf("removed source %d", victim.ID)) || !strings.Contains(out, fmt.Sprintf("%d games", victim.Games)) {
		t.Errorf("remove printed %q", out)
	}
	for _, table := range []string{"games", "position_index", "opening_index", "rejected_games", "duplicates"} {
		if n := countRows(t, pool, `SELECT count(*) FROM `+table+` WHERE source_id = $1`, victim.ID); n != 0 {
			t.Errorf("%s keeps %d rows of the removed source", table, n)
		}
	}
	for i, l := range lines {
		if got := treeJSON(t, url, l...); !reflect.DeepEqual(got, othersBefore[i]) {
			t.Errorf("tree at %v after the removal:\n%v\nwant the other sources' tree before:\n%v", l, got, othersBefore[i])
		}
	}
	if _, err := runCLI(t, "sources", "remove", "--database-url", url, strconv.FormatInt(victim.ID, 10)); err == nil || !strings.Contains(err.Error(), "no such source") {
		t.Errorf("removing it again: %v, want no such source", err)
	}

	// Re-imported, the trees are what they were.
	if _, err := runCLI(t, "import", "--database-url", url, "--quiet", sharedInternational); err != nil {
		t.Fatal(err)
	}
	for i, l := range lines {
		if got := treeJSON(t, url, l...); !reflect.DeepEqual(got, before[i]) {
			t.Errorf("tree at %v after re-importing: %v, want %v", l, got, before[i])
		}
	}

	// A match source: out of the default tree, in --source match and all.
	game := `[Event "m"][GameType "20"][Result "2-0"]` + "\n1. 32-28 19-23 2. 28x19 14x23 2-0\n"
	sum, err := ingest.Append(ctx, pool, "test-match", "match: m", []byte(game), ingest.Options{Variant: rules.International})
	if err != nil || sum.Imported != 1 {
		t.Fatalf("append: %+v, %v", sum, err)
	}
	for i, l := range lines {
		if got := treeJSON(t, url, l...); !reflect.DeepEqual(got, before[i]) {
			t.Errorf("tree at %v with a match stored: %v, want the archive's %v", l, got, before[i])
		}
	}
	m := treeJSON(t, url, "--moves", "32-28", "--source", "match")
	if want := map[string][5]int64{"19-23": {1, 1, 0, 0, 0}}; !reflect.DeepEqual(m, want) {
		t.Errorf("--source match after 32-28: %v, want %v", m, want)
	}
	all := treeJSON(t, url, "--moves", "32-28", "--source", "all")
	if a, b := all["19-23"], before[1]["19-23"]; a[0] != b[0]+1 || a[1] != b[1]+1 {
		t.Errorf("--source all 19-23: %v, archive %v, want one more game and White win", a, b)
	}
	kinds := map[string]int{}
	for _, s := range listSources(t, url) {
		kinds[s.Kind]++
	}
	if kinds["match"] != 1 || kinds["archive"] != len(list) {
		t.Errorf("kinds %v, want %d archive and 1 match", kinds, len(list))
	}
	q, err := runCLIStdout(t, "query", "opening_tree", "--database-url", url, "--param", "variant=international",
		"--param", "moves=32-28", "--param", "source=match", "--format", "csv")
	if err != nil || !strings.Contains(q, "19-23,g7-f6,1,1,0,0,0,") || strings.Count(q, "\n") != 2 {
		t.Errorf("query opening_tree source=match: %v\n%s", err, q)
	}
	if _, err := runCLI(t, "openings", "--database-url", url, "--source", "nosuch"); err == nil || !strings.Contains(err.Error(), "--source nosuch") || !strings.Contains(err.Error(), "'nosuch'") {
		t.Errorf("--source nosuch: %v", err)
	}

	// Unfinished games by first move, counted from the games.
	rows, err := pool.Query(ctx, `SELECT draughtsdb_moves_text(draughtsdb_moves_prefix(g.moves, 1), 20), count(*),
		count(*) FILTER (WHERE g.result NOT IN (1, 2, 3))
		FROM games g JOIN sources s ON s.id = g.source_id
		WHERE s.kind = 'archive' AND g.variant = 20 AND g.start_fen IS NULL AND g.ply_count > 0 GROUP BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	byMove := map[string][2]int64{}
	for rows.Next() {
		var mv string
		var n, u int64
		if err := rows.Scan(&mv, &n, &u); err != nil {
			t.Fatal(err)
		}
		byMove[mv] = [2]int64{n, u}
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	var unfinished int64
	for mv, c := range before[0] {
		if byMove[mv] != [2]int64{c[0], c[4]} {
			t.Errorf("first move %s: tree games/unfinished %d/%d, games table %v", mv, c[0], c[4], byMove[mv])
		}
		unfinished += c[4]
	}
	if unfinished == 0 {
		t.Fatal("no unfinished game in the shared archives: the check above proves nothing")
	}
	table, err := runCLIStdout(t, "openings", "--database-url", url, "--variant", "international")
	if err != nil || !strings.Contains(table, fmt.Sprintf(", %d of them unfinished (no result)", unfinished)) || !strings.Contains(table, "unfinished") {
		t.Errorf("table: %v\n%s", err, table)
	}

	// Rename.
	if _, err := runCLI(t, "sources", "rename", "--database-url", url, "match: m", "engines"); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range listSources(t, url) {
		found = found || (s.Name == "engines" && s.Kind == "match")
	}
	if !found {
		t.Error("renamed source not listed as engines")
	}
}

// TestExportAtPositionAndSource: export --moves (PDN move text) and --fen
// give exactly the games whose replay passes through the position, by any
// move order, of the archive sources unless --source says otherwise; an
// --out extension that names no format is an error.
func TestExportAtPositionAndSource(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	ctx := context.Background()
	url := pgtest.NewDBURL(t)
	if _, err := runCLI(t, "import", "--database-url", url, "--quiet", sharedInternational); err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	game := `[Event "m"][GameType "20"][Result "2-0"]` + "\n1. 34-30 17-21 2. 31-26 2-0\n"
	if _, err := ingest.Append(ctx, pool, "test-match", "match: m", []byte(game), ingest.Options{Variant: rules.International}); err != nil {
		t.Fatal(err)
	}

	// The games reaching the position after 33-28 18-23 31-27, found by
	// replaying every stored game here.
	target, err := replay.PositionAfter(rules.International, "", []string{"33-28", "18-23", "31-27"})
	if err != nil {
		t.Fatal(err)
	}
	reach := func(kind string) map[int64]bool {
		rows, err := pool.Query(ctx, `SELECT g.id, coalesce(g.start_fen, ''), g.moves FROM games g JOIN sources s ON s.id = g.source_id
			WHERE g.variant = 20 AND s.kind = $1`, kind)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[int64]bool{}
		for rows.Next() {
			var id int64
			var fen string
			var moves []byte
			if err := rows.Scan(&id, &fen, &moves); err != nil {
				t.Fatal(err)
			}
			dg, err := codec.Decode(rules.International, fen, moves)
			if err != nil {
				t.Fatal(err)
			}
			pos := *dg.Start()
			hit := pos.Hash() == target.Hash()
			for i := range dg.Moves {
				pos.Play(&dg.Moves[i])
				hit = hit || pos.Hash() == target.Hash()
			}
			if hit {
				out[id] = true
			}
		}
		if rows.Err() != nil {
			t.Fatal(rows.Err())
		}
		return out
	}
	exported := func(args ...string) map[int64]bool {
		t.Helper()
		out, err := runCLIStdout(t, append([]string{"export", "--database-url", url, "--what", "games", "--format", "jsonl", "--out", "-", "--quiet"}, args...)...)
		if err != nil {
			t.Fatalf("export %v: %v", args, err)
		}
		got := map[int64]bool{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if line == "" {
				continue
			}
			var g struct {
				ID int64 `json:"id"`
			}
			if err := json.Unmarshal([]byte(line), &g); err != nil {
				t.Fatalf("%v: %s", err, line)
			}
			got[g.ID] = true
		}
		return got
	}
	want := reach("archive")
	if len(want) < 5 {
		t.Fatalf("only %d games reach the position: the check proves little", len(want))
	}
	for _, args := range [][]string{
		{"--moves", "1. 33-28 18-23 2. 31-27 *"},
		{"--moves", "31-27, 18-23, 33-28", "--variant", "international"}, // another move order
		{"--fen", target.FEN()},
	} {
		if got := exported(args...); !reflect.DeepEqual(got, want) {
			t.Errorf("export %v: %d games, want the %d that reach the position", args, len(got), len(want))
		}
	}
	// With another filter: the longer games among them.
	long := exported("--moves", "33-28 18-23 31-27", "--min-ply", "100")
	if len(long) == 0 || len(long) >= len(want) {
		t.Errorf("--min-ply 100 keeps %d of %d", len(long), len(want))
	}
	for id := range long {
		if !want[id] {
			t.Errorf("--min-ply 100 adds game %d", id)
		}
	}
	// The match game reaches 34-30 17-21 31-26, exported only with
	// --source match.
	m := reach("match")
	if len(m) != 0 {
		t.Fatalf("the match game reaches the target: %v", m)
	}
	after := exported("--moves", "34-30 17-21 31-26", "--source", "match")
	if len(after) != 1 {
		t.Errorf("--source match: %v, want the one match game", after)
	}
	for id := range exported("--moves", "34-30 17-21 31-26") {
		if after[id] {
			t.Errorf("the match game %d is exported without --source match", id)
		}
	}

	// The opening statistics of the match source alone: its one game's
	// three plies.
	ops, err := runCLIStdout(t, "export", "--database-url", url, "--what", "openings", "--variant", "international", "--source", "match",
		"--format", "csv", "--out", "-", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	records := func(text string) [][]string {
		t.Helper()
		r, err := csv.NewReader(strings.NewReader(text)).ReadAll()
		if err != nil || len(r) == 0 {
			t.Fatalf("csv: %v\n%s", err, text)
		}
		return r[1:]
	}
	var plays []string
	for _, f := range records(ops) {
		plays = append(plays, f[1]+":"+f[5]+":"+f[7])
	}
	if want := []string{"0:34-30:1", "1:17-21:1", "2:31-26:1"}; !reflect.DeepEqual(plays, want) {
		t.Errorf("export --what openings --source match: %v, want %v\n%s", plays, want, ops)
	}
	archive, err := runCLIStdout(t, "export", "--database-url", url, "--what", "openings", "--variant", "international", "--max-ply", "1",
		"--format", "csv", "--out", "-", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	tree := treeJSON(t, url)
	var rows [][]string
	for _, f := range records(archive) {
		if f[1] == "0" { // the moves at the initial position
			rows = append(rows, f)
		}
	}
	if len(rows) != len(tree) {
		t.Errorf("export --what openings at ply 0: %d moves, the archive tree %d", len(rows), len(tree))
	}
	for _, f := range rows {
		if f[7] != strconv.FormatInt(tree[f[5]][0], 10) {
			t.Errorf("export --what openings counts %s %s times, the archive tree %d", f[5], f[7], tree[f[5]][0])
		}
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--out", filepath.Join(t.TempDir(), "x.xlsx")}, "--out"},
		{[]string{"--out", "-", "--moves", "32-29"}, `"32-29"`},
		{[]string{"--out", "-", "--source", "12345"}, "--source 12345"},
	} {
		if _, err := runCLI(t, append([]string{"export", "--database-url", url}, c.args...)...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("export %v: %v, want an error naming %s", c.args, err, c.want)
		}
	}
	path := filepath.Join(t.TempDir(), "x.xlsx")
	if _, err := runCLI(t, "export", "--database-url", url, "--format", "csv", "--out", path, "--quiet"); err != nil {
		t.Errorf("--format csv --out x.xlsx: %v", err)
	}
}

// TestMoveTokens: --moves reads move text as pasted from a PDN file.
func TestMoveTokens(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"32-28 19-23", []string{"32-28", "19-23"}},
		{"1. 32-28 19-23 2. 28x19 14x23 *", []string{"32-28", "19-23", "28x19", "14x23"}},
		{"32-28, 19-23, 28x19", []string{"32-28", "19-23", "28x19"}},
		{"1.c3-d4 f6-g5 2.b2-c3 1-0", []string{"c3-d4", "f6-g5", "b2-c3"}},
		{"1. 32-28 {a comment} 19-23! (17-21 $1) 2. 28x19 2-0", []string{"32-28", "19-23", "28x19"}},
		{"", nil},
		{"  ", nil},
	} {
		got, err := moveTokens(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("moveTokens(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	line, err := playMoves(rules.International, "", "1. 32-28 19-23 2. 28x19 14x23")
	if err != nil || len(line.Moves) != 4 {
		t.Fatalf("playMoves: %v", err)
	}
	if _, err := playMoves(rules.International, "", "1. 32-28 19-23 2. 28x18"); err == nil || !strings.Contains(err.Error(), `--moves "1. 32-28 19-23 2. 28x18"`) {
		t.Errorf("an illegal move: %v, want an error naming --moves", err)
	}
}
