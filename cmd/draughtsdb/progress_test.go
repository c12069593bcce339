package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgressRate: a counting bar (export's rows) shows its rate per
// second from its first update (the bar's own rolling rate read "0 rows/hr"
// until it had samples), in per-second units at any speed.
func TestProgressRate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n       int64
		elapsed time.Duration
		want    string
	}{
		{0, 0, ""},
		{1000, 0, ""},
		{0, time.Second, "0 rows/s"},
		{1000, 2 * time.Second, "500 rows/s"},
		{5, 2 * time.Second, "2.5 rows/s"},
		{1, time.Hour, "0.00028 rows/s"},
		{72_200_000, 144 * time.Second, "501389 rows/s"},
	} {
		if got := rate(c.n, c.elapsed, "rows"); got != c.want {
			t.Errorf("rate(%d, %v) = %q, want %q", c.n, c.elapsed, got, c.want)
		}
	}

	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	p := newProgressTo(&out, "exporting positions (parquet)", "rows", 0, func() time.Time { return now }, 0)
	p.set(0)
	now = now.Add(250 * time.Millisecond)
	p.set(20_000) // the first update after the start: 80,000 rows/s
	if s := out.String(); !strings.Contains(s, "exporting positions (parquet), 80000 rows/s") || strings.Contains(s, "/hr") || strings.Contains(s, "/min") {
		t.Errorf("first update: %q", s)
	}
	out.Reset()
	p.setTotal(100_000)
	now = now.Add(750 * time.Millisecond)
	p.set(50_000)
	if s := out.String(); !strings.Contains(s, "50000 rows/s") {
		t.Errorf("after a second: %q", s)
	}
	p.finish()
	var nilBar *progress // quiet or not a terminal
	nilBar.setTotal(1)
	nilBar.describe("x")
	nilBar.set(1)
	nilBar.sourceDone(1)
	nilBar.finish()
}

// TestProgressUnits: a bytes bar (validate, import) adds the finished
// sources to the current one's bytes and shows no count rate; a count bar
// keeps its rate after a new description (analyze describes every update).
func TestProgressUnits(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	var out bytes.Buffer
	b := newProgressTo(&out, "validating", unitBytes, 3000, clock, 0)
	b.sourceDone(1000)
	now = now.Add(time.Second)
	b.set(500)
	if s := out.String(); !strings.Contains(s, "1.5/3.0 kB") || strings.Contains(s, "bytes/s") {
		t.Errorf("bytes bar after a 1000-byte source and 500 bytes of the next: %q", s)
	}
	b.finish()

	out.Reset()
	now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := newProgressTo(&out, "analyzing", "positions", 0, clock, 0)
	c.describe("analyzing: 40 evaluated, 2 failed")
	now = now.Add(2 * time.Second)
	c.set(42)
	if s := out.String(); !strings.Contains(s, "analyzing: 40 evaluated, 2 failed, 21.0 positions/s") {
		t.Errorf("count bar: %q", s)
	}
	c.finish()
}

// TestProgressEstimate: the time left comes from the amounts of the last
// etaWindow, so progress in large steps with long pauses between them (an
// import's sources are read a megabyte at a time, and the bar's own
// estimate, an average of its last updates' rates, fell to 0s between
// steps) gives an estimate that is never 0 before the end, and follows a
// change of speed after the window. "ETA ?" until a second is measured.
func TestProgressEstimate(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	p := newProgressTo(&out, "importing", unitBytes, 100<<20, func() time.Time { return now }, 0)
	last := func() string {
		s := out.String()
		if i := strings.LastIndex(s, "ETA "); i >= 0 {
			e, _, _ := strings.Cut(s[i+4:], " ")
			return strings.TrimRight(e, ",")
		}
		return ""
	}
	p.set(0)
	if e := last(); e != "?" {
		t.Fatalf("at the start: ETA %q, want ?", e)
	}
	// 1 MB every 2 s, with updates at 0 progress every 100 ms between.
	var done int64
	for step := 1; step <= 20; step++ {
		for range 19 {
			now = now.Add(100 * time.Millisecond)
			p.set(done)
			if e := last(); e == "0s" {
				t.Fatalf("step %d: ETA 0s at %d of %d bytes", step, done, 100<<20)
			}
		}
		now = now.Add(100 * time.Millisecond)
		done += 1 << 20
		p.set(done)
	}
	// 20 MB in 40 s: 80 MB left at 0.5 MB/s is 160 s.
	// The clock is the test's own (now), so the estimate is exact.
	if e := last(); e != "2m40s" {
		t.Errorf("after 20 MB in 40 s: ETA %q, want 2m40s", e)
	}
	// Four times faster for the window's length: the estimate follows.
	for range 30 {
		now = now.Add(time.Second)
		done += 2 << 20
		p.set(done)
	}
	// 80 MB done, the 20 MB left at 2 MB/s: 10 s.
	if e := last(); e != "10s" {
		t.Errorf("at %d of %d bytes, 2 MB/s: ETA %q, want 10s", done, 100<<20, e)
	}
	p.finish()

	// A count bar that starts again from less (the next epoch) measures
	// from there: no negative rate, no 0s.
	out.Reset()
	c := newProgressTo(&out, "fit", "positions", 2000, func() time.Time { return now }, 0)
	for i := range 10 {
		now = now.Add(time.Second)
		c.set(int64(100 * (i + 1)))
	}
	now = now.Add(time.Second)
	c.set(10)
	if e := last(); e != "?" {
		t.Errorf("after starting again: ETA %q, want ?", e)
	}
	now = now.Add(2 * time.Second)
	c.set(210)
	if e := last(); e != "18s" {
		t.Errorf("200 in 2 s, 1790 left: ETA %q, want 18s", e)
	}
	c.finish()
}
