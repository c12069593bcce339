package replay

import (
	"strings"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Result is a game's outcome by colour. A Result never depends on how it
// was written: "1-0" is a White win in International draughts but a Black
// win in English checkers (see ParseResult).
type Result uint8

const (
	ResultUnknown Result = iota // "*": not known, or the game is unfinished
	WhiteWins                   // 1-0 / 2-0 where White moves first
	Draw                        // 1/2-1/2 / 1-1
	BlackWins                   // 0-1 / 0-2 where White moves first
	DoubleForfeit               // 0-0
)

// outcome is a result as written: from the first mover's side.
type outcome uint8

const (
	outUnknown outcome = iota
	outFirstWins
	outDraw
	outSecondWins
	outDoubleForfeit
)

// ParseResult reads a result as written in a game of variant v. In PDN the
// first number belongs to the side that moves first in the variant (its
// GameType start colour), not to White: in English/American and Pool
// checkers Black moves first, so there "1-0" is a Black win. CheckerBoard
// reads it so, and the files agree: OCA games and PlayStrategy's American
// games that end with Black to move and no legal move are written 0-1. A
// nil v reads the first number as White's.
//
// Every form found in real files is read: 1-0 0-1 1/2-1/2 ½-½ 2-0 1-1 0-2
// 0-0 and *. ok is false for anything else (a match score such as 4-6,
// which says nothing certain about one game).
func ParseResult(v *rules.Variant, s string) (r Result, ok bool) {
	var o outcome
	switch strings.TrimSpace(s) {
	case "1-0", "2-0":
		o = outFirstWins
	case "0-1", "0-2":
		o = outSecondWins
	case "1/2-1/2", "½-½", "1-1", "1/2":
		o = outDraw
	case "0-0":
		o = outDoubleForfeit
	case "*", "":
		o = outUnknown
	default:
		return ResultUnknown, false
	}
	return o.result(firstMover(v)), true
}

func firstMover(v *rules.Variant) rules.Color {
	if v == nil {
		return rules.White
	}
	return v.FirstToMove
}

// result turns a first-mover outcome into a result by colour.
func (o outcome) result(first rules.Color) Result {
	switch o {
	case outFirstWins:
		if first == rules.White {
			return WhiteWins
		}
		return BlackWins
	case outSecondWins:
		if first == rules.White {
			return BlackWins
		}
		return WhiteWins
	case outDraw:
		return Draw
	case outDoubleForfeit:
		return DoubleForfeit
	}
	return ResultUnknown
}

// outcome is r from the first mover's side.
func (r Result) outcome(first rules.Color) outcome {
	switch r {
	case WhiteWins, BlackWins:
		winner := rules.White
		if r == BlackWins {
			winner = rules.Black
		}
		if winner == first {
			return outFirstWins
		}
		return outSecondWins
	case Draw:
		return outDraw
	case DoubleForfeit:
		return outDoubleForfeit
	}
	return outUnknown
}

// Winner reports the side that won, and false for a draw, a double forfeit
// or an unknown result.
func (r Result) Winner() (rules.Color, bool) {
	switch r {
	case WhiteWins:
		return rules.White, true
	case BlackWins:
		return rules.Black, true
	}
	return rules.White, false
}

// usesPointScores reports whether the variant's standard result writes two
// points for a win (International draughts, FMJD).
func usesPointScores(v *rules.Variant) bool { return v == rules.International }

// Format writes r in the standard form of variant v, the first mover's
// score first (see ParseResult): 2-0 / 1-1 / 0-2 for International
// draughts, 1-0 / 1/2-1/2 / 0-1 for the others; so an English Black win is
// "1-0". A nil v writes White's score first.
func (r Result) Format(v *rules.Variant) string {
	points := usesPointScores(v)
	switch r.outcome(firstMover(v)) {
	case outFirstWins:
		if points {
			return "2-0"
		}
		return "1-0"
	case outSecondWins:
		if points {
			return "0-2"
		}
		return "0-1"
	case outDraw:
		if points {
			return "1-1"
		}
		return "1/2-1/2"
	case outDoubleForfeit:
		return "0-0"
	}
	return "*"
}

// String is the 1-0 form with White's score first.
func (r Result) String() string { return r.Format(nil) }
