package pdn

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"testing"
	"time"
)

func loadOCA(tb testing.TB) []byte {
	f := openShared(tb, "english/OCA_2.0.pdn")
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// BenchmarkReadOCA reads the Open Checkers Archive (22,621 games, 11.5 MB)
// from memory. Run with -cpu 1 for the one-core figure.
func BenchmarkReadOCA(b *testing.B) {
	data := loadOCA(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	games := 0
	var ms0 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	start := time.Now()
	for b.Loop() {
		rd := NewReader(bytes.NewReader(data), "OCA_2.0.pdn")
		for {
			_, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			games++
		}
	}
	sec := time.Since(start).Seconds()
	b.ReportMetric(float64(games)/sec, "games/s")
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(games)/float64(b.N), "games/op")
	b.ReportMetric(float64(ms.Mallocs-ms0.Mallocs)/float64(games), "allocs/game")
	b.ReportMetric(float64(ms.TotalAlloc-ms0.TotalAlloc)/float64(games), "B/game")
}

// BenchmarkWriteOCA writes the archive back as PDN 3.0.
func BenchmarkWriteOCA(b *testing.B) {
	data := loadOCA(b)
	var games []*Game
	rd := NewReader(bytes.NewReader(data), "OCA_2.0.pdn")
	for {
		g, err := rd.Next()
		if err == io.EOF {
			break
		}
		games = append(games, g)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		w := NewWriter(io.Discard)
		for _, g := range games {
			w.WriteGame(g)
		}
	}
	b.ReportMetric(float64(len(games)*b.N)/time.Since(start).Seconds(), "games/s")
}

// repeatReader yields data over and over up to n bytes.
type repeatReader struct {
	data []byte
	off  int
	n    int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.n {
		p = p[:r.n]
	}
	k := copy(p, r.data[r.off:])
	r.off = (r.off + k) % len(r.data)
	r.n -= int64(k)
	return k, nil
}

// TestPeakMemoryLargeStream streams ~1 GB (the OCA archive repeated) and
// checks that the heap stays small. Opt-in: PDN_BIGMEM=1 go test -run
// PeakMemory -v ./ingest/pdn
func TestPeakMemoryLargeStream(t *testing.T) {
	if os.Getenv("PDN_BIGMEM") == "" {
		t.Skip("set PDN_BIGMEM=1 to stream 1 GB")
	}
	data := loadOCA(t)
	// Separate the copies so the last game of one copy does not run into
	// the first of the next.
	data = append(data, "\n\n"...)
	const total = 1 << 30
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	rd := NewReader(&repeatReader{data: data, n: total}, "repeat")
	games, peakHeap, peakSys := 0, uint64(0), uint64(0)
	start := time.Now()
	for {
		_, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		games++
		if games%20000 == 0 {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peakHeap = max(peakHeap, ms.HeapInuse)
			peakSys = max(peakSys, ms.Sys)
		}
	}
	el := time.Since(start)
	t.Logf("%d games, %d MB in %v (%.0f games/s, %.0f MB/s); peak HeapInuse %.1f MB, peak Sys %.1f MB (the test's own copy of the archive: %.1f MB)",
		games, total>>20, el.Round(time.Millisecond), float64(games)/el.Seconds(), float64(total>>20)/el.Seconds(),
		float64(peakHeap)/(1<<20), float64(peakSys)/(1<<20), float64(len(data))/(1<<20))
	if peakHeap-uint64(len(data)) > 50<<20 {
		t.Errorf("heap grew to %d MB", peakHeap>>20)
	}
}
