package explorer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// chromium finds the browser: chromium on PATH, else /usr/bin/chromium.
// Without one the test skips, except under CI=true, where it fails
// (.ci/run installs the Debian package chromium).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true and no chromium (on PATH or /usr/bin/chromium): .ci/run installs it with apt-get install -y chromium")
	}
	t.Skip("no chromium on PATH or at /usr/bin/chromium (apt-get install chromium): the browser test is skipped")
	return ""
}

// TestBrowser drives the page in headless Chromium against the archive:
// it plays 32-28 by clicking the board, checks that the tree shows what
// the API and `draughtsdb openings` (openings.Tree) give, plays a move by
// clicking its row, opens a game and steps through it (buttons and arrow
// key), reloads the URL and finds the same position and game, and saves
// a screenshot (DRAUGHTSDB_SCREENSHOT=FILE copies it there, for the
// README's picture).
func TestBrowser(t *testing.T) {
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
	// A bound on a hang (a page that never gets ready), not a speed test.
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()

	// idle waits until the page has shown what it asked for (and cond).
	idle := func(cond string) chromedp.Action[chromedp.Void] {
		if cond == "" {
			cond = "true"
		}
		return chromedp.Poll[chromedp.Void](`document.body.dataset.ready === '1' && document.body.dataset.busy === '0' && (`+cond+`)`,
			chromedp.WithPollingInterval(20*time.Millisecond))
	}
	type row struct {
		Move  string
		Games int64
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	eval := func(js string, out any) {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](js))
		must(err)
		must(json.Unmarshal(v, out))
	}
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector(`+strconv.Quote(sel)+`) || {}).textContent || ''`))
		must(err)
		return v
	}
	value := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(sel)))
		must(err)
		return v
	}
	var (
		rows []row
		line []string
	)
	treeJS := `Array.from(document.querySelectorAll('#tree tbody tr[data-move]')).map(tr => ({Move: tr.dataset.move, Games: +tr.querySelector('td.games').textContent}))`
	lineJS := `Array.from(document.querySelectorAll('#line li[data-ply]')).map(li => li.textContent)`

	// Load, then play 32-28 by clicking the board: the piece, its square.
	must(chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/?variant=international"),
		idle(""),
		chromedp.Click(chromedp.CSS(`#board rect[data-sq="32"]`)),
		chromedp.Click(chromedp.CSS(`#board rect[data-sq="28"]`)),
		idle(`location.search.includes('moves=32-28')`),
	))
	eval(treeJS, &rows)
	eval(lineJS, &line)
	if st := text("#status"); st != "" || len(line) != 1 || line[0] != "32-28" {
		t.Fatalf("after clicking 32 and 28: status %q, line %v", st, line)
	}

	// The tree shows the API's counts and openings.Tree's.
	var ans TreeAnswer
	if st, body := get(t, ts, "/api/openings", url.Values{"moves": {"32-28"}}, &ans); st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	pos, err := replay.PositionAfter(rules.International, "", []string{"32-28"})
	must(err)
	node, err := openings.Tree(ctx, pool, &pos)
	must(err)
	if len(rows) != len(ans.Moves) || len(rows) != len(node.Branch) || len(rows) < 5 {
		t.Fatalf("the page shows %d moves, the API %d, openings.Tree %d", len(rows), len(ans.Moves), len(node.Branch))
	}
	for i, r := range rows {
		if r.Move != ans.Moves[i].Move || r.Games != ans.Moves[i].Games || r.Move != node.Branch[i].Text || r.Games != node.Branch[i].Games {
			t.Errorf("row %d: the page %+v, the API %s %d, openings.Tree %s %d", i, r, ans.Moves[i].Move, ans.Moves[i].Games,
				node.Branch[i].Text, node.Branch[i].Games)
		}
	}

	// A row plays its move.
	second := rows[0].Move
	must(chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#tree tr[data-move=%q]`, second))),
		idle(`document.querySelectorAll('#line li[data-ply]').length === 2`),
	))
	eval(lineJS, &line)
	want, err := replay.PositionAfter(rules.International, "", []string{"32-28", second})
	must(err)
	if fen := value("#fen"); len(line) != 2 || line[1] != second || fen != want.FEN() {
		t.Fatalf("after clicking the row %s: line %v, FEN %s; want %s", second, line, fen, want.FEN())
	}

	// Open the newest game at the position and step through it.
	var firstGame string
	eval(`document.querySelector('#games tbody tr[data-game]').dataset.game`, &firstGame)
	must(chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#games tbody tr[data-game]`)),
		idle(`!document.getElementById('viewer').hidden`),
	))
	var g GameAnswer
	if st, body := get(t, ts, "/api/game/"+firstGame, nil, &g); st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	// It opens where the game reached the position: ply 2, or later by a
	// transposition.
	at := 0
	for i, m := range g.Moves {
		if m.FEN == want.FEN() {
			at = i + 1
			break
		}
	}
	if gply, title := text("#g-ply"), text("#game-title"); at == 0 || !strings.HasPrefix(gply, fmt.Sprintf("ply %d: %s", at, g.Moves[at-1].Move)) ||
		!strings.Contains(title, g.Result) {
		t.Fatalf("game %s opened at %q (%q); it reaches the position at ply %d", firstGame, gply, title, at)
	}
	must(chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("g-forward")),
		chromedp.Click(chromedp.ID("g-forward")),
		chromedp.KeyEvent(kb.ArrowRight),
		idle(fmt.Sprintf(`document.querySelector('#game-moves li.current').dataset.ply === '%d'`, at+3)),
	))
	if n, gply := at+3, text("#g-ply"); !strings.HasPrefix(gply, fmt.Sprintf("ply %d: %s", n, g.Moves[n-1].Move)) {
		t.Fatalf("after three steps: %q; want ply %d %s", gply, n, g.Moves[n-1].Move)
	}

	// The URL holds it all: a reload shows the same position and game.
	loc, err := chromedp.Run(ctx, chromedp.Location())
	must(err)
	before := value("#fen")
	must(chromedp.Do(ctx,
		chromedp.Navigate(loc),
		idle(`!document.getElementById('viewer').hidden`),
	))
	eval(lineJS, &line)
	if after, gply := value("#fen"), text("#g-ply"); after != before || len(line) != 2 || line[1] != second ||
		!strings.HasPrefix(gply, fmt.Sprintf("ply %d:", at+3)) {
		t.Fatalf("after reloading %s: FEN %s (was %s), line %v, game at %q", loc, after, before, line, gply)
	}

	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	must(err)
	shot := filepath.Join(t.TempDir(), "explorer.png")
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("DRAUGHTSDB_SCREENSHOT"); out != "" {
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("screenshot of %s: %s (%d bytes)", loc, shot, len(png))

	// A game of another variant than the one selected is numbered by its
	// own first mover: in English Black moves first, so its first two
	// moves are move 1 ("1. 11-15 24-19", not "1... 11-15 2. 24-19"), opened
	// with International selected and after selecting Russian.
	if _, err := ingest.Import(ctx, pool, []string{filepath.Join(shared, "testsuite", "succeed", "Tricks traps and shots.pdn.gz")}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	var english int64
	must(pool.QueryRow(ctx, `SELECT min(id) FROM games WHERE variant = $1 AND start_fen IS NULL AND ply_count >= 4`,
		codec.VariantID(rules.English)).Scan(&english))
	var eg GameAnswer
	if st, body := get(t, ts, fmt.Sprintf("/api/game/%d", english), nil, &eg); st != 200 || eg.Variant != "english" {
		t.Fatalf("game %d: %d %s", english, st, body)
	}
	wantList := []string{"1.", eg.Moves[0].Move, eg.Moves[1].Move, "2.", eg.Moves[2].Move}
	listJS := `Array.from(document.querySelectorAll('#game-moves li')).slice(0, 5).map(li => li.textContent)`
	var list []string
	must(chromedp.Do(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/?variant=international&game=%d", ts.URL, english)),
		idle(`!document.getElementById('viewer').hidden`),
	))
	eval(listJS, &list)
	if v := value("#variant"); v != "international" || !slices.Equal(list, wantList) {
		t.Errorf("English game %d with %s selected: moves %q, want %q", english, v, list, wantList)
	}
	// Its result names the winner by colour: English "1-0" is Black's
	// win, which "White – Black 1-0" did not say.
	if res, ok := replay.ParseResult(rules.English, eg.Result); ok {
		want := eg.Result + " (draw)"
		if w, decisive := res.Winner(); decisive {
			want = eg.Result + " (" + strings.ToLower(w.String()) + " wins)"
		}
		if title := text("#game-title"); !strings.HasSuffix(title, want) {
			t.Errorf("English game %d: title %q, want it to end %q", english, title, want)
		}
	}
	must(chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#variant"), "russian"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('variant').dispatchEvent(new Event('change'))`),
		idle(`location.search.includes('variant=russian')`),
		chromedp.Click(chromedp.ID("g-forward")),
		idle(`document.querySelector('#game-moves li.current').dataset.ply === '1'`),
	))
	eval(listJS, &list)
	if !slices.Equal(list, wantList) {
		t.Errorf("English game %d after selecting russian: moves %q, want %q", english, list, wantList)
	}
}
