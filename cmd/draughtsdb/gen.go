package main

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/spf13/cobra"
)

// ctxWriter writes to w until ctx is cancelled, then fails with ctx's
// error: it stops a writer that takes no context.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

func newGenCommand() *cobra.Command {
	var (
		variant  string
		games    int
		seed     uint64
		out      string
		notation string
		fullPath bool
	)
	cmd := &cobra.Command{
		Use:   "gen --variant V --games N --seed S [--out FILE]",
		Short: "Write N synthetic legal games as PDN (the same for the same seed), for benchmarks and tests",
		Long: `Write synthetic games: random walks over the legal moves from the initial
position (Frisian's limit on moving one king kept), 30 to 130 plies or until
the variant's Win rule decides the game (no move loses, or wins in
antidraughts; the first king wins in breakthrough), otherwise decided by
material; players from a pool of 2,000,
events of 100 games, dates 1990-2025. The same variant, count and seed give
the same bytes. A file name ending in .gz is written gzip-compressed.

Moves are written in the variant's notation, start and end, with the full path
only when another legal move shares them; --notation and --full-path write the
same games in the other forms replay reads.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := flagVariant("--variant", variant)
			if err != nil {
				return err
			}
			// A negative count wrote nothing and exited 0.
			if games < 0 {
				return fmt.Errorf("--games %d: want 0 or more", games)
			}
			n, err := synth.ParseNotation(notation)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if out != "" && out != "-" {
				f, err := os.Create(out)
				if err != nil {
					return err
				}
				defer f.Close()
				w = f
				if strings.HasSuffix(out, ".gz") {
					zw := gzip.NewWriter(f)
					defer zw.Close()
					w = zw
				}
			}
			// synth.Write takes no context: the writer stops it on Ctrl-C.
			if err := synth.Write(ctxWriter{cmd.Context(), w}, synth.Options{Variant: v, Games: games, Seed: seed, Notation: n, FullPath: fullPath}); err != nil {
				return interrupted(cmd.Context(), err, "gen", "the output has only the games written before")
			}
			if c, ok := w.(io.Closer); ok && w != cmd.OutOrStdout() {
				return c.Close()
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&variant, "variant", "international", "variant: "+variantList())
	f.IntVar(&games, "games", 1000, "number of games")
	f.Uint64Var(&seed, "seed", 1, "random seed; the same seed gives the same games")
	f.StringVar(&out, "out", "-", "output file (.gz: compressed); - for standard output")
	f.StringVar(&notation, "notation", "default", "squares: default (the variant's), numeric or algebraic")
	f.BoolVar(&fullPath, "full-path", false, "write every landing square of every capture")
	return cmd
}
