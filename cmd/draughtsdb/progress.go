package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// newProgress returns a bytes-based progress bar on standard error when it
// is a terminal and quiet is false; otherwise nil (every method of a nil
// *progress is a no-op), so piped and scripted runs stay clean.
func newProgress(total int64, desc string, quiet bool) *progress {
	if quiet || !term.IsTerminal(int(os.Stderr.Fd())) {
		return nil
	}
	if total <= 0 {
		total = -1 // unknown size (standard input): a spinner
	}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100_000_000),
		progressbar.OptionShowCount(),
		progressbar.OptionOnCompletion(func() { io.WriteString(os.Stderr, "\n") }),
		progressbar.OptionClearOnFinish(),
	)
	return &progress{bar: bar}
}

type progress struct {
	bar  *progressbar.ProgressBar
	base int64 // bytes of the sources already finished
}

// set moves the bar to base + consumed bytes of the current source.
func (p *progress) set(consumed int64) {
	if p != nil {
		_ = p.bar.Set64(p.base + consumed)
	}
}

// sourceDone adds a finished source's size to the base.
func (p *progress) sourceDone(size int64) {
	if p != nil && size > 0 {
		p.base += size
		_ = p.bar.Set64(p.base)
	}
}

func (p *progress) describe(s string) {
	if p != nil {
		p.bar.Describe(s)
	}
}

func (p *progress) finish() {
	if p != nil {
		_ = p.bar.Finish()
	}
}

// rowProgress is a row-counting bar (export) whose description shows the
// rate in rows per second since the start: the bar's own rate (a rolling
// average that is 0 until it has samples, then shown per hour or minute
// when below one per second) read "0 rows/hr" at first.
type rowProgress struct {
	bar   *progressbar.ProgressBar
	desc  string
	start time.Time
	now   func() time.Time
}

// newRowProgress returns a row-counting bar on standard error when it is a
// terminal and quiet is false, else nil (every method of a nil
// *rowProgress is a no-op).
func newRowProgress(quiet bool, desc string) *rowProgress {
	if quiet || !term.IsTerminal(int(os.Stderr.Fd())) {
		return nil
	}
	return newRowProgressTo(os.Stderr, desc, time.Now, 100*time.Millisecond)
}

// newRowProgressTo writes the bar to w, measuring time with now and
// redrawing at most once per throttle.
func newRowProgressTo(w io.Writer, desc string, now func() time.Time, throttle time.Duration) *rowProgress {
	bar := progressbar.NewOptions64(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(throttle),
		progressbar.OptionOnCompletion(func() { io.WriteString(w, "\n") }),
		progressbar.OptionClearOnFinish(),
	)
	return &rowProgress{bar: bar, desc: desc, start: now(), now: now}
}

// total sets the number of rows to expect, when known.
func (p *rowProgress) total(n int64) {
	if p != nil && n > 0 {
		p.bar.ChangeMax64(n)
	}
}

// set shows n rows done, with their rate.
func (p *rowProgress) set(n int64) {
	if p == nil {
		return
	}
	if r := rowRate(n, p.now().Sub(p.start)); r != "" {
		p.bar.Describe(p.desc + ", " + r)
	}
	_ = p.bar.Set64(n)
}

func (p *rowProgress) finish() {
	if p != nil {
		_ = p.bar.Finish()
	}
}

// rowRate formats n rows in elapsed as rows per second, with the digits
// that matter at any speed ("" before any time has passed).
func rowRate(n int64, elapsed time.Duration) string {
	if elapsed <= 0 {
		return ""
	}
	r := float64(n) / elapsed.Seconds()
	switch {
	case r >= 100 || r == 0:
		return fmt.Sprintf("%.0f rows/s", r)
	case r >= 1:
		return fmt.Sprintf("%.1f rows/s", r)
	}
	return fmt.Sprintf("%.2g rows/s", r)
}
