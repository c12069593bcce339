// Package endgame builds win/draw/loss tables, with the distance to the
// end of the game, for the positions of few pieces of a variant, by
// retrograde analysis over every position (as Scan's and Kingsrow's
// bitbases, generated here rather than shipped), and probes them.
//
//	t, err := endgame.Generate(rules.English, 4, nil) // every position of 2-4 pieces
//	v, ok := t.Probe(&pos)                             // ok: pos has at most 4 pieces
//	won, plies := v.Win()
//
// A table holds one material signature (men and kings of each side), both
// sides to move, one Value per position: a win in d plies, a loss in d
// plies, or a draw, for the side to move, under the variant's move
// generator alone. Russian games are also drawn after 30 plies of king
// moves without a capture or a man move: there a draw is still exact, and
// a win or loss is only when the count cannot reach 30 before the end
// (Value.Exact, which the search asks with the count of its line). A
// variant with a limit on moving one king (Frisian) or another win
// condition is not Supported: a table would call a position won that the
// rule decides otherwise.
//
// The tables are built smallest first: a capture leads to fewer pieces, a
// promotion to fewer men, and a plain move stays in its table, which is
// solved by levels: after the positions without a move (lost in 0), a
// position is won in d if a move leads to a position lost in d-1, and lost
// in d if every move leads to one won in at most d-1. Positions never
// settled are draws: whoever holds them can avoid every loss.
//
// Open keeps the tables in a directory (the data directory's endgame/):
// it generates them on first use and reads them after; WriteTo and
// ReadTables are the file format on any io.Writer and io.Reader.
package endgame
