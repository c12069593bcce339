package replay

import (
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// sharedGames replays every game of a gzipped copy of the shared archives
// (ingest/pdn/testdata/shared) and calls fn with each accepted game.
func sharedGames(t *testing.T, rel string, fn func(g *Game)) (accepted int) {
	t.Helper()
	sharedGamesAll(t, rel, func(g *Game, err error) {
		if err == nil {
			accepted++
			fn(g)
		}
	})
	return accepted
}

// sharedGamesAll replays every game of a shared archive and calls fn with
// each, accepted (err nil) or rejected.
func sharedGamesAll(t *testing.T, rel string, fn func(g *Game, err error)) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "ingest", "pdn", "testdata", "shared", rel+".gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	rd := pdn.NewReader(zr, rel)
	r := NewReplayer(Options{})
	var g Game
	for {
		pg, err := rd.Next()
		if err == io.EOF {
			return
		}
		var se *pdn.SyntaxError
		if err != nil && !errors.As(err, &se) {
			t.Fatal(err)
		}
		fn(&g, r.Replay(pg, err, &g))
	}
}

// TestResultsFromTheFilesOwnEvidence checks the reading of Result against
// evidence that nobody here wrote: a game that ends with the side to move
// unable to move was lost by that side, whatever the file's conventions.
// In English checkers Black moves first and the first number of Result is
// Black's (OCA writes such games 0-1 when Black cannot move), so reading
// "1-0" as a White win inverted every English result.
func TestResultsFromTheFilesOwnEvidence(t *testing.T) {
	for _, rel := range []string{"english/OCA_2.0.pdn", "online/american.pdn", "online/standard.pdn", "online/brazilian.pdn"} {
		t.Run(rel, func(t *testing.T) {
			decided := 0
			sharedGames(t, rel, func(g *Game) {
				for _, w := range g.Warnings {
					if strings.Contains(w.Text, "contradicts the final position") {
						t.Errorf("game %d: %s", g.PDN.Ordinal, w)
					}
				}
				if !g.Decided {
					return
				}
				loser := g.Final.SideToMove()
				winner, ok := g.Result.Winner()
				if !ok {
					return // a draw or unknown written for a blocked position: kept with a warning elsewhere
				}
				decided++
				if winner == loser {
					t.Errorf("game %d: stored as a win for %s, who has no legal move at the end (Result %q)", g.PDN.Ordinal, winner, g.PDN.Tag("Result"))
				}
			})
			if decided == 0 {
				t.Fatalf("no decisive game ends without a legal move in %s: the test checks nothing", rel)
			}
			t.Logf("%s: %d decisive games end with the side to move unable to move; each stored as its loss", rel, decided)
		})
	}
}

// TestResultTokenProvedByTheFinalPosition: lidraughts' Russian games 1,
// 12 and 15 have a Result tag (1-1, 1-1, 2-0) that differs from their
// result token (2-0, 0-2, 0-2), and each ends with the side to move
// unable to move, which proves the token. The stored result is the
// token's, with a warning that names the tag; no game of the archive
// keeps a result its final position contradicts.
func TestResultTokenProvedByTheFinalPosition(t *testing.T) {
	want := map[int]Result{1: WhiteWins, 12: BlackWins, 15: BlackWins}
	seen := 0
	sharedGames(t, "online/russian.pdn", func(g *Game) {
		for _, w := range g.Warnings {
			if strings.Contains(w.Text, "contradicts the final position") {
				t.Errorf("game %d: %s", g.PDN.Ordinal, w)
			}
		}
		r, ok := want[g.PDN.Ordinal]
		if !ok {
			return
		}
		seen++
		if g.Result != r {
			t.Errorf("game %d: result %v, want %v (tag %q, token %q)", g.PDN.Ordinal, g.Result, r, g.PDN.Tag("Result"), g.PDN.Result)
		}
		found := false
		for _, w := range g.Warnings {
			found = found || w.Kind.String() == warnResultFromToken
		}
		if !found {
			t.Errorf("game %d: no warning %q in %q", g.PDN.Ordinal, warnResultFromToken, g.Warnings)
		}
	})
	if seen != len(want) {
		t.Fatalf("saw %d of games 1, 12, 15", seen)
	}
	// A tag the position proves stays, whatever the token says.
	g, err := replayText(t, "[GameType \"20\"]\n[FEN \"W:W46:B41,37\"]\n[Result \"0-2\"]\n2-0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Result != BlackWins {
		t.Errorf("tag 0-2 proved by the position, token 2-0: stored %v", g.Result)
	}
}

// TestEnglishResultsFollowTheFirstMover: "1-0" in an English game is a
// Black win, and a Black win is written back "1-0".
func TestEnglishResultsFollowTheFirstMover(t *testing.T) {
	cases := []struct {
		v       *rules.Variant
		written string
		want    Result
	}{
		{rules.English, "1-0", BlackWins},
		{rules.English, "0-1", WhiteWins},
		{rules.English, "2-0", BlackWins},
		{rules.English, "1/2-1/2", Draw},
		{rules.English, "0-0", DoubleForfeit},
		{rules.International, "2-0", WhiteWins},
		{rules.International, "0-2", BlackWins},
		{rules.Russian, "1-0", WhiteWins},
		{nil, "1-0", WhiteWins},
	}
	for _, c := range cases {
		got, ok := ParseResult(c.v, c.written)
		if !ok || got != c.want {
			t.Errorf("ParseResult(%v, %q) = %v, %v; want %v", c.v, c.written, got, ok, c.want)
		}
		back := got.Format(c.v)
		if again, _ := ParseResult(c.v, back); again != got {
			t.Errorf("%v: %v written %q reads back as %v", c.v, got, back, again)
		}
	}
	if s := BlackWins.Format(rules.English); s != "1-0" {
		t.Errorf("English Black win written %q, want 1-0", s)
	}
}

// TestPlayStrategyPlayers: P1 and P2 name the first and second player.
// The evidence is in the files: P1RatingDiff is positive exactly when the
// first number of Result wins, and the first number belongs to the first
// mover (Black in English), so the winner by colour must be the player
// whose rating went up.
func TestPlayStrategyPlayers(t *testing.T) {
	checked := 0
	sharedGames(t, "online/american.pdn", func(g *Game) {
		p1, p2 := g.PDN.Tag("P1"), g.PDN.Tag("P2")
		if p1 == "" || g.White == "" || g.Black == "" {
			t.Errorf("game %d: players %q/%q from P1 %q P2 %q", g.PDN.Ordinal, g.White, g.Black, p1, p2)
			return
		}
		if g.Black != p1 || g.White != p2 {
			t.Errorf("game %d: P1 %q is the first mover, Black; got White %q Black %q", g.PDN.Ordinal, p1, g.White, g.Black)
		}
		winner, ok := g.Result.Winner()
		d1, err := strconv.Atoi(g.PDN.Tag("P1RatingDiff"))
		if !ok || err != nil || d1 == 0 {
			return
		}
		checked++
		up := g.White
		if d1 > 0 {
			up = p1
		} else {
			up = p2
		}
		name := g.White
		if winner == rules.Black {
			name = g.Black
		}
		if name != up {
			t.Errorf("game %d: %s (%s) stored as the winner, but %s gained rating", g.PDN.Ordinal, name, winner, up)
		}
	})
	if checked == 0 {
		t.Fatal("no rated decisive game: the test checks nothing")
	}
	t.Logf("%d rated decisive games: the winner by colour gained rating in each", checked)
}
