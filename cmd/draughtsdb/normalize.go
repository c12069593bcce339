package main

import (
	"bufio"
	"fmt"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/spf13/cobra"
)

func newNormalizeCommand(a *app) *cobra.Command {
	var notation string
	cmd := &cobra.Command{
		Use:   "normalize [--variant V] [--notation algebraic|numeric] PATH...",
		Short: "Write the accepted games of PDN files as clean, verified PDN on standard output",
		Long: `Replay every game and write the accepted ones as standard PDN 3.0 on standard
output: every move in one notation with its full capture path, tags cleaned
(Date as YYYY.MM.DD, Result in the variant's standard form, GameType in full
form, FEN canonical), comments, NAGs and move strengths kept; variations are
dropped because they are not verified. Rejected games and unreadable inputs
are reported on standard error (exit status 1 when an input could not be
read). Normalising the output again changes nothing.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			forced, err := variantFlag(a.cfg.Variant)
			if err != nil {
				return err
			}
			var n rules.Notation
			switch notation {
			case "algebraic":
				n = rules.Algebraic
			case "numeric":
				n = rules.Numeric
			default:
				return fmt.Errorf("--notation must be algebraic or numeric, not %q", notation)
			}
			srcs, errs := source.Expand(args)
			failed := len(errs)
			for _, e := range errs {
				fmt.Fprintf(cmd.ErrOrStderr(), "draughtsdb: %v\n", e)
			}
			bw := bufio.NewWriterSize(cmd.OutOrStdout(), 1<<16)
			w := pdn.NewWriter(bw)
			err = ingest.Run(cmd.Context(), srcs, ingest.Config{Workers: a.cfg.Workers, Keep: true, Replay: replay.Options{Variant: forced}}, func(ev *ingest.Event) error {
				switch ev.Kind {
				case ingest.SourceEnd:
					if ev.Err != nil {
						failed++
						fmt.Fprintf(cmd.ErrOrStderr(), "draughtsdb: %v\n", ev.Err)
					}
				case ingest.Games:
					for i := range ev.Items {
						it := &ev.Items[i]
						if it.Game == nil {
							fmt.Fprintln(cmd.ErrOrStderr(), rejectLine(ev.Source.Name, it))
							continue
						}
						if err := w.WriteGame(it.Game.ToPDN(n)); err != nil {
							return err
						}
					}
				}
				return nil
			})
			if ferr := bw.Flush(); err == nil {
				err = ferr
			}
			if err != nil {
				return err
			}
			if failed > 0 {
				return &exitError{code: 1, msg: fmt.Sprintf("%d input(s) could not be read", failed)}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.String("variant", "", settingHelp("variant"))
	f.StringVar(&notation, "notation", "algebraic", "notation of the moves written: algebraic (c3:e5:g7) or numeric (28x19x10)")
	bindFlag(f, "variant", "variant")
	return cmd
}
