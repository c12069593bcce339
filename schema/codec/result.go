package codec

import "github.com/draughtsdb/draughtsdb/replay"

// Result codes: games.result. Every stored game holds one, and the SQL
// functions, migrations and named queries (queries/sql) test them by
// number: they must never change.
const (
	ResultUnknown       int16 = 0 // "*": unknown or unfinished
	ResultWhiteWins     int16 = 1
	ResultDraw          int16 = 2
	ResultBlackWins     int16 = 3
	ResultDoubleForfeit int16 = 4 // 0-0
)

// ResultCode is the games.result code of r.
func ResultCode(r replay.Result) int16 {
	switch r {
	case replay.WhiteWins:
		return ResultWhiteWins
	case replay.Draw:
		return ResultDraw
	case replay.BlackWins:
		return ResultBlackWins
	case replay.DoubleForfeit:
		return ResultDoubleForfeit
	}
	return ResultUnknown
}

// ResultOf is the inverse of ResultCode; a code it does not know is
// replay.ResultUnknown.
func ResultOf(code int16) replay.Result {
	switch code {
	case ResultWhiteWins:
		return replay.WhiteWins
	case ResultDraw:
		return replay.Draw
	case ResultBlackWins:
		return replay.BlackWins
	case ResultDoubleForfeit:
		return replay.DoubleForfeit
	}
	return replay.ResultUnknown
}
