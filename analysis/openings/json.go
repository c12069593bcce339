package openings

import "math"

// MoveJSON is one move of a tree as `draughtsdb openings --format json`
// and the explorer's /api/openings write it: one shape, so the CLI and the
// API cannot drift apart.
type MoveJSON struct {
	Move      string `json:"move"`
	Algebraic string `json:"algebraic"`
	Games     int64  `json:"games"`
	WhiteWins int64  `json:"white_wins"`
	Draws     int64  `json:"draws"`
	BlackWins int64  `json:"black_wins"`
	// Unfinished: games without a result ('*' or a double forfeit).
	Unfinished int64 `json:"unfinished"`
	// Ending: games whose final position is the one after the move.
	Ending    int64    `json:"ending"`
	Score     *float64 `json:"score"` // White's score in percent, one decimal; null when no game has a result
	Name      string   `json:"name,omitempty"`
	Eval      *float64 `json:"eval,omitempty"`
	EvalCount int      `json:"eval_count,omitempty"`
}

// JSONMoves returns n's branches as MoveJSON, most played first.
func (n *Node) JSONMoves() []MoveJSON {
	out := make([]MoveJSON, 0, len(n.Branch))
	for _, b := range n.Branch {
		out = append(out, MoveJSON{Move: b.Text, Algebraic: b.Algebraic, Games: b.Games, WhiteWins: b.WhiteWins,
			Draws: b.Draws, BlackWins: b.BlackWins, Unfinished: b.Unfinished, Ending: b.Ending, Score: Score1(b.Score), Name: b.Name, Eval: b.Eval, EvalCount: b.EvalCount})
	}
	return out
}

// Score1 is a score in percent rounded to one decimal, nil for NaN (no
// game with a result).
func Score1(s float64) *float64 {
	if math.IsNaN(s) {
		return nil
	}
	r := math.Round(s*10) / 10
	return &r
}
