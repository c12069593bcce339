package ingest

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// ocaPath is the Open Checkers Archive (22,621 English games), gzipped.
const ocaPath = "pdn/testdata/shared/english/OCA_2.0.pdn.gz"

// BenchmarkValidateOCA measures read + replay + normalise (the validate
// command's work) on OCA_2.0 with 1 and 2 workers: see benchValidate.
func BenchmarkValidateOCA(b *testing.B) {
	// The issue measures the plain file: unpack it once, outside the timer.
	plain := filepath.Join(b.TempDir(), "OCA_2.0.pdn")
	if err := gunzipTo(ocaPath, plain); err != nil {
		b.Fatal(err)
	}
	benchValidate(b, plain, Config{})
}

// BenchmarkValidateSynthetic does the same on generated International
// games (DRAUGHTSDB_BENCH_GAMES, default 100,000; the first size given).
func BenchmarkValidateSynthetic(b *testing.B) {
	benchValidate(b, syntheticFile(b), Config{})
}

// BenchmarkImportPrepare measures the import's work before PostgreSQL
// (read, replay and what its workers prepare for the COPY: the stored
// moves, the position hashes and the opening entries; Import's Config.Prepare)
// on the same generated games, with 1 and 2 workers as benchValidate
// does: the part of the import that scales with the cores (issue #17).
//
//	go test -run XXX -bench 'ImportPrepare' -benchtime 5x ./ingest
func BenchmarkImportPrepare(b *testing.B) {
	benchValidate(b, syntheticFile(b), Config{Prepare: preparer(openings.DefaultDepth)})
}

// syntheticFile writes the generated International games of the
// Synthetic benchmarks (DRAUGHTSDB_BENCH_GAMES, default 100,000; the first
// size given) and returns its path.
func syntheticFile(b *testing.B) string {
	n := 100_000
	if s := os.Getenv("DRAUGHTSDB_BENCH_GAMES"); s != "" {
		v, err := strconv.Atoi(strings.TrimSpace(strings.Split(s, ",")[0]))
		if err != nil {
			b.Fatal(err)
		}
		n = v
	}
	path := filepath.Join(b.TempDir(), "synthetic.pdn")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := synth.Write(f, synth.Options{Variant: rules.International, Games: n, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// benchValidate runs the pipeline (configured as base, but for the
// workers) over path with 1 worker and with 2,
// alternating in each iteration (so that both see the same machine), and
// reports both throughputs side by side with their ratio: w1-games/s,
// w2-games/s, w2/w1, and games per CPU-second of the whole process (the
// cutter, the workers and the collector together) for each. It asserts
// nothing about speed.
//
//	go test -run XXX -bench 'Validate' -benchtime 5x ./ingest
func benchValidate(b *testing.B, path string, base Config) {
	// Collect as the command does (cmd/draughtsdb/main.go: GOGC 400 and a
	// 160 MB soft limit, unless the environment sets them): under go
	// test's GOGC 100 the collector ran four times as often, and with 1
	// worker it ran on the idle core for free while with 2 it took a
	// worker's time, so the benchmark understated both the throughput
	// and w2/w1 of the command (100,000 generated games, 5x, same
	// moments: GOGC 100 w1 119,000-123,000 games/s, w2/w1 1.54; as the
	// command 138,000-143,000, 1.73-1.74).
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(160 << 20))
	}
	var secs, cpu [2]float64
	games := 0
	for b.Loop() {
		for k, workers := range []int{1, 2} {
			srcs, errs := source.Expand([]string{path})
			if len(errs) > 0 {
				b.Fatal(errs)
			}
			games = 0
			cpu0, start := cpuSeconds(), time.Now()
			cfg := base
			cfg.Workers = workers
			err := Run(context.Background(), srcs, cfg, func(ev *Event) error {
				for i := range ev.Items {
					if !ev.Items[i].Accepted {
						b.Fatalf("rejected: %v", ev.Items[i].Reject)
					}
					games++
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			secs[k] += time.Since(start).Seconds()
			cpu[k] += cpuSeconds() - cpu0
		}
	}
	n := float64(games) * float64(b.N)
	b.ReportMetric(n/secs[0], "w1-games/s")
	b.ReportMetric(n/secs[1], "w2-games/s")
	b.ReportMetric(secs[0]/secs[1], "w2/w1")
	b.ReportMetric(n/cpu[0], "w1-games/cpu-s")
	b.ReportMetric(n/cpu[1], "w2-games/cpu-s")
	b.ReportMetric(0, "ns/op") // an iteration is both runs: see the metrics
}

func gunzipTo(src, dst string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, zr); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// cpuSeconds is the user and system CPU time of the process so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
