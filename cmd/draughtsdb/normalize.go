package main

import (
	"bufio"
	"fmt"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/spf13/cobra"
)

// normalizeSomeRejected is normalize's exit status when every input was
// read but some games were rejected and so not written.
const normalizeSomeRejected = 3

func newNormalizeCommand(a *app) *cobra.Command {
	var notation string
	cmd := &cobra.Command{
		Use:   "normalize [--variant V] [--notation algebraic|numeric] PATH...",
		Short: "Write the accepted games of PDN files as clean, verified PDN on standard output",
		Long: `Replay every game and write the accepted ones as standard PDN 3.0 on standard
output: every move with its full capture path, in the variant's own notation
(numeric for International, English and Canadian; algebraic for Russian and
Brazilian) unless --notation says otherwise; tags cleaned (Date as
YYYY.MM.DD, Result in the variant's standard form with the first mover's
score first, GameType in full form with the notation of the moves written,
FEN canonical); comments, NAGs and move strengths kept. Variations are
replayed from where they branch off and kept when every move in them is
legal; a variation that is not is left out with a warning on standard error
naming the game and ply. Rejected games and unreadable inputs are reported
on standard error, and a last line there counts the games written and
rejected. Normalising the output again changes no byte.

Exit status: 0 every game was written; 1 an input could not be read (or
another error); 3 every input was read but some games were rejected and
not written; 130 interrupted (Ctrl-C).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			forced, err := variantFlag(a.cfg.Variant)
			if err != nil {
				return err
			}
			var fixed *rules.Notation
			switch notation {
			case "":
			case "algebraic":
				n := rules.Algebraic
				fixed = &n
			case "numeric":
				n := rules.Numeric
				fixed = &n
			default:
				return fmt.Errorf("--notation must be algebraic or numeric, not %q", notation)
			}
			srcs, errs := source.Expand(args)
			failed := len(errs)
			for _, e := range errs {
				fmt.Fprintf(cmd.ErrOrStderr(), "draughtsdb: %v\n", e)
			}
			bw := bufio.NewWriterSize(cmd.OutOrStdout(), 1<<16)
			errOut := cmd.ErrOrStderr()
			sum, err := ingest.Normalize(cmd.Context(), srcs, bw, ingest.NormalizeOptions{
				Workers:  a.cfg.Workers,
				Variant:  forced,
				Notation: fixed,
				OnReject: func(src *source.Source, it *ingest.Item) {
					fmt.Fprintln(errOut, rejectLine(src.Name, it))
				},
				OnWarning: func(src *source.Source, w string) {
					fmt.Fprintf(errOut, "%s: %s\n", src.Name, w)
				},
				OnSourceError: func(_ *source.Source, err error) {
					fmt.Fprintf(errOut, "draughtsdb: %v\n", err) // it names the source
				},
			})
			if ferr := bw.Flush(); err == nil {
				err = ferr
			}
			if err != nil {
				return interrupted(cmd.Context(), err, "normalize", "standard output has only the games written before")
			}
			failed += sum.SourcesFailed
			fmt.Fprintf(errOut, "draughtsdb: %d game(s) written, %d rejected (not written), %d variation(s) left out; inputs: %d (%d could not be read)\n",
				sum.Written, sum.Rejected, sum.VariationsDropped, len(srcs)+len(errs), failed)
			if failed > 0 {
				return &exitError{code: 1, msg: fmt.Sprintf("%d input(s) could not be read", failed)}
			}
			if sum.Rejected > 0 {
				return &exitError{code: normalizeSomeRejected}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.String("variant", "", settingHelp("variant"))
	f.StringVar(&notation, "notation", "", "notation of the moves written: algebraic (c3:e5:g7) or numeric (28x19x10); default: each variant's own (algebraic for "+
		variantNames(func(v *rules.Variant) bool { return v.DefaultNotation == rules.Algebraic }, "and")+"; numeric for the others)")
	bindFlag(f, "variant", "variant")
	return cmd
}
