package main

import (
	"errors"
	"fmt"

	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/spf13/cobra"
)

func newHubCommand(a *app) *cobra.Command {
	var (
		variant string
		ttSize  int
		bk      bookFlags
		eg      endgameFlags
	)
	cmd := &cobra.Command{
		Use:   "hub [--variant V] [--tt-size MB] [--endgame-pieces N]",
		Short: "Run the draughtsdb search engine as a Hub protocol engine on stdin/stdout",
		Long: `Run the built-in search engine (package analysis/search) as an engine speaking
the Hub protocol (the text protocol of Scan and the Hub GUI) on standard input
and output, so that Hub GUIs, draughtsdb's own engine client and scripts can
use it like any external engine:

  hub                          -> id, param ..., wait
  init                         -> ready
  pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww
  level depth=10               (or level move-time=1.5, level infinite)
  go think                     -> info depth=.. score=.. nodes=.. pv="..." ... done move=32-28 ponder=19-23

Scores are in men from the side to move's view (0.25 = a quarter of a man);
a forced win is about 300 minus the plies to the end (299.95: the opponent
is out of moves in 5 plies). --variant and --tt-size set the initial values
of the Hub parameters "variant" and "tt-size"; the GUI may change them with
set-param. Variants: every variant draughtsdb plays, by its name (see
--variant), and by Scan's names for those Scan plays under another: normal
(international), bt (breakthrough), losing (antidraughts). The moves of a
pos line count for Frisian's limit on moving one king.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := hub.VariantByName(variant); err != nil {
				_, err := flagVariant("--variant", variant)
				var se *SettingError
				if errors.As(err, &se) {
					se.Want += ", or Scan's normal, bt, losing"
				}
				return err
			}
			if ttSize < hub.MinTTSizeMB || ttSize > hub.MaxTTSizeMB {
				return fmt.Errorf("--tt-size must be %d..%d (MB)", hub.MinTTSizeMB, hub.MaxTTSizeMB)
			}
			o := hub.Options{Variant: variant, TTSizeMB: ttSize}
			if err := bk.check(cmd.Flags().Changed); err != nil {
				return err
			}
			if bk.on() {
				// The book is of the initial variant; the GUI may play
				// another (set-param), where it has no moves.
				v, err := hub.VariantByName(variant)
				if err != nil {
					return err
				}
				book, err := bk.build(cmd.Context(), a, v)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "draughtsdb: hub: opening book of %s: %d positions\n", v.Name, book.Len())
				o.Book = book.Move
			}
			if err := eg.check(); err != nil {
				return err
			}
			if eg.pieces > 0 {
				o.Endgame, o.EndgamePieces = eg.loader(a, cmd.ErrOrStderr()), eg.pieces
			}
			return hub.Serve(cmd.InOrStdin(), cmd.OutOrStdout(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&variant, "variant", "international", "initial variant: "+variantList()+", or Scan's normal, bt, losing (Hub parameter \"variant\")")
	f.IntVar(&ttSize, "tt-size", 64, "transposition table size in MB (Hub parameter \"tt-size\")")
	bk.add(f, "the engine")
	eg.add(f, "the engine")
	return cmd
}
