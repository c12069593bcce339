package explorer

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestPlayerPageBrowser drives the player page in headless Chromium: a
// player's name in the explorer's game title leads to their page, which
// shows the record, the years and the trees /api/player gives; a row of
// the White tree plays its move and the line goes back; a game opens in
// the explorer's game viewer; the players list finds the player by a part
// of a spelling; an opponent's name leads to the opponent's page.
func TestPlayerPageBrowser(t *testing.T) {
	t.Parallel()
	chromium(t)
	pool := importSijbrands(t)
	ts := testServer(t, pool, Options{})
	var p PlayerAnswer
	if st, body := get(t, ts, "/api/player", url.Values{"name": {"Sijbrands,T."}}, &p); st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	if len(p.Games) == 0 || len(p.WhiteTree.Moves) == 0 || len(p.Opponents) == 0 {
		t.Fatalf("not a test: %+v", p)
	}
	game := p.Games[len(p.Games)-1]
	ctx, idle, eval := browserTab(t, 1400, 1000)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	onPage := func(path string) string {
		return fmt.Sprintf(`location.pathname.endsWith(%q)`, path)
	}
	// arrive waits, after a click that loads another page, until that page
	// is ready and cond holds: the evaluation fails while the old page
	// goes away, so it is tried again until the tab's deadline.
	arrive := func(cond string) {
		t.Helper()
		for {
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.body && document.body.dataset.ready === '1' && document.body.dataset.busy === '0' && (`+cond+`)`))
			if err == nil && ok {
				return
			}
			if ctx.Err() != nil {
				t.Fatalf("waiting for %s: %v", cond, ctx.Err())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	// The game's title links its players.
	name := game.White
	if !strings.Contains(name, "Sijbrands") {
		name = game.Black
	}
	must(chromedp.Do(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/?variant=international&game=%d", ts.URL, game.ID)),
		idle(`!document.getElementById('viewer').hidden`),
	))
	var links []string
	eval(`Array.from(document.querySelectorAll('#game-title a.player')).map(a => a.textContent)`, &links)
	if !slices.Equal(links, []string{game.White, game.Black}) {
		t.Fatalf("game %d: title links %q, want %q and %q", game.ID, links, game.White, game.Black)
	}
	must(chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#game-title a.player:nth-of-type(%d)`, map[bool]int{true: 1, false: 2}[name == game.White]))),
	))
	arrive(onPage("/player.html") + ` && document.getElementById('pl-name').textContent !== ''`)
	type shown struct {
		Name    string
		Aliases string
		Record  []string
		Years   int
		White   []string
		Line    []string
		Games   int
	}
	pageJS := `({Name: document.getElementById('pl-name').textContent,
		Aliases: document.getElementById('pl-aliases').textContent,
		Record: Array.from(document.querySelectorAll('#pl-record tbody tr')).map(tr => tr.cells[1].textContent),
		Years: document.querySelectorAll('#pl-years tbody tr').length,
		White: Array.from(document.querySelectorAll('#pl-tree-white tbody tr[data-move]')).map(tr => tr.dataset.move + ' ' + tr.querySelector('td.games').textContent),
		Line: Array.from(document.querySelectorAll('#pl-tree-white .pl-line li')).map(li => li.textContent),
		Games: document.querySelectorAll('#pl-games tbody tr[data-game]').length})`
	treeRows := func(tr *PlayerTree) []string {
		var out []string
		for _, m := range tr.Moves {
			out = append(out, fmt.Sprintf("%s %d", m.Move, m.Games))
		}
		return out
	}
	var s shown
	eval(pageJS, &s)
	if s.Name != p.Name || !strings.Contains(s.Aliases, p.Aliases[0]) ||
		!slices.Equal(s.Record, []string{fmt.Sprint(p.All.Games), fmt.Sprint(p.White.Games), fmt.Sprint(p.Black.Games)}) ||
		s.Years != len(p.Years) || !slices.Equal(s.White, treeRows(p.WhiteTree)) || s.Games != len(p.Games) {
		t.Fatalf("from %s's link: the page shows %+v; the API %+v", name, s, p)
	}

	// A row of the White tree plays its move; the line's start goes back.
	first := p.WhiteTree.Moves[0].Move
	var p2 PlayerAnswer
	get(t, ts, "/api/player", url.Values{"name": {p.Name}, "white_moves": {first}}, &p2)
	must(chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#pl-tree-white tr[data-move=%q]`, first))),
		idle(`document.querySelectorAll('#pl-tree-white .pl-line li').length === 2`),
	))
	eval(pageJS, &s)
	if !slices.Equal(s.Line, []string{"start", first}) || !slices.Equal(s.White, treeRows(p2.WhiteTree)) || len(s.White) == 0 {
		t.Errorf("after %s: line %q, tree %q; the API %q", first, s.Line, s.White, treeRows(p2.WhiteTree))
	}
	loc, err := chromedp.Run(ctx, chromedp.Location())
	must(err)
	if u, _ := url.Parse(loc); u.Query().Get("wm") != first {
		t.Errorf("after %s: URL %s", first, loc)
	}
	must(chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#pl-tree-white .pl-line li[data-ply="0"]`)),
		idle(`document.querySelectorAll('#pl-tree-white .pl-line li').length === 1`),
	))
	eval(pageJS, &s)
	if !slices.Equal(s.White, treeRows(p.WhiteTree)) {
		t.Errorf("back at the start: tree %q, want %q", s.White, treeRows(p.WhiteTree))
	}

	// A game of the list opens in the explorer's game viewer.
	must(chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#pl-games tr[data-game="%d"] td.event`, game.ID))),
	))
	arrive(onPage("/") + ` && !document.getElementById('viewer').hidden`)
	var title string
	eval(`document.getElementById('game-title').textContent`, &title)
	if loc, _ := chromedp.Run(ctx, chromedp.Location()); !strings.Contains(loc, fmt.Sprintf("game=%d", game.ID)) || !strings.Contains(title, game.White) {
		t.Errorf("game %d from the player page: %s, title %q", game.ID, loc, title)
	}

	// The players list: a part of a spelling, one player, linked.
	must(chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/player.html")))
	arrive("true")
	var everyone int
	eval(`document.querySelectorAll('#pl-players tbody tr').length`, &everyone)
	if everyone < 10 {
		t.Errorf("the players list without a search: %d players", everyone)
	}
	must(chromedp.Do(ctx,
		chromedp.SetValue(chromedp.ID("pl-search"), "sijbr"),
		chromedp.Click(chromedp.CSS(`#pl-search-form button`)),
	))
	must(chromedp.Do(ctx,
		idle(`location.search.includes('search=sijbr')`),
	))
	var list []string
	eval(`Array.from(document.querySelectorAll('#pl-players tbody tr')).map(tr => tr.cells[0].textContent + ' | ' + tr.cells[1].textContent + ' | ' + tr.cells[2].textContent)`, &list)
	if want := fmt.Sprintf("%s | %s | %d", p.Name, strings.Join(p.Aliases, "; "), p.All.Games); !slices.Equal(list, []string{want}) {
		t.Errorf("search sijbr: %q, want %q", list, want)
	}

	// An opponent's name leads to the opponent's page.
	opp := p.Opponents[0].Scope
	must(chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#pl-players a.player`))))
	arrive(`new URLSearchParams(location.search).get('name') !== null && document.getElementById('pl-name').textContent !== ''`)
	must(chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#pl-opponents tbody tr:first-child a.player`))))
	arrive(`new URLSearchParams(location.search).get('name') === ` + fmt.Sprintf("%q", opp) + ` && document.getElementById('pl-name').textContent !== ` + fmt.Sprintf("%q", p.Name))
	var q PlayerAnswer
	get(t, ts, "/api/player", url.Values{"name": {opp}}, &q)
	eval(pageJS, &s)
	if s.Name != q.Name || s.Record[0] != fmt.Sprint(q.All.Games) {
		t.Errorf("opponent %s: the page %+v; the API %s %d games", opp, s, q.Name, q.All.Games)
	}
}
