package explorer

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/draughtsdb/draughtsdb/queries/patternsearch"
	"github.com/draughtsdb/draughtsdb/replay/pattern"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestPatternBrowser drives the pattern page in headless Chromium: it draws
// a white man on 28 and a black man on 19 by clicking the board, searches,
// finds the games patternsearch.Search finds (then colour-reversed too),
// and opens the first in the explorer, at the ply where it matches.
func TestPatternBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	exe := chromium(t)
	pool := importArchive(t)
	ts := testServer(t, pool, Options{})
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.WindowSize(1440, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()
	// A bound on a hang, not a speed test.
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	idle := func(cond string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](`document.body.dataset.ready === '1' && document.body.dataset.busy === '0' && (`+cond+`)`,
			chromedp.WithPollingInterval(20*time.Millisecond))
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector(`+strconv.Quote(sel)+`) || {}).textContent || ''`))
		must(err)
		return v
	}
	type row struct {
		Game string
		Ply  string
	}
	rowsJS := `Array.from(document.querySelectorAll('#p-games tbody tr[data-game]')).map(tr => ({Game: tr.dataset.game, Ply: tr.dataset.ply}))`
	rows := func() []row {
		t.Helper()
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](rowsJS))
		must(err)
		var out []row
		must(json.Unmarshal(raw, &out))
		return out
	}
	search := func(reversed bool) *patternsearch.Result {
		t.Helper()
		p, err := pattern.Parse(rules.International, "W:W28:B19")
		must(err)
		res, err := patternsearch.Search(ctx, pool, patternsearch.Options{Variant: rules.International,
			Query: pattern.Query{Patterns: []pattern.Pattern{p}, MinPly: -1, MaxPly: -1, Reversed: reversed}, Limit: 100})
		must(err)
		if res.Games == 0 {
			t.Fatal("no game has the pattern: not a test")
		}
		return res
	}

	// Draw: one click on 28 (white man), two on 19 (black man).
	must(chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/pattern.html?variant=international"),
		idle(`document.querySelector('#p-board rect[data-sq="28"]') !== null`),
		chromedp.Click(chromedp.CSS(`#p-board rect[data-sq="28"]`)),
		chromedp.Click(chromedp.CSS(`#p-board rect[data-sq="19"]`)),
		chromedp.Click(chromedp.CSS(`#p-board rect[data-sq="19"]`)),
	))
	val, err := chromedp.Run(ctx, chromedp.Value(chromedp.ID("p-text")))
	must(err)
	if val != "W28:B19" {
		t.Fatalf("after the clicks the pattern is %q, want W28:B19", val)
	}
	for _, reversed := range []bool{false, true} {
		if reversed {
			must(chromedp.Do(ctx, chromedp.Click(chromedp.ID("p-reversed"))))
		}
		must(chromedp.Do(ctx,
			chromedp.Click(chromedp.ID("p-search")),
			idle(`document.getElementById('p-summary').textContent !== '' && document.getElementById('p-status').textContent === ''`),
		))
		want := search(reversed)
		got := rows()
		summary := text("#p-summary")
		if !strings.HasPrefix(summary, fmt.Sprintf("%d games, %d positions", want.Games, want.Positions)) || len(got) != len(want.Matches) {
			t.Fatalf("reversed=%v: the page says %q with %d rows; the search %d games, %d positions, %d listed",
				reversed, summary, len(got), want.Games, want.Positions, len(want.Matches))
		}
		for i, m := range want.Matches {
			if got[i].Game != strconv.FormatInt(m.GameID, 10) || got[i].Ply != strconv.Itoa(m.Ply) {
				t.Fatalf("reversed=%v row %d: game %s ply %s; the search: game %d ply %d", reversed, i, got[i].Game, got[i].Ply, m.GameID, m.Ply)
			}
		}
	}

	// Open the first game found (colour-reversed search): the explorer
	// shows it at the matching ply, whose position has the pattern.
	first := rows()[0]
	must(chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#p-games tbody tr[data-game]`))))
	// The click navigates: wait for the explorer's page, then for it to
	// show the game.
	must(chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#viewer`))))
	must(chromedp.Do(ctx, idle(`!location.pathname.endsWith('pattern.html') && !document.getElementById('viewer').hidden`)))
	var g GameAnswer
	if st, body := get(t, ts, "/api/game/"+first.Game, nil, &g); st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	ply, _ := strconv.Atoi(first.Ply)
	gply := text("#g-ply")
	fen := g.StartFEN
	if ply > 0 {
		if !strings.HasPrefix(gply, fmt.Sprintf("ply %d: %s", ply, g.Moves[ply-1].Move)) {
			t.Fatalf("game %s opened at %q; it matches at ply %d", first.Game, gply, ply)
		}
		fen = g.Moves[ply-1].FEN
	}
	p, err := rules.ParseFEN(rules.International, fen)
	must(err)
	normal := p.Piece(28) == rules.WhiteMan && p.Piece(19) == rules.BlackMan
	turned := p.Piece(23) == rules.BlackMan && p.Piece(32) == rules.WhiteMan
	if !normal && !turned {
		t.Fatalf("game %s at ply %d: %s has neither the pattern nor its colour-reversed form", first.Game, ply, fen)
	}
}
