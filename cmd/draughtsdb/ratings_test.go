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
	t.Parallel() // the test binary keeps the user's configuration out, once
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

// ratingOf is one rated game of a player, as the file writes it.
type ratingOf struct {
	date   string
	rating int
}

// playerRatings reads, from gzipped PDN files' text (tag blocks, as
// readRatedGames), every game of name with its Date tag and the player's
// Elo tag, in file order; zero ratings ("0000") are left out.
func playerRatings(t *testing.T, files []string, name string) []ratingOf {
	t.Helper()
	var out []ratingOf
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
		var blocks []map[string]string
		inTags := false
		sc := bufio.NewScanner(bytes.NewReader(text))
		for sc.Scan() {
			m := testTagLine.FindStringSubmatch(strings.TrimSpace(sc.Text()))
			if m == nil {
				inTags = false
				continue
			}
			if !inTags {
				blocks = append(blocks, map[string]string{})
				inTags = true
			}
			if _, dup := blocks[len(blocks)-1][m[1]]; !dup {
				blocks[len(blocks)-1][m[1]] = m[2]
			}
		}
		for _, b := range blocks {
			var v string
			switch name {
			case b["White"]:
				v = b["WhiteElo"]
			case b["Black"]:
				v = b["BlackElo"]
			default:
				continue
			}
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				out = append(out, ratingOf{b["Date"], n})
			}
		}
	}
	return out
}

type ratingYearOut struct {
	Year  string `json:"year"`
	Games int    `json:"games"`
	Min   int    `json:"min"`
	Max   int    `json:"max"`
	Last  int    `json:"last"`
}

// expectedRatings is the rating over time of games (file order, which is
// the order of import): per year the count, lowest, highest and last by
// date then file order, and the latest.
func expectedRatings(games []ratingOf) (years []ratingYearOut, latest int, latestDate string) {
	order := make([]int, len(games))
	for i := range order {
		order[i] = i
	}
	// Stable by date: equal dates keep the file order.
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && games[order[j]].date < games[order[j-1]].date; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for _, i := range order {
		g := games[i]
		y := g.date[:4]
		if n := len(years); n == 0 || years[n-1].Year != y {
			years = append(years, ratingYearOut{Year: y, Min: g.rating, Max: g.rating})
		}
		r := &years[len(years)-1]
		r.Games++
		r.Min, r.Max, r.Last = min(r.Min, g.rating), max(r.Max, g.rating), g.rating
		latest, latestDate = g.rating, g.date
	}
	return years, latest, latestDate
}

// TestPlayerRatingOverTime: players --json gives each player the rating
// of their latest rated game, players show the ratings by year (count,
// lowest, highest, last) and the latest, all as the files' tags say
// (lidraughts' antidraughts games, one player in many games with ratings
// moving; the Czech qualifier, whose players are dated in another format
// and some unrated); an alias joins two spellings' ratings and survives
// import --force.
func TestPlayerRatingOverTime(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	url := pgtest.NewDBURL(t)
	anti := "../../ingest/pdn/testdata/shared/online/antidraughts.pdn.gz"
	files := []string{anti, succeedDir + "mrcd2000kval.pdn.gz"}
	if _, err := runCLI(t, append([]string{"import", "--database-url", url, "--quiet"}, files...)...); err != nil {
		t.Fatal(err)
	}
	const name = "Master1958"
	games := playerRatings(t, []string{anti}, name)
	if len(games) < 10 {
		t.Fatalf("%s: %d rated games in the file; the test checks little", name, len(games))
	}
	wantYears, wantLatest, wantDate := expectedRatings(games)
	distinct := map[int]bool{}
	for _, g := range games {
		distinct[g.rating] = true
	}
	if len(distinct) < 3 {
		t.Fatalf("%s: ratings %v do not move; the test checks little", name, games)
	}

	ps := playersJSON(t, url, "--search", name)
	if len(ps) != 1 || ps[0].Rating == nil || *ps[0].Rating != wantLatest {
		t.Fatalf("players --search %s: %+v, want rating %d", name, ps, wantLatest)
	}
	out, err := runCLIStdout(t, "players", "show", "--database-url", url, "--json", name)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Rating     *int            `json:"rating"`
		RatingDate *string         `json:"rating_date"`
		Ratings    []ratingYearOut `json:"ratings"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.Rating == nil || *d.Rating != wantLatest || d.RatingDate == nil || *d.RatingDate != wantDate {
		t.Fatalf("show %s: %s, want rating %d of %s", name, out, wantLatest, wantDate)
	}
	if len(d.Ratings) != len(wantYears) {
		t.Fatalf("show %s: ratings %+v, want %+v", name, d.Ratings, wantYears)
	}
	for i := range wantYears {
		if d.Ratings[i] != wantYears[i] {
			t.Fatalf("show %s: ratings %+v, want %+v", name, d.Ratings, wantYears)
		}
	}
	text, err := runCLIStdout(t, "players", "show", "--database-url", url, name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "rating over time: "+strconv.Itoa(len(games))+" rated games; latest "+strconv.Itoa(wantLatest)) {
		t.Fatalf("show %s: no rating over time:\n%s", name, text)
	}

	// The Czech qualifier: a player whose every game has "0000" has no
	// rating; one with ratings has the file's.
	czech := []string{succeedDir + "mrcd2000kval.pdn.gz"}
	var unrated, rated string
	for _, p := range playersJSON(t, url) {
		if p.Games == 0 || strings.ContainsAny(p.Name, "0123456789") {
			continue
		}
		n := len(playerRatings(t, czech, p.Name))
		if n == 0 && unrated == "" && countGamesOf(t, czech, p.Name) > 0 {
			unrated = p.Name
			if p.Rating != nil {
				t.Fatalf("%s: rating %d, but every game of theirs is 0000", p.Name, *p.Rating)
			}
		}
		if n > 0 && rated == "" {
			rated = p.Name
		}
	}
	if unrated == "" || rated == "" {
		t.Fatalf("no unrated (%q) or rated (%q) player in the Czech qualifier", unrated, rated)
	}
	text, err = runCLIStdout(t, "players", "show", "--database-url", url, unrated)
	if err != nil || !strings.Contains(text, "rating over time: no game gives a rating") {
		t.Fatalf("show %s: %v\n%s", unrated, err, text)
	}

	// An alias: the unrated spelling becomes the rated player's, whose
	// latest rating stays; after import --force too.
	_, ratedLatest, _ := expectedRatings(playerRatings(t, czech, rated))
	if _, err := runCLIStdout(t, "players", "alias", "--database-url", url, unrated, rated); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		ps := playersJSON(t, url, "--search", unrated)
		if len(ps) != 1 || ps[0].Name != rated && !contains(ps[0].Aliases, rated) || ps[0].Rating == nil || *ps[0].Rating != ratedLatest {
			t.Fatalf("%s: %+v, want %s joined to %s with rating %d", when, ps, unrated, rated, ratedLatest)
		}
	}
	check("after the alias")
	if _, err := runCLI(t, append([]string{"import", "--database-url", url, "--quiet", "--force"}, files...)...); err != nil {
		t.Fatal(err)
	}
	check("after import --force")
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
