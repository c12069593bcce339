package rules

//go:generate go run gen_movegen.go

// Generators: which generated move generator (movegen_*.go, rendered from
// internal/movegen in the order of movegen.Generators) serves a variant.
// A board's gen is the generator of its bit layout; a variant whose rules
// need another rendering (Thai, Frisian) sets its own in init.
const (
	movegenEight uint8 = iota
	movegenTen
	movegenTwelve
	movegenEightThai
	movegenTenFrisian
	movegenTurkish // turkish.go, written by hand
)

// LegalMoves appends the legal moves of p to buf and returns the extended
// slice. Moves with the same start, end and captured set are listed once
// ("drop"). Pass a buffer with spare capacity (e.g. make([]Move, 0, 128))
// to avoid allocation.
func (p *Position) LegalMoves(buf []Move) []Move { return p.AppendMoves(buf, false) }

// AppendMoves is LegalMoves with a choice: keep=true lists every capture
// path separately ("keep" in perft.json).
func (p *Position) AppendMoves(buf []Move, keep bool) []Move {
	switch p.v.gen {
	case movegenEight:
		return genMovesEight(p, buf, keep)
	case movegenTen:
		return genMovesTen(p, buf, keep)
	case movegenEightThai:
		return genMovesEightThai(p, buf, keep)
	case movegenTenFrisian:
		return genMovesTenFrisian(p, buf, keep)
	case movegenTurkish:
		return genMovesTurkish(p, buf, keep)
	}
	return genMovesTwelve(p, buf, keep)
}

// countMoves returns len(p.AppendMoves(nil, keep)) without building plain
// moves; scratch is a buffer for captures.
func (p *Position) countMoves(scratch []Move, keep bool) int {
	switch p.v.gen {
	case movegenEight:
		return countMovesEight(p, scratch, keep)
	case movegenTen:
		return countMovesTen(p, scratch, keep)
	case movegenEightThai:
		return countMovesEightThai(p, scratch, keep)
	case movegenTenFrisian:
		return countMovesTenFrisian(p, scratch, keep)
	case movegenTurkish:
		return countMovesTurkish(p, scratch, keep)
	}
	return countMovesTwelve(p, scratch, keep)
}

// IsLost reports whether the side to move has no legal move, which loses
// in every variant whose Win is LoseWhenNoMove or FirstKingWins (in
// antidraughts it wins: see Outcome).
func (p *Position) IsLost() bool {
	var buf [1]Move
	return p.countMoves(buf[:0], false) == 0
}

// Outcome is what a position implies for the game under its variant's Win
// rule.
type Outcome uint8

const (
	Undecided Outcome = iota // the game goes on
	WhiteWins
	BlackWins
)

func (o Outcome) String() string {
	switch o {
	case WhiteWins:
		return "White wins"
	case BlackWins:
		return "Black wins"
	}
	return "undecided"
}

func winner(c Color) Outcome { return WhiteWins + Outcome(c) }

// Outcome returns the result p implies: a side to move without a legal
// move loses (LoseWhenNoMove, FirstKingWins) or wins (WinWhenNoMove); in
// FirstKingWins a side with a king has won (the side that just moved, if
// both have one). Draws (repetition, DrawCounter) need the game's history
// and are not seen here.
func (p *Position) Outcome() Outcome {
	if p.v.Win == FirstKingWins {
		for _, c := range []Color{p.side.Opponent(), p.side} {
			if _, k := p.Count(c); k > 0 {
				return winner(c)
			}
		}
	}
	if !p.IsLost() {
		return Undecided
	}
	if p.v.Win == WinWhenNoMove {
		return winner(p.side)
	}
	return winner(p.side.Opponent())
}

// PlainMove returns the plain (non-capturing) move from square from to
// square to when it is legal in p: a piece of the side to move on from, to
// reachable, and no capture possible anywhere. The move is exactly the one
// LegalMoves lists; ok is false for anything else (including every position
// where a capture is compulsory). It is the fast path for resolving move
// text such as "32-28" without generating every move.
func (p *Position) PlainMove(from, to int) (m Move, ok bool) {
	b := p.v.Board
	if !b.Valid(from) || !b.Valid(to) {
		return Move{}, false
	}
	i, t := b.bitOf(from), b.bitOf(to)
	switch p.v.gen {
	case movegenEight:
		return plainMoveEight(p, i, t)
	case movegenTen:
		return plainMoveTen(p, i, t)
	case movegenEightThai:
		return plainMoveEightThai(p, i, t)
	case movegenTenFrisian:
		return plainMoveTenFrisian(p, i, t)
	case movegenTurkish:
		return plainMoveTurkish(p, i, t)
	}
	return plainMoveTwelve(p, i, t)
}
