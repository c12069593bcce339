package replay

import (
	"fmt"
	"strings"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// explainIllegal says, as precisely as the position allows, why the parsed
// move text (r.mt, with r.legal generated) is not a legal move. It only
// explains; the verdict (illegal) is already made.
func (r *Replayer) explainIllegal(pos *rules.Position) string {
	mt, v, b := &r.mt, pos.Variant(), pos.Board()
	side := pos.SideToMove()
	legalList := r.legalList(pos, 12)
	if len(r.legal) == 0 {
		return fmt.Sprintf("%s has no legal move: the game was already over", side)
	}
	if mt.short {
		return fmt.Sprintf("no legal move of a piece on the %c-file ends on %s (legal: %s)", 'a'+mt.shortFile-1, sqName(b, v, mt.sq[0]), legalList)
	}
	from, to := mt.sq[0], mt.sq[mt.n-1]
	pc := pos.Piece(from)
	switch {
	case pc == rules.Empty:
		return fmt.Sprintf("there is no piece on %s (legal: %s)", sqName(b, v, from), legalList)
	case pc.Color() != side:
		return fmt.Sprintf("the piece on %s is %s's, and %s is to move (legal: %s)", sqName(b, v, from), pc.Color(), side, legalList)
	}
	captures := r.legal[0].IsCapture()
	fromHere := 0
	for i := range r.legal {
		if r.legal[i].From() == from {
			fromHere++
		}
	}
	// English men never capture backwards.
	if !v.MenCaptureBackward && !pc.IsKing() && mt.capture && backwards(b, side, from, to) {
		return fmt.Sprintf("men capture only forwards in %s draughts (legal: %s)", v.Name, legalList)
	}
	if captures {
		most := 0
		for i := range r.legal {
			most = max(most, r.legal[i].CaptureCount())
		}
		// A capture chain that stops on a square where it must go on.
		for i := range r.legal {
			m := &r.legal[i]
			if m.From() != from {
				continue
			}
			r.path = m.Path(r.path[:0])
			for _, sq := range r.path[:len(r.path)-1] {
				if sq == to {
					return fmt.Sprintf("the capture does not stop on %s: a started capture must be finished (legal: %s)", sqName(b, v, to), legalList)
				}
			}
		}
		if v.MajorityCapture && most > 1 {
			return fmt.Sprintf("majority rule: the capture must take the most pieces, %d here (legal: %s)", most, legalList)
		}
		if fromHere == 0 {
			return fmt.Sprintf("a capture is compulsory (legal: %s)", legalList)
		}
	}
	return fmt.Sprintf("%s cannot move to %s (legal: %s)", sqName(b, v, from), sqName(b, v, to), legalList)
}

// backwards reports whether to lies behind from for side (towards its own
// back row).
func backwards(b *rules.Board, side rules.Color, from, to int) bool {
	_, rf := b.Coords(from)
	_, rt := b.Coords(to)
	if side == rules.White {
		return rt < rf
	}
	return rt > rf
}

func sqName(b *rules.Board, v *rules.Variant, sq int) string {
	if v.DefaultNotation == rules.Algebraic {
		return b.Algebraic(sq)
	}
	return fmt.Sprint(sq)
}

// legalList writes up to n legal moves of r.legal in the variant's notation.
func (r *Replayer) legalList(pos *rules.Position, n int) string {
	v := pos.Variant()
	var parts []string
	for i := range r.legal {
		if i == n {
			parts = append(parts, fmt.Sprintf("and %d more", len(r.legal)-n))
			break
		}
		parts = append(parts, rules.MoveText(v, r.legal, &r.legal[i], v.DefaultNotation))
	}
	return strings.Join(parts, ", ")
}
