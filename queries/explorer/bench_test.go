package explorer

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The explorer's benchmarks time requests through HTTP on loopback, the
// server in the test process, on synthetic International games: by
// default 20,000 imported into a throw-away database; with
// DRAUGHTSDB_BENCH_URL on a database imported already, e.g. 1,000,000:
//
//	draughtsdb gen --variant international --games 1000000 --seed 1 --out g1m.pdn
//	draughtsdb --data-dir /tmp/bench1m import g1m.pdn
//	DRAUGHTSDB_BENCH_URL=$(draughtsdb --data-dir /tmp/bench1m db url) \
//	    go test -run XXX -bench Explorer -benchtime 1x -v ./queries/explorer
//
// They report latencies (p50, p99) and, for the load run, requests/s,
// errors and the server's RSS; nothing is asserted (the machine is
// shared). DRAUGHTSDB_BENCH_CLIENTS and DRAUGHTSDB_BENCH_SECONDS set the
// load run (32 clients, 10 s). DRAUGHTSDB_BENCH_SERVER=http://HOST:PORT
// runs it against a `draughtsdb serve` of the same database instead, and
// DRAUGHTSDB_BENCH_SERVER_PID=PID reads that process's RSS (otherwise the
// RSS is the test process's: server and clients).
func BenchmarkExplorer(b *testing.B) {
	pool := explorerBenchPool(b)
	ctx := context.Background()
	s, err := New(pool, Options{DefaultVariant: "international"})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256}}
	var games int64
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM games`).Scan(&games); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	lines := treeLines(b, pool, rng, 300, 10)
	b.Logf("%d games; %d tree positions of 0-10 plies", games, len(lines))

	b.Run("tree", func(b *testing.B) {
		lat, errs := timeRequests(b, client, ts.URL, lines, nil, 1000)
		report(b, "unfiltered tree (pages of games kept 30 s)", lat, errs)
	})
	// Every request reads the database: each is a first visit of its
	// position.
	nocache, err := New(pool, Options{DefaultVariant: "international", CacheTTL: -1})
	if err != nil {
		b.Fatal(err)
	}
	ts2 := httptest.NewServer(nocache.Handler())
	defer ts2.Close()
	b.Run("tree-nocache", func(b *testing.B) {
		lat, errs := timeRequests(b, client, ts2.URL, lines, nil, 300)
		report(b, "unfiltered tree, no cache", lat, errs)
	})

	// The player with the number of games nearest 1,000, at positions of
	// the first 10 plies of their own games.
	var player string
	var pgames int64
	if err := pool.QueryRow(ctx, `SELECT p.name, count(*) FROM players p JOIN games g ON g.white_id = p.id OR g.black_id = p.id
		GROUP BY p.name ORDER BY abs(count(*) - 1000), p.name LIMIT 1`).Scan(&player, &pgames); err != nil {
		b.Fatal(err)
	}
	plines := playerLines(b, pool, rng, player, 300, 10)
	b.Run("tree-player", func(b *testing.B) {
		lat, errs := timeRequests(b, client, ts.URL, plines, url.Values{"player": {player}}, 300)
		report(b, fmt.Sprintf("tree filtered by %s (%d games)", player, pgames), lat, errs)
	})

	// A one-year date range at the position nearest 100,000 games among
	// the first plies (the case): the filter counts the games at
	// the position that pass it.
	dline, dgames := lineNear(b, pool, 100_000, 4)
	var year string
	if err := pool.QueryRow(ctx, `SELECT left(date, 4) FROM games WHERE date NOT LIKE '????%' GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`).Scan(&year); err != nil {
		b.Fatal(err)
	}
	b.Run("tree-year", func(b *testing.B) {
		lat, errs := timeRequests(b, client, ts.URL, [][]string{dline}, url.Values{"from": {year}, "to": {year}}, 30)
		report(b, fmt.Sprintf("tree after %q (%d games) filtered to %s", strings.Join(dline, " "), dgames, year), lat, errs)
	})

	b.Run("load", func(b *testing.B) {
		base, pid := ts.URL, "self"
		if u := os.Getenv("DRAUGHTSDB_BENCH_SERVER"); u != "" {
			base = strings.TrimRight(u, "/")
			pid = os.Getenv("DRAUGHTSDB_BENCH_SERVER_PID")
		}
		clients := envInt("DRAUGHTSDB_BENCH_CLIENTS", 32)
		seconds := envInt("DRAUGHTSDB_BENCH_SECONDS", 10)
		var (
			mu   sync.Mutex
			lat  []time.Duration
			errs int
			wg   sync.WaitGroup
		)
		stop := time.Now().Add(time.Duration(seconds) * time.Second)
		start := time.Now()
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(c), 7))
				var mine []time.Duration
				bad := 0
				for time.Now().Before(stop) {
					line := lines[r.IntN(len(lines))]
					t0 := time.Now()
					if !fetchTree(client, base, line, nil) {
						bad++
					}
					mine = append(mine, time.Since(t0))
				}
				mu.Lock()
				lat = append(lat, mine...)
				errs += bad
				mu.Unlock()
			}()
		}
		wg.Wait()
		elapsed := time.Since(start)
		report(b, fmt.Sprintf("load: %d clients, %s", clients, elapsed.Round(time.Millisecond)), lat, errs)
		rps := float64(len(lat)) / elapsed.Seconds()
		b.ReportMetric(rps, "req/s")
		rss, hwm := memStatus(pid)
		b.ReportMetric(float64(rss)/1024, "RSS-MB")
		b.Logf("load on %s: %d requests, %.0f requests/s, %d errors; RSS of process %s %.1f MB (peak %.1f MB)",
			base, len(lat), rps, errs, pid, float64(rss)/1024, float64(hwm)/1024)
	})
}

func explorerBenchPool(b *testing.B) *pgxpool.Pool {
	if u := os.Getenv("DRAUGHTSDB_BENCH_URL"); u != "" {
		pool, err := pgxpool.New(context.Background(), u)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(pool.Close)
		return pool
	}
	pool := pgtest.NewDB(b)
	path := filepath.Join(b.TempDir(), "synthetic.pdn")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := synth.Write(f, synth.Options{Variant: rules.International, Games: 20000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	f.Close()
	if _, err := ingest.Import(context.Background(), pool, []string{path}, ingest.Options{}); err != nil {
		b.Fatal(err)
	}
	return pool
}

// treeLines walks the opening tree from the start n times, each to a
// random depth up to maxPly, choosing moves in proportion to their games.
func treeLines(b *testing.B, pool *pgxpool.Pool, rng *rand.Rand, n, maxPly int) [][]string {
	ctx := context.Background()
	var out [][]string
	for range n {
		pos := rules.International.StartPosition()
		var line []string
		depth := rng.IntN(maxPly + 1)
		for len(line) < depth {
			node, err := openings.Tree(ctx, pool, &pos)
			if err != nil {
				b.Fatal(err)
			}
			if node.Games == 0 {
				break
			}
			k := rng.Int64N(node.Games)
			i := 0
			for ; k >= node.Branch[i].Games; i++ {
				k -= node.Branch[i].Games
			}
			line = append(line, node.Branch[i].Text)
			pos.Play(&node.Branch[i].Move)
		}
		out = append(out, line)
	}
	return out
}

// playerLines are n positions of the first maxPly plies of the player's
// games.
func playerLines(b *testing.B, pool *pgxpool.Pool, rng *rand.Rand, player string, n, maxPly int) [][]string {
	rows, err := pool.Query(context.Background(), `SELECT g.moves FROM games g JOIN players p ON p.id IN (g.white_id, g.black_id)
		WHERE p.name = $1 AND g.variant = $2 AND g.start_fen IS NULL ORDER BY g.id`, player, codec.VariantID(rules.International))
	if err != nil {
		b.Fatal(err)
	}
	var all [][]byte
	for rows.Next() {
		var m []byte
		if err := rows.Scan(&m); err != nil {
			b.Fatal(err)
		}
		all = append(all, m)
	}
	if err := rows.Err(); err != nil || len(all) == 0 {
		b.Fatalf("games of %s: %d, %v", player, len(all), err)
	}
	var out [][]string
	for range n {
		g, err := codec.Decode(rules.International, "", all[rng.IntN(len(all))])
		if err != nil {
			b.Fatal(err)
		}
		var line []string
		for i := range min(rng.IntN(maxPly+1), len(g.Moves)) {
			line = append(line, rules.FormatMove(rules.International, &g.Moves[i], rules.Numeric, true))
		}
		out = append(out, line)
	}
	return out
}

// fetchTree gets the tree after line and reports whether it was a 200.
func fetchTree(client *http.Client, base string, line []string, extra url.Values) bool {
	q := url.Values{"variant": {"international"}, "moves": {strings.Join(line, " ")}}
	for k, v := range extra {
		q[k] = v
	}
	resp, err := client.Get(base + "/api/openings?" + q.Encode())
	if err != nil {
		return false
	}
	io.Copy(io.Discard, resp.Body) //nolint:errcheck
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// timeRequests fetches the trees of n random lines one after the other,
// after one warm-up pass over at most 50 of them.
func timeRequests(b *testing.B, client *http.Client, base string, lines [][]string, extra url.Values, n int) ([]time.Duration, int) {
	for _, l := range lines[:min(50, len(lines))] {
		fetchTree(client, base, l, extra)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	lat := make([]time.Duration, 0, n)
	errs := 0
	b.ResetTimer()
	for range n {
		l := lines[rng.IntN(len(lines))]
		t0 := time.Now()
		if !fetchTree(client, base, l, extra) {
			errs++
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	return lat, errs
}

func percentile(lat []time.Duration, p float64) time.Duration {
	if len(lat) == 0 {
		return 0
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

func report(b *testing.B, what string, lat []time.Duration, errs int) {
	p50, p99 := percentile(lat, 0.50), percentile(lat, 0.99)
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(errs), "errors")
	b.Logf("%s: %d requests, p50 %s, p99 %s, max %s, %d errors", what, len(lat), p50.Round(10*time.Microsecond),
		p99.Round(10*time.Microsecond), percentile(lat, 1).Round(10*time.Microsecond), errs)
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// memStatus reads the resident set size of process pid ("self": this
// one) and its peak, in kB.
func memStatus(pid string) (rss, hwm int64) {
	if pid == "" {
		return 0, 0
	}
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		n, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = n
		case "VmHWM:":
			hwm = n
		}
	}
	return rss, hwm
}

// lineNear walks the tree from the start, at most maxPly plies, to the
// position whose games are nearest want.
func lineNear(b *testing.B, pool *pgxpool.Pool, want int64, maxPly int) ([]string, int64) {
	ctx := context.Background()
	type cand struct {
		line  []string
		pos   rules.Position
		games int64
	}
	start := rules.International.StartPosition()
	frontier := []cand{{pos: start}}
	best := cand{games: -1}
	dist := func(g int64) int64 {
		if g > want {
			return g - want
		}
		return want - g
	}
	for ply := 0; ply <= maxPly && len(frontier) > 0; ply++ {
		var next []cand
		for _, c := range frontier {
			node, err := openings.Tree(ctx, pool, &c.pos)
			if err != nil {
				b.Fatal(err)
			}
			if best.games < 0 || dist(node.Games) < dist(best.games) {
				best = cand{line: c.line, games: node.Games}
			}
			for i := range node.Branch {
				if node.Branch[i].Games < want/2 {
					continue // too few below: prune
				}
				p := c.pos
				p.Play(&node.Branch[i].Move)
				next = append(next, cand{line: append(slices.Clone(c.line), node.Branch[i].Text), pos: p})
			}
		}
		frontier = next
	}
	return best.line, best.games
}
