package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/draughtsdb/draughtsdb/analysis/train"
	"github.com/spf13/cobra"
)

func newTrainCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "train gen|fit",
		Short: "Train the built-in engine's evaluation: self-play games, then a logistic regression on their results",
		Long: `Train the learned evaluation of the built-in engine in two resumable steps:

  draughtsdb train gen --variant V --dir DIR --games N --seed S --depth D
      self-play games of the built-in engine from the variant's ballots and a
      few random plies, written to DIR in chunks of 100 games (a chunk that
      exists is kept: the same command run again plays only the missing ones).
  draughtsdb train fit --variant V --dir DIR --out FILE
      fits the pattern evaluation to the games' results (logistic regression,
      Adam), holding out every tenth chunk to report the held-out loss, with a
      checkpoint in DIR after every epoch; FILE is the weights file that
      package search embeds (analysis/search/weights/VARIANT.bin).

See the README's "Training the evaluation" for the recipe of the shipped
weights.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return fmt.Errorf("train: say gen or fit (see --help)")
		},
	}
	cmd.AddCommand(newTrainGenCommand(), newTrainFitCommand())
	return cmd
}

func newTrainFitCommand() *cobra.Command {
	var (
		variant string
		dirs    []string
		out     string
		o       train.FitOptions
		quiet   bool
	)
	cmd := &cobra.Command{
		Use:   "fit --variant V --dir DIR [--dir DIR2 ...] --out FILE [--epochs N] [--rate R] [--l2 X] [--lambda L] [--large-patterns]",
		Short: "Fit the learned evaluation to the results of the games in DIR; write the weights file FILE",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := flagVariant("--variant", variant)
			if err != nil {
				return err
			}
			if len(dirs) == 0 {
				return fmt.Errorf("--dir: required (a directory of games from train gen)")
			}
			if out == "" {
				return fmt.Errorf("--out: required (the weights file to write)")
			}
			switch {
			case o.Epochs < 1:
				return fmt.Errorf("--epochs %d: want 1 or more", o.Epochs)
			case o.Rate <= 0:
				return fmt.Errorf("--rate %g: want more than 0", o.Rate)
			case o.L2 < 0:
				return fmt.Errorf("--l2 %g: want 0 or more", o.L2)
			case o.Lambda < 0 || o.Lambda > 1:
				return fmt.Errorf("--lambda %g: want 0..1", o.Lambda)
			case o.K < 0:
				return fmt.Errorf("--k %g: want 0 (fitted) or more", o.K)
			}
			o.Variant, o.Dirs = v, dirs
			bar := newProgress(quiet, "fit "+v.Name, "positions", 0)
			current := 0 // the epoch under way: those before it are in the checkpoint
			data, rep, err := train.Fit(cmd.Context(), o, func(epoch, n, total int) {
				current = epoch
				bar.describe(fmt.Sprintf("fit %s, epoch %d/%d", v.Name, epoch, o.Epochs))
				bar.setTotal(int64(total))
				bar.set(int64(n))
			})
			bar.finish()
			if err != nil {
				kept := "the checkpoint of the last finished epoch, if any, is kept; run it again to go on"
				if current == 1 {
					kept = "no epoch had finished; run it again to start over"
				} else if current > 1 {
					kept = fmt.Sprintf("%d of %d epochs finished and are kept in the checkpoint; run it again to go on", current-1, o.Epochs)
				}
				return interrupted(cmd.Context(), err, "train fit", kept)
			}
			if err := os.WriteFile(out, data, 0o644); err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%s: %d training positions, %d held out; logistic scale K = %.1f\n", v.Name, rep.Train, rep.Held, rep.K)
			fmt.Fprintf(w, "held-out loss: hand-set evaluation %.5f, this build's evaluation %.5f, self-play search scores %.5f\n",
				rep.HandSetLoss, rep.EngineLoss, rep.SearchLoss)
			if rep.Unseen > 0 {
				fmt.Fprintf(w, "held out and in no training chunk: %d positions; hand-set evaluation %.5f, this build's evaluation %.5f, self-play search scores %.5f\n",
					rep.Unseen, rep.UnseenHandSetLoss, rep.UnseenEngineLoss, rep.UnseenSearchLoss)
			}
			for i := range rep.Loss {
				fmt.Fprintf(w, "epoch %d: training loss %.5f, held-out loss %.5f", i+1, rep.TrainLoss[i], rep.Loss[i])
				if j := i - rep.ResumedEpoch; j >= 0 && j < len(rep.UnseenLoss) {
					fmt.Fprintf(w, ", unseen %.5f", rep.UnseenLoss[j])
				}
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "wrote %s (%d bytes)\n", out, len(data))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&variant, "variant", "international", "variant: "+variantList())
	f.StringArrayVar(&dirs, "dir", nil, "directory of games from train gen (repeat for several)")
	f.StringVar(&out, "out", "", "the weights file to write (analysis/search/weights/VARIANT.bin to embed it)")
	f.StringVar(&o.Checkpoint, "checkpoint", "", "the fit's checkpoint file (default: fit-checkpoint.gob in the first --dir); remove it to start over")
	f.IntVar(&o.Epochs, "epochs", 4, "passes over the training positions")
	f.Uint64Var(&o.Seed, "seed", 1, "random seed of the order of the positions")
	f.Float64Var(&o.Rate, "rate", 2, "Adagrad learning rate, in hundredths of a man")
	f.Float64Var(&o.L2, "l2", 1e-4, "weight decay of the pattern weights")
	f.Float64Var(&o.Lambda, "lambda", 1, "weight of the game result in the target (the rest: the self-play search score)")
	f.BoolVar(&o.LargePatterns, "large-patterns", false, "International (10x10): fit the large patterns too, 4 blocks of 6 ranks by 4 files (3^12 weights each, a 9 MB weights file); without it the file has the 4x4 blocks only")
	f.Float64Var(&o.K, "k", 0, "logistic scale in hundredths of a man (0: fitted to the self-play search scores)")
	f.BoolVar(&quiet, "quiet", false, "no progress bar")
	return cmd
}

func newTrainGenCommand() *cobra.Command {
	var (
		variant string
		o       train.GenOptions
		quiet   bool
	)
	cmd := &cobra.Command{
		Use:   "gen --variant V --dir DIR [--games N] [--seed S] [--depth D] [--random-plies N]",
		Short: "Play self-play games of the built-in engine into DIR (resumable, reproducible from --seed)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := flagVariant("--variant", variant)
			if err != nil {
				return err
			}
			if o.Dir == "" {
				return fmt.Errorf("--dir: required (the directory of the games' chunks)")
			}
			if o.Games <= 0 {
				return fmt.Errorf("--games %d: want 1 or more", o.Games)
			}
			if o.Depth < 1 || o.Depth > 30 {
				return fmt.Errorf("--depth %d: want 1..30", o.Depth)
			}
			if o.Workers < 1 {
				return fmt.Errorf("--workers %d: want 1 or more", o.Workers)
			}
			if o.RandomPlies < 0 {
				return fmt.Errorf("--random-plies %d: want 0 or more", o.RandomPlies)
			}
			o.Variant = v
			bar := newProgress(quiet, "self-play "+v.Name, "games", 0)
			err = train.Generate(cmd.Context(), o, func(n, total int) {
				bar.setTotal(int64(total))
				bar.set(int64(n))
			})
			bar.finish()
			if err != nil {
				// Only whole chunks are kept: the games of the chunk under
				// way are played again (the same ones: the seed decides).
				chunks := 0
				for i := 0; i < (o.Games+99)/100+1; i++ {
					if _, serr := os.Stat(train.ChunkPath(o.Dir, i)); serr == nil {
						chunks++
					}
				}
				return interrupted(cmd.Context(), err, "train gen",
					fmt.Sprintf("%d chunks of games are kept in %s; run it again to go on", chunks, o.Dir))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&variant, "variant", "international", "variant: "+variantList())
	f.StringVar(&o.Dir, "dir", "", "directory of the games' chunks (games-NNNNN.bin)")
	f.IntVar(&o.Games, "games", 1000, "games wanted in --dir, in chunks of 100 (those there already count)")
	f.Uint64Var(&o.Seed, "seed", 1, "random seed; the same seed and options give the same games")
	f.IntVar(&o.Depth, "depth", 6, "search depth per move")
	f.IntVar(&o.RandomPlies, "random-plies", 6, "up to this many random plies after the ballot (drawn per game)")
	f.IntVar(&o.MaxPlies, "max-plies", 200, "a game still going after this many plies is a draw")
	f.IntVar(&o.Workers, "workers", runtime.NumCPU(), "chunks played at the same time, one core each (the games do not depend on it)")
	f.BoolVar(&quiet, "quiet", false, "no progress bar")
	return cmd
}
