package patternsearch

import (
	"context"
	"os"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/pattern"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/jackc/pgx/v5/pgxpool"
)

// BenchmarkScanRows tests the pattern_index rows of International games
// of the database at DRAUGHTSDB_BENCH_URL, held in memory: the Go side of
// a search alone, without PostgreSQL.
func BenchmarkScanRows(b *testing.B) {
	url := os.Getenv("DRAUGHTSDB_BENCH_URL")
	if url == "" {
		b.Skip("DRAUGHTSDB_BENCH_URL not set")
	}
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	type row struct {
		first   int64
		entries []byte
	}
	var rows []row
	r, err := pool.Query(ctx, `SELECT first_game, entries FROM pattern_index WHERE variant = 20`)
	if err != nil {
		b.Fatal(err)
	}
	for r.Next() {
		var x row
		if err := r.Scan(&x.first, &x.entries); err != nil {
			b.Fatal(err)
		}
		rows = append(rows, x)
	}
	v := rules.International
	p, _ := pattern.Parse(v, "W:W28:B19")
	m, err := (&pattern.Query{Patterns: []pattern.Pattern{p}, MinPly: -1, MaxPly: -1}).Compile(v)
	if err != nil {
		b.Fatal(err)
	}
	start := v.StartPosition()
	initial := pattern.FromPosition(&start)
	b.ResetTimer()
	for b.Loop() {
		var out part
		for _, x := range rows {
			if err := scanRow(x.first, x.entries, &initial, m, 10, &out); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(out.scanned), "games")
	}
}
