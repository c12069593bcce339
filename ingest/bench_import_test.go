package ingest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// BenchmarkImport imports OCA_2.0 and synthetic International games
// (default 20,000; DRAUGHTSDB_BENCH_GAMES takes a comma-separated list of
// sizes, e.g. 250000,1000000, measured in one run), then copies the
// rows the import produced into a fresh database with plain COPY, and
// reports: games/s, the ratio of the import time to the plain COPY time,
// database bytes per game (every table and index), and the process's peak
// RSS after the import. Per-table sizes are logged (-v).
//
//	DRAUGHTSDB_BENCH_GAMES=250000,1000000 go test -run XXX -bench Import -benchtime 1x -timeout 1h -v ./ingest
func BenchmarkImport(b *testing.B) {
	sizes := []int{20000}
	if s := os.Getenv("DRAUGHTSDB_BENCH_GAMES"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				b.Fatal(err)
			}
			sizes = append(sizes, n)
		}
	}
	dir := b.TempDir()
	oca := filepath.Join(dir, "OCA_2.0.pdn")
	if err := gunzipTo(ocaPath, oca); err != nil {
		b.Fatal(err)
	}
	inputs := []struct{ name, path string }{{"OCA", oca}}
	for _, n := range sizes {
		path := filepath.Join(dir, fmt.Sprintf("synthetic-%d.pdn", n))
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := synth.Write(f, synth.Options{Variant: rules.International, Games: n, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		f.Close()
		inputs = append(inputs, struct{ name, path string }{fmt.Sprintf("synthetic-%d", n), path})
	}
	for _, c := range inputs {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				benchImportOnce(b, c.path)
			}
		})
	}
}

func benchImportOnce(b *testing.B, path string) {
	ctx := context.Background()
	pool := pgtest.NewDB(b)
	start := time.Now()
	sum, err := Import(ctx, pool, []string{path}, Options{BatchSize: benchBatch()})
	if err != nil {
		b.Fatal(err)
	}
	importTime := time.Since(start)
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)

	// Plain COPY of the same rows into the same (empty) tables.
	tables := []string{"sources", "players", "games", "position_index", "rejected_games", "duplicates"}
	dumps := map[string]*bytes.Buffer{}
	for _, t := range tables {
		var buf bytes.Buffer
		conn, err := pool.Acquire(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := conn.Conn().PgConn().CopyTo(ctx, &buf, "COPY "+t+" TO STDOUT (FORMAT binary)"); err != nil {
			b.Fatal(err)
		}
		conn.Release()
		dumps[t] = &buf
	}
	target := pgtest.NewDB(b)
	start = time.Now()
	conn, err := target.Acquire(ctx)
	if err != nil {
		b.Fatal(err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for _, t := range tables {
		if _, err := tx.Conn().PgConn().CopyFrom(ctx, bytes.NewReader(dumps[t].Bytes()), "COPY "+t+" FROM STDIN (FORMAT binary)"); err != nil {
			b.Fatalf("copy %s: %v", t, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		b.Fatal(err)
	}
	copyTime := time.Since(start)
	conn.Release()

	total, breakdown := databaseBytes(b, pool)
	games := float64(sum.Imported)
	b.ReportMetric(float64(sum.GamesRead)/importTime.Seconds(), "games/s")
	b.ReportMetric(importTime.Seconds()*1e6/float64(sum.GamesRead), "us/game")
	b.ReportMetric(importTime.Seconds()/copyTime.Seconds(), "import/COPY")
	b.ReportMetric(float64(total)/games, "bytes/game")
	b.ReportMetric(float64(ru.Maxrss)/1024, "peakRSS-MB")
	b.Logf("%d games read, %d imported in %.2f s; plain COPY of the same rows %.2f s", sum.GamesRead, sum.Imported, importTime.Seconds(), copyTime.Seconds())
	for _, r := range breakdown {
		b.Logf("  %-28s %10d bytes  %7.1f bytes/game", r.name, r.bytes, float64(r.bytes)/games)
	}
}

type relSize struct {
	name  string
	bytes int64
}

// databaseBytes returns the size of every table and index of the schema.
func databaseBytes(b *testing.B, pool *pgxpool.Pool) (int64, []relSize) {
	rows, err := pool.Query(context.Background(), `
		SELECT c.relname, pg_relation_size(c.oid) + coalesce(pg_relation_size(c.reltoastrelid), 0)
		FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'i')
		ORDER BY 2 DESC`)
	if err != nil {
		b.Fatal(err)
	}
	var out []relSize
	var total int64
	for rows.Next() {
		var r relSize
		if err := rows.Scan(&r.name, &r.bytes); err != nil {
			b.Fatal(err)
		}
		total += r.bytes
		out = append(out, r)
	}
	return total, out
}

// benchBatch is the import batch size (DRAUGHTSDB_BENCH_BATCH, default 5000).
func benchBatch() int {
	if n, err := strconv.Atoi(os.Getenv("DRAUGHTSDB_BENCH_BATCH")); err == nil {
		return n
	}
	return 5000
}
