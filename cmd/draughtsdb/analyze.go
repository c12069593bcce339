package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/annotate"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/spf13/cobra"
)

func newAnalyzeCommand(a *app) *cobra.Command {
	var (
		variant      string
		engine       string
		engineArgs   []string
		depth        int
		moveTimeMS   int
		maxPly       int
		limit        int
		where        string
		whereTimeout time.Duration
		batch        int
		ttSize       int
		jsonOut      bool
		quiet        bool
		independent  bool
		reevaluate   bool
		resumeQueued bool
		status       bool
		eg           endgameFlags
	)
	cmd := &cobra.Command{
		Use:   "analyze [--variant V] [--engine builtin|hub:PATH] [--engine-arg ARG ...] [--depth N | --movetime MS] [--workers N] [--max-ply N] [--limit N] [--where SQL] [--reevaluate] [--resume-queued] [--json] [--quiet] | analyze --status [--json]",
		Short: "Evaluate the positions of stored games with an engine and annotate every move (resumable, shareable)",
		Long: `Evaluate every distinct position of the selected games once per engine and
setting ("depth=8" or "movetime=500"), storing score, depth, best move, PV,
nodes, time and the engine's name and version in the table evaluations, then
annotate each move of those games in move_annotations with its loss and
class (see below; the named query "blunders" lists them).

Selection: --where is an SQL condition on the games table (e.g.
"event LIKE 'World%'"), with --variant, --limit (the first N games by id) and
--max-ply (positions up to that ply). The condition runs only inside a
READ ONLY transaction with a statement timeout (--where-timeout): it cannot
change anything.

Engines: builtin (draughtsdb's own search) or hub:PATH, any Hub-protocol engine (Scan, Kingsrow's hub
build, or "hub:$(which draughtsdb) --engine-arg hub"), one process per
worker; a position the engine times out or crashes on is tried once more,
then marked failed (analysis_queue.failed). The engine is identified in
evaluations by the name it reports (draughtsdb for both of these).

Game order: each game's positions (those no earlier selected game reached)
are cut into runs of up to 32, and a worker evaluates a run in the order of
the game's plies; the builtin engine keeps its transposition table from one
position of a run to the next, which holds much of the next position's tree.
At a fixed --depth the results are deterministic for a given selection and
set of positions already evaluated, whatever the number of workers. With
--independent every position is searched from an empty table (slower; each
evaluation then depends only on its position, as with a Hub engine).

Versions: the engine's version is stored beside each evaluation; the
builtin engine's (and draughtsdb hub's) carries a fingerprint of its
evaluation and search ("0.1+eval." and 8 hex digits), which changes with its weights and
with a change of its search on a clock. A position
evaluated already by the same engine and setting is skipped whatever the
version; with --reevaluate one whose stored version differs from the
engine's is evaluated again and its row replaced.

Before it evaluates anything, analyze says what it will do: the engine, its
version and setting, the games and distinct positions selected, how many of
those are evaluated already (by this engine and setting: skipped) and how
many other positions of this engine and setting other runs left in the
queue. Its bar counts the positions it evaluates, against those it is to
evaluate.

Resumable and shared: positions already evaluated are skipped; the others
go through the queue table analysis_queue, from which workers claim batches
with FOR UPDATE SKIP LOCKED under a lease (analysis.lease). Any number of
analyze processes, on one machine or many, may work on one database at once;
the positions of one that dies are taken over when its lease expires, and
an interrupted one (Ctrl-C) gives its leases back. A run ends when every
position of its selection is evaluated or failed, waiting for those leased
by other live workers. Positions that other runs queued and left (an
interrupted run of another selection) are not its work: --resume-queued
evaluates them too, after its own, until the queue of its engine and
setting is empty (failed rows aside).

analyze --status shows the queue of each engine and setting (queued, of
those leased, failed) and the leases held: by which process and worker,
since when (the process's start), how many positions, until when.

Loss of a move: with s_before the score of the position before it (the mover
to move) and s_after the score of the position after it (the opponent to
move), each clamped to +-3000, loss = max(0, s_before + s_after): the
evaluation before from the mover's view minus the evaluation after from the
mover's view. Classes from the thresholds analysis.inaccuracy, .mistake,
.blunder (hundredths of a man).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if status {
				return analyzeStatus(cmd, a, jsonOut)
			}
			var v *rules.Variant
			if variant != "" {
				var err error
				if v, err = flagVariant("--variant", variant); err != nil {
					return err
				}
			}
			if depth > 0 && moveTimeMS > 0 && cmd.Flags().Changed("depth") {
				return errors.New("give --depth or --movetime, not both")
			}
			lim := annotate.Limit{Depth: depth}
			if moveTimeMS > 0 {
				lim = annotate.Limit{MoveTime: time.Duration(moveTimeMS) * time.Millisecond}
			}
			// The configuration checked analysis.lease (1s..24h) and the
			// thresholds (annotate.Run checks these again).
			lease, err := time.ParseDuration(a.cfg.Analysis.Lease)
			if err != nil {
				return fmt.Errorf("analysis.lease: %w", err)
			}
			workers := a.cfg.Workers
			if workers <= 0 {
				workers = runtime.NumCPU()
			}
			notice := func(s string) {
				if !quiet && !jsonOut {
					fmt.Fprintln(cmd.ErrOrStderr(), s)
				}
			}
			eo := annotate.EngineOptions{Limit: lim, TTSizeMB: ttSize, Notice: notice}
			if err := eg.check(); err != nil {
				return err
			}
			if eg.pieces > 0 {
				if engine != "builtin" {
					return errors.New("--endgame-pieces: for the builtin engine; a draughtsdb Hub engine takes it as its own argument (--engine-arg=--endgame-pieces=N)")
				}
				if err := eg.checkVariant(v); err != nil {
					return err
				}
				eo.Endgame, eo.EndgamePieces = eg.loader(a, cmd.ErrOrStderr()), eg.pieces
				if v != nil {
					eo.Endgame(v) // built before the work starts, with its own bar
				}
			}
			eng, err := annotate.OpenEngine(cmd.Context(), engine, engineArgs, eo)
			if err != nil {
				return engineFlagError(err)
			}
			opts := annotate.Options{
				Engine: eng.Name, EngineVersion: eng.Version, NewEvaluator: eng.New, First: eng.First,
				Setting: lim.Setting(), Workers: workers, Batch: batch, Lease: lease,
				Where: where, WhereTimeout: whereTimeout, Variant: v, Limit: limit, MaxPly: maxPly,
				Thresholds:   annotate.Thresholds{Inaccuracy: a.cfg.Analysis.Inaccuracy, Mistake: a.cfg.Analysis.Mistake, Blunder: a.cfg.Analysis.Blunder},
				Independent:  independent,
				Reevaluate:   reevaluate,
				ResumeQueued: resumeQueued,
				Notice:       notice,
			}
			notice(fmt.Sprintf("analyze: engine %s %s (%s), %s", eng.Name, eng.Version, engineSpec(engine, engineArgs), lim.Setting()))

			pool, err := openDatabase(cmd.Context(), a.cfg)
			if err != nil {
				eng.Close()
				return err
			}
			defer pool.Close()
			// One bar per step: reading the games, replaying them,
			// queueing their positions, then evaluating. The last one
			// starts after the plan is printed, counting only the
			// positions this run evaluates.
			var bar *progress
			step := ""
			opts.Preparing = func(s string, done, total int) {
				if s != step {
					bar.finish()
					step = s
					unit := "positions"
					if s != "queueing positions" {
						unit = "games"
					}
					bar = newProgress(quiet || jsonOut, s, unit, int64(total))
				}
				bar.setTotal(int64(total))
				bar.set(int64(done))
			}
			opts.Plan = func(p annotate.Plan) {
				bar.finish()
				if !quiet && !jsonOut {
					printAnalyzePlan(cmd.ErrOrStderr(), p)
				}
				total := p.ToEvaluate
				if p.ResumeQueued {
					total += p.QueuedByOthers
				}
				bar = newProgress(quiet || jsonOut, "analyzing", "positions", int64(total))
			}
			opts.Progress = func(evaluated, failed, total int64) {
				// The workers call this at once: one call sets the
				// count and the description that go together. The bar
				// shows the count; the description adds the failures.
				desc := "analyzing"
				if failed > 0 {
					desc = fmt.Sprintf("analyzing (%d failed)", failed)
				}
				bar.show(max(total, evaluated+failed), desc, evaluated+failed)
			}
			// Something is on the terminal at once, while the games are
			// selected (a query that may take seconds).
			bar = newProgress(quiet || jsonOut, "selecting games", "games", 0)
			step = "selecting games"
			sum, err := annotate.Run(cmd.Context(), pool, opts)
			bar.finish()
			if sum != nil && (err == nil || errors.Is(err, context.Canceled)) {
				if jsonOut {
					if err := json.NewEncoder(cmd.OutOrStdout()).Encode(sum); err != nil {
						return err
					}
				} else {
					printAnalyzeSummary(cmd.OutOrStdout(), sum, err != nil, resumeQueued)
				}
			}
			if err != nil {
				return interrupted(cmd.Context(), err, "analyze", "the evaluations stored so far are kept: run the same command again to finish")
			}
			if sum.PositionsFailed > 0 {
				return &exitError{code: 1, msg: fmt.Sprintf("the engine failed on %d position(s) (see analysis_queue where failed)", sum.PositionsFailed)}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&variant, "variant", "", "analyze only games of this variant ("+variantList()+"); empty = all")
	f.StringVar(&engine, "engine", "builtin", "engine: builtin, or hub:PATH for a Hub-protocol engine program")
	eg.add(f, "the builtin engine")
	f.StringArrayVar(&engineArgs, "engine-arg", nil, "argument for the hub engine program (repeat for several)")
	f.IntVar(&depth, "depth", 8, "search depth in plies (deterministic)")
	f.IntVar(&moveTimeMS, "movetime", 0, "search time per position in milliseconds instead of a depth")
	f.Int("workers", 0, settingHelp("workers")+" (analyze: engines searching at once)")
	f.IntVar(&maxPly, "max-ply", 0, "analyze each game's positions up to this ply; 0 = all")
	f.IntVar(&limit, "limit", 0, "analyze only the first N selected games (by id); 0 = all")
	f.StringVar(&where, "where", "", `SQL condition on the games table, e.g. "date >= '2000'" (run in a read-only transaction)`)
	f.DurationVar(&whereTimeout, "where-timeout", time.Minute, "statement timeout for selecting the games")
	f.IntVar(&batch, "batch", 16, "positions a worker claims at a time outside game order (a run of a game is claimed whole)")
	f.IntVar(&ttSize, "tt-size", annotate.AnalyzeTTSizeMB, "builtin engine: transposition table per worker in MB (small is fast at the usual depths; see annotate.AnalyzeTTSizeMB)")
	f.BoolVar(&independent, "independent", false, "builtin engine: search every position from an empty table instead of keeping it along each game's positions")
	f.BoolVar(&reevaluate, "reevaluate", false, "evaluate again the positions whose stored evaluation (same engine and setting) names another engine version, e.g. an older built-in engine or other weights, replacing it")
	f.String("lease", "60s", settingHelp("analysis.lease"))
	f.BoolVar(&resumeQueued, "resume-queued", false, "after the selection, also evaluate the positions of this engine and setting that other runs left in the queue (an interrupted run's)")
	f.BoolVar(&status, "status", false, "show the analysis queue per engine and setting and the leases held, and exit")
	f.BoolVar(&jsonOut, "json", false, "print the summary (with --status: the queues and leases) as one JSON object")
	f.BoolVar(&quiet, "quiet", false, "no progress bar and no notices (nor the plan)")
	bindFlag(f, "workers", "workers")
	bindFlag(f, "lease", "analysis.lease")
	return cmd
}

// engineFlagError names the flags behind an engine error (a limit or a
// specification, engine.ErrLimit and engine.ErrSpec).
func engineFlagError(err error) error {
	switch {
	case errors.Is(err, annotate.ErrLimit):
		return fmt.Errorf("--depth/--movetime: %w", err)
	case errors.Is(err, annotate.ErrEngineSpec):
		return fmt.Errorf("--engine/--engine-arg: %w", err)
	}
	return err
}

// engineSpec is the engine as given: builtin, or hub:PATH and its
// arguments.
func engineSpec(engine string, args []string) string {
	if len(args) == 0 {
		return engine
	}
	return engine + " " + strings.Join(args, " ")
}

// printAnalyzePlan says what analyze is about to do, before it evaluates.
func printAnalyzePlan(w io.Writer, p annotate.Plan) {
	undecodable := ""
	if p.GamesUndecodable > 0 {
		undecodable = fmt.Sprintf(" (and %d that could not be decoded)", p.GamesUndecodable)
	}
	games := "games"
	if p.Games == 1 {
		games = "game"
	}
	fmt.Fprintf(w, "analyze: %d %s%s, %d distinct positions: %d evaluated already by %s %s, %d to evaluate\n",
		p.Games, games, undecodable, p.Positions, p.Evaluated, p.Engine, p.Setting, p.ToEvaluate)
	switch {
	case p.QueuedByOthers == 0:
	case p.ResumeQueued:
		fmt.Fprintf(w, "analyze: and %d positions of %s %s that other runs left in the queue (--resume-queued)\n", p.QueuedByOthers, p.Engine, p.Setting)
	default:
		fmt.Fprintf(w, "analyze: %d other positions of %s %s are queued by other runs: left to them (--resume-queued evaluates them too)\n", p.QueuedByOthers, p.Engine, p.Setting)
	}
}

func printAnalyzeSummary(w io.Writer, s *annotate.Summary, interrupted, resumeQueued bool) {
	fmt.Fprintf(w, "engine:     %s %s, %s\n", s.Engine, s.EngineVersion, s.Setting)
	fmt.Fprintf(w, "games:      %d (%d could not be decoded)\n", s.Games, s.GamesUndecodable)
	fmt.Fprintf(w, "positions:  %d distinct, %d already evaluated (skipped), %d enqueued\n", s.Positions, s.PositionsSkipped, s.PositionsEnqueued)
	if s.PositionsQueuedByOthers > 0 {
		what := "left to them (--resume-queued evaluates them too)"
		if resumeQueued {
			what = "taken by this run (--resume-queued)"
		}
		fmt.Fprintf(w, "others:     %d positions queued by other runs, %s\n", s.PositionsQueuedByOthers, what)
	}
	fmt.Fprintf(w, "evaluated:  %d by this run, %d failed\n", s.PositionsEvaluated, s.PositionsFailed)
	if interrupted {
		fmt.Fprintf(w, "annotated:  none: interrupted before annotating (the same command again annotates)\n")
	} else {
		fmt.Fprintf(w, "annotated:  %d moves: %d inaccuracies, %d mistakes, %d blunders\n", s.MovesAnnotated, s.Inaccuracies, s.Mistakes, s.Blunders)
	}
	fmt.Fprintf(w, "time:       %.2f s, %.1f positions/s\n", s.Seconds, s.PositionsPerSecond)
}

// analyzeStatus prints the analysis queue per engine and setting and the
// leases held (analyze --status).
func analyzeStatus(cmd *cobra.Command, a *app, jsonOut bool) error {
	pool, err := openDatabase(cmd.Context(), a.cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	qs, ls, err := annotate.Status(cmd.Context(), pool)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if jsonOut {
		if qs == nil {
			qs = []annotate.QueueStatus{}
		}
		if ls == nil {
			ls = []annotate.Lease{}
		}
		return json.NewEncoder(out).Encode(struct {
			Queues []annotate.QueueStatus `json:"queues"`
			Leases []annotate.Lease       `json:"leases"`
		}{qs, ls})
	}
	if len(qs) == 0 {
		fmt.Fprintln(out, "analysis queue: empty")
		return nil
	}
	fmt.Fprintln(out, "analysis queue per engine and setting:")
	for _, q := range qs {
		fmt.Fprintf(out, "  %s %s: %d queued (%d of them leased), %d failed\n", q.Engine, q.Setting, q.Queued, q.Leased, q.Failed)
	}
	if len(ls) == 0 {
		fmt.Fprintln(out, "leases held: none")
		return nil
	}
	fmt.Fprintln(out, "leases held:")
	now := time.Now()
	for _, l := range ls {
		since := "since: not known"
		if l.Since != nil {
			since = "since " + l.Since.UTC().Format("2006-01-02 15:04:05 UTC")
		}
		until := fmt.Sprintf("until %s (in %s)", l.Until.UTC().Format("15:04:05 UTC"), l.Until.Sub(now).Round(time.Second))
		if l.Expired {
			until = fmt.Sprintf("expired %s ago: the next claim takes them", now.Sub(l.Until).Round(time.Second))
		}
		fmt.Fprintf(out, "  %s worker %s (%s): %d positions of %s %s, %s\n", l.Process, l.Worker, since, l.Positions, l.Engine, l.Setting, until)
	}
	return nil
}
