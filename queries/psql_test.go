package queries_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/annotate"
	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/queries"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgcluster"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// psqlDefault matches a file's psql default line for a parameter.
var psqlDefault = regexp.MustCompile(`^\\if :\{\?([a-z_][a-z0-9_]*)\} \\else \\set ([a-z_][a-z0-9_]*) '([^']*)' \\endif$`)

// psqlDefaults reads the psql default of every parameter from q's file.
func psqlDefaults(t *testing.T, q *queries.Query) map[string]string {
	t.Helper()
	defs := map[string]string{}
	for _, line := range strings.Split(q.SQL, "\n") {
		if !strings.HasPrefix(line, `\`) {
			continue
		}
		m := psqlDefault.FindStringSubmatch(line)
		if m == nil || m[1] != m[2] {
			t.Errorf("%s: psql line %q is not `\\if :{?name} \\else \\set name 'default' \\endif`", q.File, line)
			continue
		}
		if _, dup := defs[m[1]]; dup {
			t.Errorf("%s: two psql defaults for %s", q.File, m[1])
		}
		defs[m[1]] = m[3]
	}
	return defs
}

// TestQueryFilesGivePsqlEveryDefault: every parameter of every file has a
// psql default line, equal to the default its header declares (the one
// draughtsdb uses), so that `psql -f FILE` runs without -v. The positions
// the hash parameters default to are the Russian initial position.
func TestQueryFilesGivePsqlEveryDefault(t *testing.T) {
	t.Parallel()
	all, err := queries.All()
	if err != nil {
		t.Fatal(err)
	}
	start := rules.Russian.StartPosition()
	russianStart := strconv.FormatInt(int64(start.Hash()), 10)
	for _, q := range all {
		defs := psqlDefaults(t, q)
		for _, p := range q.Params {
			d, ok := defs[p.Name]
			switch {
			case !ok:
				t.Errorf("%s: no psql default for %s", q.File, p.Name)
			case p.Default != nil && d != *p.Default:
				t.Errorf("%s: psql default of %s is %q, the header says %q", q.File, p.Name, d, *p.Default)
			case p.Name == "hash" && p.Default == nil && d != russianStart,
				p.Name == "hash" && p.Default != nil && *p.Default != "" && d != russianStart:
				t.Errorf("%s: psql default hash %s, want the Russian initial position %s", q.File, d, russianStart)
			}
			delete(defs, p.Name)
		}
		for name := range defs {
			t.Errorf("%s: psql default for %s, which is no parameter", q.File, name)
		}
	}
}

// psqlPath finds psql next to the server binaries the test cluster runs
// (schema/pgcluster's search).
func psqlPath(t *testing.T) string {
	t.Helper()
	dir, err := pgcluster.FindBinDir("")
	if err == nil {
		p := filepath.Join(dir, "psql")
		if _, err = os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("no psql next to the PostgreSQL server binaries: %v", err)
	}
	t.Skipf("no psql: %v", err)
	return ""
}

// psqlRun runs file through psql as a user would (psql -f FILE -v k=v
// ...), stopping at the first error, and returns the column names and
// the rows (NULL as "").
func psqlRun(t *testing.T, psql, url, file string, values map[string]string) ([]string, [][]string, error) {
	t.Helper()
	args := []string{"-X", "-q", "--no-psqlrc", "-v", "ON_ERROR_STOP=1", "-A", "-F", "\x1f", "-R", "\x1e", "-P", "footer=off", "-d", url}
	for k, v := range values {
		args = append(args, "-v", k+"="+v)
	}
	args = append(args, "-f", file)
	cmd := exec.Command(psql, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		return nil, nil, fmt.Errorf("psql %s: %v: %s", strings.Join(args[13:], " "), err, stderr.String())
	}
	records := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\x1e")
	if len(records) == 0 || records[0] == "" {
		return nil, nil, fmt.Errorf("psql printed no header: %q", stdout.String())
	}
	var rows [][]string
	for _, r := range records[1:] {
		rows = append(rows, strings.Split(strings.TrimPrefix(r, "\n"), "\x1f"))
	}
	return strings.Split(records[0], "\x1f"), rows, nil
}

// psqlTestDB imports the bundled samples (Russian, International,
// English), one rejected game, and an analysis of two games, so that every
// query has rows.
func psqlTestDB(t *testing.T) (string, *pgxpool.Pool) {
	t.Helper()
	ctx := context.Background()
	url := pgtest.NewDBURL(t)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	bad := filepath.Join(t.TempDir(), "bad.pdn")
	if err := os.WriteFile(bad, []byte("[Event \"bad\"]\n[GameType \"20\"]\n\n1. 50-44 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sample := "../ingest/sample"
	inputs := []string{filepath.Join(sample, "ussr1947-russian.pdn"), filepath.Join(sample, "babasy1-international.pdn"),
		filepath.Join(sample, "oca-english-200.pdn"), bad}
	sum, err := ingest.Import(ctx, pool, inputs, ingest.Options{BatchSize: 100})
	if err != nil || sum.Rejected == 0 {
		t.Fatalf("import: %+v %v", sum, err)
	}
	lim := annotate.Limit{Depth: 2}
	_, err = annotate.Run(ctx, pool, annotate.Options{
		Engine: search.Name, EngineVersion: search.Version, Setting: lim.Setting(),
		NewEvaluator: func() (annotate.Evaluator, error) { return annotate.NewBuiltin(lim, 1), nil },
		Limit:        2, Thresholds: annotate.Thresholds{Inaccuracy: 1, Mistake: 20, Blunder: 60},
	})
	if err != nil {
		t.Fatal(err)
	}
	return url, pool
}

// TestQueryFilesRunInPsql runs every file of queries/sql through psql
// itself, without -v and with each parameter set, and checks that it runs
// without error and returns the rows the Go runner returns for the same
// parameters (psql's defaults passed explicitly where draughtsdb has none).
func TestQueryFilesRunInPsql(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	psql := psqlPath(t)
	url, pool := psqlTestDB(t)
	ctx := context.Background()
	pick := func(sql string) string {
		var s string
		if err := pool.QueryRow(ctx, sql).Scan(&s); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return s
	}
	intl := rules.International.StartPosition()
	intlAfter, russianAfter := intl, rules.Russian.StartPosition()
	intlAfter.Play(&intlAfter.LegalMoves(nil)[0])
	russianAfter.Play(&russianAfter.LegalMoves(nil)[0])
	// A value for each parameter other than its default, from the data.
	set := map[string]string{
		"variant":  "international",
		"limit":    "3",
		"offset":   "1",
		"n":        "3",
		"engine":   search.Name,
		"setting":  "depth=2",
		"class":    "inaccuracy",
		"min_loss": "5",
		// The samples have no rating tags: the queries then keep no game,
		// in psql as here (cmd/draughtsdb tests the counts on rated files).
		"min_rating": "900",
		"hash":       strconv.FormatInt(int64(intl.Hash()), 10),
		"player":     pick(`SELECT p.name FROM games g JOIN players p ON p.id = g.white_id GROUP BY p.name ORDER BY count(*) DESC, p.name LIMIT 1`),
		"fen":        intlAfter.FEN(),
		"source":     pick(`SELECT s.name FROM sources s WHERE EXISTS (SELECT FROM rejected_games r WHERE r.source_id = s.id) ORDER BY s.id LIMIT 1`),
		"moves":      pick(`SELECT draughtsdb_moves_text(draughtsdb_moves_prefix(moves, 2)) FROM games WHERE variant = draughtsdb_variant_id('russian') AND start_fen IS NULL ORDER BY id LIMIT 1`),
	}
	all, err := queries.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range all {
		file := filepath.Join("sql", filepath.Base(q.File))
		defs := psqlDefaults(t, q)
		cases := []map[string]string{{}} // no -v at all
		for _, p := range q.Params {
			v, ok := set[p.Name]
			if !ok {
				t.Fatalf("%s: no test value for parameter %s", q.Name, p.Name)
			}
			c := map[string]string{p.Name: v}
			if p.Name == "fen" {
				// A FEN is a position of the query's variant.
				switch defs["variant"] {
				case "russian":
					c["fen"] = russianAfter.FEN()
				case "":
					c["variant"] = "international"
				}
			}
			cases = append(cases, c)
		}
		everything := map[string]string{}
		for _, p := range q.Params {
			everything[p.Name] = set[p.Name]
		}
		cases = append(cases, everything)
		rowsSeen := 0
		for _, values := range cases {
			name := fmt.Sprintf("%s %v", q.Name, values)
			cols, rows, err := psqlRun(t, psql, url, file, values)
			// A position without a hash, a FEN and a variant is no
			// position: an error that says so, never "(0 rows)".
			if q.Has("fen") && defs["variant"] == "" && values["variant"] == "" && values["hash"] == "" {
				if err == nil || !strings.Contains(err.Error(), "not a variant") {
					t.Errorf("%s: psql %v, want an error naming the missing variant", name, err)
				}
				if _, gerr := queries.Run(ctx, pool, q, values); gerr == nil || !strings.Contains(gerr.Error(), "not a variant") {
					t.Errorf("%s: Go runner %v, want an error naming the missing variant", name, gerr)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			// The Go runner: the same values, and psql's defaults for
			// the parameters draughtsdb requires.
			goValues := map[string]string{}
			for _, p := range q.Params {
				if v, ok := values[p.Name]; ok {
					goValues[p.Name] = v
				} else if p.Default == nil {
					goValues[p.Name] = defs[p.Name]
				}
			}
			res, err := queries.Run(ctx, pool, q, goValues)
			if err != nil {
				t.Errorf("%s: Go runner: %v", name, err)
				continue
			}
			if !slices.Equal(cols, res.Columns) {
				t.Errorf("%s: psql columns %q, Go %q", name, cols, res.Columns)
			}
			if !slices.EqualFunc(rows, res.Rows, slices.Equal[[]string]) {
				t.Errorf("%s: psql returned %d rows, Go %d:\npsql %q\nGo   %q", name, len(rows), len(res.Rows), rows, res.Rows)
			}
			rowsSeen += len(rows)
		}
		if rowsSeen == 0 {
			t.Errorf("%s: no rows in any case: the test data do not exercise it", q.Name)
		}
		t.Logf("%s: %d cases, %d rows in all", q.Name, len(cases), rowsSeen)
	}
}

// TestQueryFilesTakeMoves: the files that take a position take it in psql
// as PDN move text too (-v moves=...), giving the rows of the hash after
// those moves; a move that is not legal there is an error that names its
// ply, never "(0 rows)".
func TestQueryFilesTakeMoves(t *testing.T) {
	psql := psqlPath(t)
	url, pool := psqlTestDB(t)
	var first string
	if err := pool.QueryRow(context.Background(), `SELECT draughtsdb_moves_text(draughtsdb_moves_prefix(moves, 1)) FROM games
		WHERE variant = draughtsdb_variant_id('international') AND start_fen IS NULL ORDER BY id LIMIT 1`).Scan(&first); err != nil {
		t.Fatal(err)
	}
	line, err := replay.PlayLine(rules.International, "", []string{first})
	if err != nil {
		t.Fatal(err)
	}
	text := "1. " + first
	p := line.Final
	for _, file := range []string{"sql/opening_tree.sql", "sql/games_at_position.sql"} {
		byHash := map[string]string{"variant": "international", "hash": strconv.FormatInt(int64(p.Hash()), 10)}
		byMoves := map[string]string{"variant": "international", "moves": text}
		_, want, err := psqlRun(t, psql, url, file, byHash)
		if err != nil {
			t.Fatalf("%s %v: %v", file, byHash, err)
		}
		_, got, err := psqlRun(t, psql, url, file, byMoves)
		if err != nil {
			t.Fatalf("%s %v: %v", file, byMoves, err)
		}
		if len(want) == 0 || !slices.EqualFunc(got, want, slices.Equal[[]string]) {
			t.Errorf("%s: moves %q gave %q, its hash %q", file, text, got, want)
		}
		_, _, err = psqlRun(t, psql, url, file, map[string]string{"variant": "international", "moves": text + " 50-45"})
		if err == nil || !strings.Contains(err.Error(), "ply 2") || !strings.Contains(err.Error(), "50-45") {
			t.Errorf("%s: an illegal second move: %v, want an error naming ply 2 and the move", file, err)
		}
	}
}
