package ingest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// ValidateOptions control Validate.
type ValidateOptions struct {
	// Workers replay games in parallel; <= 0: the number of CPUs.
	Workers int
	// Variant, when set, is forced on every game (--variant).
	Variant *rules.Variant
	// OnEvent, when set, sees every pipeline event first, in input order
	// (progress bars).
	OnEvent func(ev *Event)
	// OnReject is called for each rejected game, in input order; an error
	// stops the run.
	OnReject func(src *source.Source, it *Item) error
	// OnWarning is called for each warning of an accepted game. The item's
	// PDN is usually nil: validate lets the parsed text of accepted games
	// go (Config.DropAccepted). Standard input's games keep it, and so do
	// games that source inference replayed again from the text read again.
	OnWarning func(src *source.Source, it *Item, warning string)
	// OnSourceError is called when a source cannot be read to its end (a
	// *SourceError: it names the source).
	OnSourceError func(src *source.Source, err error)
}

// maxWorkers bounds ValidateOptions.Workers: more goroutines than this
// only cost memory.
const maxWorkers = 1024

func (o *ValidateOptions) check() error {
	if o.Workers > maxWorkers {
		return fmt.Errorf("validate: %d workers: at most %d", o.Workers, maxWorkers)
	}
	return nil
}

// ValidateSummary is what Validate found.
type ValidateSummary struct {
	Files            int            `json:"files"`
	FilesFailed      int            `json:"files_failed"`
	GamesRead        int            `json:"games_read"`
	Accepted         int            `json:"accepted"`
	Rejected         int            `json:"rejected"`
	RejectedByReason map[string]int `json:"rejected_by_reason"`
	Warnings         int            `json:"warnings"`
	WarningsByKind   map[string]int `json:"warnings_by_kind"`
	Plies            int            `json:"plies"`
	Seconds          float64        `json:"seconds"`
	GamesPerSecond   float64        `json:"games_per_second"`
}

// Validate reads and replays every game of srcs, as the import does but
// storing nothing, and counts what it found: games accepted and rejected by
// reason (replay.Reason), warnings by kind (replay.WarningKind), plies, and
// the sources that could not be read. A source that fails is counted and
// the run goes on; the error returned is only for the run itself (a
// cancelled context, an error from a callback).
func Validate(ctx context.Context, srcs []*source.Source, opts ValidateOptions) (*ValidateSummary, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	start := time.Now()
	sum := &ValidateSummary{RejectedByReason: map[string]int{}, WarningsByKind: map[string]int{}}
	cfg := Config{Workers: opts.Workers, Replay: replay.Options{Variant: opts.Variant}, DropAccepted: true}
	err := Run(ctx, srcs, cfg, inferSources(cfg, func(ev *Event) error {
		if opts.OnEvent != nil {
			opts.OnEvent(ev)
		}
		switch ev.Kind {
		case SourceStart:
			sum.Files++
		case SourceEnd:
			if ev.Err != nil {
				sum.FilesFailed++
				if opts.OnSourceError != nil {
					opts.OnSourceError(ev.Source, ev.Err)
				}
			}
		case Games:
			for i := range ev.Items {
				it := &ev.Items[i]
				sum.GamesRead++
				if it.Accepted {
					sum.Accepted++
					sum.Plies += it.Plies
					sum.Warnings += it.Warnings
					for _, w := range it.GameWarnings {
						sum.WarningsByKind[w.Kind.String()]++
						if opts.OnWarning != nil {
							opts.OnWarning(ev.Source, it, w.Text)
						}
					}
					continue
				}
				sum.Rejected++
				sum.RejectedByReason[replay.Reason(it.Reject)]++
				if opts.OnReject != nil {
					if err := opts.OnReject(ev.Source, it); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}))
	sum.Seconds = time.Since(start).Seconds()
	if sum.Seconds > 0 {
		sum.GamesPerSecond = float64(sum.GamesRead) / sum.Seconds
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return sum, err
	}
	return sum, err
}
