package replay

import (
	"strings"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Result is a game's outcome.
type Result uint8

const (
	ResultUnknown Result = iota // "*": not known, or the game is unfinished
	WhiteWins                   // 1-0 / 2-0
	Draw                        // 1/2-1/2 / 1-1
	BlackWins                   // 0-1 / 0-2
	DoubleForfeit               // 0-0
)

// ParseResult reads every result form found in real files: 1-0 0-1
// 1/2-1/2 ½-½ 2-0 1-1 0-2 0-0 and *. ok is false for anything else (a
// match score such as 4-6, which says nothing certain about one game).
func ParseResult(s string) (r Result, ok bool) {
	switch strings.TrimSpace(s) {
	case "1-0", "2-0":
		return WhiteWins, true
	case "0-1", "0-2":
		return BlackWins, true
	case "1/2-1/2", "½-½", "1-1", "1/2":
		return Draw, true
	case "0-0":
		return DoubleForfeit, true
	case "*", "":
		return ResultUnknown, true
	}
	return ResultUnknown, false
}

// usesPointScores reports whether the variant's standard result writes two
// points for a win (International draughts, FMJD).
func usesPointScores(v *rules.Variant) bool { return v == rules.International }

// Format writes r in the standard form of variant v: 2-0 / 1-1 / 0-2 for
// International draughts, 1-0 / 1/2-1/2 / 0-1 for the others.
func (r Result) Format(v *rules.Variant) string {
	points := usesPointScores(v)
	switch r {
	case WhiteWins:
		if points {
			return "2-0"
		}
		return "1-0"
	case BlackWins:
		if points {
			return "0-2"
		}
		return "0-1"
	case Draw:
		if points {
			return "1-1"
		}
		return "1/2-1/2"
	case DoubleForfeit:
		return "0-0"
	}
	return "*"
}

// String is the 1-0 form.
func (r Result) String() string { return r.Format(nil) }
