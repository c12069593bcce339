package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/spf13/cobra"
)

func newValidateCommand(a *app) *cobra.Command {
	var (
		jsonOut  bool
		rejects  string
		quiet    bool
		warnings bool
	)
	cmd := &cobra.Command{
		Use:   "validate [flags] PATH...",
		Short: "Replay every game of PDN files through the rules engine and report the rejected ones (no database)",
		Long: `Read PDN files (plain, .gz, .zip, directories searched recursively, or - for
standard input), replay every game through the rules engine and print one line
per rejected game:

  file:line game N ply P "move": reason: explanation

then a summary: files, games read, accepted, rejected by reason, plies,
warnings by kind, seconds and games per second. With --warnings, every
warning of an accepted game is printed too, one line each:

  file:line game N: warning: text

(a result or date that had to be repaired, a result token that differs from
the Result tag, ...). Nothing is written to the database.

An input in which nothing is PDN (a README, a binary file) is reported as
"not a PDN file" and counts as an input that could not be read.

The exit status is 0 when every input was read (rejected games included), 1
when an input could not be read or is not PDN, and 130 when interrupted
(Ctrl-C).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := variantFlag(a.cfg.Variant)
			if err != nil {
				return err
			}
			return runValidate(cmd, args, a.cfg.Workers, v, jsonOut, rejects, quiet, warnings)
		},
	}
	f := cmd.Flags()
	f.String("variant", "", settingHelp("variant"))
	f.Int("workers", 0, settingHelp("workers"))
	f.BoolVar(&jsonOut, "json", false, "print the summary as one JSON object on standard output (rejections still go to standard error)")
	f.StringVar(&rejects, "rejects", "", "write every rejected game, byte for byte as read, to this PDN file")
	f.BoolVar(&quiet, "quiet", false, "no progress bar and no per-game lines; only the summary")
	f.BoolVar(&warnings, "warnings", false, "also print each warning of an accepted game (repaired dates and results, reader remarks) on standard error")
	bindFlag(f, "variant", "variant")
	bindFlag(f, "workers", "workers")
	return cmd
}

// variantFlag turns a configured variant name into a forced variant (nil
// when empty: decide per game).
func variantFlag(name string) (*rules.Variant, error) {
	if name == "" {
		return nil, nil
	}
	return rules.VariantByName(name)
}

func runValidate(cmd *cobra.Command, paths []string, workers int, forced *rules.Variant, jsonOut bool, rejectsPath string, quiet, showWarnings bool) error {
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	srcs, expandErrs := source.Expand(paths)
	for _, e := range expandErrs {
		fmt.Fprintf(errOut, "draughtsdb: %v\n", e)
	}
	var rejects io.Writer
	if rejectsPath != "" {
		f, err := os.Create(rejectsPath)
		if err != nil {
			return err
		}
		defer f.Close()
		rejects = f
	}
	lines := errOut
	if jsonOut || quiet {
		lines = io.Discard
		if jsonOut && !quiet {
			lines = errOut
		}
	}
	var total int64
	for _, s := range srcs {
		total += max(s.Size, 0)
	}
	bar := newProgress(quiet || jsonOut, "validating", unitBytes, total)
	sum, err := ingest.Validate(cmd.Context(), srcs, ingest.ValidateOptions{
		Workers: workers,
		Variant: forced,
		OnEvent: func(ev *ingest.Event) {
			switch ev.Kind {
			case ingest.SourceStart:
				bar.describe(ev.Source.Name)
			case ingest.SourceEnd:
				bar.sourceDone(ev.Source.Size)
			case ingest.Games:
				bar.set(ev.Consumed)
			}
		},
		OnSourceError: func(_ *source.Source, err error) {
			fmt.Fprintf(errOut, "draughtsdb: %v\n", err) // a *ingest.SourceError: it names the source
		},
		OnWarning: func(src *source.Source, it *ingest.Item, w string) {
			if showWarnings {
				fmt.Fprintf(lines, "%s:%d game %d: warning: %s\n", src.Name, it.Line, it.Ordinal, w)
			}
		},
		OnReject: func(src *source.Source, it *ingest.Item) error {
			fmt.Fprintln(lines, rejectLine(src.Name, it))
			if rejects != nil {
				if err := writeRaw(rejects, it.PDN.Raw); err != nil {
					return fmt.Errorf("write %s: %w", rejectsPath, err)
				}
			}
			return nil
		},
	})
	bar.finish()
	if err != nil {
		if sum == nil || cmd.Context().Err() == nil {
			return interrupted(cmd.Context(), err, "validate", "")
		}
		// Interrupted: the summary counts the games read and checked so
		// far, which is what the run did.
		if jsonOut {
			if err := json.NewEncoder(out).Encode(sum); err != nil {
				return err
			}
		} else {
			printValidateSummary(out, sum)
		}
		return interrupted(cmd.Context(), err, "validate", "not every game was read: the summary counts those read before")
	}
	// An input that could not even be opened is a file that could not be
	// read: the total counts it, as import's sources do.
	sum.Files += len(expandErrs)
	sum.FilesFailed += len(expandErrs)
	if jsonOut {
		if err := json.NewEncoder(out).Encode(sum); err != nil {
			return err
		}
	} else {
		printValidateSummary(out, sum)
	}
	if sum.FilesFailed > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d input(s) could not be read", sum.FilesFailed)}
	}
	return nil
}

// rejectLine is "file:line game N ply P "move": reason: detail".
func rejectLine(name string, it *ingest.Item) string {
	sep := " "
	if re, ok := it.Reject.(*replay.RejectError); ok && re.Ply == 0 {
		sep = ": "
	}
	return fmt.Sprintf("%s:%d game %d%s%v", name, it.PDN.Line, it.PDN.Ordinal, sep, it.Reject)
}

// writeRaw writes a game's bytes as read, followed by a blank line so the
// next game starts cleanly.
func writeRaw(w io.Writer, raw []byte) error {
	if _, err := w.Write(raw); err != nil {
		return err
	}
	sep := "\n\n"
	if bytes.HasSuffix(raw, []byte("\n")) {
		sep = "\n"
	}
	_, err := io.WriteString(w, sep)
	return err
}

func printValidateSummary(w io.Writer, s *ingest.ValidateSummary) {
	fmt.Fprintf(w, "files:     %d (%d could not be read)\n", s.Files, s.FilesFailed)
	fmt.Fprintf(w, "games:     %d read, %d accepted, %d rejected", s.GamesRead, s.Accepted, s.Rejected)
	if s.GamesRead > 0 {
		fmt.Fprintf(w, " (%.2f%% accepted)", 100*float64(s.Accepted)/float64(s.GamesRead))
	}
	fmt.Fprintln(w)
	for _, r := range byCount(s.RejectedByReason) {
		fmt.Fprintf(w, "  rejected: %-22s %d\n", r, s.RejectedByReason[r])
	}
	fmt.Fprintf(w, "plies:     %d (%d warnings)\n", s.Plies, s.Warnings)
	for _, k := range byCount(s.WarningsByKind) {
		fmt.Fprintf(w, "  warning:  %-40s %d\n", k, s.WarningsByKind[k])
	}
	fmt.Fprintf(w, "time:      %.2f s, %.0f games/s\n", s.Seconds, s.GamesPerSecond)
}

// byCount lists the keys of m, most counted first, ties by name (so the
// order never depends on map iteration).
func byCount(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}
