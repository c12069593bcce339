package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestRowProgressRate: export's bar shows rows per second from its first
// update (the bar's own rolling rate read "0 rows/hr" until it had
// samples), in per-second units at any speed.
func TestRowProgressRate(t *testing.T) {
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
		if got := rowRate(c.n, c.elapsed); got != c.want {
			t.Errorf("rowRate(%d, %v) = %q, want %q", c.n, c.elapsed, got, c.want)
		}
	}

	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	p := newRowProgressTo(&out, "exporting positions (parquet)", func() time.Time { return now }, 0)
	p.set(0)
	now = now.Add(250 * time.Millisecond)
	p.set(20_000) // the first update after the start: 80,000 rows/s
	if s := out.String(); !strings.Contains(s, "exporting positions (parquet), 80000 rows/s") || strings.Contains(s, "/hr") || strings.Contains(s, "/min") {
		t.Errorf("first update: %q", s)
	}
	out.Reset()
	p.total(100_000)
	now = now.Add(750 * time.Millisecond)
	p.set(50_000)
	if s := out.String(); !strings.Contains(s, "50000 rows/s") {
		t.Errorf("after a second: %q", s)
	}
	p.finish()
	var nilBar *rowProgress // quiet or not a terminal
	nilBar.total(1)
	nilBar.set(1)
	nilBar.finish()
}
