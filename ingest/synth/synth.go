// Package synth writes synthetic, legal draughts games as PDN, for
// benchmarks and tests: the same seed gives the same games, byte for byte.
//
// Each game is a random walk over the legal moves from the variant's
// initial position (captures are compulsory anyway; Frisian's limit of
// three moves in a row with one king is kept, rules.KingMoveCounter), 30
// to 130 plies long or until the variant's Win rule decides it
// (rules.Position.Outcome: a side without a move loses, or wins in
// antidraughts; the first king wins in breakthrough); an unfinished game
// is decided by material (a king counts as three men), a draw when even, written in the variant's standard form with the first mover's
// score first (replay.Result.Format: an English Black win is "1-0").
// Players come from a pool of 2,000 names, events group 100 games, dates
// run from 1990 to 2025, so player, event and date queries have realistic
// selectivity.
//
// Moves are written as draughtsdb writes them (Options.Notation and
// Options.FullPath): by default in the variant's notation, start and end,
// with the full path only when another legal move shares them
// (rules.MoveText). Every form must replay to the same moves; the property
// test in package replay checks that on 20,000 games per variant and form.
package synth

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Options describe what to generate.
type Options struct {
	Variant *rules.Variant
	Games   int
	Seed    uint64
	// Notation names the squares; the zero value is the variant's own.
	Notation Notation
	// FullPath writes every landing square of every capture. Otherwise a
	// capture is written start and end, with its full path only when
	// another legal move shares them.
	FullPath bool
}

// Notation is how moves name squares.
type Notation uint8

const (
	DefaultNotation Notation = iota // the variant's DefaultNotation
	Numeric                         // 32-28, 28x19x10
	Algebraic                       // c3-d4, c3:e5:g7 (English: seen from Black, see rules.FormatMove)
)

// Notations lists the names ParseNotation reads, in order.
var Notations = []string{"default", "numeric", "algebraic"}

// ParseNotation reads "default", "numeric" or "algebraic".
func ParseNotation(s string) (Notation, error) {
	for i, name := range Notations {
		if s == name {
			return Notation(i), nil
		}
	}
	return 0, fmt.Errorf("notation %q: want one of %s", s, strings.Join(Notations, ", "))
}

func (n Notation) String() string {
	if int(n) < len(Notations) {
		return Notations[n]
	}
	return fmt.Sprintf("Notation(%d)", n)
}

// rules returns the rules notation n stands for in variant v.
func (n Notation) rules(v *rules.Variant) rules.Notation {
	switch n {
	case Numeric:
		return rules.Numeric
	case Algebraic:
		return rules.Algebraic
	}
	return v.DefaultNotation
}

// Players is the size of the player pool.
const Players = 2000

// Write writes opts.Games games to w.
func Write(w io.Writer, opts Options) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	pw := pdn.NewWriter(bw)
	var legal []rules.Move
	for i := range opts.Games {
		g, _ := game(opts, i, &legal, false)
		if err := pw.WriteGame(g); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// Game returns game i of what Write writes for opts (i counts from 0; the
// game does not depend on opts.Games) and the moves it plays from the
// variant's initial position, for tests that check what replay makes of
// the text.
func Game(opts Options, i int) (*pdn.Game, []rules.Move) {
	legal := make([]rules.Move, 0, 64)
	return game(opts, i, &legal, true)
}

func game(opts Options, i int, legal *[]rules.Move, keepMoves bool) (*pdn.Game, []rules.Move) {
	v := opts.Variant
	notation := opts.Notation.rules(v)
	rng := rand.New(rand.NewPCG(opts.Seed, uint64(i)))
	var moves []rules.Move
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
	if v.GameType == 0 {
		// No PDN number (Killer): the variant's name, as online sites write it.
		g.Tags[7] = pdn.Tag{Name: "Variant", Value: v.Name}
	}
	pos := v.StartPosition()
	length := 30 + rng.IntN(101)
	g.Moves = make([]pdn.Move, 0, length)
	if keepMoves {
		moves = make([]rules.Move, 0, length)
	}
	number := 1
	result := ""
	var kings rules.KingMoveCounter // Frisian's limit on moving one king
	for ply := 0; ; ply++ {
		*legal = pos.LegalMoves((*legal)[:0])
		if v.KingMoveLimit > 0 {
			// When the limit forbids every move (a side whose one movable
			// piece is the king it moved three times), the side has no
			// move and loses, as lidraughts plays it (kings.Outcome).
			*legal = kings.Filter(&pos, *legal)
		}
		// The variant's Win rule decides (no legal move loses, or wins in
		// antidraughts; the first king wins in breakthrough).
		if len(*legal) == 0 || v.Win == rules.FirstKingWins {
			if o := kings.Outcome(&pos); o != rules.Undecided {
				result = winFor(v, rules.White)
				if o == rules.BlackWins {
					result = winFor(v, rules.Black)
				}
				break
			}
		}
		if ply == length {
			result = byMaterial(v, &pos)
			break
		}
		m := &(*legal)[rng.IntN(len(*legal))]
		full := opts.FullPath || rules.Ambiguous(*legal, m)
		pm := pdn.Move{Text: rules.FormatMove(v, m, notation, full)}
		if keepMoves {
			moves = append(moves, *m)
		}
		if pos.SideToMove() == v.FirstToMove {
			pm.Number = int32(number)
		} else {
			number++
		}
		g.Moves = append(g.Moves, pm)
		kings.Update(&pos, m)
		pos.Play(m)
	}
	g.Tags[6].Value = result
	g.Result = result
	return g, moves
}

// byMaterial decides an unfinished game: a king counts as three men.
func byMaterial(v *rules.Variant, p *rules.Position) string {
	wm, wk := p.Count(rules.White)
	bm, bk := p.Count(rules.Black)
	switch w, b := wm+3*wk, bm+3*bk; {
	case w > b:
		return winFor(v, rules.White)
	case b > w:
		return winFor(v, rules.Black)
	}
	return replay.Draw.Format(v)
}

// winFor writes a win for c in v's standard form, the first mover's score
// first (an English Black win is "1-0").
func winFor(v *rules.Variant, c rules.Color) string {
	if c == rules.White {
		return replay.WhiteWins.Format(v)
	}
	return replay.BlackWins.Format(v)
}
