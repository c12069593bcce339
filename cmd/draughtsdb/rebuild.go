package main

import (
	"encoding/json"
	"fmt"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/spf13/cobra"
)

func newRebuildOpeningsCommand(a *app) *cobra.Command {
	var all, jsonOut, quiet bool
	cmd := &cobra.Command{
		Use:   "rebuild-openings [--opening-depth N] [--all]",
		Short: "Recompute the opening statistics from the stored games (after an upgrade, or to count another number of plies)",
		Long: `Recompute the opening statistics (what draughtsdb openings and the
opening_tree query read) from the games stored in the database.

The import keeps the statistics up to date by itself. This command is for
sources imported before draughtsdb kept them (an older version), and for
counting another number of plies: it rebuilds every source whose statistics
were not counted to --opening-depth (import.opening_depth), or every source
with --all. Each source is rebuilt in one transaction, while imports into
the same database wait.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			depth := a.cfg.Import.OpeningDepth
			pool, err := openDatabase(cmd.Context(), a.cfg)
			if err != nil {
				return err
			}
			defer pool.Close()
			bar := newProgress(quiet || jsonOut, "rebuilding opening statistics", "games", 0)
			opts := openings.RebuildOptions{Depth: depth, All: all}
			if bar != nil {
				opts.Progress = func(done, total int) {
					bar.setTotal(int64(total))
					bar.set(int64(done))
				}
			}
			sum, err := openings.Rebuild(cmd.Context(), pool, opts)
			bar.finish()
			if err != nil {
				kept := "the sources rebuilt so far are kept: run the same command again to finish"
				if sum != nil {
					kept = fmt.Sprintf("the %d source(s) rebuilt before, %d games, are kept (the one under way is not): run the same command again to finish", sum.Sources, sum.Games)
				}
				return interrupted(cmd.Context(), err, "rebuild-openings", kept)
			}
			out := cmd.OutOrStdout()
			if jsonOut {
				return json.NewEncoder(out).Encode(sum)
			}
			fmt.Fprintf(out, "rebuilt the opening statistics of %d source(s), %d games, to %d plies\n", sum.Sources, sum.Games, depth)
			if sum.Undecodable > 0 {
				fmt.Fprintf(out, "%d game(s) with a position set up in mid-game could not be replayed from their stored moves and are not counted; import their sources again with --force to count them\n", sum.Undecodable)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.Int("opening-depth", 40, settingHelp("import.opening_depth"))
	f.BoolVar(&all, "all", false, "rebuild every source, not only those counted to another depth or not at all")
	f.BoolVar(&jsonOut, "json", false, "print the summary as one JSON object {sources, games, undecodable}")
	f.BoolVar(&quiet, "quiet", false, "no progress bar")
	bindFlag(f, "opening-depth", "import.opening_depth")
	return cmd
}
