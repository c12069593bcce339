package train

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"

	"github.com/draughtsdb/draughtsdb/analysis/match"
	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// GenOptions configure self-play.
type GenOptions struct {
	Variant *rules.Variant
	// Dir receives the chunks (games-NNNNN.bin).
	Dir string
	// Games is the number of games wanted in Dir (rounded up to whole
	// chunks); chunks already there count and are not played again.
	Games int
	// ChunkGames is the number of games per chunk file (100 if 0).
	ChunkGames int
	// Seed makes the games: chunk i is played from a generator seeded by
	// Seed and i, so the same options give the same files.
	Seed uint64
	// Depth is the engine's fixed search depth per move.
	Depth int
	// RandomPlies: after the ballot, up to this many random legal plies
	// (their number drawn per game), so that games differ.
	RandomPlies int
	// MaxPlies ends a game as a draw after that many plies (200 if 0).
	MaxPlies int
	// Adjudicate ends a game for the side whose search score stays at or
	// above this many hundredths of a man for 6 plies in a row (0: 600).
	Adjudicate int
	// Workers play chunks at the same time, each with its own engine (1
	// if 0). A chunk does not depend on which worker plays it or on what
	// that worker played before (every search starts with an empty
	// table), so the files are the same for any number of workers.
	Workers int
}

func (o *GenOptions) fill() {
	if o.ChunkGames <= 0 {
		o.ChunkGames = 100
	}
	if o.MaxPlies <= 0 {
		o.MaxPlies = 200
	}
	if o.Adjudicate <= 0 {
		o.Adjudicate = 600
	}
	if o.Depth <= 0 {
		o.Depth = 6
	}
	if o.Workers <= 0 {
		o.Workers = 1
	}
}

// ChunkPath is the file of chunk i in dir.
func ChunkPath(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("games-%05d.bin", i))
}

// Generate plays the missing chunks of o.Dir. done is called after every
// game with the number of games finished in this run and the number to
// play (may be nil). Cancelling parent stops it after the current game; the
// unfinished chunks (one per worker) are not written, and a run with the
// same options plays them again.
func Generate(parent context.Context, o GenOptions, done func(n, total int)) error {
	o.fill()
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return err
	}
	ballots, err := match.Ballots(o.Variant)
	if err != nil {
		return fmt.Errorf("ballots of %s: %w", o.Variant.Name, err)
	}
	if len(ballots) == 0 {
		return fmt.Errorf("%s has no ballots", o.Variant.Name)
	}
	chunks := (o.Games + o.ChunkGames - 1) / o.ChunkGames
	var todo []int
	for i := 0; i < chunks; i++ {
		if _, err := os.Stat(ChunkPath(o.Dir, i)); err != nil {
			todo = append(todo, i)
		}
	}
	total := len(todo) * o.ChunkGames
	// Chunks are handed out in order; done is called from one goroutine
	// at a time, with the games finished across the workers.
	var (
		mu    sync.Mutex
		next  int
		n     int
		first error
	)
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
		cancel()
	}
	var wg sync.WaitGroup
	for range min(o.Workers, len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			eng := search.NewEngine(4)
			for {
				mu.Lock()
				if next == len(todo) || ctx.Err() != nil {
					mu.Unlock()
					return
				}
				i := todo[next]
				next++
				mu.Unlock()
				rng := rand.New(rand.NewPCG(o.Seed, uint64(i)))
				var recs []Record
				for g := 0; g < o.ChunkGames; g++ {
					if err := ctx.Err(); err != nil {
						return
					}
					b := &ballots[rng.IntN(len(ballots))]
					recs = append(recs, playGame(ctx, eng, b.Pos, rng, &o)...)
					mu.Lock()
					n++
					if done != nil {
						done(n, total)
					}
					mu.Unlock()
				}
				if ctx.Err() != nil {
					return
				}
				if err := writeChunk(ChunkPath(o.Dir, i), o.Variant, recs); err != nil {
					fail(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	// The caller's cancellation, not ours after a failure.
	return parent.Err()
}

// playGame plays one self-play game from start and returns its quiet
// positions with its result.
func playGame(ctx context.Context, eng *search.Engine, start rules.Position, rng *rand.Rand, o *GenOptions) []Record {
	pos := start
	hist := []uint64{pos.Hash()}
	var kings rules.DrawCounter
	var recs []Record
	result := uint8(1)
	random := rng.IntN(o.RandomPlies + 1)
	winning := [2]int{} // plies in a row each side's score was decisive
	var buf []rules.Move
	for ply := 0; ; ply++ {
		buf = pos.LegalMoves(buf[:0])
		if len(buf) == 0 {
			if pos.SideToMove() == rules.White {
				result = 0
			} else {
				result = 2
			}
			break
		}
		if rules.Repetitions(hist) >= 2 || kings.Drawn(pos.Variant()) || ply >= o.MaxPlies {
			break
		}
		var m rules.Move
		score := 0
		if ply < random {
			m = buf[rng.IntN(len(buf))]
		} else {
			r := eng.Search(ctx, pos, search.Options{Depth: o.Depth, History: hist[:len(hist)-1]}, nil)
			if ctx.Err() != nil {
				return nil
			}
			m, score = r.Best, r.Score
			us := pos.SideToMove()
			if score >= o.Adjudicate {
				winning[us]++
			} else {
				winning[us] = 0
			}
			if score <= -o.Adjudicate {
				winning[us^1]++
			} else {
				winning[us^1] = 0
			}
		}
		if !buf[0].IsCapture() {
			recs = append(recs, recordOf(&pos, ply, score))
		}
		if winning[rules.White] >= 6 {
			result = 2
			break
		}
		if winning[rules.Black] >= 6 {
			result = 0
			break
		}
		kings.Update(&pos, &m)
		pos.Play(&m)
		hist = append(hist, pos.Hash())
	}
	for i := range recs {
		recs[i].Result = result
	}
	return recs
}
