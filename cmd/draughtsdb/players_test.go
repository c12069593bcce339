package main

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/queries/players"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

const succeedDir = "../../ingest/pdn/testdata/shared/testsuite/succeed/"

// countGamesOf counts the games of PDN files (gzipped) in which White or
// Black is written as one of names: the files' own count, read without
// the database.
func countGamesOf(t *testing.T, files []string, names ...string) int {
	t.Helper()
	n := 0
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(fh)
		if err != nil {
			t.Fatal(err)
		}
		rd := pdn.NewReader(zr, f)
		for {
			g, err := rd.Next()
			if err == io.EOF {
				break
			}
			if g == nil {
				continue
			}
			if slices.Contains(names, g.Tag("White")) || slices.Contains(names, g.Tag("Black")) {
				n++
			}
		}
		fh.Close()
	}
	return n
}

type playerOut struct {
	ID         int      `json:"id"`
	Name       string   `json:"name"`
	Aliases    []string `json:"aliases"`
	Games      int      `json:"games"`
	Wins       int      `json:"wins"`
	Draws      int      `json:"draws"`
	Losses     int      `json:"losses"`
	Score      *float64 `json:"score"`
	First      *string  `json:"first"`
	Last       *string  `json:"last"`
	Rating     *int     `json:"rating"`
	Why        []string `json:"why"`
	Candidates []string `json:"candidates"`
}

func playersJSON(t *testing.T, url string, args ...string) []playerOut {
	t.Helper()
	out, err := runCLIStdout(t, append([]string{"players", "--database-url", url, "--json"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	var ps []playerOut
	if err := json.Unmarshal([]byte(out), &ps); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return ps
}

// TestPlayersSijbrands: the PDN standard's example files write Ton
// Sijbrands "T. Sijbrands" and "Sijbrands,T."; players finds one player
// with both spellings and every game the files give either, and show and
// a user's alias agree; the alias survives import --force.
func TestPlayersSijbrands(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	url := pgtest.NewDBURL(t)
	files := []string{succeedDir + "wk2003.pdn.gz", succeedDir + "nk ronde 01.pdn.gz", succeedDir + "PROF2.pdn.gz"}
	if _, err := runCLI(t, append([]string{"import", "--database-url", url, "--quiet"}, files...)...); err != nil {
		t.Fatal(err)
	}
	want := countGamesOf(t, files, "T. Sijbrands", "Sijbrands,T.")
	if want < 10 {
		t.Fatalf("the files have %d games of Sijbrands; the test checks little", want)
	}
	ps := playersJSON(t, url, "--search", "sijbrands")
	if len(ps) != 1 {
		t.Fatalf("--search sijbrands: %d players, want 1: %+v", len(ps), ps)
	}
	p := ps[0]
	spellings := append([]string{p.Name}, p.Aliases...)
	slices.Sort(spellings)
	if !slices.Equal(spellings, []string{"Sijbrands,T.", "T. Sijbrands"}) || p.Games != want {
		t.Fatalf("Sijbrands: spellings %q, %d games; want both spellings and %d games", spellings, p.Games, want)
	}
	if p.Wins+p.Draws+p.Losses > p.Games || p.Score == nil || p.Rating != nil || len(p.Why) != 1 {
		t.Fatalf("Sijbrands: %+v", p)
	}

	// show by the other spelling gives the same record.
	out, err := runCLIStdout(t, "players", "show", "--database-url", url, "--json", "Sijbrands,T.")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Name  string `json:"name"`
		All   struct{ Games, Wins, Draws, Losses int }
		White struct{ Games int }
		Black struct{ Games int }
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.Name != p.Name || d.All.Games != p.Games || d.All.Wins != p.Wins || d.All.Losses != p.Losses || d.White.Games+d.Black.Games != p.Games {
		t.Fatalf("show: %s, list: %+v", out, p)
	}

	// An unknown name names the closest players.
	_, err = runCLIStdout(t, "players", "show", "--database-url", url, "Sijbrans")
	var ue *players.UnknownError
	if !errors.As(err, &ue) || len(ue.Closest) == 0 || ue.Closest[0] != p.Name {
		t.Fatalf("show Sijbrans: %v, want an error naming %q first", err, p.Name)
	}

	// The user's alias joins two players; it is kept by name and holds
	// after the games are imported again with new ids.
	before := playersJSON(t, url, "--search", "Goeljaew")
	if len(before) != 1 {
		t.Fatalf("Goeljaew: %+v", before)
	}
	if _, err := runCLIStdout(t, "players", "alias", "--database-url", url, "Goeljaew", "Gantwarg,A."); err != nil {
		t.Fatal(err)
	}
	if _, err := runCLIStdout(t, "players", "alias", "--database-url", url, "Goeljaev", "Gantwarg,A."); err == nil || !strings.Contains(err.Error(), "closest: Gantwarg,A.") {
		// Goeljaew is now Gantwarg's: the closest player is named by
		// their main spelling.
		t.Fatalf("alias of a name no game writes: %v, want an error naming the closest player", err)
	}
	check := func(when string) {
		t.Helper()
		ps := playersJSON(t, url, "--search", "Goeljaew")
		if len(ps) != 1 || ps[0].Games <= before[0].Games || !slices.Contains(append([]string{ps[0].Name}, ps[0].Aliases...), "Goeljaew") {
			t.Fatalf("%s: %+v", when, ps)
		}
	}
	check("after the alias")
	if _, err := runCLI(t, append([]string{"import", "--database-url", url, "--quiet", "--force"}, files...)...); err != nil {
		t.Fatal(err)
	}
	check("after import --force")
	if _, err := runCLIStdout(t, "players", "unlink", "--database-url", url, "Goeljaew"); err != nil {
		t.Fatal(err)
	}
	if ps := playersJSON(t, url, "--search", "Goeljaew"); len(ps) != 1 || ps[0].Games != before[0].Games {
		t.Fatalf("after unlink: %+v, want %+v", ps, before)
	}
}

// TestPlayersHeffner: OCA writes A. J. Heffner "Heffner, A.J." and
// "Heffner, A."; the shorter form joins the longer, as no other longer
// form with that surname is there, and says why; "Long, A.A." and "Long,
// M." stay two players.
func TestPlayersHeffner(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	url := pgtest.NewDBURL(t)
	oca := "../../ingest/pdn/testdata/shared/english/OCA_2.0.pdn.gz"
	if _, err := runCLI(t, "import", "--database-url", url, "--quiet", oca); err != nil {
		t.Fatal(err)
	}
	ps := playersJSON(t, url, "--search", "heffner")
	if len(ps) != 1 {
		t.Fatalf("heffner: %+v", ps)
	}
	p := ps[0]
	if p.Name != "Heffner, A.J." || !slices.Equal(p.Aliases, []string{"Heffner, A."}) || len(p.Why) != 1 || !strings.Contains(p.Why[0], "longer form") {
		t.Fatalf("Heffner: %+v", p)
	}
	if want := countGamesOf(t, []string{oca}, "Heffner, A.J.", "Heffner, A."); p.Games != want {
		t.Fatalf("Heffner: %d games, the file has %d", p.Games, want)
	}
	// "Long, A.A." and "Long, M." are two players.
	if ps := playersJSON(t, url, "--search", "long, "); len(ps) < 2 {
		t.Fatalf("Long: %+v", ps)
	}
}
