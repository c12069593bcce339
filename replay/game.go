package replay

import (
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Game is a verified game: every move resolved to exactly one legal move.
type Game struct {
	PDN     *pdn.Game      // the game as read
	Variant *rules.Variant // as decided by ResolveVariant
	Basis   Basis          // how the variant was decided
	// Start is the position before the first move; StartFEN its canonical
	// FEN when the game set one up (FEN tag), "" for the variant's initial
	// position (also when a FEN tag spells it out).
	Start    rules.Position
	StartFEN string
	// Moves[i] is ply i+1; Hashes[i] the Zobrist hash of the position after
	// it. Setups lists mid-game /FEN/ setups, which replace the position
	// before the ply they precede.
	Moves  []rules.Move
	Hashes []uint64
	Setups []Setup
	// Tokens[i] is the index in PDN.Moves of the (first) token written for
	// ply i+1, so comments and NAGs can follow the normalised moves.
	Tokens []int32
	// Final is the position after the last move.
	Final rules.Position
	// Result is normalised (see Replayer.Replay); Decided reports that the
	// final position itself decides the game (the side to move has no move).
	Result  Result
	Decided bool
	// Proven is the result the final position proves (the side to move
	// has no move the game allows: WhiteWins or BlackWins), whatever was
	// written; ResultUnknown where the position proves none.
	Proven Result
	// Date is the Date tag as YYYY.MM.DD with ?? for unknown parts.
	Date string
	// White and Black are the players as tagged (see Players), "" when
	// the game names none.
	White, Black string
	// Warnings are remarks that do not reject the game (a result that
	// contradicts the final position, a non-standard result or date),
	// each with its kind (see Warning).
	Warnings []Warning
}

// Setup is a position set up in the middle of a game (/FEN "..."/).
type Setup struct {
	BeforePly int // 1-based ply the setup precedes
	Position  rules.Position
}

// Plies returns the number of moves played.
func (g *Game) Plies() int { return len(g.Moves) }

// reset empties g for reuse, keeping its slices' memory.
func (g *Game) reset() {
	*g = Game{Moves: g.Moves[:0], Hashes: g.Hashes[:0], Setups: g.Setups[:0], Tokens: g.Tokens[:0], Warnings: g.Warnings[:0]}
}

// Clone returns a copy of g for callers that keep games while the Replayer
// reuses its own: the slices are copied; only PDN, the parsed game, is
// shared (the Replayer never changes it, and the PDN reader allocates a new
// one per game).
func (g *Game) Clone() *Game {
	c := *g
	c.Moves = append([]rules.Move(nil), g.Moves...)
	c.Hashes = append([]uint64(nil), g.Hashes...)
	c.Setups = append([]Setup(nil), g.Setups...)
	c.Tokens = append([]int32(nil), g.Tokens...)
	c.Warnings = append([]Warning(nil), g.Warnings...)
	return &c
}
