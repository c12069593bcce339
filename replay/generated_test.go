package replay_test

import (
	"flag"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

var long = flag.Bool("long", false, "run the generated-games property test on 1,000,000 games per variant and form instead of 20,000")

// forms are the ways draughtsdb writes moves: numeric and algebraic
// squares, each start-end (the full path only where another legal move
// shares start and end) and full path.
var forms = []struct {
	name     string
	notation synth.Notation
	full     bool
}{
	{"numeric", synth.Numeric, false},
	{"numeric-full", synth.Numeric, true},
	{"algebraic", synth.Algebraic, false},
	{"algebraic-full", synth.Algebraic, true},
}

// TestGeneratedGamesReplay is the property that replay accepts every game
// the generator writes, in every form we write, and resolves each move text
// to the very move that was played: same start, end, captured pieces and
// path, so the game re-normalises to the same moves. It found the games
// rejected as ambiguous when a full path (h4:f6:h8) was also a subsequence
// of a longer capture between the same squares (24 in 30,000 Russian games
// of seed 1, 1 in 20,000 English).
func TestGeneratedGamesReplay(t *testing.T) {
	games := 20_000
	if *long {
		games = 1_000_000
	}
	if testing.Short() {
		games = 2_000
	}
	for _, v := range rules.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			for _, f := range forms {
				opts := synth.Options{Variant: v, Seed: 1, Notation: f.notation, FullPath: f.full}
				checkGenerated(t, opts, f.name, games)
			}
		})
	}
}

// checkGenerated replays games 0..n-1 of opts on all cores and fails on
// the first few that do not come back as generated.
func checkGenerated(t *testing.T, opts synth.Options, form string, n int) {
	t.Helper()
	var next, failures atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			r := replay.NewReplayer(replay.Options{})
			var g replay.Game
			for {
				i := int(next.Add(1) - 1)
				if i >= n || failures.Load() >= 5 {
					return
				}
				pg, moves := synth.Game(opts, i)
				if err := sameGame(r, &g, pg, moves, opts.Variant); err != nil {
					failures.Add(1)
					t.Errorf("%s %s seed %d game %d: %v", opts.Variant.Name, form, opts.Seed, i+1, err)
				}
			}
		})
	}
	wg.Wait()
}

// sameGame replays pg and compares the result with the moves played.
func sameGame(r *replay.Replayer, g *replay.Game, pg *pdn.Game, moves []rules.Move, v *rules.Variant) error {
	if err := r.Replay(pg, nil, g); err != nil {
		return err
	}
	if g.Variant != v {
		return fmt.Errorf("replayed as %s", g.Variant.Name)
	}
	if len(g.Warnings) != 0 {
		return fmt.Errorf("warnings %q", g.Warnings)
	}
	if len(g.Moves) != len(moves) {
		return fmt.Errorf("%d moves replayed, %d played", len(g.Moves), len(moves))
	}
	var got, want []int
	for k := range moves {
		a, b := &g.Moves[k], &moves[k]
		got, want = a.Path(got[:0]), b.Path(want[:0])
		if !a.SameAs(b) || !slices.Equal(got, want) {
			return fmt.Errorf("ply %d %q resolved to %s, played %s", k+1, plyText(pg, k),
				replay.FormatMove(v, a, v.DefaultNotation, true), replay.FormatMove(v, b, v.DefaultNotation, true))
		}
	}
	return nil
}

// plyText is the text of ply k (0-based) of pg.
func plyText(pg *pdn.Game, k int) string {
	for _, m := range pg.Moves {
		if m.Text == "" {
			continue
		}
		if k == 0 {
			return m.Text
		}
		k--
	}
	return ""
}
