package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/queries/patternsearch"
	"github.com/draughtsdb/draughtsdb/replay/pattern"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// BenchmarkPatternSearch measures the pattern index at the sizes of
// DRAUGHTSDB_BENCH_PATTERN_GAMES (a comma-separated list of generated
// International game counts; unset: skipped, so -bench . leaves it out):
// the same file imported without the pattern index and with it, side by
// side on one cluster (the time of each, and their ratio), the bytes per
// game of pattern_index and of the whole database, then ten searches
// (common and rare patterns, material, manoeuvres) DRAUGHTSDB_BENCH_RUNS
// times each (default 7), with each query's p50 and p99 (the nearest
// rank) and those over all runs, with the CPU time each search took in
// this process and in PostgreSQL (independent of how busy the machine is)
// and the load average.
//
//	DRAUGHTSDB_BENCH_PATTERN_GAMES=250000,1000000 go test -run XXX -bench PatternSearch -benchtime 1x -timeout 2h -v ./ingest
func BenchmarkPatternSearch(b *testing.B) {
	env := os.Getenv("DRAUGHTSDB_BENCH_PATTERN_GAMES")
	if env == "" {
		b.Skip("DRAUGHTSDB_BENCH_PATTERN_GAMES not set")
	}
	runs := 7
	if n, err := strconv.Atoi(os.Getenv("DRAUGHTSDB_BENCH_RUNS")); err == nil && n > 0 {
		runs = n
	}
	for _, f := range strings.Split(env, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			for b.Loop() {
				benchPatternOnce(b, n, runs)
			}
		})
	}
}

type benchQuery struct {
	name string
	q    func(v *rules.Variant) pattern.Query
}

func mustPattern(v *rules.Variant, s string) pattern.Pattern {
	p, err := pattern.Parse(v, s)
	if err != nil {
		panic(err)
	}
	return p
}

func mustMove(v *rules.Variant, s string) *pattern.Move {
	m, err := pattern.ParseMove(v, s)
	if err != nil {
		panic(err)
	}
	return m
}

var benchQueries = []benchQuery{
	{"W28 B19 (common)", func(v *rules.Variant) pattern.Query {
		return pattern.Query{Patterns: []pattern.Pattern{mustPattern(v, "W:W28:B19")}, MinPly: -1, MaxPly: -1}
	}},
	{"W27,28,32,33 B17,18,22,23 (rare)", func(v *rules.Variant) pattern.Query {
		return pattern.Query{Patterns: []pattern.Pattern{mustPattern(v, "W:W27,28,32,33:B17,18,22,23")}, MinPly: -1, MaxPly: -1}
	}},
	{"white king on 46", func(v *rules.Variant) pattern.Query {
		return pattern.Query{Patterns: []pattern.Pattern{mustPattern(v, "W:WK46:B")}, MinPly: -1, MaxPly: -1}
	}},
	{"outpost 24 with supports, colour-reversed", func(v *rules.Variant) pattern.Query {
		return pattern.Query{Patterns: []pattern.Pattern{mustPattern(v, "W:W24,29,30,34,35:B")}, MinPly: -1, MaxPly: -1, Reversed: true}
	}},
	{"W28 or W33, not both, white to move", func(v *rules.Variant) pattern.Query {
		return pattern.Query{Patterns: []pattern.Pattern{mustPattern(v, "W:W28"), mustPattern(v, "W:W33")},
			Exclude: []pattern.Pattern{mustPattern(v, "W:W28,33")}, Side: pattern.WhiteToMove, MinPly: -1, MaxPly: -1}
	}},
	{"W28 with 22,23 empty, plies 10-40", func(v *rules.Variant) pattern.Query {
		p := mustPattern(v, "W:W28:B:E22,23")
		return pattern.Query{Patterns: []pattern.Pattern{p}, MinPly: 10, MaxPly: 40}
	}},
	{"material: a white king, no black king", func(v *rules.Variant) pattern.Query {
		m, _ := pattern.ParseMaterial("wk=1-,bk=0")
		return pattern.Query{Material: m, MinPly: -1, MaxPly: -1}
	}},
	{"material: 3 v 3 men, no kings (rare)", func(v *rules.Variant) pattern.Query {
		m, _ := pattern.ParseMaterial("wm=3,bm=3,wk=0,bk=0")
		return pattern.Query{Material: m, MinPly: -1, MaxPly: -1}
	}},
	{"move: a white king captures", func(v *rules.Variant) pattern.Query {
		return pattern.Query{Move: mustMove(v, "white king x"), MinPly: -1, MaxPly: -1}
	}},
	{"move: black 19-24 while 23 is White's", func(v *rules.Variant) pattern.Query {
		return pattern.Query{Patterns: []pattern.Pattern{mustPattern(v, "W:W23:B")}, Move: mustMove(v, "black 19-24"), MinPly: -1, MaxPly: -1}
	}},
}

