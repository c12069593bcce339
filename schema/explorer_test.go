package schema_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// threeGames: "A, B." beats "C, D." (both rated) with White, then plays
// a game against themself, then "C, D." plays an unnamed opponent; every
// game of international draughts, so the store's answers can be counted
// by hand.
const threeGames = `[Event "Open 1999"][Date "1999.05.01"][White "A, B."][Black "C, D."][WhiteRating "2300"][BlackRating "2200"][GameType "20"][Result "2-0"]
1. 32-28 19-23 2-0

[Event "Club"][Date "2000.??.??"][White "A, B."][Black "A, B."][GameType "20"][Result "1-1"]
1. 33-28 18-23 1-1

[Event "Open 2001"][Date "2001.02.03"][White "C, D."][GameType "20"][Result "0-2"]
1. 32-28 18-23 0-2
`

// TestExplorerAndPlayerReads checks the store's explorer and players
// reads on a database whose games are known: the empty database's
// answers, a game against oneself counted once, the filters, a visitor
// that stops, and the user's links written and forgotten.
func TestExplorerAndPlayerReads(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	if _, _, ok, err := schema.GameIDRange(ctx, pool); err != nil || ok {
		t.Fatalf("an empty database's id range: ok %v, %v", ok, err)
	}
	p := filepath.Join(t.TempDir(), "three.pdn")
	if err := os.WriteFile(p, []byte(threeGames), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Import(ctx, pool, []string{p}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	lo, hi, ok, err := schema.GameIDRange(ctx, pool)
	if err != nil || !ok || hi-lo != 2 {
		t.Fatalf("id range %d..%d ok %v, %v; want 3 ids", lo, hi, ok, err)
	}
	intl, _ := rules.VariantByName("international")
	vid := codec.VariantID(intl)

	// The players.
	spell, err := schema.PlayerSpellings(ctx, pool, true)
	if err != nil {
		t.Fatal(err)
	}
	games := map[string]int{}
	ids := map[string]int32{}
	for _, s := range spell {
		games[s.Name], ids[s.Name] = s.Games, s.ID
	}
	if len(spell) != 2 || games["A, B."] != 2 || games["C, D."] != 2 {
		t.Fatalf("spellings %+v: want A, B. and C, D. with 2 games each (a game against oneself once)", spell)
	}
	names, err := schema.PlayerSpellings(ctx, pool, false)
	if err != nil || len(names) != 2 || names[0].Games != 0 || names[1].Games != 0 {
		t.Fatalf("names without counts %+v, %v", names, err)
	}
	a := []int32{ids["A, B."]}
	if n, err := schema.PlayerGameCounts(ctx, pool, a); err != nil || n[a[0]] != 2 || len(n) != 1 {
		t.Fatalf("counts of A, B.: %v, %v", n, err)
	}
	pre, err := schema.PlayersByPrefix(ctx, pool, "a,", 10)
	if err != nil || len(pre) != 1 || pre[0].Name != "A, B." || pre[0].Games != 2 {
		t.Fatalf("prefix a,: %+v, %v", pre, err)
	}
	if pre, err := schema.PlayersByPrefix(ctx, pool, "", 1); err != nil || len(pre) != 1 || pre[0].Name != "A, B." {
		t.Fatalf("every name, at most 1, by name: %+v, %v", pre, err)
	}
	pairings := 0
	err = schema.ForEachPlayerPairing(ctx, pool, func(pp *schema.PlayerPairing) error {
		pairings++
		if pp.White == nil || pp.Games != 1 || pp.First == nil || pp.Last == nil || *pp.First != *pp.Last {
			t.Errorf("pairing %+v", pp)
		}
		return nil
	})
	if err != nil || pairings != 3 {
		t.Fatalf("%d pairings, %v; want 3", pairings, err)
	}
	var record []schema.PlayerGame
	err = schema.ForEachPlayerGame(ctx, pool, a, func(g *schema.PlayerGame) error {
		record = append(record, *g)
		return nil
	})
	if err != nil || len(record) != 2 {
		t.Fatalf("games of A, B.: %+v, %v", record, err)
	}
	if g := record[0]; !g.AsWhite || g.AsBlack || g.Year != "1999" || g.Opponent == nil || *g.Opponent != "C, D." ||
		g.Rating == nil || *g.Rating != 2300 || g.Variant != "international" || g.Opening != "32-28 19-23" {
		t.Errorf("the first game of A, B.: %+v", g)
	}
	if g := record[1]; !g.AsWhite || !g.AsBlack || g.Rating != nil {
		t.Errorf("the game against themself: %+v", g)
	}
	latest := map[int32]int{}
	err = schema.ForEachLatestPlayerRating(ctx, pool, func(r *schema.PlayerRating) error {
		latest[r.Player] = r.Rating
		return nil
	})
	if err != nil || len(latest) != 2 || latest[a[0]] != 2300 || latest[ids["C, D."]] != 2200 {
		t.Fatalf("latest ratings %v, %v", latest, err)
	}

	// The links.
	if err := schema.SetPlayerLink(ctx, pool, "C, D.", "A, B."); err != nil {
		t.Fatal(err)
	}
	if err := schema.SetPlayerLink(ctx, pool, "C, D.", ""); err != nil {
		t.Fatal(err)
	}
	if l, err := schema.PlayerLinks(ctx, pool); err != nil || len(l) != 1 || l[0] != (schema.PlayerLink{Name: "C, D."}) {
		t.Fatalf("links after an alias replaced by a split: %+v, %v", l, err)
	}
	if err := schema.RemovePlayerLink(ctx, pool, "C, D."); err != nil {
		t.Fatal(err)
	}
	if l, err := schema.PlayerLinks(ctx, pool); err != nil || len(l) != 0 {
		t.Fatalf("links after the removal: %+v, %v", l, err)
	}

	// The explorer's selections.
	collect := func(stopAfter int) (func(*schema.FilteredGame) (bool, error), *[]schema.FilteredGame) {
		var got []schema.FilteredGame
		return func(g *schema.FilteredGame) (bool, error) {
			got = append(got, *g)
			return len(got) < stopAfter, nil
		}, &got
	}
	fn, got := collect(10)
	if err := schema.ForEachFilteredGameIn(ctx, pool, vid, schema.ExplorerFilter{}, lo, hi+1, fn); err != nil || len(*got) != 3 {
		t.Fatalf("the window of every game: %+v, %v", *got, err)
	}
	if g := (*got)[0]; g.ID != hi || g.White != "C, D." || g.Black != "" || g.Event != "Open 2001" || g.Plies != 2 ||
		g.Variant != vid || len(g.Moves) == 0 || g.StartFEN != "" || g.Result != codec.ResultBlackWins {
		t.Errorf("the newest game: %+v", g)
	}
	fn, got = collect(1)
	if err := schema.ForEachFilteredGameIn(ctx, pool, vid, schema.ExplorerFilter{}, lo, hi+1, fn); err != nil || len(*got) != 1 {
		t.Fatalf("a visitor that stops after one game got %d, %v", len(*got), err)
	}
	for _, c := range []struct {
		f    schema.ExplorerFilter
		want int
	}{
		{schema.ExplorerFilter{Player: "A, B.", Color: "black"}, 1},
		{schema.ExplorerFilter{Player: "A, B."}, 2},
		{schema.ExplorerFilter{Event: "open"}, 2},
		{schema.ExplorerFilter{From: "2000"}, 2}, // "2000.??.??" compares at the year given
		{schema.ExplorerFilter{To: "1999.05"}, 1},
		{schema.ExplorerFilter{MinRating: 2200}, 1},
		{schema.ExplorerFilter{MinRating: 2250}, 0},
	} {
		fn, got := collect(10)
		if err := schema.ForEachFilteredGameIn(ctx, pool, vid, c.f, lo, hi+1, fn); err != nil || len(*got) != c.want {
			t.Errorf("filter %+v: %d games, %v; want %d", c.f, len(*got), err, c.want)
		}
		fn, got = collect(10)
		if c.f.Player != "" {
			if err := schema.ForEachFilteredPlayerGame(ctx, pool, vid, c.f, math.MaxInt64, 10, fn); err != nil || len(*got) != c.want {
				t.Errorf("player games, filter %+v: %d games, %v; want %d", c.f, len(*got), err, c.want)
			}
		}
	}
	after, err := replay.PlayLine(intl, "", []string{"32-28"})
	if err != nil {
		t.Fatal(err)
	}
	fn, got = collect(10)
	err = schema.ForEachFilteredGameAt(ctx, pool, int64(after.Final.Hash()), vid, schema.ExplorerFilter{Player: "A, B."}, math.MaxInt64, 10, false, fn)
	if err != nil || len(*got) != 1 || (*got)[0].ID != lo || (*got)[0].Moves != nil {
		t.Fatalf("A, B.'s games after 32-28, without moves: %+v, %v", *got, err)
	}
	fn, got = collect(10)
	err = schema.ForEachFilteredGameAt(ctx, pool, int64(after.Final.Hash()), vid, schema.ExplorerFilter{}, hi, 10, true, fn)
	if err != nil || len(*got) != 1 || (*got)[0].ID != lo || len((*got)[0].Moves) == 0 {
		t.Fatalf("the games after 32-28 below the newest, with moves: %+v, %v", *got, err)
	}

	// A game, its classes and its position's notes.
	if _, ok, err := schema.ViewGame(ctx, pool, hi+1); err != nil || ok {
		t.Fatalf("a game that is not there: ok %v, %v", ok, err)
	}
	g, ok, err := schema.ViewGame(ctx, pool, lo)
	if err != nil || !ok || g.Source != p || g.Event == nil || *g.Event != "Open 1999" || g.Site != nil ||
		g.Date != "1999.05.01" || g.White == nil || *g.White != "A, B." || g.Result != codec.ResultWhiteWins || g.Plies != 2 ||
		g.StartFEN != nil || len(g.Moves) == 0 || g.Ordinal != 1 || g.Tags == nil {
		t.Fatalf("game %d: %+v ok %v, %v", lo, g, ok, err)
	}
	if c, err := schema.GameMoveClasses(ctx, pool, lo); err != nil || len(c) != 0 {
		t.Fatalf("an unanalysed game's classes: %+v, %v", c, err)
	}
	start := intl.StartPosition()
	notes, err := schema.PositionNotes(ctx, pool, vid, []int64{int64(start.Hash()), int64(after.Final.Hash())})
	if err != nil || len(notes) != 2 || notes[0].Eval != nil || notes[0].Evals != 0 {
		t.Fatalf("notes of two unevaluated positions: %+v, %v", notes, err)
	}

	// A player's page.
	if v, err := schema.PlayerVariants(ctx, pool, a); err != nil || len(v) != 1 || v[0] != (schema.VariantGames{Variant: vid, Games: 2}) {
		t.Fatalf("variants of A, B.: %+v, %v", v, err)
	}
	for white, want := range map[bool]int{true: 2, false: 1} {
		n := 0
		err := schema.ForEachPlayerTreeGame(ctx, pool, a, vid, white, 10, func(g *schema.TreeGame) (bool, error) {
			n++
			return true, nil
		})
		if err != nil || n != want {
			t.Errorf("tree games of A, B. as white %v: %d, %v; want %d", white, n, err, want)
		}
	}
	page, err := schema.PlayerGamesPage(ctx, pool, a, math.MaxInt64, 1)
	if err != nil || len(page) != 1 || page[0].ID != lo+1 || page[0].White != "A, B." || page[0].Black != "A, B." || page[0].Variant != vid {
		t.Fatalf("the first page of one game of A, B.: %+v, %v", page, err)
	}
	if page, err := schema.PlayerGamesPage(ctx, pool, a, lo+1, 10); err != nil || len(page) != 1 || page[0].ID != lo {
		t.Fatalf("the page below %d: %+v, %v", lo+1, page, err)
	}
}
