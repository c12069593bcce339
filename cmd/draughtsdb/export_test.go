package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

func TestExportCommand(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	url := pgtest.NewDBURL(t)
	if _, err := runCLI(t, "import", "--database-url", url, "--quiet", "testdata/mixed.pdn"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()

	// Games as CSV on standard output.
	out, err := runCLIStdout(t, "export", "--database-url", url, "--what", "games", "--out", "-", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "id,variant,event,") || !strings.Contains(out, "32-28 19-23 28x19 14x23") {
		t.Fatalf("games CSV:\n%s", out)
	}

	// Positions as gzipped JSON lines, the format taken from the name.
	path := filepath.Join(dir, "positions.jsonl.gz")
	msg, err := runCLI(t, "export", "--database-url", url, "--what", "positions", "--variant", "international", "--min-ply", "1", "--out", path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msg, "exported ") || !strings.Contains(msg, "(positions, jsonl)") {
		t.Errorf("summary line: %q", msg)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	n := 0
	for sc.Scan() {
		var row map[string]any
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		if row["variant"] != "international" || row["zobrist"] == nil {
			t.Fatalf("row %s", sc.Text())
		}
		n++
	}
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var want int
	if err := pool.QueryRow(context.Background(), `SELECT sum(ply_count + 1) FROM games WHERE variant = 20 AND ply_count >= 1`).Scan(&want); err != nil {
		t.Fatal(err)
	}
	if n != want || n == 0 {
		t.Errorf("%d position rows, want %d", n, want)
	}

	// PDN, imported again into a fresh database: the same games.
	pdnPath := filepath.Join(dir, "games.pdn")
	if _, err := runCLI(t, "export", "--database-url", url, "--what", "games", "--format", "pdn", "--out", pdnPath, "--json"); err != nil {
		t.Fatal(err)
	}
	url2 := pgtest.NewDBURL(t)
	if _, err := runCLI(t, "import", "--database-url", url2, "--quiet", pdnPath); err != nil {
		t.Fatal(err)
	}
	hashes := func(url string) string {
		p, err := pgxpool.New(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		var s string
		if err := p.QueryRow(context.Background(), `SELECT string_agg(moves_hash::text, ',' ORDER BY moves_hash) FROM games`).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if a, b := hashes(url), hashes(url2); a != b || a == "" {
		t.Errorf("moves_hash before %s, after the PDN round trip %s", a, b)
	}

	// The opening statistics: a header and the first move of each game.
	csvOut, err := runCLIStdout(t, "export", "--database-url", url, "--what", "openings", "--format", "csv", "--max-ply", "0", "--out", "-", "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	lines = strings.Split(strings.TrimSpace(csvOut), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "variant,ply,fen,zobrist,side_to_move,move,algebraic,games,white_wins,draws,black_wins,score,name,eval,eval_count") {
		t.Errorf("--what openings:\n%s", csvOut)
	}

	// Errors.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--what", "openings", "--player", "x", "--out", "-"}, "--what openings takes --variant"},
		{[]string{"--what", "games", "--min-games", "2", "--out", "-"}, "--min-games and --max-ply are for --what openings"},
		{[]string{"--what", "games"}, "--out FILE"},
		{[]string{"--what", "positions", "--format", "pdn", "--out", filepath.Join(dir, "x.pdn")}, "--format pdn is for --what games and --what rejected"},
		{[]string{"--what", "games", "--variant", "chess", "--out", "-"}, "chess"},
	} {
		_, err := runCLI(t, append([]string{"export", "--database-url", url}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("export %v: error %v, want %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.pdn")); !os.IsNotExist(err) {
		t.Errorf("a failed export left its file: %v", err)
	}
}

// cancelOnWrite cancels a context at its first write, as Ctrl-C in the
// middle of an export would.
type cancelOnWrite struct{ cancel context.CancelFunc }

func (c cancelOnWrite) Write(p []byte) (int, error) {
	c.cancel()
	return len(p), nil
}

// TestExportInterrupted: an export stopped by Ctrl-C says so and exits
// with 130, as import does (it printed "context canceled", exit status 1).
func TestExportInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	url := pgtest.NewDBURL(t)
	games := filepath.Join(t.TempDir(), "g.pdn")
	if _, err := runCLI(t, "gen", "--games", "2000", "--out", games); err != nil {
		t.Fatal(err)
	}
	if _, err := runCLI(t, "import", "--database-url", url, "--quiet", games); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Some 200,000 rows: the first that reach standard output stop it.
	_, err := runCLIWith(t, ctx, cancelOnWrite{cancel}, "export", "--database-url", url, "--what", "positions", "--format", "csv", "--out", "-", "--quiet")
	wantInterrupted(t, err, "export")
}
