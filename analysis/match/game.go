package match

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/dxp"
	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Reason is why a game ended, as its Termination tag says.
type Reason string

// The reasons. A king-move rule's name depends on the variant
// (KingRule: "25-move rule" in International, "15-move rule" in Russian).
const (
	NoLegalMove Reason = "no legal move" // the side to move has none: it loses (wins in antidraughts)
	FirstKing   Reason = "first king"    // breakthrough: the first king wins
	Repetition  Reason = "threefold repetition"
	Rule16      Reason = "16-move rule" // International: 3 pieces with a king against a lone king
	Rule5       Reason = "5-move rule"  // International: 2 pieces (or 1) with a king against a lone king
	MoveLimit   Reason = "move limit"   // Options.MaxPlies plies played without a decision
	// Forfeits: the engine at fault loses.
	TimeForfeit Reason = "time forfeit" // no move within the timeout
	Crash       Reason = "engine crash" // the process ended or the connection dropped
	IllegalMove Reason = "illegal move"
	EngineError Reason = "engine error" // any other failure to move (refused game, protocol error)
	Resignation Reason = "resignation"  // a DXP engine gave up
	DrawClaim   Reason = "draw claimed" // a DXP engine ended the game as drawn
)

// KingRule is the name of v's rule on king moves without captures
// (rules.DrawCounter, Variant.DrawKingPlies): "25-move rule" (each side 25
// moves) in International, "15-move rule" in Russian.
func KingRule(v *rules.Variant) Reason {
	return Reason(strconv.Itoa(v.DrawKingPlies/2) + "-move rule")
}

// IsForfeit reports whether r ends a game by an engine's failure.
func (r Reason) IsForfeit() bool {
	switch r {
	case TimeForfeit, Crash, IllegalMove, EngineError:
		return true
	}
	return false
}

// ErrIllegalMove: an engine's move that is not legal (or that Frisian's
// king-move limit forbids).
var ErrIllegalMove = errors.New("match: illegal move")

