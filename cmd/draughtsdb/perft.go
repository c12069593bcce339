package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/spf13/cobra"
)

func newPerftCommand() *cobra.Command {
	var (
		variant string
		fen     string
		depth   int
		divide  bool
		keep    bool
		noBulk  bool
		jsonOut bool
	)
	cmd := &cobra.Command{
		Use:   "perft --variant V --depth N [--fen FEN] [--divide] [--keep-duplicates] [--json]",
		Short: "Count the leaf nodes of the legal-move tree (checks and measures the rules engine)",
		Long: `Count the positions reachable in exactly N plies (perft), for every depth from 1
to N, with the time taken and the leaf nodes per second. The counts can be
compared with published tables (e.g. International perft(9) = 41022423).

By default moves with the same start, end and captured pieces count once
("drop"); --keep-duplicates counts every capture order ("keep").`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := flagVariant("--variant", variant)
			if err != nil {
				return err
			}
			pos := v.StartPosition()
			if fen != "" {
				if pos, err = rules.ParseFEN(v, fen); err != nil {
					return err
				}
			}
			if depth < 1 {
				return fmt.Errorf("--depth must be at least 1")
			}
			opts := rules.PerftOptions{Keep: keep, NoBulk: noBulk}
			out := cmd.OutOrStdout()
			ctx := cmd.Context()
			// perft(d) = N, timed; a deep one can take hours, and Ctrl-C stops it.
			perft := func(d int) (uint64, float64, error) {
				var n uint64
				var secs float64
				if err := untilCancelled(ctx, func() {
					start := time.Now()
					n = rules.Perft(v, &pos, d, opts)
					secs = time.Since(start).Seconds()
				}); err != nil {
					// The count goes on writing n: leave it alone.
					return 0, 0, interrupted(ctx, err, "perft", "")
				}
				return n, secs, nil
			}
			if divide {
				return interrupted(ctx, perftDivide(ctx, out, cmd.ErrOrStderr(), v, pos, depth, opts, jsonOut), "perft", "")
			}
			if jsonOut {
				n, secs, err := perft(depth)
				if err != nil {
					return err
				}
				return json.NewEncoder(out).Encode(map[string]any{
					"variant": v.Name, "fen": pos.FEN(), "depth": depth, "nodes": n,
					"seconds": secs, "nodes_per_second": perSecond(n, secs),
				})
			}
			fmt.Fprintf(out, "%s %s\n", v.Name, pos.FEN())
			for d := 1; d <= depth; d++ {
				n, secs, err := perft(d)
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "perft(%d) = %d  (%.3f s, %.0f nodes/s)\n", d, n, secs, perSecond(n, secs))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&variant, "variant", rules.Default.Name, "variant: "+variantList())
	f.StringVar(&fen, "fen", "", "start from this position (default: the variant's initial position)")
	f.IntVar(&depth, "depth", 6, "plies to search")
	f.BoolVar(&divide, "divide", false, "print each root move (full capture path, the variant's notation) with its count")
	f.BoolVar(&keep, "keep-duplicates", false, "count every capture order separately (perft tables' \"keep\")")
	f.BoolVar(&noBulk, "no-bulk", false, "play every move of the last ply instead of counting them (slower; measures make)")
	f.BoolVar(&jsonOut, "json", false, "print one JSON object {variant, fen, depth, nodes, seconds, nodes_per_second} for the given depth; with --divide also moves: [{move, nodes}], nodes being their total")
	return cmd
}

// untilCancelled runs f, which takes no context, and returns ctx's error
// as soon as ctx is cancelled, without waiting for f (whose goroutine ends
// with the process); nil when f returned first.
func untilCancelled(ctx context.Context, f func()) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func perSecond(n uint64, secs float64) float64 {
	if secs <= 0 {
		return 0
	}
	return float64(n) / secs
}

// divideMove is one root move of perft --divide --json.
type divideMove struct {
	Move  string `json:"move"`
	Nodes uint64 `json:"nodes"`
}

// perftDivide prints "move count" for every root move on out, and the total
// on errOut, so that out holds exactly one line per move. With jsonOut it
// prints one JSON object instead: the root moves with their counts and
// the total. The moves come in generation order with their full capture
// paths (rules.Divide sorts them by their shortest text).
func perftDivide(ctx context.Context, out, errOut io.Writer, v *rules.Variant, pos rules.Position, depth int, opts rules.PerftOptions, jsonOut bool) error {
	var entries []rules.DivideEntry
	var secs float64
	if err := untilCancelled(ctx, func() {
		start := time.Now()
		entries = rules.Divide(v, &pos, depth, opts)
		secs = time.Since(start).Seconds()
	}); err != nil {
		return err
	}
	slices.SortFunc(entries, func(a, b rules.DivideEntry) int { return a.Order - b.Order })
	var total uint64
	div := make([]divideMove, len(entries))
	for i := range entries {
		e := &entries[i]
		total += e.Nodes
		div[i] = divideMove{Move: rules.FormatMove(v, &e.Legal, v.DefaultNotation, true), Nodes: e.Nodes}
	}
	if jsonOut {
		return json.NewEncoder(out).Encode(struct {
			Variant        string       `json:"variant"`
			FEN            string       `json:"fen"`
			Depth          int          `json:"depth"`
			Moves          []divideMove `json:"moves"`
			Nodes          uint64       `json:"nodes"`
			Seconds        float64      `json:"seconds"`
			NodesPerSecond float64      `json:"nodes_per_second"`
		}{v.Name, pos.FEN(), depth, div, total, secs, perSecond(total, secs)})
	}
	for _, d := range div {
		fmt.Fprintf(out, "%s %d\n", d.Move, d.Nodes)
	}
	fmt.Fprintf(errOut, "moves %d, nodes %d (%.3f s, %.0f nodes/s)\n", len(div), total, secs, perSecond(total, secs))
	return nil
}
