package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/spf13/cobra"
)

func newImportCommand(a *app) *cobra.Command {
	var (
		force   bool
		jsonOut bool
		quiet   bool
	)
	cmd := &cobra.Command{
		Use:   "import [flags] PATH...",
		Short: "Verify PDN games and load them into PostgreSQL (resumable, idempotent)",
		Long: `Read PDN sources (files, directories searched recursively for *.pdn, *.pdn.gz
and *.zip, .gz files, zip archives whose entries are sources of their own, or -
for standard input), replay every game through the rules engine on a pool of
workers, and load them into the database in batches, one transaction each.

Every game read ends up in exactly one place: games (verified and stored),
rejected_games (with its bytes as read, the reason, ply and move) or
duplicates (the same variant, start, moves, players, date and result as a
stored game, and the same Event, Site and Round wherever both give one).
A game is stored as one start position and its moves: one with a /FEN/ setup
after its first move is kept with the rejected games (reason "mid-game
setup"); validate and normalize read it.

A source already imported (same SHA-256 of its text) adds nothing and is
reported; --force removes what it contributed and imports it again. An import
that stops for any reason (kill -9, a lost connection, a full disk) is
finished by running the same command again: it resumes after the last batch
committed, with no game lost or doubled.

A source that fails does so alone: one that cannot be opened, whose text
breaks off (a truncated .gz: the complete games before the break are stored,
and importing a repaired copy resumes after them) or whose games the database
refuses. Texts are stored as valid UTF-8 (bytes that are not UTF-8 read as
Windows-1252, NUL bytes removed, with a warning on the game); a rejected
game's bytes are kept exactly (of a game longer than 4 MB, almost always an
unclosed comment, its first 4 MB, the reason giving its size and where in
the file it lies).

The exit status is 0 when every source was read completely, 1 otherwise (the
good sources are imported all the same; the message lists each failed source
with the game where it stopped, --json lists them under "failures").`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			forced, err := variantFlag(a.cfg.Variant)
			if err != nil {
				return err
			}
			pool, err := openDatabase(cmd.Context(), a.cfg)
			if err != nil {
				return err
			}
			defer pool.Close()
			errOut := cmd.ErrOrStderr()
			bar := newProgress(quiet || jsonOut, "importing", unitBytes, 0)
			opts := ingest.Options{
				Workers: a.cfg.Workers, BatchSize: a.cfg.Import.BatchSize, Force: force, Variant: forced,
				OpeningDepth: a.cfg.Import.OpeningDepth,
				Notice: func(s string) {
					if !quiet {
						fmt.Fprintln(errOut, s)
					}
				},
			}
			if bar != nil {
				// The bar follows the committed batches: the reader runs
				// ahead of the database, and its position made the bar
				// reach the end while batches were still being written.
				start := time.Now()
				opts.Committed = func(done, total int64, games int) {
					bar.setTotal(total)
					bar.describe(fmt.Sprintf("importing: %d games committed, %.0f games/s", games, float64(games)/time.Since(start).Seconds()))
					bar.set(done)
				}
			}
			sum, err := ingest.Import(cmd.Context(), pool, args, opts)
			bar.finish()
			if sum != nil {
				if jsonOut {
					if err := json.NewEncoder(cmd.OutOrStdout()).Encode(sum); err != nil {
						return err
					}
				} else {
					printImportSummary(cmd.OutOrStdout(), sum)
					if err == nil && sum.Imported > 0 {
						firsts, ferr := openings.MostPlayedFirstMoves(cmd.Context(), pool, sum.SourceIDs)
						if ferr != nil {
							return ferr
						}
						for _, f := range firsts {
							score := "no finished games"
							if f.WhiteWins+f.Draws+f.BlackWins > 0 {
								score = fmt.Sprintf("white's score %.1f%%", f.Score())
							}
							fmt.Fprintf(cmd.OutOrStdout(), "most played first move (%s): %s in %d games: white wins %d, draws %d, black wins %d, unfinished %d; %s\n",
								f.Variant.Name, f.Move, f.Games, f.WhiteWins, f.Draws, f.BlackWins, f.Unfinished, score)
						}
					}
				}
			}
			if err != nil {
				return interrupted(cmd.Context(), schema.DescribeError(err), "import", "everything committed so far is kept: run the same command again to finish it")
			}
			if sum.SourcesFailed > 0 {
				return &exitError{code: 1, msg: failedMessage(sum)}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.String("variant", "", settingHelp("variant"))
	f.Int("workers", 0, settingHelp("workers"))
	f.Int("batch-size", 5000, settingHelp("import.batch_size"))
	f.Int("opening-depth", 40, settingHelp("import.opening_depth"))
	f.BoolVar(&force, "force", false, "re-import sources that were imported already (their earlier games are removed first)")
	f.BoolVar(&jsonOut, "json", false, "print the summary as one JSON object")
	f.BoolVar(&quiet, "quiet", false, "no progress bar and no per-source notices")
	bindFlag(f, "variant", "variant")
	bindFlag(f, "workers", "workers")
	bindFlag(f, "batch-size", "import.batch_size")
	bindFlag(f, "opening-depth", "import.opening_depth")
	return cmd
}

func printImportSummary(w io.Writer, s *ingest.Summary) {
	fmt.Fprintf(w, "sources:    %d (%d already imported, %d resumed, %d failed)\n", s.Sources, s.SourcesSkipped, s.SourcesResumed, s.SourcesFailed)
	fmt.Fprintf(w, "games read: %d\n", s.GamesRead)
	fmt.Fprintf(w, "imported:   %d\n", s.Imported)
	fmt.Fprintf(w, "duplicates: %d\n", s.Duplicates)
	fmt.Fprintf(w, "rejected:   %d\n", s.Rejected)
	for _, r := range byCount(s.RejectedByReason) {
		fmt.Fprintf(w, "  %-24s %d\n", r, s.RejectedByReason[r])
	}
	fmt.Fprintf(w, "time:       %.2f s, %.0f games/s\n", s.Seconds, s.GamesPerSecond)
}

// failedMessage is the last word of an import in which sources failed: how
// many, then each on a line of its own with the game it stopped at and why.
func failedMessage(s *ingest.Summary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d source(s) could not be imported completely; the others were imported:", s.SourcesFailed)
	for _, f := range s.Failures {
		b.WriteString("\n  ")
		b.WriteString(f.Error)
	}
	return b.String()
}