// forfeitReason classifies a player's error.
func forfeitReason(err error) Reason {
	switch {
	case errors.Is(err, ErrResigned):
		return Resignation
	case errors.Is(err, ErrDrawClaim):
		return DrawClaim
	case errors.Is(err, hub.ErrTimeout), errors.Is(err, dxp.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return TimeForfeit
	case errors.Is(err, hub.ErrEngineExited), errors.Is(err, dxp.ErrDisconnected):
		return Crash
	case errors.Is(err, ErrIllegalMove), errors.Is(err, hub.ErrProtocol), errors.Is(err, dxp.ErrIllegal):
		return IllegalMove
	}
	return EngineError
}

// Game is one game of a match: the schedule, the play so far and, once
// over, how it ended.
type Game struct {
	// Round is the game's number in the match (1-based): its PDN Round
	// and its ordinal in the match's source.
	Round   int
	Opening *Opening
	// AWhite: engine A plays White (odd rounds).
	AWhite       bool
	White, Black string // the players' names in the PDN
	// Start is where the engines start (the opening's position), Moves
	// the plies they played since, Pos the current position, History the
	// hashes of Start and of the position after every move (the last is
	// Pos's).
	Start   rules.Position
	Moves   []rules.Move
	Pos     rules.Position
	History []uint64
	// KingMoves is Frisian's king-move counter before Pos (openings
	// included).
	KingMoves rules.KingMoveCounter
	// Result, Reason and, for a forfeit, Detail (the engine's error) are
	// set when the game is over.
	Result replay.Result
	Reason Reason
	Detail string
	// Ended is when the game ended (its Date tag).
	Ended time.Time

	kingPlies rules.DrawCounter
	ending    rules.EndingCounter
	// kingStart is KingMoves at Start.
	kingStart rules.KingMoveCounter
}

// engineGame is g as an engine searches it: Start, the moves since and
// the king-move counter at Start (the opening's line included).
func (g *Game) engineGame() engine.Game {
	k := g.kingStart
	return engine.Game{Start: g.Start, Moves: g.Moves, KingMoves: &k}
}

func newGame(round int, o *Opening) *Game {
	g := &Game{Round: round, Opening: o, AWhite: round%2 == 1, Start: o.Pos, Pos: o.Pos,
		History: []uint64{o.Pos.Hash()}}
	p := o.Start
	for i := range o.Line {
		g.KingMoves.Update(&p, &o.Line[i])
		p.Play(&o.Line[i])
	}
	g.ending.Update(&g.Pos)
	g.kingStart = g.KingMoves
	return g
}

// play makes move m (legal in g.Pos) and updates the draw counters.
func (g *Game) play(m rules.Move) {
	g.kingPlies.Update(&g.Pos, &m)
	g.KingMoves.Update(&g.Pos, &m)
	g.Pos.Play(&m)
	g.Moves = append(g.Moves, m)
	g.History = append(g.History, g.Pos.Hash())
	g.ending.Update(&g.Pos)
}

// legal finds m among the legal moves of g.Pos allowed by the king-move
// limit.
func (g *Game) legal(m *rules.Move) (rules.Move, bool) {
	moves := g.KingMoves.Filter(&g.Pos, g.Pos.LegalMoves(nil))
	for i := range moves {
		if moves[i].SameAs(m) {
			return moves[i], true
		}
	}
	return rules.Move{}, false
}

// adjudicate decides g.Pos by the rules, in this order: the variant's Win
// rule (no legal move, breakthrough's first king), threefold repetition,
// the king-move rule, International's 16- and 5-move endgame rules, and
// the move limit (maxPlies plies played by the engines).
func (g *Game) adjudicate(maxPlies int) (replay.Result, Reason, bool) {
	v := g.Pos.Variant()
	// Frisian: a side whose only moves are a 4th move in a row of one king
	// has no move the game allows, and loses (KingMoves.Outcome).
	switch g.KingMoves.Outcome(&g.Pos) {
	case rules.WhiteWins:
		return replay.WhiteWins, winReason(&g.Pos), true
	case rules.BlackWins:
		return replay.BlackWins, winReason(&g.Pos), true
	}
	switch {
	case rules.Repetitions(g.History) >= 2:
		return replay.Draw, Repetition, true
	case g.kingPlies.Drawn(v):
		return replay.Draw, KingRule(v), true
	case g.ending.Drawn():
		if g.ending.Rule() == 16 {
			return replay.Draw, Rule16, true
		}
		return replay.Draw, Rule5, true
	case maxPlies > 0 && len(g.Moves) >= maxPlies:
		return replay.Draw, MoveLimit, true
	}
	return replay.ResultUnknown, "", false
}

func winReason(p *rules.Position) Reason {
	if p.Variant().Win == rules.FirstKingWins {
		if _, k := p.Count(rules.White); k > 0 {
			return FirstKing
		}
		if _, k := p.Count(rules.Black); k > 0 {
			return FirstKing
		}
	}
	return NoLegalMove
}

// forfeit ends g by side's error: it loses (a draw for a draw claim).
func (g *Game) forfeit(side rules.Color, err error) {
	g.Reason = forfeitReason(err)
	g.Detail = err.Error()
	switch {
	case g.Reason == DrawClaim:
		g.Result = replay.Draw
	case side == rules.White:
		g.Result = replay.BlackWins
	default:
		g.Result = replay.WhiteWins
	}
}

// PDN writes the finished game: the standard tags (Event, Site, Date,
// Round, White, Black, Result by the variant's first-mover convention),
// GameType (or a Variant tag for Killer, which has none), FEN when the
// game does not start at the initial position, Opening (a ballot's
// name), Termination (the Reason), Forfeit (the engine's error, capped),
// Match (the match key, to find its games), then the opening's moves and
// the engines' in the variant's notation.
func (g *Game) PDN(event, site, key string) []byte {
	o := g.Opening
	v := g.Pos.Variant()
	result := g.Result.Format(v)
	tags := []pdn.Tag{
		{Name: "Event", Value: event}, {Name: "Site", Value: site},
		{Name: "Date", Value: g.Ended.UTC().Format("2006.01.02")}, {Name: "Round", Value: strconv.Itoa(g.Round)},
		{Name: "White", Value: g.White}, {Name: "Black", Value: g.Black}, {Name: "Result", Value: result},
	}
	if v.GameType == 0 {
		tags = append(tags, pdn.Tag{Name: "Variant", Value: v.Name})
	} else {
		tags = append(tags, pdn.Tag{Name: "GameType", Value: pdn.FullGameType(strconv.Itoa(v.GameType))})
	}
	initial := v.StartPosition()
	if o.Start.Hash() != initial.Hash() || o.Start.SideToMove() != initial.SideToMove() {
		tags = append(tags, pdn.Tag{Name: "FEN", Value: o.Start.FEN()})
	}
	if o.Name != "" {
		tags = append(tags, pdn.Tag{Name: "Opening", Value: o.Name})
	}
	tags = append(tags, pdn.Tag{Name: "Termination", Value: string(g.Reason)})
	if g.Detail != "" {
		tags = append(tags, pdn.Tag{Name: "Forfeit", Value: pdn.Clip(g.Detail, 200)})
	}
	tags = append(tags, pdn.Tag{Name: "Match", Value: key})

	pg := &pdn.Game{Tags: tags, Result: result}
	p := o.Start
	side := p.SideToMove()
	number := 1
	add := func(m *rules.Move) {
		legal := p.LegalMoves(nil)
		pm := pdn.Move{Text: rules.FormatMove(v, m, v.DefaultNotation, rules.Ambiguous(legal, m))}
		switch {
		case side == v.FirstToMove:
			pm.Number = int32(number)
		case len(pg.Moves) == 0:
			pm.Number, pm.Black = int32(number), true
		}
		if side != v.FirstToMove {
			number++
		}
		side = side.Opponent()
		pg.Moves = append(pg.Moves, pm)
		p.Play(m)
	}
	for i := range o.Line {
		add(&o.Line[i])
	}
	for i := range g.Moves {
		add(&g.Moves[i])
	}
	var buf bytes.Buffer
	w := pdn.NewWriter(&buf)
	w.WriteGame(pg) //nolint:errcheck // no comments, variations or setups: nothing it could refuse
	return buf.Bytes()
}

// String is the game's live line: "game 3: draughtsdb 0.1 (A) - Scan 3.1
// 1-1 threefold repetition, 87 plies".
func (g *Game) String() string {
	s := fmt.Sprintf("game %d: %s - %s  %s  %s, %d plies", g.Round, g.White, g.Black,
		g.Result.Format(g.Pos.Variant()), g.Reason, len(g.Moves))
	if g.Detail != "" {
		s += " (" + pdn.Clip(g.Detail, 120) + ")"
	}
	return s
}
