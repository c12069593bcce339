package ingest

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/source"
)

// ocaPath is the Open Checkers Archive (22,621 English games), gzipped.
const ocaPath = "pdn/testdata/shared/english/OCA_2.0.pdn.gz"

// BenchmarkValidateOCA measures read + replay + normalise (the validate
// command's work) on OCA_2.0 with 1 and 2 workers.
func BenchmarkValidateOCA(b *testing.B) {
	// The issue measures the plain file: unpack it once, outside the timer.
	plain := filepath.Join(b.TempDir(), "OCA_2.0.pdn")
	if err := gunzipTo(ocaPath, plain); err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			games := 0
			cpu0 := cpuSeconds()
			for b.Loop() {
				srcs, errs := source.Expand([]string{plain})
				if len(errs) > 0 {
					b.Fatal(errs)
				}
				games = 0
				err := Run(context.Background(), srcs, Config{Workers: workers}, func(ev *Event) error {
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
			}
			b.ReportMetric(float64(games)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
			// Per core: games per second of CPU time used by the process (the
			// reader, the workers and the collector together).
			b.ReportMetric(float64(games)*float64(b.N)/(cpuSeconds()-cpu0), "games/cpu-s")
		})
	}
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
