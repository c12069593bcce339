package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/annotate"
	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/analysis/match"
	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"
)

// matchFlags are the match command's settings.
type matchFlags struct {
	variant      string
	book         bookFlags
	eg           endgameFlags
	engines      []string
	argsA, argsB []string
	nameA, nameB string
	openings     string
	games        int
	depth        int
	moveTimeMS   int
	maxPlies     int
	event        string
	timeout      string
	ttSize       int
	dxpMinutes   int
	dxpMoves     int
	restart      bool
	jsonOut      bool
	quiet        bool
}

func newMatchCommand(a *app) *cobra.Command {
	f := &matchFlags{}
	cmd := &cobra.Command{
		Use:   "match --engine A --engine B [--engine-arg-a ARG ...] [--engine-arg-b ARG ...] [--openings FILE|ballots] [--games N] [--depth N | --movetime MS] [--variant V] [--event NAME] [--max-plies N] [--timeout D]",
		Short: "Play a match between two engines from fixed openings and store its games as a source of their own (resumable)",
		Long: `Play engine A against engine B: each opening twice, A White in the odd
games, B White in the even ones. Engines: builtin (draughtsdb's own search),
hub:PATH (a Hub-protocol program, e.g. Scan with --engine-arg-a hub, or
"hub:$(which draughtsdb)" with the argument hub) and dxp:HOST:PORT (a DXP
engine listening there, e.g. Moby Dam or draughtsdb dxp; International only).
A DXP engine cannot be given a depth or a move time: it keeps its own clock
and is sent a thinking time for the game, --dxp-minutes (default: 75 moves at
--movetime rounded up to a minute, or at a fixed depth 2 minutes, 75 moves at
1 s; never 0, as Moby Dam answers no game request of 0 minutes).

Openings: "ballots" (the default) are the variant's built-in ballots: Moby
Dam's 79 two-move ballots of International draughts, the ACF three-move
ballots of English checkers (157), the 150 ballots of Russian and
Brazilian draughts, and for the other variants every position after two
plies. Or a file: one FEN per line (as Moby Dam's ballot files) or one move
line per line ("32-28 19-23"), or PDN games (each game's FEN and moves).

A game ends by the rules: the side to move without a legal move (the
variant's win condition), threefold repetition, the king-move rule (25
moves in International, 15 in Russian), International's 16- and 5-move
endgame rules, or the move limit (--max-plies, a draw). An engine of any
kind (a DXP engine with its own clock too) that fails to move within
--timeout (beyond --movetime), crashes, or plays an illegal move loses the
game by forfeit and is restarted. The reason is the
game's Termination tag (and Forfeit the engine's error).

Storage: every game is stored as soon as it ends, in one transaction, as a
game of the match's source (sources.name "match: EVENT"), with Event, Round
(the game's number), White and Black (the engines' names), Result (the
variant's first-mover convention), Opening, Termination and Match (the
match key) tags: queries, openings, export and analyze see the games like
imported ones. The match is identified by a key of its settings (variant,
engines and their arguments, depth or move time, openings, --max-plies,
--event, the DXP time control; not --games or --timeout): the same command
run again, after Ctrl-C or kill -9, resumes after the last stored game, and
a larger --games extends the match. --restart deletes its games first.

Output: a line per game, then the table from A's view: wins, draws, losses,
the score with its 95% interval and the Elo difference with its error
(trinomial standard error, logistic Elo; see analysis/match/doc.go).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMatch(cmd, a, f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.engines, "engine", nil, "engine A, then engine B: builtin, hub:PATH or dxp:HOST:PORT (give it twice)")
	fl.StringArrayVar(&f.argsA, "engine-arg-a", nil, "argument for engine A's program (repeat for several)")
	fl.StringArrayVar(&f.argsB, "engine-arg-b", nil, "argument for engine B's program (repeat for several)")
	fl.StringVar(&f.nameA, "name-a", "", "engine A's player name in the games (default: the name the engine reports)")
	fl.StringVar(&f.nameB, "name-b", "", "engine B's player name in the games (default: the name the engine reports)")
	fl.StringVar(&f.variant, "variant", "", "the variant played ("+variantList()+"); default: the variant setting, else "+rules.Default.Name)
	fl.StringVar(&f.openings, "openings", "ballots", `openings: a file of FENs, move lines or PDN games, or "ballots" (the variant's built-in ballots)`)
	fl.IntVar(&f.games, "games", 0, "games in the match; 0 = two per opening")
	fl.IntVar(&f.depth, "depth", 8, "search depth per move in plies (the built-in and Hub engines; deterministic)")
	fl.IntVar(&f.moveTimeMS, "movetime", 0, "search time per move in milliseconds instead of a depth")
	fl.IntVar(&f.maxPlies, "max-plies", match.DefaultMaxPlies, "a game the engines have played this many plies in without a decision is drawn (move limit); 0 = no limit")
	fl.StringVar(&f.event, "event", "", `the match's name: the games' Event tag (default "A vs B, depth=8" from the engine specs)`)
	fl.String("timeout", "30s", settingHelp("match.timeout"))
	fl.IntVar(&f.ttSize, "tt-size", search.DefaultTTSizeMB, "builtin engine: transposition table in MB")
	fl.IntVar(&f.dxpMinutes, "dxp-minutes", 0, "DXP engines: thinking time per game in minutes sent in the game request (1..999); 0 = 75 moves at --movetime rounded up, at a fixed --depth 2 (75 moves at 1 s; Moby Dam answers no request of 0 minutes)")
	fl.IntVar(&f.dxpMoves, "dxp-moves", 0, "DXP engines: moves in that time (0: the whole game)")
	fl.BoolVar(&f.restart, "restart", false, "delete the games stored for this match and play it from the first game")
	fl.BoolVar(&f.jsonOut, "json", false, "print the final table as one JSON object (the game lines go to stderr)")
	fl.BoolVar(&f.quiet, "quiet", false, "no line per game, no notices")
	f.book.add(fl, "builtin and Hub engines")
	f.eg.add(fl, "builtin engines")
	bindFlag(fl, "timeout", "match.timeout")
	return cmd
}

// shortSpec names an engine spec briefly: a Hub program by its file name.
func shortSpec(s engine.Spec) string {
	if s.Kind == engine.Hub {
		return "hub:" + filepath.Base(s.Path)
	}
	return s.Text
}

func runMatch(cmd *cobra.Command, a *app, f *matchFlags) error {
	ctx := cmd.Context()
	if len(f.engines) != 2 {
		return fmt.Errorf("--engine: give exactly two engines (A and B), have %d", len(f.engines))
	}
	if err := f.eg.check(); err != nil {
		return err
	}
	specA, err := engine.ParseSpec(f.engines[0], f.argsA)
	if err != nil {
		return fmt.Errorf("--engine (A)/--engine-arg-a: %w", err)
	}
	specB, err := engine.ParseSpec(f.engines[1], f.argsB)
	if err != nil {
		return fmt.Errorf("--engine (B)/--engine-arg-b: %w", err)
	}
	variant := f.variant
	if variant == "" {
		variant = a.cfg.Variant
	}
	if variant == "" {
		variant = rules.Default.Name
	}
	v, err := flagVariant("--variant", variant) // the setting is checked already
	if err != nil {
		return err
	}
	if err := f.eg.checkMatch(v, specA, specB); err != nil {
		return err
	}
	if f.moveTimeMS > 0 && cmd.Flags().Changed("depth") {
		return errors.New("give --depth or --movetime, not both")
	}
	lim := annotate.Limit{Depth: f.depth}
	if f.moveTimeMS > 0 {
		lim = annotate.Limit{MoveTime: time.Duration(f.moveTimeMS) * time.Millisecond}
	}
	if err := lim.Check(); err != nil {
		return fmt.Errorf("--depth/--movetime: %w", err)
	}
	timeout, err := matchTimeout(a.cfg.Match.Timeout)
	if err != nil {
		return err
	}
	if f.dxpMinutes < 0 || f.dxpMinutes > 999 || f.dxpMoves < 0 || f.dxpMoves > 999 {
		return errors.New("--dxp-minutes and --dxp-moves must be 0..999 (DXP's three digits)")
	}

	var openings []match.Opening
	if f.openings == "ballots" {
		openings, err = match.Ballots(v)
	} else {
		var file *os.File
		if file, err = os.Open(f.openings); err == nil {
			openings, err = match.ReadOpenings(v, file, f.openings)
			file.Close()
		}
	}
	if err != nil {
		return fmt.Errorf("--openings: %w", err)
	}

	event := f.event
	if event == "" {
		event = fmt.Sprintf("%s vs %s, %s", shortSpec(specA), shortSpec(specB), lim.Setting())
	}
	dxpMinutes := f.dxpMinutes
	if dxpMinutes == 0 {
		dxpMinutes = match.DXPMinutesFor(lim.MoveTime)
	}
	dxpControl := ""
	if specA.Kind == engine.DXP || specB.Kind == engine.DXP {
		dxpControl = fmt.Sprintf("%d/%d", dxpMinutes, f.dxpMoves)
	}
	maxPlies := f.maxPlies
	if maxPlies <= 0 {
		maxPlies = -1 // no limit (match.Options reads 0 as its default)
	}
	if err := f.book.check(cmd.Flags().Changed); err != nil {
		return err
	}
	key := match.Key(v, f.engines[0], f.argsA, f.engines[1], f.argsB, lim.Setting()+f.book.setting()+f.eg.setting(specA, specB), maxPlies, event, dxpControl, openings)

	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	lines := out
	if f.jsonOut {
		lines = errOut
	}
	notice := func(s string) {
		if !f.quiet {
			fmt.Fprintln(errOut, s)
		}
	}

	pool, err := openDatabase(ctx, a.cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	stored, err := schema.OpenMatch(ctx, pool, key)
	if err != nil {
		return err
	}
	defer stored.Close()
	store := &matchStore{Match: stored, pool: pool, name: "match: " + event, variant: v, depth: a.cfg.Import.OpeningDepth}
	if f.restart {
		n, err := stored.Remove(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			notice(fmt.Sprintf("--restart: removed the %d games stored for this match", n))
		}
	}

	bk, err := f.book.build(ctx, a, v)
	if err != nil {
		return err
	}
	eo := match.EngineOptions{Limit: lim, Timeout: timeout, TTSizeMB: f.ttSize, Notice: notice,
		DXPMinutes: dxpMinutes, DXPMoves: f.dxpMoves, Stderr: engineStderr(f.quiet, errOut)}
	if err := f.eg.useIn(&eo, a, v, f.quiet, notice); err != nil {
		return err
	}
	if bk != nil {
		eo.Book = bk
		notice(fmt.Sprintf("opening book: %d positions (--book-min-games %d, --book-min-score %g)", bk.Len(), f.book.minGames, f.book.minScore))
	}
	engA, err := match.OpenPlayer(ctx, f.engines[0], f.argsA, v, eo)
	if err != nil {
		return fmt.Errorf("--engine (A)/--engine-arg-a: %w", err)
	}
	defer engA.Close()
	engB, err := match.OpenPlayer(ctx, f.engines[1], f.argsB, v, eo)
	if err != nil {
		return fmt.Errorf("--engine (B)/--engine-arg-b: %w", err)
	}
	defer engB.Close()

	host, _ := os.Hostname()
	opts := match.Options{Variant: v, Openings: openings, Games: f.games, MaxPlies: maxPlies,
		A: engA, B: engB, NameA: f.nameA, NameB: f.nameB, Event: event, Site: host, Key: key, Store: store, Notice: notice}
	total := f.games
	if total <= 0 {
		total = 2 * len(openings)
	}
	// The bar counts the games this run plays: a resumed match's stored
	// games are known at its first game (whose round follows them).
	var bar *progress
	if !f.quiet {
		fmt.Fprintf(lines, "match %q (key %s): %s, %d games from %d openings, %s\n", event, key, v.Name, total, len(openings), lim.Setting())
		bar = newProgress(f.jsonOut, "playing", "games", int64(total))
		resumed := -1
		opts.Progress = func(g *match.Game, st match.Stats) {
			if resumed < 0 {
				resumed = g.Round - 1
				bar.setTotal(int64(total - resumed))
			}
			bar.above(lines, fmt.Sprintf("%4d/%d  %s   A %+d =%d -%d  %.1f%%", g.Round, total, strings.TrimPrefix(g.String(), fmt.Sprintf("game %d: ", g.Round)),
				st.Wins, st.Draws, st.Losses, 100*st.Score()))
			bar.set(int64(g.Round - resumed))
		}
	}
	sum, runErr := match.Run(ctx, opts)
	bar.finish()
	if sum != nil {
		id, _, _, _ := stored.Source(context.WithoutCancel(ctx))
		if f.jsonOut {
			if err := json.NewEncoder(out).Encode(matchJSON(sum, event, key, v, id)); err != nil {
				return err
			}
		} else {
			printMatchTable(out, sum, id)
		}
	}
	return interrupted(ctx, runErr, "match", "the games stored so far are kept: run the same command again to resume")
}

// matchTimeout reads match.timeout (a Go duration, 1s..24h; checkValues
// has checked it and named where a bad value came from).
func matchTimeout(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d < time.Second || d > 24*time.Hour {
		return 0, fmt.Errorf("match.timeout %q: want a duration from 1s to 24h (30s, 2m)", pdn.Clip(s, 40)) // checkValues checked it
	}
	return d, nil
}

// engineStderr is where Hub engines' standard error goes: discarded when
// quiet.
func engineStderr(quiet bool, w io.Writer) io.Writer {
	if quiet {
		return io.Discard
	}
	return w
}

func printMatchTable(w io.Writer, s *match.Summary, sourceID int64) {
	st := s.Stats
	fmt.Fprintf(w, "\n%-32s %6s %6s %6s %6s %8s\n", "engine", "games", "wins", "draws", "losses", "score")
	other := match.Stats{Wins: st.Losses, Draws: st.Draws, Losses: st.Wins}
	for _, r := range []struct {
		name string
		st   match.Stats
	}{{"A " + s.NameA, st}, {"B " + s.NameB, other}} {
		fmt.Fprintf(w, "%-32s %6d %6d %6d %6d %7.1f%%\n", r.name, r.st.Games(), r.st.Wins, r.st.Draws, r.st.Losses, 100*r.st.Score())
	}
	if st.Games() == 0 {
		return
	}
	lo, hi := st.Interval()
	elo, eloErr := st.Elo(), st.EloError()
	fmt.Fprintf(w, "A's score %.1f%%, 95%% interval [%.1f%%, %.1f%%]\n", 100*st.Score(), 100*lo, 100*hi)
	fmt.Fprintf(w, "Elo difference A - B: %s +/- %s (95%%)\n", match.FormatElo(elo, true), match.FormatElo(eloErr, false))
	fmt.Fprintf(w, "games: %d played now, %d stored before; forfeits: A %d, B %d; source %d\n",
		s.Played, s.Resumed, s.Forfeits[0], s.Forfeits[1], sourceID)
}

// matchJSON is --json's object. Unbounded Elo figures are null.
func matchJSON(s *match.Summary, event, key string, v *rules.Variant, sourceID int64) map[string]any {
	st := s.Stats
	num := func(x float64) any {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		// + 0 makes a negative zero (an even score's Elo) plain 0, not -0.
		return math.Round(x*1e4)/1e4 + 0
	}
	lo, hi := st.Interval()
	return map[string]any{
		"event": event, "key": key, "variant": v.Name, "source_id": sourceID,
		"engine_a": s.NameA, "engine_b": s.NameB,
		"games": st.Games(), "played": s.Played, "resumed": s.Resumed,
		"wins": st.Wins, "draws": st.Draws, "losses": st.Losses,
		"score": num(st.Score()), "score_low": num(lo), "score_high": num(hi),
		"elo": num(st.Elo()), "elo_error": num(st.EloError()),
		"forfeits_a": s.Forfeits[0], "forfeits_b": s.Forfeits[1],
	}
}

// matchStore is a match's match.Store: the store's match (schema.Match)
// reads and removes its games, and Save appends each game through
// ingest.Append, which runs the import's replay and writer (schema sits
// below ingest and cannot call it).
type matchStore struct {
	*schema.Match
	pool    *pgxpool.Pool
	name    string
	variant *rules.Variant
	depth   int
}

// Save appends the game's PDN to the match's source. The import's replay
// must accept it whole: the game was refereed by the same rules.
func (s *matchStore) Save(ctx context.Context, g *match.Game, text []byte) error {
	sum, err := ingest.Append(ctx, s.pool, s.Key, s.name, text, ingest.Options{Variant: s.variant, OpeningDepth: s.depth})
	if err != nil {
		return err
	}
	switch {
	case sum.Rejected > 0:
		return fmt.Errorf("game %d was rejected by the import (see rejected_games of source %d): a bug, please report it", g.Round, sum.SourceID)
	case sum.First != g.Round || sum.Last != g.Round:
		return fmt.Errorf("game %d was stored as game %d..%d of source %d", g.Round, sum.First, sum.Last, sum.SourceID)
	}
	return nil
}
