package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// unitBytes makes a bar show bytes (kB, MB) and the bar's own byte rate:
// validate and import measure their sources so. Any other unit is the
// plural name of what is counted ("rows", "games", "positions"), and the
// bar's description then ends with their rate per second since the start.
const unitBytes = "bytes"

// progress is the one progress bar of every command: on standard error
// when it is a terminal and the command is not quiet, else nil (every
// method of a nil *progress is a no-op), so piped and scripted runs stay
// clean.
type progress struct {
	bar   *progressbar.ProgressBar
	unit  string
	desc  string // the description before any rate
	base  int64  // bytes of the sources already finished (sourceDone)
	start time.Time
	now   func() time.Time
}

// newProgress returns a bar counting unit (unitBytes, or the plural name
// of what is counted), with total the amount expected (<= 0: unknown, a
// spinner until setTotal), or nil when quiet or standard error is not a
// terminal.
func newProgress(quiet bool, desc, unit string, total int64) *progress {
	if quiet || !term.IsTerminal(int(os.Stderr.Fd())) {
		return nil
	}
	return newProgressTo(os.Stderr, desc, unit, total, time.Now, 100*time.Millisecond)
}

// newProgressTo writes the bar to w, measuring time with now and redrawing
// at most once per throttle.
func newProgressTo(w io.Writer, desc, unit string, total int64, now func() time.Time, throttle time.Duration) *progress {
	if total <= 0 {
		total = -1
	}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowBytes(unit == unitBytes),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(throttle),
		progressbar.OptionOnCompletion(func() { io.WriteString(w, "\n") }),
		progressbar.OptionClearOnFinish(),
	)
	return &progress{bar: bar, unit: unit, desc: desc, start: now(), now: now}
}

// setTotal sets the amount to expect, once known.
func (p *progress) setTotal(n int64) {
	if p != nil && n > 0 {
		p.bar.ChangeMax64(n)
	}
}

// describe replaces the description (a count's rate is still appended).
func (p *progress) describe(s string) {
	if p != nil {
		p.desc = s
		p.bar.Describe(s)
	}
}

// set shows base + n done (base: the sources finished, see sourceDone);
// for a count, with its rate.
func (p *progress) set(n int64) {
	if p == nil {
		return
	}
	if p.unit != unitBytes {
		if r := rate(n, p.now().Sub(p.start), p.unit); r != "" {
			p.bar.Describe(p.desc + ", " + r)
		}
	}
	_ = p.bar.Set64(p.base + n)
}

// sourceDone adds a finished source's size to the base of set.
func (p *progress) sourceDone(size int64) {
	if p != nil && size > 0 {
		p.base += size
		_ = p.bar.Set64(p.base)
	}
}

func (p *progress) finish() {
	if p != nil {
		_ = p.bar.Finish()
	}
}

// rate formats n things in elapsed as things per second, with the digits
// that matter at any speed ("" before any time has passed). The bar's own
// rate, a rolling average that is 0 until it has samples and then shown
// per hour or minute below one per second, read "0 rows/hr" at first.
func rate(n int64, elapsed time.Duration, unit string) string {
	if elapsed <= 0 {
		return ""
	}
	r := float64(n) / elapsed.Seconds()
	switch {
	case r >= 100 || r == 0:
		return fmt.Sprintf("%.0f %s/s", r, unit)
	case r >= 1:
		return fmt.Sprintf("%.1f %s/s", r, unit)
	}
	return fmt.Sprintf("%.2g %s/s", r, unit)
}
