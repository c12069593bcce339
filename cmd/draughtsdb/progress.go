package main

import (
	"io"
	"os"

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
