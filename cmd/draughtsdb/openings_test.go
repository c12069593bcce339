package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// TestOpeningsCommand: `openings --format json` prints the tree that
// openings.Tree computes (queries/openings_test.go checks that against an
// independent replay of the PDN), with the keys the users' scripts read,
// and the table names the position.
func TestOpeningsCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	url := pgtest.NewDBURL(t)
	if _, err := runCLI(t, "import", "--database-url", url, "--quiet", "../../ingest/pdn/testdata/shared/international"); err != nil {
		t.Fatal(err)
	}
	out, err := runCLIStdout(t, "openings", "--database-url", url, "--variant", "international", "--moves", "32-28", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}

	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	pos, err := replay.PositionAfter(rules.International, "", []string{"32-28"})
	if err != nil {
		t.Fatal(err)
	}
	node, err := openings.Tree(context.Background(), pool, &pos)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(node.Branch) || len(got) < 5 {
		t.Fatalf("%d moves printed, the tree has %d", len(got), len(node.Branch))
	}
	for i, b := range node.Branch {
		g := got[i]
		for _, k := range []string{"move", "algebraic", "games", "white_wins", "draws", "black_wins", "score"} {
			if _, ok := g[k]; !ok {
				t.Fatalf("object %d lacks %q: %v", i, k, g)
			}
		}
		if g["move"] != b.Text || g["algebraic"] != b.Algebraic || g["games"] != float64(b.Games) ||
			g["white_wins"] != float64(b.WhiteWins) || g["draws"] != float64(b.Draws) || g["black_wins"] != float64(b.BlackWins) {
			t.Errorf("printed %v, tree %+v", g, b)
		}
	}
	// The most played reply in the Moby Dam files (127 of 454 games; 125 of
	// 450 when games that differ in Event were taken for duplicates:
	// sur11.pdn's "159A.DAM" and "162.DAM", for one).
	if got[0]["move"] != "19-23" || got[0]["algebraic"] != "g7-f6" || got[0]["games"] != 127.0 {
		t.Errorf("first move %v", got[0])
	}

	table, err := runCLIStdout(t, "openings", "--database-url", url, "--variant", "international", "--limit", "3")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(table), "\n")
	if !strings.HasPrefix(lines[0], "international, initial position: ") || !strings.Contains(lines[1], "white_wins") || !strings.HasPrefix(lines[3], "32-28") {
		t.Errorf("table:\n%s", table)
	}

	if _, err := runCLI(t, "openings", "--database-url", url, "--variant", "international", "--moves", "32-23"); err == nil || !strings.Contains(err.Error(), "32-23") {
		t.Errorf("an illegal move: %v", err)
	}
	// The help says 0 = all; a negative limit was taken for 0.
	if _, err := runCLI(t, "openings", "--database-url", url, "--variant", "international", "--limit", "-1"); err == nil || !strings.Contains(err.Error(), "--limit -1") {
		t.Errorf("--limit -1: %v", err)
	}

	// The notes: a source not counted, and a position past the depth.
	if cov, err := openings.ReadCoverage(context.Background(), pool, rules.International); err != nil || cov.Depth != openings.DefaultDepth || cov.Uncounted != 0 {
		t.Fatalf("coverage %+v %v", cov, err)
	}
	if _, err := pool.Exec(context.Background(), `UPDATE sources SET opening_depth = NULL WHERE id = (SELECT min(id) FROM sources)`); err != nil {
		t.Fatal(err)
	}
	noted, err := runCLI(t, "openings", "--database-url", url, "--variant", "international")
	if err != nil || !strings.Contains(noted, "1 source(s) were imported before draughtsdb kept opening statistics") {
		t.Errorf("uncounted source: %v\n%s", err, noted)
	}
}

