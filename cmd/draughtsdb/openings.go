package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/queries"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/spf13/cobra"
)

func newOpeningsCommand(a *app) *cobra.Command {
	var (
		variant, moves, fen, format string
		limit, minRating            int
		sources                     []string
	)
	cmd := &cobra.Command{
		Use:   "openings [--variant V] [--moves \"32-28 ...\"] [--fen FEN] [--source archive|match|all|ID...] [--min-rating N] [--limit N] [--format table|csv|json]",
		Short: "Print the opening tree at a position: each next move with its games and results",
		Long: `Print the opening tree of the imported games at a position: every move
played there, with its games, White's wins, draws, Black's wins, the games
without a result (unfinished: '*' or a double forfeit) and White's score
(percent of the points in the games with a result).

The games counted are those of the archive sources (imported files) unless
--source says otherwise: match (the games of engine matches), all, or
source ids and names (draughtsdb sources lists them); repeat it or separate
with commas for several.

--min-rating N counts only the games in which both players are rated N or
more (their WhiteRating or WhiteElo and BlackRating or BlackElo tags; a game
with an unrated player is left out). The statistics do not know ratings, so
such a tree is counted from the games that reach the position instead: it
takes as long as reading them, and counts a game at whatever ply it reaches
the position, not only in the first import.opening_depth plies.

The tree is position-based (Zobrist hashes): games that reached the position
by another move order count too, and each game counts once. It comes from the
opening statistics the import keeps for the first import.opening_depth plies
(40 by default), so it is instant on any number of games and never scans
them. Where a move reaches a named opening (the Russian, Brazilian and
English ballot lists) the name is shown; where the position after a move has
engine evaluations (draughtsdb analyze), their mean is shown in men from
White's view.

The position is the variant's initial position, or --fen, then --moves in
either notation ("32-28 19-23" or "c3-d4 f6-g5").

--format json prints an array with one object per move: move (the variant's
notation), algebraic, games, white_wins, draws, black_wins, unfinished,
score (null when no game has a result), and name, eval and eval_count when
present.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if variant == "" {
				variant = a.cfg.Variant
			}
			if variant == "" {
				variant = "russian"
			}
			v, err := flagVariant("--variant", variant) // the setting is checked already
			if err != nil {
				return err
			}
			// A negative limit was taken for 0 (all), which the help does
			// not say.
			if limit < 0 {
				return fmt.Errorf("--limit %d: want 0 (all moves) or more", limit)
			}
			filter := openings.Filter{MinRating: minRating}
			if err := filter.Check(); err != nil {
				return fmt.Errorf("--min-rating %d: want 0 (no bound) or more", minRating)
			}
			switch format {
			case "table", "csv", "json":
			default:
				return fmt.Errorf("--format must be table, csv or json, not %q", format)
			}
			line, err := playMoves(v, fen, moves)
			if err != nil {
				return err
			}
			pool, err := openDatabase(cmd.Context(), a.cfg)
			if err != nil {
				return err
			}
			defer pool.Close()
			sel, err := sourceSelection(cmd.Context(), pool, sources)
			if err != nil {
				return err
			}
			node, err := openings.FilteredTreeFrom(cmd.Context(), pool, &line.Final, sel, filter)
			if err != nil {
				return err
			}
			// A filtered tree is counted from the games, so what the
			// statistics lack does not concern it.
			if filter.IsZero() {
				cov, err := openings.ReadCoverage(cmd.Context(), pool, v)
				if err != nil {
					return err
				}
				if cov.Uncounted > 0 {
					fmt.Fprintf(cmd.ErrOrStderr(), "draughtsdb: note: %d source(s) were imported before draughtsdb kept opening statistics and are not in this tree; draughtsdb db rebuild-openings counts them\n", cov.Uncounted)
				}
				if cov.Depth > 0 && len(line.Moves) >= cov.Depth && fen == "" {
					fmt.Fprintf(cmd.ErrOrStderr(), "draughtsdb: note: the opening statistics count the first %d plies of each game; this position is at ply %d\n", cov.Depth, len(line.Moves))
				}
			}
			if limit > 0 && len(node.Branch) > limit {
				node.Branch = node.Branch[:limit]
			}
			out := cmd.OutOrStdout()
			switch format {
			case "json":
				return writeTreeJSON(out, node)
			case "csv":
				return treeResult(node).WriteCSV(out)
			}
			title := v.Name + ", initial position"
			switch {
			case moves != "" && fen == "":
				title = fmt.Sprintf("%s, after %s (%s)", v.Name, movesText(line), node.FEN)
			case fen != "":
				title = v.Name + ", " + node.FEN
			}
			if node.Name != "" {
				title += " (" + node.Name + ")"
			}
			rated := ""
			if minRating > 0 {
				rated = fmt.Sprintf(" with both players rated %d or more", minRating)
			}
			fmt.Fprintf(out, "%s: %d games of %s sources%s played a move here, %d of them unfinished (no result)\n",
				title, node.Games, sourcesLabel(sel), rated, node.Unfinished)
			if len(node.Branch) == 0 {
				fmt.Fprintln(out, "no game of these sources played a move from this position")
				return nil
			}
			if err := treeResult(node).WriteTable(out); err != nil {
				return err
			}
			fmt.Fprintln(out, "games: games that played the move here; white_wins, draws, black_wins, unfinished: their results; score: White's points in percent of the finished games")
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&variant, "variant", "", "variant of the games ("+variantList()+"); default: the configured variant, else russian")
	f.StringVar(&moves, "moves", "", `moves from the start position (or --fen), either notation, as PDN move text too: "32-28 19-23", "1. 32-28 19-23 2. 28x19"`)
	f.StringVar(&fen, "fen", "", "start from this position (PDN FEN, e.g. W:W31-50:B1-20) instead of the initial one")
	f.StringArrayVar(&sources, "source", nil, "count the games of these sources: archive (imported files, the default), match (engine matches), all, or source ids or names; repeat or separate with commas for several")
	f.IntVar(&minRating, "min-rating", 0, "count only games in which both players are rated N or more (WhiteRating/WhiteElo, BlackRating/BlackElo tags; unrated players are left out); counted from the games, not the statistics; 0 = no bound")
	f.IntVar(&limit, "limit", 0, "show at most N moves, most played first; 0 = all")
	f.StringVar(&format, "format", "table", "output: table, csv or json (an array of objects, one per move)")
	return cmd
}

func writeTreeJSON(w io.Writer, node *openings.Node) error {
	out := node.JSONMoves()
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// treeResult lays the tree out as query rows for the table and CSV writers.
func treeResult(node *openings.Node) *queries.Result {
	r := &queries.Result{Columns: []string{"move", "algebraic", "games", "white_wins", "draws", "black_wins", "unfinished", "score", "eval", "name"}}
	for _, b := range node.Branch {
		score, eval := "", ""
		if !math.IsNaN(b.Score) {
			score = strconv.FormatFloat(b.Score, 'f', 1, 64)
		}
		if b.Eval != nil {
			eval = strconv.FormatFloat(*b.Eval, 'f', 2, 64)
		}
		n := func(v int64) string { return strconv.FormatInt(v, 10) }
		r.Rows = append(r.Rows, []string{b.Text, b.Algebraic, n(b.Games), n(b.WhiteWins),
			n(b.Draws), n(b.BlackWins), n(b.Unfinished), score, eval, b.Name})
		r.Null = append(r.Null, make([]bool, len(r.Columns)))
	}
	return r
}

// moveTokens reads --moves text as a PDN file's move text: move numbers
// ("1.", "1..."), a result or "*", comments, marks and variations are
// skipped, commas separate like spaces. The moves of the main line are
// returned as written.
func moveTokens(text string) ([]string, error) {
	text = strings.ReplaceAll(text, ",", " ")
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	g, err := pdn.NewReader(strings.NewReader(text), "--moves").Next()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(g.Moves))
	for _, m := range g.Moves {
		if m.Text != "" {
			out = append(out, m.Text)
		}
	}
	return out, nil
}

// playMoves is the position of --fen (or the variant's initial position)
// after the --moves text, with an error that names the flags.
func playMoves(v *rules.Variant, fen, moves string) (*replay.Game, error) {
	toks, err := moveTokens(moves)
	if err != nil {
		return nil, fmt.Errorf("--moves %q: %w", moves, err)
	}
	line, err := replay.PlayLine(v, fen, toks)
	if err != nil {
		if fen != "" {
			return nil, fmt.Errorf("--fen %q --moves %q: %w", fen, moves, err)
		}
		return nil, fmt.Errorf("--moves %q: %w", moves, err)
	}
	return line, nil
}

// movesText writes a line's moves in its variant's notation.
func movesText(line *replay.Game) string {
	v := line.Final.Variant()
	text := make([]string, len(line.Moves))
	for i := range line.Moves {
		text[i] = rules.FormatMove(&line.Moves[i], v.DefaultNotation, false)
	}
	return strings.Join(text, " ")
}

// sourceSelection joins --source values into one selection (archive when
// none is given) and checks that every part names a source.
func sourceSelection(ctx context.Context, q schema.Querier, values []string) (string, error) {
	sel := strings.Join(values, ",")
	if sel == "" {
		sel = schema.DefaultSources
	}
	if _, err := schema.ResolveSources(ctx, q, sel); err != nil {
		return "", fmt.Errorf("--source %s: %w", sel, err)
	}
	return sel, nil
}

// sourcesLabel names a selection in a heading: "archive", "match", "all",
// or the list given.
func sourcesLabel(sel string) string {
	switch sel {
	case schema.KindArchive, schema.KindMatch, "all":
		return sel
	}
	return "the selected (" + sel + ")"
}
