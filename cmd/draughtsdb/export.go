package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/draughtsdb/draughtsdb/queries/export"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func newExportCommand(a *app) *cobra.Command {
	var (
		o        export.Options
		variant  string
		out      string
		jsonOut  bool
		quiet    bool
		rowGroup int64
		sources  []string
		fen      string
		moves    string
	)
	cmd := &cobra.Command{
		Use:   "export --what games|positions|evaluations|openings|rejected --format csv|jsonl|parquet|pdn --out FILE|- [filters]",
		Short: "Export games, positions, evaluations or rejected games as CSV, JSON lines, Parquet or PDN",
		Long: `Stream rows from the database to a file (or - for standard output) in constant
memory, from one consistent snapshot. A file name ending in .gz is written
gzip-compressed; --format defaults to the file's extension (.csv, .jsonl,
.parquet, .pdn, before any .gz), and to csv for a name without one (or -);
another extension is an error unless --format is given.

  games        one row per stored game: tags, result, ply count, moves
  positions    one row per (game, ply), from replaying the games, with the
               game's result from the side to move's view and the position's
               evaluation (the deepest, then latest); --distinct: one row per
               distinct position with the results of the games reaching it
  evaluations  table evaluations
  rejected     rejected games with the reason (pdn: their bytes as read)
  openings     the opening statistics: one row per (position, move) with the
               games and results, walking the tree from each variant's
               initial position through moves played at least --min-games
               times, to --max-ply plies

--format pdn (games) writes normalised PDN with every evaluation of every
position as a {[%eval 0.25][%depth 12][%engine ...]...} comment; importing
the file gives the same games and evaluations back. The columns of every
export are listed in README.md (section Export).

Filters select games (--what games and positions; --what evaluations takes
--variant, --engine and --setting only): --event and --player are
case-insensitive SQL LIKE patterns and may be repeated (any matches);
--from and --to bound the date, inclusive, as YYYY, YYYY.MM or YYYY.MM.DD.
--min-rating N keeps the games in which both players are rated N or more
(WhiteRating or WhiteElo, BlackRating or BlackElo; unrated: left out).
--source selects the sources (archive, the default: imported files; match:
engine matches; all; or source ids and names). --fen and/or --moves keep
the games that reach that position by any move order (--moves from --fen,
else from the initial position; PDN move text with numbers is read): of
--variant, else of every variant in which the position and moves are
legal.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Format == "" {
				f, err := formatFromName(out)
				if err != nil {
					return err
				}
				o.Format = f
			}
			if variant != "" {
				v, err := flagVariant("--variant", variant)
				if err != nil {
					return err
				}
				o.Filter.Variant = v
			}
			if fen != "" || moves != "" {
				at, err := exportPositions(o.Filter.Variant, fen, moves)
				if err != nil {
					return err
				}
				o.Filter.Positions = at
			}
			o.Workers = a.cfg.Workers
			o.RowGroupRows = rowGroup
			if out == "" {
				return fmt.Errorf("--out FILE (or - for standard output) is required")
			}
			if out == "-" && o.Format == export.Parquet && term.IsTerminal(int(os.Stdout.Fd())) {
				return fmt.Errorf("Parquet is binary: give --out FILE or redirect standard output")
			}
			pool, err := openDatabase(cmd.Context(), a.cfg)
			if err != nil {
				return err
			}
			defer pool.Close()
			if o.Filter.Sources, err = sourceSelection(cmd.Context(), pool, sources); err != nil {
				return err
			}

			bar := newProgress(quiet, "exporting "+o.What+" ("+o.Format+")", "rows", 0)
			if bar != nil {
				o.Total = bar.setTotal
				o.Progress = bar.set
			}
			dst, err := export.Create(out, cmd.OutOrStdout())
			if err != nil {
				return err
			}
			sum, err := export.Run(cmd.Context(), pool, dst, o)
			bar.finish()
			if err != nil {
				dst.Abort()
				kept := "a file --out names is left as it was; a device or pipe has the rows written before"
				if out == "-" {
					kept = "standard output has the rows written before"
				}
				return interrupted(cmd.Context(), err, "export", kept)
			}
			if err := dst.Close(); err != nil {
				return err
			}
			errOut := cmd.ErrOrStderr()
			switch {
			case jsonOut:
				return json.NewEncoder(errOut).Encode(sum)
			case !quiet:
				unit := "rows"
				if o.Format == export.PDN {
					unit = "games"
				}
				fmt.Fprintf(errOut, "exported %d %s (%s, %s) to %s in %.2f s, %.0f %s/s\n",
					sum.Rows, unit, o.What, o.Format, out, sum.Seconds, sum.RowsPerSecond, unit)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.What, "what", "games", "what to export: "+strings.Join(export.Whats, ", "))
	f.StringVar(&o.Format, "format", "", "output format: "+strings.Join(export.Formats, ", ")+"; empty: from the --out extension, else csv")
	f.StringVar(&out, "out", "", "output file (.gz: gzip-compressed), written under a temporary name next to it and renamed when complete (a failed or interrupted export leaves what was there); a device or pipe is written in place; - for standard output")
	f.StringVar(&variant, "variant", "", "only this variant ("+variantList()+")")
	f.StringArrayVar(&o.Filter.Events, "event", nil, "only games whose Event matches this case-insensitive LIKE pattern (% any run, _ one character); repeat for several")
	f.StringArrayVar(&o.Filter.Players, "player", nil, "only games with a White or Black player matching this case-insensitive LIKE pattern; repeat for several")
	f.StringVar(&o.Filter.From, "from", "", "only games dated on or after this date: YYYY, YYYY.MM or YYYY.MM.DD (games of unknown year are left out)")
	f.StringVar(&o.Filter.To, "to", "", "only games dated on or before this date, at the precision given (--to 1995 includes 1995.12.31)")
	f.IntVar(&o.Filter.MinPly, "min-ply", 0, "only games of at least this many plies")
	f.IntVar(&o.Filter.MinRating, "min-rating", 0, "only games in which both players are rated N or more (WhiteRating/WhiteElo and BlackRating/BlackElo tags; a game with an unrated player is left out); 0 = no bound")
	f.StringArrayVar(&sources, "source", nil, "only games of these sources: archive (imported files, the default), match (engine matches), all, or source ids or names; repeat or separate with commas for several")
	f.StringVar(&fen, "fen", "", "only games that reach this position (PDN FEN, e.g. W:W31-50:B1-20), by any move order; with --moves, the position after them")
	f.StringVar(&moves, "moves", "", `only games that reach the position after these moves (from --fen, else the initial position), by any move order: "32-28 19-23", "1. 32-28 19-23"`)
	f.BoolVar(&o.Distinct, "distinct", false, "positions: one row per distinct position with the results of the games reaching it, instead of one per (game, ply)")
	f.StringVar(&o.Engine, "engine", "", "only evaluations of this engine (positions, evaluations, pdn)")
	f.StringVar(&o.Setting, "setting", "", "only evaluations with this engine setting, e.g. depth=8 (positions, evaluations, pdn)")
	f.Int64Var(&o.MinGames, "min-games", 0, "openings: follow and export only moves played at least this often (0 or 1: every move; raise it on large collections, where the walk visits every position of every game's first plies)")
	f.IntVar(&o.MaxPly, "max-ply", 0, "openings: stop this many plies from the initial position (0: as deep as the statistics go, import.opening_depth)")
	f.Int64Var(&rowGroup, "row-group-rows", export.DefaultRowGroupRows, "Parquet: rows per row group")
	// The setting's own help speaks of reading PDN and of import; here the
	// workers decode the stored games.
	f.Int("workers", 0, "parallel workers decoding the stored games into rows (games, positions, pdn); 0 = number of CPUs; at most 1024 (setting workers)")
	f.BoolVar(&jsonOut, "json", false, "print the summary as one JSON object on standard error")
	f.BoolVar(&quiet, "quiet", false, "no progress bar and no summary")
	bindFlag(f, "workers", "workers")
	return cmd
}

// formatFromName is the format a file name's extension (before any .gz)
// names: csv for a name without one (or -), an error for one it does not
// know, so that --out x.xlsx is not written as CSV.
func formatFromName(name string) (string, error) {
	ext := strings.ToLower(filepath.Ext(strings.TrimSuffix(name, ".gz")))
	switch ext {
	case "":
		return export.CSV, nil
	case ".csv":
		return export.CSV, nil
	case ".jsonl", ".ndjson":
		return export.JSONL, nil
	case ".parquet":
		return export.Parquet, nil
	case ".pdn":
		return export.PDN, nil
	}
	return "", fmt.Errorf("--out %s: the extension %s names no export format (.csv, .jsonl, .ndjson, .parquet, .pdn, each with .gz or not); give --format %s to write it anyway",
		name, ext, strings.Join(export.Formats, "|"))
}

// exportPositions is the position of --fen and --moves in v, or, when v is
// nil, in every variant that takes them (the same text can be a position
// of several variants, and each has its own hashes).
func exportPositions(v *rules.Variant, fen, moves string) ([]export.At, error) {
	if v != nil {
		line, err := playMoves(v, fen, moves)
		if err != nil {
			return nil, err
		}
		return []export.At{{Variant: v, Hash: line.Final.Hash()}}, nil
	}
	var at []export.At
	var firstErr error
	for _, v := range rules.Variants() {
		line, err := playMoves(v, fen, moves)
		if err != nil {
			if firstErr == nil || v == rules.International {
				firstErr = err
			}
			continue
		}
		at = append(at, export.At{Variant: v, Hash: line.Final.Hash()})
	}
	if len(at) == 0 {
		return nil, fmt.Errorf("no variant takes this position (give --variant for its own reason): %w", firstErr)
	}
	return at, nil
}
