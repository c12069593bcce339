package ingest

import (
	"context"
	"fmt"
	"io"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// NormalizeOptions control Normalize.
type NormalizeOptions struct {
	// Workers replay games in parallel; <= 0: the number of CPUs.
	Workers int
	// Variant, when set, is forced on every game (--variant).
	Variant *rules.Variant
	// Notation, when set, writes every game in it; nil: each variant in its
	// own (rules.Variant.DefaultNotation).
	Notation *rules.Notation
	// OnReject is called for each rejected game (not written), in input
	// order.
	OnReject func(src *source.Source, it *Item)
	// OnWarning is called for each variation left out (see
	// replay.Replayer.NormalizedPDN).
	OnWarning func(src *source.Source, warning string)
	// OnSourceError is called when a source cannot be read to its end.
	OnSourceError func(src *source.Source, err error)
}

func (o *NormalizeOptions) check() error {
	if o.Workers > maxWorkers {
		return fmt.Errorf("normalize: %d workers: at most %d", o.Workers, maxWorkers)
	}
	return nil
}

// NormalizeSummary is what Normalize wrote.
type NormalizeSummary struct {
	Written           int `json:"written"`
	Rejected          int `json:"rejected"`
	VariationsDropped int `json:"variations_dropped"`
	SourcesFailed     int `json:"sources_failed"`
}

// Normalize replays every game of srcs and writes the accepted ones to w as
// normalised PDN (replay.Replayer.NormalizedPDN: verified variations kept),
// in input order. Rejected games are not written; they, the variations
// left out and the sources that could not be read are counted and handed
// to the callbacks. The error is only for the run itself (a cancelled
// context, a write error).
func Normalize(ctx context.Context, srcs []*source.Source, w io.Writer, opts NormalizeOptions) (*NormalizeSummary, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	pw := pdn.NewWriter(w)
	r := replay.NewReplayer(replay.Options{})
	sum := &NormalizeSummary{}
	cfg := Config{Workers: opts.Workers, Keep: true, Replay: replay.Options{Variant: opts.Variant}}
	err := Run(ctx, srcs, cfg, inferSources(cfg, func(ev *Event) error {
		switch ev.Kind {
		case SourceEnd:
			if ev.Err != nil {
				sum.SourcesFailed++
				if opts.OnSourceError != nil {
					opts.OnSourceError(ev.Source, ev.Err)
				}
			}
		case Games:
			for i := range ev.Items {
				it := &ev.Items[i]
				if it.Game == nil {
					sum.Rejected++
					if opts.OnReject != nil {
						opts.OnReject(ev.Source, it)
					}
					continue
				}
				n := it.Game.Variant.DefaultNotation
				if opts.Notation != nil {
					n = *opts.Notation
				}
				g, warnings := r.NormalizedPDN(it.Game, n)
				for _, msg := range warnings {
					sum.VariationsDropped++
					if opts.OnWarning != nil {
						opts.OnWarning(ev.Source, msg)
					}
				}
				if err := pw.WriteGame(g); err != nil {
					return err
				}
				sum.Written++
			}
		}
		return nil
	}))
	return sum, err
}