func benchPatternOnce(b *testing.B, n, runs int) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), fmt.Sprintf("synthetic-%d.pdn", n))
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := synth.Write(f, synth.Options{Variant: rules.International, Games: n, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	f.Close()
	// Without the index and with it, twice, in the order without, with,
	// with, without (each import into a new database of one cluster), so
	// that neither gains from going first; the second database with the
	// index is searched.
	importOnce := func(off bool) (*pgxpool.Pool, *Summary, time.Duration) {
		pool := pgtest.NewDB(b)
		patternIndexOff = off
		defer func() { patternIndexOff = false }()
		start := time.Now()
		sum, err := Import(ctx, pool, []string{path}, Options{BatchSize: benchBatch()})
		if err != nil {
			b.Fatal(err)
		}
		return pool, sum, time.Since(start)
	}
	var tWithout, tWith [2]time.Duration
	p, _, t := importOnce(true)
	tWithout[0] = t
	totalWithout, _ := databaseBytes(b, p)
	p.Close()
	p, _, tWith[0] = importOnce(false)
	p.Close()
	pool, sum, t2 := importOnce(false)
	tWith[1] = t2
	p, _, tWithout[1] = importOnce(true)
	p.Close()
	total, breakdown := databaseBytes(b, pool)
	var patternBytes int64
	for _, r := range breakdown {
		if strings.HasPrefix(r.name, "pattern_index") {
			patternBytes += r.bytes
		}
	}
	games := float64(sum.Imported)
	ratio := (tWith[0] + tWith[1]).Seconds() / (tWithout[0] + tWithout[1]).Seconds()
	b.Logf("%d games: import without the pattern index %.2f s and %.2f s, with it %.2f s and %.2f s (%.3fx)", sum.Imported,
		tWithout[0].Seconds(), tWithout[1].Seconds(), tWith[0].Seconds(), tWith[1].Seconds(), ratio)
	b.Logf("database %.1f bytes/game without, %.1f with; pattern_index and its indexes %.1f bytes/game", float64(totalWithout)/games, float64(total)/games, float64(patternBytes)/games)
	b.ReportMetric(float64(patternBytes)/games, "index-bytes/game")
	b.ReportMetric(ratio, "import-with/without")

	// One search first, not counted: the import's connections are gone
	// then (their CPU would leave the PostgreSQL figure), the pool's are
	// open.
	if _, err := patternsearch.Search(ctx, pool, patternsearch.Options{Variant: rules.International, Query: benchQueries[0].q(rules.International)}); err != nil {
		b.Fatal(err)
	}
	var all []time.Duration
	cpuAll := 0.0
	for _, bq := range benchQueries {
		q := bq.q(rules.International)
		var ds []time.Duration
		var res *patternsearch.Result
		cl0, pg0 := cpuSeconds(), postgresProcs(pool)
		for range runs {
			start := time.Now()
			res, err = patternsearch.Search(ctx, pool, patternsearch.Options{Variant: rules.International, Query: q, Limit: 20})
			if err != nil {
				b.Fatal(err)
			}
			ds = append(ds, time.Since(start))
		}
		if res.Scanned != int64(sum.Imported) {
			b.Fatalf("%s: %d games scanned of %d", bq.name, res.Scanned, sum.Imported)
		}
		cl, pg := (cpuSeconds()-cl0)/float64(runs), procsCPU(pg0, postgresProcs(pool))/float64(runs)
		all = append(all, ds...)
		p50, p99 := percentile(ds, 50), percentile(ds, 99)
		b.Logf("  %-44s %8d games %10d positions  p50 %6.0f ms  p99 %6.0f ms  CPU per search: this process %4.0f ms, PostgreSQL %4.0f ms",
			bq.name, res.Games, res.Positions, ms(p50), ms(p99), cl*1000, pg*1000)
		cpuAll += cl + pg
	}
	b.Logf("all %d searches: p50 %.0f ms, p99 %.0f ms; CPU per search (both processes) %.0f ms on average; load average while searching: %s",
		len(all), ms(percentile(all, 50)), ms(percentile(all, 99)), cpuAll*1000/float64(len(benchQueries)), loadAverage())
	b.ReportMetric(ms(percentile(all, 50)), "p50-ms")
	b.ReportMetric(ms(percentile(all, 99)), "p99-ms")
}

// procsCPU is the CPU time PostgreSQL's processes used between two
// snapshots: of those in both, the difference; of new ones, all. A process
// that exited in between is left out (its CPU is lost with it).
func procsCPU(before, after map[int]postgresProc) float64 {
	total := 0.0
	for pid, p := range after {
		total += p.cpu - before[pid].cpu
	}
	return total
}

// loadAverage is /proc/loadavg's first three fields: how busy the machine
// was (the figures above are wall times on a shared machine).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// percentile is the nearest-rank p-th percentile of ds.
func percentile(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (p*len(s) + 99) / 100
	return s[max(0, min(len(s)-1, i-1))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
