package explorer

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/jackc/pgx/v5/pgxpool"
)

// matchLine is the one game of the match source the tests add.
var matchLine = []string{"32-28", "19-23", "28x19", "14x23"}

// withMatch imports the archive and stores one engine-match game (as
// draughtsdb match does, ingest.Append) that ends after matchLine.
func withMatch(t *testing.T) *pgxpool.Pool {
	t.Helper()
	pool := importArchive(t)
	game := `[Event "m"][GameType "20"][Result "2-0"]` + "\n1. 32-28 19-23 2. 28x19 14x23 2-0\n"
	if _, err := ingest.Append(context.Background(), pool, "test-match", "match: m", []byte(game), ingest.Options{Variant: rules.International}); err != nil {
		t.Fatal(err)
	}
	return pool
}

// download fetches /api/download and returns the status, the type and
// the body.
func download(t *testing.T, base string, params url.Values) (int, string, []byte) {
	t.Helper()
	resp, err := http.Get(base + "/api/download?" + params.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

// pdnGames counts the games of a PDN text.
func pdnGames(t *testing.T, b []byte) int {
	t.Helper()
	rd := pdn.NewReader(bytes.NewReader(b), "download")
	n := 0
	for {
		_, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
}

// TestAPISourcesDownloadEnding: /api/openings and /api/games count the
// archive sources unless source= asks for others (match, all, ids or
// names; an unknown one is an error); the tree's position says how many
// games ended there; /api/download gives the games that reach the
// position, as PDN or CSV, exactly those the Go replay of the archive
// finds (and the match's under source=match).
func TestAPISourcesDownloadEnding(t *testing.T) {
	t.Parallel()
	pool := withMatch(t)
	ts := testServer(t, pool, Options{})
	games := replayArchive(t)
	ctx := context.Background()

	after, err := replay.PositionAfter(rules.International, "", []string{"32-28"})
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"", "archive", "match", "all", "match: m"} {
		var ans TreeAnswer
		params := url.Values{"moves": {"32-28"}}
		if src != "" {
			params.Set("source", src)
		}
		if st, body := get(t, ts, "/api/openings", params, &ans); st != 200 {
			t.Fatalf("source %q: %d %s", src, st, body)
		}
		sel := src
		if sel == "" {
			sel = "archive"
		}
		node, err := openings.TreeFrom(ctx, pool, &after, sel)
		if err != nil {
			t.Fatal(err)
		}
		if ans.Position.Games != node.Games || len(ans.Moves) != len(node.Branch) || ans.Position.Sources != sel {
			t.Errorf("source %q: the API counts %d games in %d moves (sources %q), openings.TreeFrom %d in %d", src, ans.Position.Games, len(ans.Moves), ans.Position.Sources, node.Games, len(node.Branch))
		}
		var page GamesPage
		if st, body := get(t, ts, "/api/games", params, &page); st != 200 {
			t.Fatalf("games source %q: %d %s", src, st, body)
		}
		switch sel {
		case "match", "match: m":
			if ans.Position.Games != 1 || len(page.Games) != 1 {
				t.Errorf("source %q: %d games in the tree, %d listed; want the match's 1", src, ans.Position.Games, len(page.Games))
			}
		case "archive":
			if want := reachCount(games, after.Hash(), all) - 0; int(ans.Position.Games) > want || ans.Position.Games == 0 {
				t.Errorf("archive: %d games in the tree, %d reach the position", ans.Position.Games, want)
			}
		}
	}
	for _, c := range []url.Values{{"source": {"nosuch"}}, {"source": {"match"}, "player": {"x"}}} {
		var e struct{ Error string }
		if st, body := get(t, ts, "/api/openings", c, &e); st != 400 || !strings.Contains(body, "source") {
			t.Errorf("%v: %d %s, want 400 naming the source", c, st, body)
		}
	}

	// Games ending at the position after matchLine: the match's one under
	// source=match; the archive's as the replay finds them.
	end, err := replay.PositionAfter(rules.International, "", matchLine)
	if err != nil {
		t.Fatal(err)
	}
	archiveEnding := int64(0)
	for i := range games {
		if g := &games[i]; g.variant == rules.International && g.hashes[len(g.hashes)-1] == end.Hash() {
			archiveEnding++
		}
	}
	for src, want := range map[string]int64{"match": 1, "archive": archiveEnding, "all": archiveEnding + 1} {
		var ans TreeAnswer
		if st, body := get(t, ts, "/api/openings", url.Values{"moves": {strings.Join(matchLine, " ")}, "source": {src}}, &ans); st != 200 {
			t.Fatalf("%d %s", st, body)
		}
		if ans.Position.Ending == nil || *ans.Position.Ending != want {
			t.Errorf("source %s: ending %v, want %d", src, ans.Position.Ending, want)
		}
	}

	// Downloads: the games reaching the position after 32-28.
	want := reachCount(games, after.Hash(), all)
	st, ctype, b := download(t, ts.URL, url.Values{"variant": {"international"}, "moves": {"32-28"}, "format": {"csv"}})
	if st != 200 || !strings.HasPrefix(ctype, "text/csv") {
		t.Fatalf("csv: %d %s %s", st, ctype, b)
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil || len(rows)-1 != want {
		t.Errorf("csv download: %d games, %v; the replay finds %d reaching the position", len(rows)-1, err, want)
	}
	st, _, b = download(t, ts.URL, url.Values{"moves": {"32-28"}})
	if st != 200 || pdnGames(t, b) != want {
		t.Errorf("pdn download: %d, %d games; want %d", st, pdnGames(t, b), want)
	}
	st, _, b = download(t, ts.URL, url.Values{"moves": {"32-28"}, "source": {"match"}, "format": {"pdn"}})
	if st != 200 || pdnGames(t, b) != 1 || !strings.Contains(string(b), "28x19") {
		t.Errorf("match pdn download: %d %s", st, b)
	}
	for _, c := range []url.Values{{"format": {"xlsx"}}, {"source": {"nosuch"}}, {"moves": {"32-26"}}, {"limit": {"3"}}} {
		if st, _, b := download(t, ts.URL, c); st != 400 {
			t.Errorf("download %v: %d %s, want 400", c, st, b)
		}
	}
}

// TestBrowserSourcesAndDownload: the page's source selector changes the
// tree, the games and the download links to the selected sources, and
// the heading says which sources it counts and how many games ended at
// the position; the download links give the API's files.
func TestBrowserSourcesAndDownload(t *testing.T) {
	t.Parallel()
	exe := chromium(t)
	pool := withMatch(t)
	ts := testServer(t, pool, Options{})
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU, chromedp.WindowSize(1440, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	idle := func(cond string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](`document.body.dataset.ready === '1' && document.body.dataset.busy === '0' && (`+cond+`)`,
			chromedp.WithPollingInterval(20*time.Millisecond))
	}
	eval := func(js string, out any) {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](js))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(v, out); err != nil {
			t.Fatal(err)
		}
	}
	type view struct {
		Head, PDN, CSV string
		Rows, Games    int
	}
	viewJS := `({Head: document.querySelector('#tree-head').textContent,
		PDN: document.querySelector('#download-pdn').getAttribute('href'),
		CSV: document.querySelector('#download-csv').getAttribute('href'),
		Rows: document.querySelectorAll('#tree tbody tr[data-move]').length,
		Games: document.querySelectorAll('#games tbody tr[data-game]').length})`
	line := url.QueryEscape(matchLine[0])
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?variant=international&moves="+line), idle("true")); err != nil {
		t.Fatal(err)
	}
	var archive view
	eval(viewJS, &archive)
	if !strings.Contains(archive.Head, "archive sources") || !strings.Contains(archive.Head, "ended here") || archive.Rows < 5 ||
		strings.Contains(archive.PDN, "source=") || !strings.Contains(archive.PDN, "format=pdn") || !strings.Contains(archive.CSV, "format=csv") {
		t.Errorf("archive view: %+v", archive)
	}
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#source-kind"), "match"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#source-kind').dispatchEvent(new Event('change'))`),
		idle(`location.search.includes('source=match')`)); err != nil {
		t.Fatal(err)
	}
	var match view
	eval(viewJS, &match)
	if !strings.HasPrefix(match.Head, "1 games of the engine-match sources") || match.Rows != 1 || match.Games != 1 || !strings.Contains(match.PDN, "source=match") {
		t.Errorf("match view: %+v", match)
	}
	// The link's file is the match's game.
	body, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(document.querySelector('#download-pdn').href).then(r => r.text())`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, `[Event "m"]`) || pdnGames(t, []byte(body)) != 1 {
		t.Errorf("the PDN link gave %q", body)
	}
	// Particular sources: by name.
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#source-kind"), "custom"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#source-kind').dispatchEvent(new Event('change'))`),
		chromedp.SetValue(chromedp.CSS("#source-ids"), "match: m"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#source-ids').dispatchEvent(new Event('change'))`),
		idle(`location.search.includes('source=match')`)); err != nil {
		t.Fatal(err)
	}
	var named view
	eval(viewJS, &named)
	if !strings.Contains(named.Head, "sources match: m") || named.Rows != 1 {
		t.Errorf("named source view: %+v", named)
	}
}
