package queries_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/queries"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The query benchmarks run on synthetic International games: by default
// 20,000 imported into a throw-away database; with DRAUGHTSDB_BENCH_URL on
// a database imported already (e.g. 1,000,000 games:
//
//	draughtsdb gen --variant international --games 1000000 --seed 1 --out g1m.pdn
//	draughtsdb --data-dir /tmp/bench1m import g1m.pdn
//	DRAUGHTSDB_BENCH_URL=$(draughtsdb --data-dir /tmp/bench1m db url) \
//	    go test -run XXX -bench Query -v ./queries
//
// Each reports ms/op of the whole statement, warm (run once before the
// timer), and logs its EXPLAIN (ANALYZE, BUFFERS) plan with -v.
func benchPool(b *testing.B) *pgxpool.Pool {
	if url := os.Getenv("DRAUGHTSDB_BENCH_URL"); url != "" {
		pool, err := pgxpool.New(context.Background(), url)
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

func hashAfter(b *testing.B, moves string) string {
	pos, err := replay.PositionAfter(rules.International, "", strings.Fields(moves))
	if err != nil {
		b.Fatal(err)
	}
	return strconv.FormatInt(int64(pos.Hash()), 10)
}

// benchNamed times a named query and logs its plan.
func benchNamed(b *testing.B, pool *pgxpool.Pool, name string, params map[string]string) {
	ctx := context.Background()
	q, err := queries.Lookup(name)
	if err != nil {
		b.Fatal(err)
	}
	sql, args, err := q.Bind(params)
	if err != nil {
		b.Fatal(err)
	}
	res, err := queries.Run(ctx, pool, q, params)
	if err != nil {
		b.Fatal(err)
	}
	if len(res.Rows) == 0 {
		b.Fatalf("%s %v: no rows", name, params)
	}
	logPlan(b, pool, sql, args)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := queries.Run(ctx, pool, q, params); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
	b.ReportMetric(float64(len(res.Rows)), "rows")
}

func logPlan(b *testing.B, pool *pgxpool.Pool, sql string, args []any) {
	rows, err := pool.Query(context.Background(), "EXPLAIN (ANALYZE, BUFFERS) "+sql, args...)
	if err != nil {
		b.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			b.Fatal(err)
		}
		plan = append(plan, line)
	}
	b.Logf("plan:\n%s", strings.Join(plan, "\n"))
}

func BenchmarkQueryOpeningTreeStart(b *testing.B) {
	pool := benchPool(b)
	logTreePlan(b, pool, hashAfter(b, ""))
	benchNamed(b, pool, "opening_tree", map[string]string{"variant": "international", "hash": hashAfter(b, "")})
}

func BenchmarkQueryOpeningTreeAfter3228(b *testing.B) {
	pool := benchPool(b)
	logTreePlan(b, pool, hashAfter(b, "32-28"))
	benchNamed(b, pool, "opening_tree", map[string]string{"variant": "international", "hash": hashAfter(b, "32-28")})
}

// logTreePlan logs the plan of the body of draughtsdb_opening_tree (read
// from pg_proc), which the plan of the named query shows as one function
// scan.
func logTreePlan(b *testing.B, pool *pgxpool.Pool, hash string) {
	var body string
	if err := pool.QueryRow(context.Background(), `SELECT prosrc FROM pg_proc WHERE proname = 'draughtsdb_opening_tree'`).Scan(&body); err != nil {
		b.Fatal(err)
	}
	h, err := strconv.ParseInt(hash, 10, 64)
	if err != nil {
		b.Fatal(err)
	}
	// A bare statement does not know the function's argument types.
	body = strings.NewReplacer("$1", "$1::integer", "$2", "$2::bigint").Replace(body)
	logPlan(b, pool, body, []any{int32(20), h})
}

// BenchmarkQueryOpeningsCommandTree is what `draughtsdb openings` does:
// the tree plus move texts, names and evaluations.
func BenchmarkQueryOpeningsCommandTree(b *testing.B) {
	pool := benchPool(b)
	for _, moves := range []string{"", "32-28"} {
		b.Run(fmt.Sprintf("moves=%q", moves), func(b *testing.B) {
			pos, err := replay.PositionAfter(rules.International, "", strings.Fields(moves))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := openings.Tree(context.Background(), pool, &pos); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := openings.Tree(context.Background(), pool, &pos); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
		})
	}
}

// BenchmarkQueryGamesAtPosition: the first page of games reaching the
// position after 32-28 19-23 28x19 14x23 (about 6,000 of 1,000,000
// synthetic games), the most recent first.
func BenchmarkQueryGamesAtPosition(b *testing.B) {
	pool := benchPool(b)
	benchNamed(b, pool, "games_at_position", map[string]string{"variant": "international", "hash": hashAfter(b, "32-28 19-23 28x19 14x23")})
}

// BenchmarkQueryPlayerRecord: the record of the player with the most games.
func BenchmarkQueryPlayerRecord(b *testing.B) {
	pool := benchPool(b)
	var name string
	if err := pool.QueryRow(context.Background(), `SELECT p.name FROM players p ORDER BY p.id LIMIT 1`).Scan(&name); err != nil {
		b.Fatal(err)
	}
	benchNamed(b, pool, "player", map[string]string{"player": name})
}