// TestOpeningsCoverageIsPerVariant: the depth and the uncounted sources
// the notes of `openings --variant V` speak of are those of the sources
// holding games of V: an International source imported with
// --opening-depth 4 made an English position at ply 5 say English was
// counted to 4 plies. db rebuild-openings recounts what is not at its depth.
func TestOpeningsCoverageIsPerVariant(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	url := pgtest.NewDBURL(t)
	const shared = "../../ingest/pdn/testdata/shared"
	if _, err := runCLI(t, "import", "--database-url", url, "--quiet", shared+"/testsuite/succeed/Tricks traps and shots.pdn.gz"); err != nil {
		t.Fatal(err)
	}
	if _, err := runCLI(t, "import", "--database-url", url, "--quiet", "--opening-depth", "4", shared+"/international"); err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	ctx := context.Background()
	check := func(when string, v *rules.Variant, want openings.Coverage) {
		t.Helper()
		if cov, err := openings.ReadCoverage(ctx, pool, v); err != nil || cov != want {
			t.Errorf("%s: coverage of %s %+v (%v), want %+v", when, v, cov, err, want)
		}
	}
	const english = "11-15 23-19 8-11 22-17 9-13"
	notes := func(variant, moves string) string {
		t.Helper()
		out, err := runCLI(t, "openings", "--database-url", url, "--variant", variant, "--moves", moves)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	check("imported", rules.English, openings.Coverage{Depth: openings.DefaultDepth})
	check("imported", rules.International, openings.Coverage{Depth: 4})
	check("imported", rules.Russian, openings.Coverage{})
	if out := notes("english", english); strings.Contains(out, "note:") {
		t.Errorf("english at ply 5:\n%s", out)
	}
	if out := notes("international", "32-28 19-23 28x19 14x23"); !strings.Contains(out, "count the first 4 plies") {
		t.Errorf("international at ply 4:\n%s", out)
	}

	// The English source uncounted: English's note, not International's.
	if _, err := pool.Exec(ctx, `DELETE FROM opening_index WHERE source_id IN (SELECT source_id FROM games WHERE variant = 21);
		UPDATE sources SET opening_depth = NULL WHERE id IN (SELECT source_id FROM games WHERE variant = 21)`); err != nil {
		t.Fatal(err)
	}
	check("English uncounted", rules.English, openings.Coverage{Uncounted: 1})
	check("English uncounted", rules.International, openings.Coverage{Depth: 4})
	if out := notes("english", english); !strings.Contains(out, "1 source(s) were imported before") {
		t.Errorf("english uncounted:\n%s", out)
	}
	if out := notes("international", "32-28"); strings.Contains(out, "note:") {
		t.Errorf("international, English uncounted:\n%s", out)
	}

	// rebuild-openings counts both to its depth.
	if _, err := runCLI(t, "db", "rebuild-openings", "--database-url", url, "--quiet"); err != nil {
		t.Fatal(err)
	}
	check("rebuilt", rules.English, openings.Coverage{Depth: openings.DefaultDepth})
	check("rebuilt", rules.International, openings.Coverage{Depth: openings.DefaultDepth})
	if out := notes("international", "32-28 19-23 28x19 14x23"); strings.Contains(out, "note:") {
		t.Errorf("international rebuilt:\n%s", out)
	}
}

// TestOpeningsOfTheSharedFiles: `import` of every shared file (the copy of
// testdata/pdn in ingest/pdn/testdata/shared), then `openings --variant V`
// for the variants they hold games of from the start (Frisian and Italian
// among them), prints the counts of an independent replay of the files:
// at the initial position and after its most played move.
func TestOpeningsOfTheSharedFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	const dir = "../../ingest/pdn/testdata/shared"
	url := pgtest.NewDBURL(t)
	if _, err := runCLI(t, "import", "--database-url", url, "--quiet", dir); err != nil {
		t.Fatal(err)
	}

	// The replay: every accepted game once (the import stores one of games
	// with the same variant, start, moves, players, date and result, and
	// Event, Site and Round the same wherever both give one), counted at
	// its first two plies from the initial position. ingest.ReplayGames
	// reads each game as the import does (the game alone, then what its
	// source says of the variant of the games that name none).
	srcs, errs := source.Expand([]string{dir})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	type tally struct{ games, white, draws, black int }
	count := map[string]map[string]*tally{} // variant/position -> move -> results
	type header struct {
		result             replay.Result
		event, site, round string
	}
	seen := map[string][]header{}
	err := ingest.ReplayGames(context.Background(), srcs, func(_ *source.Source, pg *pdn.Game, g *replay.Game, err error) error {
		if err != nil || g.StartFEN != "" || len(g.Moves) == 0 {
			return nil
		}
		key := []string{g.Variant.Name, g.White, g.Black, g.Date}
		for i := range g.Moves {
			key = append(key, rules.FormatMove(g.Variant, &g.Moves[i], rules.Numeric, true))
		}
		h := header{g.Result, pg.Tag("Event"), pg.Tag("Site"), pg.Tag("Round")}
		agree := func(a, b string) bool {
			a, b = strings.TrimSpace(a), strings.TrimSpace(b)
			return a == "" || a == "?" || a == "-" || b == "" || b == "?" || b == "-" || strings.EqualFold(a, b)
		}
		k := strings.Join(key, "|")
		for _, o := range seen[k] {
			if o.result == h.result && agree(o.event, h.event) && agree(o.site, h.site) && agree(o.round, h.round) {
				return nil
			}
		}
		seen[k] = append(seen[k], h)
		pos, line := g.Start, ""
		for ply := 0; ply < 2 && ply < len(g.Moves); ply++ {
			k := g.Variant.Name + "/" + line
			if count[k] == nil {
				count[k] = map[string]*tally{}
			}
			m := &g.Moves[ply]
			text := rules.FormatMove(g.Variant, m, g.Variant.DefaultNotation, rules.Ambiguous(pos.LegalMoves(nil), m))
			x := count[k][text]
			if x == nil {
				x = &tally{}
				count[k][text] = x
			}
			x.games++
			switch g.Result {
			case replay.WhiteWins:
				x.white++
			case replay.Draw:
				x.draws++
			case replay.BlackWins:
				x.black++
			}
			pos.Play(m)
			line = strings.TrimSpace(line + " " + text)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	checked := map[string]bool{}
	for _, v := range rules.Variants() {
		start := count[v.Name+"/"]
		if len(start) == 0 {
			continue
		}
		most := ""
		for m, x := range start {
			if most == "" || x.games > start[most].games || x.games == start[most].games && m < most {
				most = m
			}
		}
		for _, line := range []string{"", most} {
			want := count[v.Name+"/"+line]
			args := []string{"openings", "--database-url", url, "--variant", v.Name, "--format", "json", "--limit", "1000"}
			if line != "" {
				args = append(args, "--moves", line)
			}
			out, err := runCLIStdout(t, args...)
			if err != nil {
				t.Fatalf("%s: %v", strings.Join(args, " "), err)
			}
			var got []struct {
				Move  string `json:"move"`
				Games int    `json:"games"`
				White int    `json:"white_wins"`
				Draws int    `json:"draws"`
				Black int    `json:"black_wins"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%s: %v: %s", v.Name, err, out)
			}
			if len(got) != len(want) {
				t.Errorf("%s after %q: %d moves printed, the replay has %d", v.Name, line, len(got), len(want))
			}
			for _, b := range got {
				x := want[b.Move]
				if x == nil || b.Games != x.games || b.White != x.white || b.Draws != x.draws || b.Black != x.black {
					t.Errorf("%s after %q: printed %s %d games %d/%d/%d, replay %+v", v.Name, line, b.Move, b.Games, b.White, b.Draws, b.Black, x)
				}
			}
		}
		checked[v.Name] = true
	}
	t.Logf("variants checked: %v", checked)
	for _, v := range []string{"frisian", "italian", "international", "english", "russian"} {
		if !checked[v] {
			t.Errorf("no %s game from the initial position in %s", v, dir)
		}
	}
}
