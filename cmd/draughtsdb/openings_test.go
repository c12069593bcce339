package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
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
	isolate(t)
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
	// The most played reply in the Moby Dam files (125 of 450 games).
	if got[0]["move"] != "19-23" || got[0]["algebraic"] != "g7-f6" || got[0]["games"] != 125.0 {
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

	// The notes: a source not counted, and a position past the depth.
	if cov, err := openings.ReadCoverage(context.Background(), pool); err != nil || cov.Depth != openings.DefaultDepth || cov.Uncounted != 0 {
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
