package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/draughtsdb/draughtsdb/queries/players"
	"github.com/spf13/cobra"
)

func newPlayersCommand(a *app) *cobra.Command {
	var (
		search string
		asJSON bool
		limit  int
	)
	cmd := &cobra.Command{
		Use:   "players [--search TEXT] [--limit N] [--json] | players show NAME | players alias NAME OTHER | players split NAME | players unlink NAME",
		Short: "List the players, one per person whatever the spelling, with their records",
		Long: `List the players of the imported games, one per person: the spellings
of a name ("Sijbrands,T.", "T. Sijbrands", "Ton Sijbrands") are one player
when their surname and initials agree (case, diacritics and spacing do not
count). A shorter form of the initials ("Heffner, A.") joins a longer one
("Heffner, A.J.") only when no other longer form with that surname is in the
database; otherwise it stays apart and the list shows the candidates.

Each player has their games, wins, draws, losses and score (percent of the
points in finished games; a game against oneself gives half its points and
is neither a win nor a loss), the first and last year played, and the
rating of their latest rated game (by game date, then the order of import),
from the WhiteRating or WhiteElo tags and their Black twins.

  players show NAME          the record by colour and by year, opponents, openings,
                             the rating over time
  players alias NAME OTHER   NAME is OTHER's player (kept by name: survives re-import)
  players split NAME         NAME is a player of its own
  players unlink NAME        forget an alias or split of NAME

--json prints an array of objects with the keys id (the smallest players id
of the spellings), name (the most used spelling), aliases (the others),
games, wins, draws, losses, score (null without a finished game), first,
last (years, null when unknown) and rating (the latest rated game's rating,
null when no game gives the player one), plus why (how the spellings were joined) and candidates.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if limit < 0 {
				return fmt.Errorf("--limit %d: want 0 (all) or more", limit)
			}
			pool, err := openDatabase(cmd.Context(), a.cfg)
			if err != nil {
				return err
			}
			defer pool.Close()
			entries, err := players.List(cmd.Context(), pool, search)
			if err != nil {
				return err
			}
			if limit > 0 && len(entries) > limit {
				entries = entries[:limit]
			}
			if asJSON {
				return writePlayersJSON(cmd.OutOrStdout(), entries)
			}
			return writePlayersTable(cmd.OutOrStdout(), entries)
		},
	}
	f := cmd.Flags()
	f.StringVar(&search, "search", "", "only the players one of whose spellings contains TEXT (case and diacritics folded)")
	f.BoolVar(&asJSON, "json", false, "print a JSON array (keys: id, name, aliases, games, wins, draws, losses, score, first, last, rating, why, candidates)")
	f.IntVar(&limit, "limit", 0, "print at most N players, most games first (0: all)")

	cmd.AddCommand(newPlayersShowCommand(a), newPlayersLinkCommand(a, "alias"), newPlayersLinkCommand(a, "split"), newPlayersLinkCommand(a, "unlink"))
	return cmd
}

type playerJSON struct {
	ID         int32    `json:"id"`
	Name       string   `json:"name"`
	Aliases    []string `json:"aliases"`
	Games      int      `json:"games"`
	Wins       int      `json:"wins"`
	Draws      int      `json:"draws"`
	Losses     int      `json:"losses"`
	Score      *float64 `json:"score"`
	First      *string  `json:"first"`
	Last       *string  `json:"last"`
	Rating     *int     `json:"rating"`
	Why        []string `json:"why"`
	Candidates []string `json:"candidates"`
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func writePlayersJSON(w io.Writer, entries []players.Entry) error {
	out := make([]playerJSON, 0, len(entries))
	for _, e := range entries {
		ids := e.IDs()
		sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
		aliases := []string{}
		for _, s := range e.Spellings[1:] {
			aliases = append(aliases, s.Name)
		}
		out = append(out, playerJSON{
			ID: ids[0], Name: e.Name(), Aliases: aliases,
			Games: e.Games, Wins: e.Wins, Draws: e.Draws, Losses: e.Losses, Score: e.Percent(),
			First: optString(e.First), Last: optString(e.Last), Rating: e.Rating,
			Why: nonNil(e.Why), Candidates: nonNil(e.Candidates),
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func writePlayersTable(w io.Writer, entries []players.Entry) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "games\twins\tdraws\tlosses\tscore\tyears\t  player (other spellings) [possibly also]")
	for _, e := range entries {
		years := e.First
		if e.Last != e.First {
			years += "-" + e.Last
		}
		if years == "" {
			years = "?"
		}
		name := e.Name()
		if len(e.Spellings) > 1 {
			var o []string
			for _, s := range e.Spellings[1:] {
				o = append(o, s.Name)
			}
			name += " (" + strings.Join(o, "; ") + ")"
		}
		if len(e.Candidates) > 0 {
			name += " [possibly also: " + strings.Join(e.Candidates, "; ") + "]"
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%s\t%s\t  %s\n", e.Games, e.Wins, e.Draws, e.Losses, scoreText(e.Record), years, name)
	}
	return tw.Flush()
}

func scoreText(r players.Record) string {
	if s := r.Score(); s >= 0 {
		return fmt.Sprintf("%.1f%%", s)
	}
	return "-"
}

func newPlayersShowCommand(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "A player's record by colour and by year, opponents and openings",
		Long: `Show one player (NAME is any of their spellings, or a name with the same
surname and initials): the spellings joined and why, the record in all, as
White, as Black and by year, each opponent's games and score, and the
openings (the first two plies) played by colour, and the rating over time:
per year, the rated games, the lowest, highest and last rating (a year
rather than every game: online players have a rating in each of thousands
of games, over-the-board ones a few a year, and the range and the last
value show both), then the latest. An unknown name is an error that names
the closest players.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pool, err := openDatabase(cmd.Context(), a.cfg)
			if err != nil {
				return err
			}
			defer pool.Close()
			ps, err := players.Load(cmd.Context(), pool)
			if err != nil {
				return err
			}
			p, err := players.Find(ps, args[0])
			if err != nil {
				return err
			}
			d, err := players.Show(cmd.Context(), pool, p, ps)
			if err != nil {
				return err
			}
			if asJSON {
				return writeDetailJSON(cmd.OutOrStdout(), d)
			}
			return writeDetail(cmd.OutOrStdout(), d)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON object (name, aliases, why, candidates, all, white, black, years, opponents, openings: each record with games, wins, draws, losses, score; rating: the latest, null for none; rating_date: its game's date; ratings: per year, with year, games, min, max, last)")
	return cmd
}

type recordJSON struct {
	Key    string   `json:"key,omitempty"`
	Games  int      `json:"games"`
	Wins   int      `json:"wins"`
	Draws  int      `json:"draws"`
	Losses int      `json:"losses"`
	Score  *float64 `json:"score"`
}

func recJSON(k string, r players.Record) recordJSON {
	return recordJSON{k, r.Games, r.Wins, r.Draws, r.Losses, r.Percent()}
}

// sortedRecords lists m by games, most first, then key.
func sortedRecords(m map[string]*players.Record, byKey bool) []recordJSON {
	var out []recordJSON
	for k, r := range m {
		out = append(out, recJSON(k, *r))
	}
	sort.Slice(out, func(a, b int) bool {
		if !byKey && out[a].Games != out[b].Games {
			return out[a].Games > out[b].Games
		}
		return out[a].Key < out[b].Key
	})
	return out
}

func writeDetailJSON(w io.Writer, d *players.Detail) error {
	var aliases []string
	for _, s := range d.Player.Spellings[1:] {
		aliases = append(aliases, s.Name)
	}
	out := map[string]any{
		"name": d.Player.Name(), "aliases": nonNil(aliases), "why": nonNil(d.Player.Why), "candidates": nonNil(d.Player.Candidates),
		"all": recJSON("", d.All), "white": recJSON("", d.AsWhite), "black": recJSON("", d.AsBlack),
		"years": sortedRecords(d.ByYear, true), "opponents": sortedRecords(d.Opponent, false), "openings": sortedRecords(d.Openings, false),
		"first": optString(d.First), "last": optString(d.Last),
		"rating": nil, "rating_date": nil, "ratings": ratingYearsJSON(players.RatingYears(d.Ratings)),
	}
	if l := players.Latest(d.Ratings); l != nil {
		out["rating"], out["rating_date"] = l.Rating, l.Date
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

type ratingYearJSON struct {
	Year  string `json:"year"`
	Games int    `json:"games"`
	Min   int    `json:"min"`
	Max   int    `json:"max"`
	Last  int    `json:"last"`
}

func ratingYearsJSON(ys []players.RatingYear) []ratingYearJSON {
	out := []ratingYearJSON{}
	for _, y := range ys {
		out = append(out, ratingYearJSON{y.Year, y.Games, y.Min, y.Max, y.Last})
	}
	return out
}

// writeRatings is the rating over time of writeDetail.
func writeRatings(w io.Writer, d *players.Detail) error {
	l := players.Latest(d.Ratings)
	if l == nil {
		_, err := fmt.Fprintln(w, "\nrating over time: no game gives a rating (WhiteRating/WhiteElo, BlackRating/BlackElo tags)")
		return err
	}
	fmt.Fprintf(w, "\nrating over time: %d rated games; latest %d (game of %s)\n", len(d.Ratings), l.Rating, l.Date)
	ys := players.RatingYears(d.Ratings)
	if len(ys) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "  year\trated games\tmin\tmax\tlast\t")
	for _, y := range ys {
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%d\t%d\t\n", y.Year, y.Games, y.Min, y.Max, y.Last)
	}
	return tw.Flush()
}

func writeDetail(w io.Writer, d *players.Detail) error {
	fmt.Fprintf(w, "%s\n", d.Player.Name())
	for _, s := range d.Player.Spellings[1:] {
		fmt.Fprintf(w, "  also written %q (%d games)\n", s.Name, s.Games)
	}
	for _, why := range d.Player.Why {
		fmt.Fprintf(w, "  joined: %s\n", why)
	}
	if len(d.Player.Candidates) > 0 {
		fmt.Fprintf(w, "  possibly also (not joined, ambiguous): %s\n", strings.Join(d.Player.Candidates, "; "))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	row := func(label string, r players.Record) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t\n", label, r.Games, r.Wins, r.Draws, r.Losses, scoreText(r))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(tw, "record\tgames\twins\tdraws\tlosses\tscore\t")
	row("all games", d.All)
	row("as white", d.AsWhite)
	row("as black", d.AsBlack)
	for _, y := range sortedRecords(d.ByYear, true) {
		fmt.Fprintf(tw, "in %s\t%d\t%d\t%d\t%d\t%s\t\n", y.Key, y.Games, y.Wins, y.Draws, y.Losses, scoreJSONText(y.Score))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, part := range []struct {
		title string
		m     map[string]*players.Record
	}{{"opponents", d.Opponent}, {"openings (first two plies)", d.Openings}} {
		fmt.Fprintf(w, "\n%s: games, wins, draws, losses, the player's score\n", part.title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for i, r := range sortedRecords(part.m, false) {
			if i == 20 {
				fmt.Fprintf(tw, "  ... %d more\n", len(part.m)-20)
				break
			}
			fmt.Fprintf(tw, "  %s\t%d\t%d\t%d\t%d\t%s\n", r.Key, r.Games, r.Wins, r.Draws, r.Losses, scoreJSONText(r.Score))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return writeRatings(w, d)
}

func scoreJSONText(s *float64) string {
	if s == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", *s)
}

func newPlayersLinkCommand(a *app, verb string) *cobra.Command {
	use, short, nargs := "", "", 1
	switch verb {
	case "alias":
		use, short, nargs = "alias NAME OTHER", "Make NAME (a spelling as written) one player with OTHER", 2
	case "split":
		use, short = "split NAME", "Make NAME (a spelling as written) a player of its own"
	case "unlink":
		use, short = "unlink NAME", "Forget an alias or split of NAME"
	}
	return &cobra.Command{
		Use:   use,
		Short: short,
		Long: short + `. Decisions are kept in the database by name as written
(table player_links), so they survive a re-import of the games; every game
keeps its names as written.`,
		Args: cobra.ExactArgs(nargs),
		RunE: func(cmd *cobra.Command, args []string) error {
			pool, err := openDatabase(cmd.Context(), a.cfg)
			if err != nil {
				return err
			}
			defer pool.Close()
			ctx := cmd.Context()
			ps, err := players.Load(ctx, pool)
			if err != nil {
				return err
			}
			// Both names must be written as some game writes them: a typo
			// would otherwise be kept and do nothing.
			for _, n := range args {
				if !spelled(ps, n) {
					p, err := players.Find(ps, n)
					if err != nil {
						return fmt.Errorf("players %s: %w", verb, err)
					}
					return fmt.Errorf("players %s: no game writes %q; its player is written %q", verb, n, p.Name())
				}
			}
			switch verb {
			case "alias":
				err = players.Alias(ctx, pool, args[0], args[1])
			case "split":
				err = players.Split(ctx, pool, args[0])
			default:
				err = players.Unlink(ctx, pool, args[0])
			}
			if err != nil {
				return err
			}
			ps, err = players.Load(ctx, pool)
			if err != nil {
				return err
			}
			p, err := players.Find(ps, args[0])
			if err != nil {
				return err
			}
			names := make([]string, len(p.Spellings))
			for i, s := range p.Spellings {
				names[i] = fmt.Sprintf("%q", s.Name)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s is now the player of %s\n", args[0], strings.Join(names, ", "))
			return err
		},
	}
}

func spelled(ps []*players.Player, name string) bool {
	for _, p := range ps {
		for _, s := range p.Spellings {
			if s.Name == name {
				return true
			}
		}
	}
	return false
}
