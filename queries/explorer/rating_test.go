package explorer

import (
	"context"
	"errors"
	"io"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

var plainNumber = regexp.MustCompile(`^[0-9]{1,4}$`)

// tagRating reads a side's rating from a game's tags as this test
// understands the files: WhiteRating, else WhiteElo; a plain positive
// number, else none (0): "0000" (lidraughts' unrated), "?", a longer one.
func tagRating(pg *pdn.Game, side string) int {
	for _, tag := range []string{side + "Rating", side + "Elo"} {
		v := strings.TrimSpace(pg.Tag(tag))
		if v == "" {
			continue
		}
		if !plainNumber.MatchString(v) {
			return 0
		}
		n, _ := strconv.Atoi(v)
		return n
	}
	return 0
}

// TestMinRating: a player's latest rating and rating per year in
// /api/player and on their page, as the files' tags give them; the
// explorer's min_rating keeps the games both of whose
// players are rated at least that: the tree's counted games and the games
// list hold what lidraughts' and kurnik's WhiteElo and BlackElo tags give,
// counted here from the files (lidraughts' games are headers only,
// kurnik's have moves), the page's control holds the filter and lists
// those games.
func TestMinRating(t *testing.T) {
	t.Parallel()
	files := []string{filepath.Join(shared, "online", "standard.pdn.gz"), filepath.Join(shared, "testsuite", "succeed", "kurnik.pdn.gz"),
		filepath.Join(shared, "online", "russian.pdn.gz")}
	pool := pgtest.NewDB(t)
	ctx := context.Background()
	if _, err := ingest.Import(ctx, pool, files, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	// The International games' lower rating, and those with moves, from
	// the files.
	var lows []int
	moved := map[int]int{}
	// The ratings of kurnik's first White player, from the tags.
	type point struct {
		date   string
		rating int
	}
	var rated string
	var points []point
	srcs, errs := source.Expand(files[:2])
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	r := replay.NewReplayer(replay.Options{})
	for _, s := range srcs {
		rd, err := s.Open()
		if err != nil {
			t.Fatal(err)
		}
		pr := pdn.NewReader(rd, s.Name)
		for {
			pg, err := pr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			var g replay.Game
			if err := r.Replay(pg, err, &g); err != nil {
				continue
			}
			if rated == "" && strings.Contains(s.Name, "kurnik") {
				rated = g.White
			}
			for _, side := range []string{"White", "Black"} {
				if r := tagRating(pg, side); rated != "" && pg.Tag(side) == rated && r > 0 {
					points = append(points, point{g.Date, r})
				}
			}
			low := min(tagRating(pg, "White"), tagRating(pg, "Black"))
			lows = append(lows, low)
			if len(g.Moves) > 0 {
				moved[low]++
			}
		}
		rd.Close()
	}
	slices.Sort(lows)
	if len(lows) < 10 || lows[len(lows)-1] == 0 {
		t.Fatalf("ratings from the file: %v: not a test", lows)
	}
	ts := testServer(t, pool, Options{})
	median := lows[len(lows)/2]
	for _, n := range []int{1, median, median + 1, lows[len(lows)-1], lows[len(lows)-1] + 1} {
		want, withMoves := 0, 0
		for _, l := range lows {
			if l >= n {
				want++
			}
		}
		for l, c := range moved {
			if l >= n {
				withMoves += c
			}
		}
		var tree TreeAnswer
		params := url.Values{"variant": {"international"}, "min_rating": {strconv.Itoa(n)}}
		if st, body := get(t, ts, "/api/openings", params, &tree); st != 200 {
			t.Fatalf("min_rating %d: %d %s", n, st, body)
		}
		if tree.Position.Counted != want || tree.Position.Games != int64(withMoves) || tree.Position.Source != "games" || tree.Position.Filter == nil || tree.Position.Filter.MinRating != n {
			t.Errorf("min_rating %d: tree counted %d (%+v); the file: %d", n, tree.Position.Counted, tree.Position, want)
		}
		var page GamesPage
		params.Set("limit", "100")
		if st, body := get(t, ts, "/api/games", params, &page); st != 200 || len(page.Games) != want {
			t.Errorf("min_rating %d: %d games (%d %s); the file: %d", n, len(page.Games), st, body, want)
		}
	}
	for _, bad := range []string{"-1", "x", "10000"} {
		if st, body := get(t, ts, "/api/openings", url.Values{"min_rating": {bad}}, nil); st != 400 || !strings.Contains(body, "min_rating") {
			t.Errorf("min_rating %s: %d %s", bad, st, body)
		}
	}

	// A player's latest rating and their rating per year.
	if len(points) < 2 {
		t.Fatalf("%s: %d rated games: not a test", rated, len(points))
	}
	var p PlayerAnswer
	if st, body := get(t, ts, "/api/player", url.Values{"name": {rated}}, &p); st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	latest := map[int]bool{}
	years := map[string]RatingYear{}
	lastDate := ""
	for _, pt := range points {
		if pt.date > lastDate {
			lastDate = pt.date
		}
		y := years[pt.date[:4]]
		if y.Games == 0 {
			y = RatingYear{Year: pt.date[:4], Min: pt.rating, Max: pt.rating}
		}
		y.Games++
		y.Min, y.Max = min(y.Min, pt.rating), max(y.Max, pt.rating)
		years[pt.date[:4]] = y
	}
	for _, pt := range points {
		if pt.date == lastDate {
			latest[pt.rating] = true
		}
	}
	if p.Rating == nil || !latest[*p.Rating] || p.RatingDate == nil || *p.RatingDate != lastDate || len(p.Ratings) != len(years) {
		t.Errorf("%s: rating %v of %v, per year %+v; the files: %v at %s, %+v", rated, p.Rating, p.RatingDate, p.Ratings, latest, lastDate, years)
	}
	for _, y := range p.Ratings {
		w := years[y.Year]
		if y.Games != w.Games || y.Min != w.Min || y.Max != w.Max || !(y.Last >= w.Min && y.Last <= w.Max) {
			t.Errorf("%s in %s: %+v; the files %+v", rated, y.Year, y, w)
		}
	}

	// The page: the control holds the URL's filter and the tree counts it.
	ctx2, idle, eval := browserTab(t, 1400, 900)
	if err := chromedp.Do(ctx2, chromedp.Navigate(ts.URL+"/?variant=international&min_rating="+strconv.Itoa(median)), idle("")); err != nil {
		t.Fatal(err)
	}
	var shown struct {
		Value string
		Games int
	}
	eval(`({Value: document.getElementById('min_rating').value, Games: document.querySelectorAll('#games tbody tr[data-game]').length})`, &shown)
	want := 0
	for _, l := range lows {
		if l >= median {
			want++
		}
	}
	if shown.Value != strconv.Itoa(median) || shown.Games != want {
		t.Errorf("the page with min_rating=%d: %+v; the file: %d games", median, shown, want)
	}
	// The player page shows the rating over time.
	if err := chromedp.Do(ctx2, chromedp.Navigate(ts.URL+"/player.html?name="+url.QueryEscape(rated)),
		idle(`document.getElementById('pl-name').textContent !== ''`)); err != nil {
		t.Fatal(err)
	}
	var page struct {
		Latest string
		Years  int
	}
	eval(`({Latest: document.getElementById('pl-rating-box').hidden ? '' : document.getElementById('pl-rating').textContent,
		Years: document.querySelectorAll('#pl-ratings tbody tr').length})`, &page)
	if !strings.HasPrefix(page.Latest, "Latest "+strconv.Itoa(*p.Rating)) || page.Years != len(p.Ratings) {
		t.Errorf("%s's page: %+v; the API %d, %d years", rated, page, *p.Rating, len(p.Ratings))
	}
}
