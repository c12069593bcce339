package search

import (
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Weights are the evaluation terms of one variant, in hundredths of a man.
// They are plain data: change them here (DefaultWeights) without touching
// the search.
type Weights struct {
	// Man and King are the material values (Man is the unit, 100).
	Man, King int
	// Advance is the bonus of a man per row advanced from its own back row
	// (tempo); AdvanceEnd replaces it when few pieces are left (men run
	// for promotion).
	Advance, AdvanceEnd int
	// Centre is the bonus of a man on one of the central squares (the
	// middle half of the files on the middle rows); KingCentre that of a
	// king on one of the two long diagonals (its most active squares).
	Centre, KingCentre int
	// BackRank is the bonus of a man still on its own back row (guarding
	// the promotion squares) outside the endgame (see EndgamePieces).
	BackRank int
	// Mobility is the bonus per man with an empty square ahead, and per
	// empty square next to a king (a cheap approximation of the number of
	// plain moves).
	Mobility int
	// EndgamePieces: at or below this many pieces on the board AdvanceEnd
	// is used.
	EndgamePieces int
	// Inverted turns every term against its owner: in antidraughts, where
	// the side without a move (no pieces, or all blocked) wins, a piece, a
	// free square ahead or a step towards promotion is a burden.
	Inverted bool
}

// DefaultWeights returns the built-in weights of variant v, from its rules
// so that a variant added to package rules gets sensible ones:
//
//   - material: flying kings are worth about three men (300 on 10x10 and
//     12x12, 280 on 8x8, Turkish's too, which fly along ranks and files,
//     where mobility counts the squares ahead and beside instead of the
//     diagonals); kings that move one step about one and a half
//     (English 150), two where men may not capture them (Italian 200);
//     Thai kings, which must land directly behind the piece they take,
//     and Frisian kings, which move only diagonally but capture in eight
//     directions (its capture precedence counts them almost two men), 250;
//   - antidraughts (Win: WinWhenNoMove) is International's evaluation
//     inverted (Inverted): losing pieces is good;
//   - breakthrough (Win: FirstKingWins): the first king wins, so the king
//     value does not matter (the search ends the game there) and men are
//     worth their advance and their guard of the back row.
func DefaultWeights(v *rules.Variant) Weights {
	var w Weights
	switch v.Board.Width {
	case 10:
		w = Weights{Man: 100, King: 300, Advance: 2, AdvanceEnd: 6, Centre: 4, KingCentre: 10,
			BackRank: 6, Mobility: 1, EndgamePieces: 12}
	case 12:
		w = Weights{Man: 100, King: 300, Advance: 2, AdvanceEnd: 5, Centre: 3, KingCentre: 10,
			BackRank: 5, Mobility: 1, EndgamePieces: 16}
	default: // 8x8 with flying kings: Russian, Brazilian, Pool, Czech, Spanish
		w = Weights{Man: 100, King: 280, Advance: 3, AdvanceEnd: 7, Centre: 5, KingCentre: 10,
			BackRank: 8, Mobility: 2, EndgamePieces: 8}
	}
	switch {
	case !v.FlyingKings && v.MenCannotCaptureKings: // Italian
		w = Weights{Man: 100, King: 200, Advance: 3, AdvanceEnd: 6, Centre: 4, KingCentre: 4,
			BackRank: 8, Mobility: 2, EndgamePieces: 8}
	case !v.FlyingKings: // English
		w = Weights{Man: 100, King: 150, Advance: 3, AdvanceEnd: 6, Centre: 4, KingCentre: 4,
			BackRank: 8, Mobility: 2, EndgamePieces: 8}
	case v.KingLandsBehind, v.OrthogonalCaptures: // Thai; Frisian, Frysk
		w.King = 250
	}
	switch v.Win {
	case rules.WinWhenNoMove:
		w = Weights{Man: 100, King: 200, Advance: 2, AdvanceEnd: 4, Mobility: 2, EndgamePieces: w.EndgamePieces,
			Inverted: true}
	case rules.FirstKingWins:
		w = Weights{Man: 100, King: 100, Advance: 8, AdvanceEnd: 16, Centre: 3, BackRank: 20, Mobility: 1,
			EndgamePieces: w.EndgamePieces}
	}
	return w
}

// geometry holds per-board square tables computed from the public
// rules.Board API.
type geometry struct {
	n       int
	rank    []int8      // 1 = White's side
	fwd     [2][][2]int // forward neighbours per colour (0 = off board)
	nbr     [][4]int    // all four neighbours (0 = off board)
	centre  []bool
	longDia []bool
}

var geometries = map[*rules.Board]*geometry{}

func init() {
	for _, b := range rules.Boards() {
		geometries[b] = newGeometry(b)
	}
}

func newGeometry(b *rules.Board) *geometry {
	n := b.Squares()
	g := &geometry{n: n, rank: make([]int8, n+1), nbr: make([][4]int, n+1),
		centre: make([]bool, n+1), longDia: make([]bool, n+1)}
	g.fwd[0] = make([][2]int, n+1)
	g.fwd[1] = make([][2]int, n+1)
	w, h := b.Width, b.Height
	for s := 1; s <= n; s++ {
		f, r := b.Coords(s)
		g.rank[s] = int8(r)
		g.fwd[rules.White][s] = [2]int{b.SquareAt(f-1, r+1), b.SquareAt(f+1, r+1)}
		g.fwd[rules.Black][s] = [2]int{b.SquareAt(f-1, r-1), b.SquareAt(f+1, r-1)}
		g.nbr[s] = [4]int{b.SquareAt(f-1, r+1), b.SquareAt(f+1, r+1), b.SquareAt(f-1, r-1), b.SquareAt(f+1, r-1)}
		if b.AllSquares {
			// Turkish: pieces move along ranks and files, men straight
			// ahead or sideways.
			g.fwd[rules.White][s] = [2]int{b.SquareAt(f, r+1)}
			g.fwd[rules.Black][s] = [2]int{b.SquareAt(f, r-1)}
			g.nbr[s] = [4]int{b.SquareAt(f, r+1), b.SquareAt(f, r-1), b.SquareAt(f-1, r), b.SquareAt(f+1, r)}
		}
		g.centre[s] = f > w/4 && f <= w-w/4 && r > h/4 && r <= h-h/4
		g.longDia[s] = f == r || f+r == w+1
	}
	return g
}

// evaluator is the evaluation of one variant with precomputed square
// tables.
type evaluator struct {
	w   Weights
	g   *geometry
	pst [5][2][]int16 // [piece][phase 0 = middlegame, 1 = endgame][square]
	h   int
	// learned, if not nil, replaces the terms above (learned.go), through
	// the fast layout fast.
	learned *learned
	fast    *fastBoard
}

func newEvaluator(v *rules.Variant, w Weights) *evaluator {
	g := geometries[v.Board]
	e := &evaluator{w: w, g: g, h: v.Board.Height}
	for pc := rules.WhiteMan; pc <= rules.BlackKing; pc++ {
		for ph := 0; ph < 2; ph++ {
			t := make([]int16, g.n+1)
			for s := 1; s <= g.n; s++ {
				t[s] = int16(e.squareValue(pc, ph, s))
			}
			e.pst[pc][ph] = t
		}
	}
	return e
}

// squareValue is the value of piece pc on square s from its owner's view.
func (e *evaluator) squareValue(pc rules.Piece, phase, s int) int {
	w, g := &e.w, e.g
	if pc.IsKing() {
		v := w.King
		if g.longDia[s] {
			v += w.KingCentre
		}
		return v
	}
	rows := int(g.rank[s]) - 1 // rows advanced
	if pc.Color() == rules.Black {
		rows = e.h - int(g.rank[s])
	}
	v := w.Man
	if phase == 0 {
		v += w.Advance * rows
	} else {
		v += w.AdvanceEnd * rows
	}
	if g.centre[s] {
		v += w.Centre
	}
	if rows == 0 && phase == 0 {
		v += w.BackRank
	}
	return v
}

// evaluate scores pos from the side to move's view, in hundredths of a man.
func (e *evaluator) evaluate(pos *rules.Position) int {
	if e.learned != nil {
		var fb fboard
		e.fast.load(pos, &fb)
		return e.learned.evaluate(&fb, pos.SideToMove())
	}
	var board [73]rules.Piece
	g := e.g
	n := g.n
	pieces := 0
	for s := 1; s <= n; s++ {
		pc := pos.Piece(s)
		board[s] = pc
		if pc != rules.Empty {
			pieces++
		}
	}
	phase := 0
	if pieces <= e.w.EndgamePieces {
		phase = 1
	}
	var score [2]int
	mob := e.w.Mobility
	for s := 1; s <= n; s++ {
		pc := board[s]
		if pc == rules.Empty {
			continue
		}
		c := pc.Color()
		v := int(e.pst[pc][phase][s])
		if mob != 0 {
			if pc.IsKing() {
				for _, t := range g.nbr[s] {
					if t != 0 && board[t] == rules.Empty {
						v += mob
					}
				}
			} else {
				f := g.fwd[c][s]
				if f[0] != 0 && board[f[0]] == rules.Empty || f[1] != 0 && board[f[1]] == rules.Empty {
					v += mob
				}
			}
		}
		score[c] += v
	}
	us := pos.SideToMove()
	if e.w.Inverted {
		return score[us^1] - score[us]
	}
	return score[us] - score[us^1]
}

// Evaluate returns the static evaluation of pos with the default weights of
// its variant, from the side to move's view, in hundredths of a man. It does
// not look at captures: search.Search resolves them first.
func Evaluate(pos rules.Position) int {
	return evaluatorFor(pos.Variant()).evaluate(&pos)
}

var defaultEvaluators = map[*rules.Variant]*evaluator{}

func init() {
	for _, v := range rules.Variants() {
		defaultEvaluators[v] = newEvaluator(v, DefaultWeights(v))
	}
}

func evaluatorFor(v *rules.Variant) *evaluator {
	if e, ok := defaultEvaluators[v]; ok {
		return e
	}
	return newEvaluator(v, DefaultWeights(v))
}

// EvaluateHandSet is Evaluate with the hand-set weights (DefaultWeights)
// of pos's variant also where it has learned ones: the trainer's baseline.
func EvaluateHandSet(pos rules.Position) int {
	e := handSet[pos.Variant()]
	if e == nil {
		e = newEvaluator(pos.Variant(), DefaultWeights(pos.Variant()))
	}
	return e.evaluate(&pos)
}

var handSet = map[*rules.Variant]*evaluator{}

func init() {
	for _, v := range rules.Variants() {
		handSet[v] = newEvaluator(v, DefaultWeights(v))
	}
}
