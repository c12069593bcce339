package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// unitBytes makes a bar show bytes (kB, MB) and the bar's own byte rate:
// validate and import measure their sources so. Any other unit is the
// plural name of what is counted ("rows", "games", "positions"), and the
// bar's description then ends with their rate per second since the start.
const unitBytes = "bytes"

// etaWindow is the span of the recent past whose rate predicts the rest.
// The bar's own estimate averaged the rates of its last ten updates at
// least half a second apart; where a source is read in large steps most
// of those rates are 0, and an average of zeros made it print 0s (the
// import of one large file read "0s" from 31% to 98%). A rate over a
// window measured from the amounts themselves has no such gaps, and it
// forgets a fast start (a resumed import skipping what it stored before)
// after the window.
const etaWindow = 30 * time.Second

// refreshEvery is how often a bar on a terminal redraws itself when the
// work gives no news (a long query, a slow batch): the elapsed time and the
// estimate move, and a spinner turns, so a command never looks hung.
const refreshEvery = 250 * time.Millisecond

// progress is the one progress bar of every command: on standard error
// when it is a terminal and the command is not quiet, else nil (every
// method of a nil *progress is a no-op), so piped and scripted runs stay
// clean. It draws at once when made, and again every refreshEvery.
type progress struct {
	mu      sync.Mutex
	bar     *progressbar.ProgressBar
	unit    string
	desc    string // the description before any rate and estimate
	base    int64  // bytes of the sources already finished (sourceDone)
	cur     int64  // base + the amount of the last set
	total   int64  // <= 0: unknown
	start   time.Time
	now     func() time.Time
	samples []sample // (time, amount) of the last etaWindow and one before
	stop    chan struct{}
	stopped sync.WaitGroup
	done    bool // finished
}

type sample struct {
	t time.Time
	v int64
}

// newProgress returns a bar counting unit (unitBytes, or the plural name
// of what is counted), with total the amount expected (<= 0: unknown, a
// spinner until setTotal), or nil when quiet or standard error is not a
// terminal.
func newProgress(quiet bool, desc, unit string, total int64) *progress {
	if quiet || !term.IsTerminal(int(os.Stderr.Fd())) {
		return nil
	}
	p := newProgressTo(os.Stderr, desc, unit, total, time.Now, 100*time.Millisecond)
	p.refresh(refreshEvery)
	return p
}

// newProgressTo writes the bar to w, measuring time with now and redrawing
// at most once per throttle. It draws the empty bar at once.
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
		// The estimate is this type's (see etaWindow), in the description.
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionOnCompletion(func() { io.WriteString(w, "\n") }),
		progressbar.OptionClearOnFinish(),
	)
	t := now()
	return &progress{bar: bar, unit: unit, desc: desc, total: max(total, 0), start: t, now: now, samples: []sample{{t, 0}}}
}

// refresh redraws the bar every d until finish.
func (p *progress) refresh(d time.Duration) {
	p.stop = make(chan struct{})
	p.stopped.Add(1)
	go func() {
		defer p.stopped.Done()
		tk := time.NewTicker(d)
		defer tk.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-tk.C:
				p.mu.Lock()
				p.redraw()
				p.mu.Unlock()
			}
		}
	}()
}

// setTotal sets the amount to expect, once known.
func (p *progress) setTotal(n int64) {
	if p == nil || n <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if n != p.total {
		p.total = n
		p.bar.ChangeMax64(n)
	}
}

// describe replaces the description (a count's rate and the estimate are
// still appended).
func (p *progress) describe(s string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.desc = s
	p.redraw()
}

// set shows base + n done (base: the sources finished, see sourceDone).
func (p *progress) set(n int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.advance(p.base + n)
}

// show sets the total (if > 0), the description and the amount done at
// once, for callers on several goroutines: drawn apart, one's count could
// follow another's description.
func (p *progress) show(total int64, desc string, n int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if total > 0 && total != p.total {
		p.total = total
		p.bar.ChangeMax64(total)
	}
	p.desc = desc
	p.advance(p.base + n)
}

// sourceDone adds a finished source's size to the base of set.
func (p *progress) sourceDone(size int64) {
	if p == nil || size <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.base += size
	p.advance(p.base)
}

// advance records v as the amount done and draws it (p.mu held).
func (p *progress) advance(v int64) {
	p.cur = v
	t := p.now()
	if last := p.samples[len(p.samples)-1]; v < last.v {
		// Counting again from less (train fit's next epoch): the rate
		// starts again from here.
		p.samples = append(p.samples[:0], sample{t, v})
	} else if t.Sub(last.t) >= 100*time.Millisecond {
		p.samples = append(p.samples, sample{t, v})
	}
	// Keep one sample at or before the window's start: the rate is
	// measured from it.
	for len(p.samples) > 2 && !p.samples[1].t.After(t.Add(-etaWindow)) {
		p.samples = p.samples[1:]
	}
	// The bar draws on Describe and on Set64 alike, so the order matters:
	// a drawing between the two pairs one's new value with the other's
	// old one. A growing count goes first (its old estimate, for less done,
	// is longer: 781/782 never shows the 0s left of 782/782); a count
	// starting again goes second (the finished count beside "ETA ?").
	if v >= p.bar.State().CurrentNum {
		_ = p.bar.Set64(v)
		p.bar.Describe(p.text(t))
	} else {
		p.bar.Describe(p.text(t))
		_ = p.bar.Set64(v)
	}
}

// redraw draws the bar with the current time (p.mu held).
func (p *progress) redraw() {
	p.bar.Describe(p.text(p.now()))
}

// text is the description with the count's rate and the estimate.
func (p *progress) text(t time.Time) string {
	s := p.desc
	if p.unit != unitBytes {
		if r := rate(p.cur, t.Sub(p.start), p.unit); r != "" {
			s += ", " + r
		}
	}
	if p.total > 0 {
		s += ", " + eta(p.samples[0], sample{t, p.cur}, p.total)
	}
	return s
}

// eta formats the time left to reach total at the rate from `from` to
// `to`: "ETA 1m20s", never less than a second before the end (a bar that
// still has work is not done in 0s), "ETA ?" while there is no rate yet
// (nothing done since `from`, or less than a second measured).
func eta(from, to sample, total int64) string {
	left := total - to.v
	if left <= 0 {
		return "ETA 0s"
	}
	span := to.t.Sub(from.t)
	done := to.v - from.v
	if done <= 0 || span < time.Second {
		return "ETA ?"
	}
	d := time.Duration(float64(span) * float64(left) / float64(done))
	return "ETA " + max(d.Round(time.Second), time.Second).String()
}

// above writes line to w above the bar: the bar is cleared first and
// drawn again at its next refresh, so that lines and bar do not mix on a
// terminal. Without a bar it only writes the line.
func (p *progress) above(w io.Writer, line string) {
	if p == nil {
		fmt.Fprintln(w, line)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	_ = p.bar.Clear()
	fmt.Fprintln(w, line)
}

// finish clears the bar; a second call does nothing.
func (p *progress) finish() {
	if p == nil {
		return
	}
	if p.stop != nil {
		close(p.stop)
		p.stopped.Wait()
		p.stop = nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.done {
		p.done = true
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
