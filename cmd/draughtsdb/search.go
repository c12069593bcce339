package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/queries/patternsearch"
	"github.com/draughtsdb/draughtsdb/replay/pattern"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/spf13/cobra"
)

func newSearchCommand(a *app) *cobra.Command {
	var (
		variant, pat, empty, side, material, plies, move string
		ors, excludes                                    []string
		reversed, jsonOut, rebuild, all, quiet           bool
		limit, workers                                   int
	)
	cmd := &cobra.Command{
		Use:   "search --variant V --pattern PARTIAL [--empty SQUARES] [--or PARTIAL]... [--exclude PARTIAL]... [--side-to-move white|black] [--colour-reversed] [--material SPEC] [--plies A-B] [--move SPEC] [--limit N] [--json]",
		Short: "Find the games that reach a partial position, a material balance or play a manoeuvre",
		Long: `Find every stored game of a variant with a position that matches: pieces
on given squares (the other squares may hold anything), empty squares, the
side to move, the material, a ply range, or a move played (a manoeuvre).
Each game is reported once, at the first position that matches.

--pattern (and --or, --exclude) is a partial position written as a FEN of
the variant's board: W:W28,32,K46:B19,23 (K marks a king; ranges A-B;
numeric or algebraic squares; a leading W: or B: requires that side to
move; a field E24,25 lists squares that must be empty). A position matches
when it matches --pattern or any --or, and none of --exclude.

--colour-reversed also finds the whole query with the colours swapped and
the board turned (White's men on 31-35 then also find Black's men on 16-20).

--material bounds each side's pieces: wm, wk, bm, bk (White's men, White's
kings, Black's men, Black's kings), w and b (all of a side's pieces), each
=N, =A-B, =A- or =-B, separated by commas: "wm=10-12,wk=0,bk=1-".

--move is a manoeuvre: "white king *x46" (a white king capturing, ending on
46), "black 19-24", "man 28x*", "x" (any capture); * is any square. A match
is then the position the move is played from, which must pass the other
conditions too ("black 19-24" with --pattern W:W23 is Black playing 19-24
while 23 is White's).

--plies A-B limits the positions tested (ply 0 is the start position).

The search reads the pattern index (pattern_index, written by the import)
and replays every game of the variant: about a second per 1,000,000 games on
two cores, the same for any query. Sources imported before draughtsdb kept
the index are left out (the command says so): --rebuild-index adds them.

--json prints one object: games (distinct games found), positions (matching
positions, each game and ply once), games_scanned, games_unindexed, and
matches (the first --limit games by id: game_id, ply, positions, reversed,
fen, move, white, black, result, date, event).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			if rebuild {
				pool, err := openDatabase(cmd.Context(), a.cfg)
				if err != nil {
					return err
				}
				defer pool.Close()
				bar := newProgress(quiet || jsonOut, "building the pattern index", "games", 0)
				opts := ingest.PatternRebuildOptions{All: all}
				if bar != nil {
					opts.Progress = func(done, total int) {
						bar.setTotal(int64(total))
						bar.set(int64(done))
					}
				}
				sum, err := ingest.RebuildPatternIndex(cmd.Context(), pool, opts)
				bar.finish()
				if err != nil {
					kept := "the sources indexed so far are kept: run the same command again to finish"
					if sum != nil {
						kept = fmt.Sprintf("the %d source(s) indexed before, %d games, are kept (the one under way is not): run the same command again to finish", sum.Sources, sum.Games)
					}
					return interrupted(cmd.Context(), err, "search --rebuild-index", kept)
				}
				if jsonOut {
					return json.NewEncoder(out).Encode(sum)
				}
				fmt.Fprintf(out, "built the pattern index of %d source(s), %d games\n", sum.Sources, sum.Games)
				if sum.Undecodable > 0 {
					fmt.Fprintf(out, "%d game(s) whose stored moves do not replay are not indexed\n", sum.Undecodable)
				}
				return nil
			}
			if variant == "" {
				variant = a.cfg.Variant
			}
			if variant == "" {
				variant = rules.Default.Name
			}
			v, err := flagVariant("--variant", variant)
			if err != nil {
				return err
			}
			if limit < 0 {
				return fmt.Errorf("--limit %d: want 0 or more", limit)
			}
			q := pattern.Query{MinPly: -1, MaxPly: -1, Reversed: reversed}
			if pat == "" && len(ors) > 0 {
				return fmt.Errorf("--or %q: needs --pattern", ors[0])
			}
			addPattern := func(flag, s string, to *[]pattern.Pattern) error {
				p, err := pattern.Parse(v, s)
				if err != nil {
					return fmt.Errorf("%s: %w", flag, err)
				}
				*to = append(*to, p)
				return nil
			}
			if pat != "" {
				if err := addPattern("--pattern", pat, &q.Patterns); err != nil {
					return err
				}
			}
			for _, s := range ors {
				if err := addPattern("--or", s, &q.Patterns); err != nil {
					return err
				}
			}
			for _, s := range excludes {
				if err := addPattern("--exclude", s, &q.Exclude); err != nil {
					return err
				}
			}
			if empty != "" {
				e, err := pattern.ParseSquares(v, empty)
				if err != nil {
					return fmt.Errorf("--empty %q: %w", empty, err)
				}
				if len(q.Patterns) == 0 {
					q.Patterns = []pattern.Pattern{{}}
				}
				for i := range q.Patterns {
					q.Patterns[i].Empty[0] |= e[0]
					q.Patterns[i].Empty[1] |= e[1]
				}
			}
			if q.Side, err = pattern.ParseSide(side); err != nil {
				return fmt.Errorf("--side-to-move: %w", err)
			}
			if material != "" {
				if q.Material, err = pattern.ParseMaterial(material); err != nil {
					return fmt.Errorf("--material: %w", err)
				}
			}
			if plies != "" {
				if q.MinPly, q.MaxPly, err = pattern.ParsePlies(plies); err != nil {
					return fmt.Errorf("--plies: %w", err)
				}
			}
			if move != "" {
				if q.Move, err = pattern.ParseMove(v, move); err != nil {
					return fmt.Errorf("--move: %w", err)
				}
			}
			if len(q.Patterns) == 0 && len(q.Exclude) == 0 && q.Material == nil && q.Move == nil && plies == "" && q.Side == pattern.Either {
				return fmt.Errorf("nothing to search for: give --pattern, --empty, --exclude, --material, --move, --plies or --side-to-move")
			}
			if _, err := q.Compile(v); err != nil {
				return fmt.Errorf("--variant %s: %w", v.Name, err)
			}
			pool, err := openDatabase(cmd.Context(), a.cfg)
			if err != nil {
				return err
			}
			defer pool.Close()
			// The search is one query (up to seconds on a large
			// database): a spinner says it is under way.
			bar := newProgress(quiet || jsonOut, "searching", "games", 0)
			res, err := patternsearch.Search(cmd.Context(), pool, patternsearch.Options{Variant: v, Query: q, Limit: limit, Workers: workers})
			bar.finish()
			if err != nil {
				return interrupted(cmd.Context(), err, "search", "")
			}
			if res.Unindexed > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "draughtsdb: note: %d game(s) of sources imported before draughtsdb kept the pattern index are not searched; draughtsdb search --rebuild-index adds them\n", res.Unindexed)
			}
			if jsonOut {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(res)
			}
			fmt.Fprintf(out, "%s: %d games, %d positions (of %d games searched)\n", v.Name, res.Games, res.Positions, res.Scanned)
			if len(res.Matches) == 0 {
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "game\tply\tmatches\twhite\tblack\tresult\tdate\tevent\tposition")
			for _, m := range res.Matches {
				pos := m.FEN
				if m.Move != "" {
					pos = m.Move + " from " + pos
				}
				if m.Reversed {
					pos += " (colour-reversed)"
				}
				fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", m.GameID, m.Ply, m.Positions, m.White, m.Black, m.Result, m.Date, m.Event, pos)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			if res.Games > len(res.Matches) {
				fmt.Fprintf(out, "(%d more games; --limit shows more)\n", res.Games-len(res.Matches))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&variant, "variant", "", "variant of the games ("+variantList()+"); default: the configured variant, else "+rules.Default.Name)
	f.StringVar(&pat, "pattern", "", "partial position: W:W28,32,K46:B19,23 (pieces that must stand there; other squares free)")
	f.StringVar(&empty, "empty", "", "squares that must be empty, e.g. 23,24,28")
	f.StringArrayVar(&ors, "or", nil, "another partial position that matches as well (repeatable)")
	f.StringArrayVar(&excludes, "exclude", nil, "a partial position that must not match (repeatable)")
	f.StringVar(&side, "side-to-move", "", "white or black: only positions with that side to move")
	f.BoolVar(&reversed, "colour-reversed", false, "also find the query with colours swapped and the board turned")
	f.StringVar(&material, "material", "", `bounds on the pieces: "wm=10-12,wk=0,bm=10-,bk=0" (wm wk bm bk w b)`)
	f.StringVar(&plies, "plies", "", "only positions at these plies: A-B, A-, -B or N (0 is the start position)")
	f.StringVar(&move, "move", "", `a manoeuvre: "white king *x46", "black 19-24", "x" (see above)`)
	f.IntVar(&limit, "limit", 20, "list at most N games (the counts cover all)")
	f.IntVar(&workers, "workers", 2, "database connections reading and replaying games of the pattern index at once")
	f.BoolVar(&jsonOut, "json", false, "print one JSON object {games, positions, games_scanned, games_unindexed, matches}")
	f.BoolVar(&rebuild, "rebuild-index", false, "build the pattern index of the sources that have none (imported before it existed), then exit")
	f.BoolVar(&all, "all", false, "with --rebuild-index: rebuild every source's index")
	f.BoolVar(&quiet, "quiet", false, "no progress bar (the index's, or the spinner while searching)")
	return cmd
}
