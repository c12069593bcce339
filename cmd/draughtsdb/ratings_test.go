package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5"
)

// ratedFiles: the Czech championship qualifier (ratings 950-1269, its
// unrated players "0000") and kurnik's games (over 2000).
var ratedFiles = []string{succeedDir + "mrcd2000kval.pdn.gz", succeedDir + "kurnik.pdn.gz"}

// ratedGame is what the test reads of a game from a file's text.
type ratedGame struct {
	white, black int // 0: no rating
	first        string
	file         string
}

var (
	testTagLine  = regexp.MustCompile(`^\[([A-Za-z0-9_]+)\s+"(.*)"\]\s*$`)
	testFirstPly = regexp.MustCompile(`^1\.\s*([a-h1-9][0-9]?[-x][a-h1-9][0-9]?[-x0-9a-h]*)`)
)

// readRatedGames reads the games of gzipped PDN files by lines, without
// the project's reader: each block of tag lines starts a game; its
// WhiteElo and BlackElo as numbers (0000: none) and the first ply of the
// move text after it.
func readRatedGames(t *testing.T, files []string) []ratedGame {
	t.Helper()
	var games []ratedGame
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(fh)
		if err != nil {
			t.Fatal(err)
		}
		text, err := io.ReadAll(zr)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		inTags := false
		sc := bufio.NewScanner(bytes.NewReader(text))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if m := testTagLine.FindStringSubmatch(line); m != nil {
				if !inTags {
					games = append(games, ratedGame{file: filepath.Base(f)})
					inTags = true
				}
				g := &games[len(games)-1]
				n, _ := strconv.Atoi(m[2])
				switch m[1] {
				case "WhiteElo":
					g.white = n
				case "BlackElo":
					g.black = n
				}
				continue
			}
			inTags = false
			if m := testFirstPly.FindStringSubmatch(line); m != nil && len(games) > 0 && games[len(games)-1].first == "" {
				games[len(games)-1].first = m[1]
			}
		}
	}
	return games
}

// TestMinRatingFilters: --min-rating in openings (table and JSON), export
// and the named queries keeps exactly the games in which both players are
// rated N or more, counted here from the files' tags; 0000 is no rating,
// so such a game never passes.
func TestMinRatingFilters(t *testing.T) {
	isolate(t)
	url := pgtest.NewDBURL(t)
	if _, err := runCLI(t, append([]string{"import", "--database-url", url, "--quiet"}, ratedFiles...)...); err != nil {
		t.Fatal(err)
	}
	games := readRatedGames(t, ratedFiles)
	if len(games) != 44 {
		t.Fatalf("read %d games from the files, want 44", len(games))
	}
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var czech string
	if err := conn.QueryRow(context.Background(), `SELECT string_agg(DISTINCT draughtsdb_variant_name(g.variant), ',')
		FROM games g JOIN sources s ON s.id = g.source_id WHERE s.name LIKE '%mrcd2000kval%'`).Scan(&czech); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(czech, ",") {
		t.Fatalf("mrcd2000kval's games are of several variants: %s", czech)
	}

	for _, n := range []int{0, 1, 1000, 1100, 2100, 9999} {
		// The files' own count: every game, and the Czech games by first ply.
		want, wantFirst := 0, map[string]int{}
		for _, g := range games {
			if n > 0 && (g.white < n || g.black < n) {
				continue
			}
			want++
			if g.file == "mrcd2000kval.pdn.gz" && g.first != "" {
				wantFirst[g.first]++
			}
		}
		if n == 1100 && (want == 0 || want == len(games) || len(wantFirst) == 0) {
			t.Fatalf("--min-rating 1100 keeps %d of %d games (%v): the test checks little", want, len(games), wantFirst)
		}
		arg := strconv.Itoa(n)

		out := filepath.Join(t.TempDir(), "games.jsonl")
		if _, err := runCLI(t, "export", "--database-url", url, "--quiet", "--what", "games", "--min-rating", arg, "--out", out); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Count(b, []byte("\n")); got != want {
			t.Errorf("export --min-rating %d: %d games, the files have %d", n, got, want)
		}

		js, err := runCLIStdout(t, "openings", "--database-url", url, "--variant", czech, "--min-rating", arg, "--format", "json")
		if err != nil {
			t.Fatal(err)
		}
		var moves []struct {
			Move  string `json:"move"`
			Games int    `json:"games"`
		}
		if err := json.Unmarshal([]byte(js), &moves); err != nil {
			t.Fatalf("%v: %s", err, js)
		}
		got := map[string]int{}
		for _, m := range moves {
			got[m.Move] = m.Games
		}
		if !sameCounts(got, wantFirst) {
			t.Errorf("openings --min-rating %d: %v, the files have %v", n, got, wantFirst)
		}

		q, err := runCLIStdout(t, "query", "opening_stats", "--database-url", url, "--param", "variant="+czech,
			"--param", "n=1", "--param", "min_rating="+arg, "--format", "json")
		if err != nil {
			t.Fatal(err)
		}
		var rows []struct {
			Moves string `json:"moves"`
			Games json.Number
		}
		if err := json.Unmarshal([]byte(q), &rows); err != nil {
			t.Fatalf("%v: %s", err, q)
		}
		got = map[string]int{}
		for _, r := range rows {
			n, _ := strconv.Atoi(r.Games.String())
			got[r.Moves] = n
		}
		if !sameCounts(got, wantFirst) {
			t.Errorf("query opening_stats min_rating=%d: %v, the files have %v", n, got, wantFirst)
		}
	}

	// The table says the bound.
	table, err := runCLIStdout(t, "openings", "--database-url", url, "--variant", czech, "--min-rating", "1100")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table, "with both players rated 1100 or more") {
		t.Fatalf("openings --min-rating table: %s", table)
	}
	if _, err := runCLIStdout(t, "openings", "--database-url", url, "--min-rating", "-1"); err == nil || !strings.Contains(err.Error(), "--min-rating -1") {
		t.Fatalf("openings --min-rating -1: %v", err)
	}
}

func sameCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
