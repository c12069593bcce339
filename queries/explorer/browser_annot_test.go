package explorer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestBrowserAnnotations drives the game viewer in headless Chromium: the
// author's comments show under the moves (before the first move at the
// start), the strength marks beside the moves, and a click on a
// variation's move shows its position; the arrow keys step along the
// variation and back out of it.
func TestBrowserAnnotations(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	exe := chromium(t)
	ctx0 := context.Background()
	path := filepath.Join(t.TempDir(), "annotated.pdn")
	text := `[Event "Annotated"]
[GameType "20"]
[Result "1-1"]
{Opening comment.} 1. 32-28 {Centre first.} 19-23! 2. 28x19 14x23 (2... 13x24 {the other way} 3. 34-29) (2... 99-98) 3. 37-32? {A loose move.} 18-22!? 4. 41-37 $14 1-1
`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	pool := pgtest.NewDB(t)
	if sum, err := ingest.Import(ctx0, pool, []string{path}, ingest.Options{}); err != nil || sum.Imported != 1 {
		t.Fatalf("import: %+v, %v", sum, err)
	}
	ts := testServer(t, pool, Options{})
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU, chromedp.WindowSize(1440, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx0, opts...)
	defer cancelAlloc()
	ctx, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()
	// A bound on a hang, not a speed test.
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	idle := func(cond string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](`document.body.dataset.ready === '1' && document.body.dataset.busy === '0' && (`+cond+`)`,
			chromedp.WithPollingInterval(20*time.Millisecond))
	}
	text1 := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('`+sel+`') || {}).textContent || ''`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?variant=international&game=1"), idle(`!document.getElementById('viewer').hidden`)))
	if notes := text1("#game-notes"); !strings.Contains(notes, "Opening comment.") {
		t.Errorf("at the start the notes say %q", notes)
	}
	if marks := text1("#game-moves"); !strings.Contains(marks, "19-23!") || !strings.Contains(marks, "37-32?") || !strings.Contains(marks, "41-37 $14") {
		t.Errorf("the move list: %q", marks)
	}
	must(chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#game-moves li[data-ply="4"]`)), idle(`document.getElementById('g-ply').textContent.startsWith('ply 4')`)))
	notes := text1("#game-notes")
	if !strings.Contains(notes, "Instead of 14x23") || !strings.Contains(notes, "13x24") || !strings.Contains(notes, "the other way") || !strings.Contains(notes, "99-98") {
		t.Fatalf("at ply 4 the notes say %q", notes)
	}
	// Into the variation: 2... 13x24, then a step to 3. 34-29, then two
	// steps back: out of the variation, at ply 4 of the game.
	must(chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#game-notes .vmove.playable`)),
		idle(`document.getElementById('g-ply').textContent.startsWith('variation')`)))
	if g := text1("#g-ply"); g != "variation instead of ply 4: 13x24" {
		t.Errorf("in the variation: %q", g)
	}
	// The board shows the variation's position: Black on 24, not 23.
	board, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`['23', '24'].map(s => !!document.querySelector('#game-board g[data-piece="' + s + '"]')).join(' ')`))
	must(err)
	if board != "false true" {
		t.Errorf("pieces on 23 and 24 in the variation: %s", board)
	}
	must(chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight), idle(`document.getElementById('g-ply').textContent.endsWith('34-29')`)))
	must(chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowLeft),
		idle(`document.getElementById('g-ply').textContent.startsWith('ply 4')`)))
	if g := text1("#g-ply"); !strings.HasPrefix(g, "ply 4: 14x23") {
		t.Errorf("out of the variation: %q", g)
	}
	// The unverified variation cannot be stepped into.
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#game-notes .variation.unverified .vmove.playable').length`))
	must(err)
	if n != 0 {
		t.Errorf("%d playable moves in the unverified variation", n)
	}
}
