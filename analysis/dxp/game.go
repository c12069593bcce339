package dxp

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// ErrIllegal: a MOVE that is no legal move of the position it was sent
// in. Every such error is an *IllegalMoveError.
var ErrIllegal = errors.New("dxp: illegal move")

// IllegalMoveError is a MOVE that matches no legal move (or two).
type IllegalMoveError struct {
	Move  Move
	FEN   string // the position it was sent in
	Ply   int    // 1-based ply of the game it would have been
	Legal string // the legal moves, Hub notation, capped
	Why   string
}

func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("dxp: illegal move %s at ply %d in %s: %s (legal: %s)", e.Move, e.Ply, e.FEN, e.Why, e.Legal)
}

// Unwrap makes errors.Is(err, ErrIllegal) hold.
func (e *IllegalMoveError) Unwrap() error { return ErrIllegal }

// String writes the move in Hub notation ("32-28", "28x19x23").
func (m Move) String() string {
	var sb strings.Builder
	sb.WriteString(strconv.Itoa(m.From))
	if len(m.Captured) == 0 {
		sb.WriteByte('-')
		sb.WriteString(strconv.Itoa(m.To))
		return sb.String()
	}
	sb.WriteByte('x')
	sb.WriteString(strconv.Itoa(m.To))
	for _, c := range m.Captured {
		sb.WriteByte('x')
		sb.WriteString(strconv.Itoa(c))
	}
	return sb.String()
}

// MoveOf writes a legal move of International draughts as a MOVE, its
// captured squares ascending; seconds is the time it took (clamped to
// 0..9999).
func MoveOf(m *rules.Move, seconds int) Move {
	seconds = max(0, min(seconds, 9999))
	return Move{Seconds: seconds, From: m.From(), To: m.To(), Captured: m.Captured(nil)}
}

// Resolve finds m among the legal moves of pos: the same from and to
// squares and, as a set, the same captured squares. A capture sent without
// its captured squares (some programs do) is taken when exactly one legal
// capture has that from and to. Anything else is an *IllegalMoveError
// (Ply 0: the caller knows the ply).
func (m Move) Resolve(pos *rules.Position) (rules.Move, error) {
	legal := pos.LegalMoves(nil)
	capt := slices.Clone(m.Captured)
	slices.Sort(capt)
	var exact, loose []int
	var buf [32]int
	for i := range legal {
		l := &legal[i]
		if l.From() != m.From || l.To() != m.To {
			continue
		}
		got := l.Captured(buf[:0])
		if slices.Equal(got, capt) {
			exact = append(exact, i)
		} else if len(capt) == 0 {
			loose = append(loose, i)
		}
	}
	switch {
	case len(exact) == 1:
		return legal[exact[0]], nil
	case len(exact) == 0 && len(loose) == 1:
		return legal[loose[0]], nil
	}
	why := "no legal move has these squares"
	if len(exact)+len(loose) > 1 {
		why = "it matches more than one legal move (give the captured pieces)"
	} else if from := pos.Piece(m.From); from == rules.Empty || from.Color() != pos.SideToMove() {
		why = fmt.Sprintf("no piece of the side to move (%s) on %d", pos.SideToMove(), m.From)
	}
	return rules.Move{}, &IllegalMoveError{Move: m, FEN: pos.FEN(), Legal: legalText(legal), Why: why}
}

// legalText lists moves in Hub notation, capped.
func legalText(legal []rules.Move) string {
	if len(legal) == 0 {
		return "none"
	}
	var sb strings.Builder
	for i := range legal {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if sb.Len() > 100 {
			sb.WriteString("...")
			break
		}
		sb.WriteString(hub.FormatMove(&legal[i]))
	}
	return sb.String()
}

// game is one game's record as both sides of the protocol keep it: the
// start, the moves, the positions' hashes (for repetitions) and the king
// move counter.
type game struct {
	start  rules.Position
	pos    rules.Position
	moves  []rules.Move
	hashes []uint64 // hashes[i] is the position after i plies
	draw   rules.DrawCounter
	ending rules.EndingCounter // FMJD's 16- and 5-move endgame rules
}

func newGame(start rules.Position) *game {
	g := &game{start: start, pos: start, hashes: []uint64{start.Hash()}}
	g.ending.Update(&g.pos)
	return g
}

// play plays a legal move.
func (g *game) play(m rules.Move) {
	g.draw.Update(&g.pos, &m)
	g.pos.Play(&m)
	g.moves = append(g.moves, m)
	g.hashes = append(g.hashes, g.pos.Hash())
	g.ending.Update(&g.pos)
}

// ply is the number of plies played.
func (g *game) ply() int { return len(g.moves) }

// numberAt is the move number and the side to move after ply plies: the
// game's first move is 1, and the number goes up when White is to move
// again (Moby Dam's count, which BACKREQ uses).
func (g *game) numberAt(ply int) (int, rules.Color) {
	n, side := 1, g.start.SideToMove()
	for range ply {
		side = side.Opponent()
		if side == rules.White {
			n++
		}
	}
	return n, side
}

// takeBack goes back to where side is to move at move number n (the
// current position included); false if that is not a point of the game.
func (g *game) takeBack(n int, side rules.Color) bool {
	for ply := len(g.moves); ply >= 0; ply-- {
		if pn, ps := g.numberAt(ply); pn == n && ps == side {
			moves := g.moves[:ply]
			*g = *newGame(g.start)
			for _, m := range moves {
				g.play(m)
			}
			return true
		} else if pn < n {
			return false
		}
	}
	return false
}

// drawn names the draw rule the current position falls under ("" for
// none): the third repetition of the position, the variant's king-move
// limit (International: 25 moves each of kings only, without capture), or
// FMJD's 16- and 5-move endgame rules.
func (g *game) drawn() string {
	if rules.Repetitions(g.hashes) >= 2 {
		return "threefold repetition"
	}
	if g.draw.Drawn(g.pos.Variant()) {
		return "25 moves each of kings only"
	}
	if g.ending.Drawn() {
		// As the match referee decides (analysis/match), so that a
		// server does not play on past a draw its opponent has declared.
		return fmt.Sprintf("the %d-move endgame rule", g.ending.Rule())
	}
	return ""
}

// moveText lists the moves in Hub notation.
func (g *game) moveText() string {
	s := make([]string, len(g.moves))
	for i := range g.moves {
		s[i] = hub.FormatMove(&g.moves[i])
	}
	return strings.Join(s, " ")
}

// checkStart reports why a start position cannot be played ("" if it can):
// DXP is International draughts, so the position must be one of it, with
// no man on its own promotion row and a legal move for the side to move.
func checkStart(p *rules.Position) string {
	if p.Variant() != rules.International {
		return "not an International draughts position"
	}
	for sq := 1; sq <= 5; sq++ {
		if p.Piece(sq) == rules.WhiteMan {
			return fmt.Sprintf("a white man on square %d, its promotion row", sq)
		}
	}
	for sq := 46; sq <= 50; sq++ {
		if p.Piece(sq) == rules.BlackMan {
			return fmt.Sprintf("a black man on square %d, its promotion row", sq)
		}
	}
	if p.IsLost() {
		return fmt.Sprintf("%s, to move, has no legal move", p.SideToMove())
	}
	return ""
}
