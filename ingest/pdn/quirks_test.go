package pdn

import (
	"io"
	"os"
	"strings"
	"testing"
)

// TestRealFileQuirks reads small files written the way real archives of
// other programs are (testdata/quirks): each quirk costs one warning at
// most, never a game.
func TestRealFileQuirks(t *testing.T) {
	read := func(name string) []*Game {
		t.Helper()
		f, err := os.Open("testdata/quirks/" + name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		res := readAll(t, f, name)
		if len(res.errs) > 0 {
			t.Fatalf("%s: errors %v", name, res.errs)
		}
		return res.games
	}

	// A lone "-" as the result token (the Result tag "-"): the game's
	// result, not an unrecorded move.
	gs := read("lone-dash-result.pdn")
	if len(gs) != 2 || len(gs[0].Moves) != 20 || gs[0].Result != "-" || gs[0].Tag("Result") != "-" || gs[1].Result != "1-0" {
		t.Fatalf("lone-dash-result.pdn: %d games, %+v", len(gs), gs[0])
	}
	for _, m := range gs[0].Moves {
		if m.Text == UnknownMove {
			t.Errorf("lone-dash-result.pdn: an unknown move")
		}
	}
	// Without the Result tag "-", "-" stays an unrecorded move.
	res := readAll(t, strings.NewReader("[Event \"x\"]\n1. 32-28 - *\n"), "x")
	if g := res.games[0]; len(g.Moves) != 2 || g.Moves[1].Text != UnknownMove || g.Result != "*" {
		t.Errorf("unknown move: %+v", g)
	}

	// A blank line inside the tag section: one game with all its tags.
	gs = read("blank-line-in-tags.pdn")
	if len(gs) != 2 {
		t.Fatalf("blank-line-in-tags.pdn: %d games", len(gs))
	}
	for i, want := range [][2]string{{"Ivanov", "Petrov"}, {"Petrov", "Ivanov"}} {
		g := gs[i]
		if g.Tag("Event") != "Championship" || g.Tag("White") != want[0] || g.Tag("Black") != want[1] || len(g.Moves) == 0 || g.Result == "" {
			t.Errorf("blank-line-in-tags.pdn game %d: tags %v, %d moves, result %q", i+1, g.Tags, len(g.Moves), g.Result)
		}
	}

	// Text between tags that is no tag (a literal \r after each tag line,
	// a program's remark): skipped with one warning per game.
	gs = read("junk-between-tags.pdn")
	if len(gs) != 3 {
		t.Fatalf("junk-between-tags.pdn: %d games", len(gs))
	}
	for i, g := range gs {
		if len(g.Tags) != 4 || len(g.Moves) == 0 || g.Result != g.Tag("Result") || len(g.Warnings) != 1 ||
			!strings.Contains(g.Warnings[0].Reason, "neither a tag nor movetext skipped") {
			t.Errorf("junk-between-tags.pdn game %d: tags %v, %d moves, result %q, warnings %v", i+1, g.Tags, len(g.Moves), g.Result, g.Warnings)
		}
	}
	if w := gs[0].Warnings[0]; w.Line != 1 || w.Column != 17 || !strings.Contains(w.Reason, `"\\r" (4 such pieces`) {
		t.Errorf("warning %+v", w)
	}
	if w := gs[2].Warnings[0].Reason; !strings.Contains(w, `"exported by SomeSite"`) {
		t.Errorf("warning %q", w)
	}
}

// TestTagJunkIsNotMovetext: text after tags that may be movetext (a digit,
// a result, unknown moves) still starts the movetext.
func TestTagJunkIsNotMovetext(t *testing.T) {
	for _, in := range []string{
		"[Event \"x\"]\n1. 32-28 *\n",
		"[Event \"x\"]\n*\n",
		"[Event \"x\"]\n- - *\n",
		"[Event \"x\"]\n{a comment} 32-28 *\n",
	} {
		res := readAll(t, strings.NewReader(in), "x")
		if len(res.games) != 1 || len(res.errs) > 0 || len(res.games[0].Warnings) > 0 {
			t.Errorf("%q: %d games, errors %v", in, len(res.games), res.errs)
		}
	}
}

// TestJunkBetweenGamesIsNoGame: text without a tag, move, comment or other
// PDN between games is no game: it takes no ordinal, and the next game
// says what was skipped before it.
func TestJunkBetweenGamesIsNoGame(t *testing.T) {
	in := "[Event \"a\"]\n1. 32-28 *\n\nSome text, not PDN at all. 1-0\n\nmore\n\n[Event \"b\"]\n1. 33-29 *\n\n1-0\n"
	rd := NewReader(strings.NewReader(in), "junk.pdn")
	var gs []*Game
	for {
		g, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	if len(gs) != 2 || gs[0].Ordinal != 1 || gs[1].Ordinal != 2 || gs[1].Tag("Event") != "b" {
		t.Fatalf("%d games", len(gs))
	}
	if len(gs[0].Warnings) != 0 || len(gs[1].Warnings) != 1 {
		t.Fatalf("warnings %v, %v", gs[0].Warnings, gs[1].Warnings)
	}
	w := gs[1].Warnings[0]
	if w.Line != 4 || w.Column != 1 || !strings.Contains(w.Reason, "text that is not PDN skipped before this game (36 bytes in 2 pieces)") ||
		!strings.Contains(w.Reason, `unexpected "Some"`) {
		t.Errorf("warning %+v", w)
	}
	if pieces, n := rd.Skipped(); pieces != 3 || n != 40 {
		t.Errorf("skipped %d pieces, %d bytes", pieces, n)
	}
}
