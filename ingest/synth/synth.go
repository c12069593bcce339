// Package synth writes synthetic, legal draughts games as PDN, for
// benchmarks and tests: the same seed gives the same games, byte for byte.
//
// Each game is a random walk over the legal moves from the variant's
// initial position (captures are compulsory anyway), 30 to 130 plies long
// or until a side cannot move; the result is the loss of the side without a
// move, or else decided by material (a king counts as three men), a draw
// when even. Players come from a pool of 2,000 names, events group 100
// games, dates run from 1990 to 2025, so player, event and date queries
// have realistic selectivity.
package synth

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Options describe what to generate.
type Options struct {
	Variant *rules.Variant
	Games   int
	Seed    uint64
}

// Players is the size of the player pool.
const Players = 2000

// Write writes opts.Games games to w.
func Write(w io.Writer, opts Options) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	pw := pdn.NewWriter(bw)
	v := opts.Variant
	var legal []rules.Move
	for i := range opts.Games {
		rng := rand.New(rand.NewPCG(opts.Seed, uint64(i)))
		g := game(v, i, rng, &legal)
		if err := pw.WriteGame(g); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func game(v *rules.Variant, i int, rng *rand.Rand, legal *[]rules.Move) *pdn.Game {
	white := rng.IntN(Players)
	black := (white + 1 + rng.IntN(Players-1)) % Players
	year := 1990 + rng.IntN(36)
	g := &pdn.Game{Tags: []pdn.Tag{
		{Name: "Event", Value: fmt.Sprintf("Synthetic Open %d", i/100+1)},
		{Name: "Site", Value: "draughtsdb gen"},
		{Name: "Date", Value: fmt.Sprintf("%04d.%02d.%02d", year, 1+rng.IntN(12), 1+rng.IntN(28))},
		{Name: "Round", Value: fmt.Sprint(i%100/10 + 1)},
		{Name: "White", Value: fmt.Sprintf("Player %04d", white)},
		{Name: "Black", Value: fmt.Sprintf("Player %04d", black)},
		{Name: "Result", Value: ""},
		{Name: "GameType", Value: pdn.FullGameType(fmt.Sprint(v.GameType))},
	}}
	pos := v.StartPosition()
	length := 30 + rng.IntN(101)
	number := 1
	result := ""
	for ply := 0; ; ply++ {
		*legal = pos.LegalMoves((*legal)[:0])
		if len(*legal) == 0 {
			result = winFor(v, pos.SideToMove().Opponent())
			break
		}
		if ply == length {
			result = byMaterial(v, &pos)
			break
		}
		m := &(*legal)[rng.IntN(len(*legal))]
		pm := pdn.Move{Text: rules.MoveText(*legal, m, v.DefaultNotation)}
		if pos.SideToMove() == v.FirstToMove {
			pm.Number = int32(number)
		} else {
			number++
		}
		g.Moves = append(g.Moves, pm)
		pos.Play(m)
	}
	g.Tags[6].Value = result
	g.Result = result
	return g
}

func byMaterial(v *rules.Variant, p *rules.Position) string {
	wm, wk := p.Count(rules.White)
	bm, bk := p.Count(rules.Black)
	switch w, b := wm+3*wk, bm+3*bk; {
	case w > b:
		return winFor(v, rules.White)
	case b > w:
		return winFor(v, rules.Black)
	}
	if v == rules.International {
		return "1-1"
	}
	return "1/2-1/2"
}

func winFor(v *rules.Variant, c rules.Color) string {
	points := v == rules.International
	switch {
	case c == rules.White && points:
		return "2-0"
	case c == rules.White:
		return "1-0"
	case points:
		return "0-2"
	}
	return "0-1"
}
