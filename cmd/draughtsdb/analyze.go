package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
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
	)
	cmd := &cobra.Command{
		Use:   "analyze [--variant V] [--engine builtin|hub:PATH] [--engine-arg ARG ...] [--depth N | --movetime MS] [--workers N] [--max-ply N] [--limit N] [--where SQL] [--reevaluate] [--json] [--quiet]",
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
evaluation ("0.1+eval." and 8 hex digits), which changes with its weights. A position
evaluated already by the same engine and setting is skipped whatever the
version; with --reevaluate one whose stored version differs from the
engine's is evaluated again and its row replaced.

Resumable and shared: positions already evaluated are skipped; the others
go through the queue table analysis_queue, from which workers claim batches
with FOR UPDATE SKIP LOCKED under a lease (analysis.lease). Any number of
analyze processes, on one machine or many, may work on one database at once;
the positions of one that dies are taken over when its lease expires. A run
ends when the queue of its engine and setting is empty (failed rows aside),
so it may also finish positions enqueued by other runs, and waits for
positions leased by other live workers.

Loss of a move: with s_before the score of the position before it (the mover
to move) and s_after the score of the position after it (the opponent to
move), each clamped to +-3000, loss = max(0, s_before + s_after): the
evaluation before from the mover's view minus the evaluation after from the
mover's view. Classes from the thresholds analysis.inaccuracy, .mistake,
.blunder (hundredths of a man).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
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
			eng, err := annotate.OpenEngine(cmd.Context(), engine, engineArgs, annotate.EngineOptions{Limit: lim, TTSizeMB: ttSize, Notice: notice})
			if err != nil {
				return engineFlagError(err)
			}
			opts := annotate.Options{
				Engine: eng.Name, EngineVersion: eng.Version, NewEvaluator: eng.New, First: eng.First,
				Setting: lim.Setting(), Workers: workers, Batch: batch, Lease: lease,
				Where: where, WhereTimeout: whereTimeout, Variant: v, Limit: limit, MaxPly: maxPly,
				Thresholds:  annotate.Thresholds{Inaccuracy: a.cfg.Analysis.Inaccuracy, Mistake: a.cfg.Analysis.Mistake, Blunder: a.cfg.Analysis.Blunder},
				Independent: independent,
				Reevaluate:  reevaluate,
				Notice:      notice,
			}

			pool, err := openDatabase(cmd.Context(), a.cfg)
			if err != nil {
				eng.Close()
				return err
			}
			defer pool.Close()
			bar := newProgress(quiet || jsonOut, "analyzing", "positions", 0)
			if bar != nil {
				opts.Progress = func(evaluated, failed, total int64) {
					bar.setTotal(max(total, evaluated+failed))
					bar.describe(fmt.Sprintf("analyzing: %d evaluated, %d failed", evaluated, failed))
					bar.set(evaluated + failed)
				}
			}
			sum, err := annotate.Run(cmd.Context(), pool, opts)
			bar.finish()
			if sum != nil && (err == nil || errors.Is(err, context.Canceled)) {
				if jsonOut {
					if err := json.NewEncoder(cmd.OutOrStdout()).Encode(sum); err != nil {
						return err
					}
				} else {
					printAnalyzeSummary(cmd.OutOrStdout(), sum)
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
	f.BoolVar(&jsonOut, "json", false, "print the summary as one JSON object")
	f.BoolVar(&quiet, "quiet", false, "no progress bar and no notices")
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

func printAnalyzeSummary(w io.Writer, s *annotate.Summary) {
	fmt.Fprintf(w, "engine:     %s %s, %s\n", s.Engine, s.EngineVersion, s.Setting)
	fmt.Fprintf(w, "games:      %d (%d could not be decoded)\n", s.Games, s.GamesUndecodable)
	fmt.Fprintf(w, "positions:  %d distinct, %d already evaluated (skipped), %d enqueued\n", s.Positions, s.PositionsSkipped, s.PositionsEnqueued)
	fmt.Fprintf(w, "evaluated:  %d by this run, %d failed\n", s.PositionsEvaluated, s.PositionsFailed)
	fmt.Fprintf(w, "annotated:  %d moves: %d inaccuracies, %d mistakes, %d blunders\n", s.MovesAnnotated, s.Inaccuracies, s.Mistakes, s.Blunders)
	fmt.Fprintf(w, "time:       %.2f s, %.1f positions/s\n", s.Seconds, s.PositionsPerSecond)
}
