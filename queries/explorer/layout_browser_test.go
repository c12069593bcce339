package explorer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// browserTab starts headless Chromium at a window width and returns a
// tab's context and helpers: idle waits until the page (explorer or
// player page) has shown what it asked for and cond holds; eval runs js
// and decodes its value into out.
func browserTab(t *testing.T, width, height int) (ctx context.Context, idle func(cond string) chromedp.Action[chromedp.Void], eval func(js string, out any)) {
	t.Helper()
	exe := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.WindowSize(width, height))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	// A bound on a hang (a page that never gets ready), not a speed test.
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancel)
	idle = func(cond string) chromedp.Action[chromedp.Void] {
		if cond == "" {
			cond = "true"
		}
		return chromedp.Poll[chromedp.Void](`document.body.dataset.ready === '1' && document.body.dataset.busy === '0' && (`+cond+`)`,
			chromedp.WithPollingInterval(20*time.Millisecond))
	}
	eval = func(js string, out any) {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](js))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(v, out); err != nil {
			t.Fatalf("%v in %s", err, v)
		}
	}
	return ctx, idle, eval
}

// importSijbrands returns a database holding the PDN standard's example
// files that write Ton Sijbrands two ways.
func importSijbrands(t *testing.T) *pgxpool.Pool {
	t.Helper()
	pool := pgtest.NewDB(t)
	if _, err := ingest.Import(context.Background(), pool, sijbrandsFiles(), ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	return pool
}

// layoutJS measures the page with a game open, by element geometry: the
// cells of the tables whose right edge is past their section's (a column
// cut off), the move and result cells and moves of the game that take
// more than one line, the square labels of the game's board that are
// under something painted after them or too small to read, and the
// evaluation graph's axis labels.
const layoutJS = `(() => {
  const out = {clipped: [], wrapped: [], hidden: [], small: [], axisY: [], axisX: [], cells: 0, moves: 0, labels: 0};
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '') + ' ' + JSON.stringify(e.textContent.slice(0, 30));
  for (const sel of ['#tree', '#games']) {
    const table = document.querySelector(sel);
    const box = table.closest('section').getBoundingClientRect();
    for (const c of table.querySelectorAll('th, td')) {
      out.cells++;
      const r = c.getBoundingClientRect();
      if (r.right > box.right + 0.5 || r.left < box.left - 0.5) out.clipped.push(sel + ' ' + name(c) + ' right ' + r.right.toFixed(1) + ' > ' + box.right.toFixed(1));
    }
    const s = table.closest('section');
    if (s.scrollWidth > s.clientWidth + 1) out.clipped.push(sel + ': its section scrolls (' + s.scrollWidth + ' > ' + s.clientWidth + ')');
  }
  // One line: every piece of text in the element has the same top.
  const oneLine = (e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    const tops = new Set();
    for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
    return tops.size <= 1;
  };
  for (const c of document.querySelectorAll('#tree td.move, #games td.result, #games td.date, #games td.num, #tree td.num, #game-moves li, #game-title .result')) {
    out.moves++;
    if (!oneLine(c)) out.wrapped.push(name(c));
  }
  const svg = document.getElementById('game-board');
  const painted = Array.from(svg.querySelectorAll('.piece circle, .piece path, circle.target'));
  for (const l of svg.querySelectorAll('text.label')) {
    out.labels++;
    const r = l.getBoundingClientRect();
    if (r.height < 9) out.small.push(l.textContent + ' ' + r.height.toFixed(1) + 'px');
    for (const p of painted) {
      const q = p.getBoundingClientRect();
      // A piece drawn after the label that covers part of it (its
      // bounding box, the circle's: the strict test).
      const after = l.compareDocumentPosition(p) & Node.DOCUMENT_POSITION_FOLLOWING;
      if (after && q.left < r.right && q.right > r.left && q.top < r.bottom && q.bottom > r.top) {
        out.hidden.push(l.textContent);
        break;
      }
    }
  }
  const g = document.getElementById('eval-graph').getBoundingClientRect();
  for (const [cls, list] of [['eval-axis-y', out.axisY], ['eval-axis-x', out.axisX]]) {
    for (const t of document.querySelectorAll('#eval-graph text.' + cls)) {
      const r = t.getBoundingClientRect();
      if (r.width > 0 && r.height >= 8 && r.left >= g.left - 0.5 && r.right <= g.right + 0.5 && r.top >= g.top - 0.5 && r.bottom <= g.bottom + 0.5) list.push(t.textContent);
    }
  }
  return out;
})()`

type layout struct {
	Clipped, Wrapped, Hidden, Small, AxisY, AxisX []string
	Cells, Moves, Labels                          int
}

// TestBrowserLayout: with a game open, at 1400 and 1920 px wide, every
// cell of the tree and the games list stays inside its section, moves,
// results, dates and counts stay on one line, the game board's square
// numbers are on top of the pieces and readable, and the evaluation graph
// has a scale (+5, 0, -5 and ply numbers) and shows the move under the
// pointer. Checked by element geometry (getBoundingClientRect).
func TestBrowserLayout(t *testing.T) {
	t.Parallel()
	chromium(t)
	pool := importSijbrands(t)
	ts := testServer(t, pool, Options{})
	// The game with the longest names and event, so the columns are the
	// widest the data has.
	var id int64
	if err := pool.QueryRow(context.Background(), `SELECT g.id FROM games g JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id
		WHERE g.ply_count >= 20 ORDER BY length(w.name) + length(b.name) + length(coalesce(g.event, '')) DESC, g.id LIMIT 1`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	var game GameAnswer
	if st, body := get(t, ts, fmt.Sprintf("/api/game/%d", id), nil, &game); st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	for _, width := range []int{1400, 1920} {
		t.Run(strconv.Itoa(width), func(t *testing.T) {
			ctx, idle, eval := browserTab(t, width, 1000)
			// The position after the game's first move, so the tree and
			// the games list are full, with the game open at ply 10.
			u := fmt.Sprintf("%s/?variant=international&moves=%s&game=%d&gply=10", ts.URL, url.QueryEscape(game.Moves[0].Move), id)
			if err := chromedp.Do(ctx, chromedp.Navigate(u), idle(`!document.getElementById('viewer').hidden`)); err != nil {
				t.Fatal(err)
			}
			var l layout
			eval(layoutJS, &l)
			t.Logf("%d px: %d cells, %d moves and results, %d labels; axis %v / %v", width, l.Cells, l.Moves, l.Labels, l.AxisY, l.AxisX)
			if l.Cells < 30 || l.Moves < 20 || l.Labels != 50 {
				t.Fatalf("%d px: too little measured: %+v", width, l)
			}
			if len(l.Clipped) > 0 {
				t.Errorf("%d px: cells past their section: %q", width, l.Clipped)
			}
			if len(l.Wrapped) > 0 {
				t.Errorf("%d px: on more than one line: %q", width, l.Wrapped)
			}
			if len(l.Hidden) > 0 || len(l.Small) > 0 {
				t.Errorf("%d px: square labels under a piece %q, smaller than 9 px %q", width, l.Hidden, l.Small)
			}
			if strings.Join(l.AxisY, " ") != "+5 0 -5" || len(l.AxisX) < 2 || l.AxisX[0] != "0" {
				t.Errorf("%d px: evaluation graph scale %q, plies %q", width, l.AxisY, l.AxisX)
			}

			// The move under the pointer: over ply 7's place on the graph.
			var at struct{ X, Y float64 }
			eval(`(() => { const svg = document.getElementById('eval-graph'); const r = svg.getBoundingClientRect();
				const vb = svg.viewBox.baseVal; const n = `+strconv.Itoa(len(game.Moves))+`;
				const left = 30, right = 6; const x = left + (7 / n) * (vb.width - left - right);
				return {X: r.left + x * r.width / vb.width, Y: r.top + r.height / 2}; })()`, &at)
			if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, at.X, at.Y)); err != nil {
				t.Fatal(err)
			}
			var hover string
			eval(`(() => { const h = document.querySelector('#eval-graph .eval-hover'); return h.getAttribute('visibility') === 'visible' ? h.querySelector('text').textContent : ''; })()`, &hover)
			if want := "ply 7: " + game.Moves[6].Move; !strings.HasPrefix(hover, want) {
				t.Errorf("%d px: pointer over ply 7 of the graph: %q, want %q", width, hover, want)
			}
			// A click there shows that ply.
			if err := chromedp.Do(ctx, chromedp.MouseClickXY(at.X, at.Y),
				idle(`(document.querySelector('#game-moves li.current') || {dataset: {}}).dataset.ply === '7'`)); err != nil {
				t.Fatal(err)
			}
		})
	}
}
