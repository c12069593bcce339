package export

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// BenchmarkExportPositionsParquet imports N synthetic International games
// (draughtsdb gen; default 20,000, DRAUGHTSDB_BENCH_EXPORT_GAMES takes a
// comma-separated list of sizes), then runs `export --what positions
// --format parquet` in a child process (this test binary, so that its peak
// RSS is the export's alone) and reports rows/s, the child's peak RSS and
// peak Go heap, and Parquet bytes per row. Only run with -bench:
//
//	DRAUGHTSDB_BENCH_EXPORT_GAMES=1000000 go test -run XXX -bench ExportPositionsParquet -benchtime 1x -timeout 2h -v ./queries/export
//
// DRAUGHTSDB_BENCH_INPROCESS=1 runs the export in the benchmark's own
// process instead (for -cpuprofile).
func BenchmarkExportPositionsParquet(b *testing.B) {
	sizes := []int{20000}
	if s := os.Getenv("DRAUGHTSDB_BENCH_EXPORT_GAMES"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				b.Fatal(err)
			}
			sizes = append(sizes, n)
		}
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			path := filepath.Join(dir, "synthetic.pdn")
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			if err := synth.Write(f, synth.Options{Variant: rules.International, Games: n, Seed: 1}); err != nil {
				b.Fatal(err)
			}
			f.Close()
			url := pgtest.NewDBURL(b)
			pool, err := pgxpool.New(context.Background(), url)
			if err != nil {
				b.Fatal(err)
			}
			defer pool.Close()
			start := time.Now()
			sum, err := ingest.Import(context.Background(), pool, []string{path}, ingest.Options{})
			if err != nil {
				b.Fatal(err)
			}
			os.Remove(path)
			b.Logf("imported %d games in %.1f s", sum.Imported, time.Since(start).Seconds())
			out := filepath.Join(dir, "positions.parquet")
			for b.Loop() {
				var r childResult
				var rss int64
				if os.Getenv("DRAUGHTSDB_BENCH_INPROCESS") != "" {
					r = runChildExport(pool, out)
				} else {
					r, rss = spawnChildExport(b, url, out)
				}
				st, err := os.Stat(out)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(r.Rows)/r.Seconds, "rows/s")
				b.ReportMetric(r.Seconds*1e9/float64(r.Rows), "ns/row")
				if rss > 0 {
					b.ReportMetric(float64(rss)/(1<<20), "peakRSS-MB")
				}
				b.ReportMetric(float64(r.PeakHeap)/(1<<20), "peakHeap-MB")
				b.ReportMetric(float64(st.Size())/float64(r.Rows), "bytes/row")
				b.Logf("%d rows in %.1f s; peak RSS %.0f MB, peak heap %.0f MB; %d bytes of Parquet",
					r.Rows, r.Seconds, float64(rss)/(1<<20), float64(r.PeakHeap)/(1<<20), st.Size())
			}
		})
	}
}

type childResult struct {
	Rows     int64   `json:"rows"`
	Seconds  float64 `json:"seconds"`
	PeakHeap uint64  `json:"peak_heap"`
	Error    string  `json:"error,omitempty"`
}

func spawnChildExport(b *testing.B, url, out string) (childResult, int64) {
	cmd := exec.Command(os.Args[0], "-test.run", "XXX")
	cmd.Env = append(os.Environ(), "DRAUGHTSDB_EXPORT_CHILD="+url, "DRAUGHTSDB_EXPORT_OUT="+out)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("child export: %v\n%s", err, stderr.String())
	}
	var r childResult
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil || r.Error != "" {
		b.Fatalf("child export: %v %s\n%s", err, r.Error, stderr.String())
	}
	rss := int64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) * 1024
	return r, rss
}

// exportChild is the child process of the benchmark: it exports the
// positions of the database at DRAUGHTSDB_EXPORT_CHILD as Parquet to
// DRAUGHTSDB_EXPORT_OUT and prints a childResult.
func exportChild() int {
	pool, err := pgxpool.New(context.Background(), os.Getenv("DRAUGHTSDB_EXPORT_CHILD"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer pool.Close()
	r := runChildExport(pool, os.Getenv("DRAUGHTSDB_EXPORT_OUT"))
	json.NewEncoder(os.Stdout).Encode(r) //nolint:errcheck
	if r.Error != "" {
		return 1
	}
	return 0
}

func runChildExport(pool *pgxpool.Pool, path string) childResult {
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // sample the heap (objects in use) every 20 ms
		defer close(done)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	var r childResult
	out, err := Create(path, nil)
	if err == nil {
		var sum *Summary
		sum, err = Run(context.Background(), pool, out, Options{What: Positions, Format: Parquet})
		if err == nil {
			err = out.Close()
			r.Rows, r.Seconds = sum.Rows, sum.Seconds
		}
	}
	close(stop)
	<-done
	r.PeakHeap = peak.Load()
	if err != nil {
		r.Error = err.Error()
	}
	return r
}
