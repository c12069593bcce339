package endgame

import (
	"errors"
	"fmt"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// MaxPieces bounds Generate's piece count: the 5-piece tables of an 8x8
// board hold about 10^8 entries, past what a first use should build.
const MaxPieces = 5

// Value is a position's game-theoretic value for the side to move: > 0 a
// win in that many plies (odd), < 0 a loss in -Value-1 plies (even; -1 is
// no legal move), 0 a draw.
type Value int16

// Win reports a won position and the plies to the end of the game.
func (v Value) Win() (bool, int) { return v > 0, int(v) }

// Loss reports a lost position and the plies to the end of the game.
func (v Value) Loss() (bool, int) { return v < 0, int(-v - 1) }

func (v Value) String() string {
	switch {
	case v > 0:
		return fmt.Sprintf("win in %d", int(v))
	case v < 0:
		return fmt.Sprintf("loss in %d", int(-v-1))
	}
	return "draw"
}

func winIn(d int) Value  { return Value(d) }
func lossIn(d int) Value { return Value(-d - 1) }

// Plies is the plies to the end of the game of a won or lost position.
func (v Value) Plies() int { return v.dist() }

// dist is the plies to the end of a decided value.
func (v Value) dist() int {
	if v > 0 {
		return int(v)
	}
	return int(-v - 1)
}

// ErrUnsupported: the variant's tables would not be exact (a king-move
// limit, another win condition, or a board too large).
var ErrUnsupported = errors.New("endgame: no exact tables for this variant")

// Supported reports whether Generate builds tables for v: a board of at
// most 32 squares whose games are lost by having no move. A variant that
// also draws by counting king moves (Russian's 30 plies,
// Variant.DrawKingPlies) has tables of the move rules alone, which Exact
// tells when to trust; one with a king-move limit (Frisian) or another
// win condition would be misjudged, so it has none.
func Supported(v *rules.Variant) bool {
	b := v.Board
	return v.Win == rules.LoseWhenNoMove && v.KingMoveLimit == 0 &&
		!b.AllSquares && b.Squares() <= 32
}

// Exact reports that v, a value from the tables of variant, is surely the
// value of the game under the variant's king-move draw rule too, when
// kingPlies plies of it are already counted (rules.DrawCounter.Plies): a
// draw always (the count only adds draws); a win or loss in d plies when
// the count cannot reach the limit first, kingPlies+d below it (the
// count grows by at most one a ply, and the winner's shortest line ends
// the game within d plies whatever the loser plays). In a variant
// without the rule every value is exact.
func (v Value) Exact(variant *rules.Variant, kingPlies int) bool {
	lim := variant.DrawKingPlies
	return lim == 0 || v == 0 || kingPlies+v.dist() < lim
}

// sig is a material signature: men and kings of each side.
type sig struct{ wm, wk, bm, bk int }

func (s sig) total() int { return s.wm + s.wk + s.bm + s.bk }

func (s sig) wanted(only []sig) bool {
	if only == nil {
		return true
	}
	for _, o := range only {
		if s.within(o) {
			return true
		}
	}
	return false
}

// code indexes Tables.tabs.
func (s sig) code() int {
	const r = MaxPieces + 1
	return ((s.wm*r+s.wk)*r+s.bm)*r + s.bk
}

// table holds one signature's values, both sides to move.
type table struct {
	sig  sig
	dims [4]int // combinations of each kind: white men, white kings, black men, black kings
	size int    // entries per side to move
	val  []Value
}

// Tables are the values of every position with at most Pieces() pieces
// (both sides having one) of a variant. They are read-only once built and
// safe for concurrent Probe calls.
type Tables struct {
	v      *rules.Variant
	pieces int
	nsq    int
	// menSq lists the squares a man of each colour may stand on (all but
	// its promotion row); menPos maps a square to its place there (-1).
	menSq  [2][]int
	menPos [2][]int
	binom  [][]int
	tabs   []*table
	order  []*table // in the order they are built and stored
}

// Variant returns the tables' variant.
func (t *Tables) Variant() *rules.Variant { return t.v }

// Pieces returns the largest piece count the tables cover.
func (t *Tables) Pieces() int { return t.pieces }

// Entries returns the number of positions the tables hold (with the
// index's unused ones: pieces on one square).
func (t *Tables) Entries() int64 {
	var n int64
	for _, tb := range t.order {
		n += 2 * int64(tb.size)
	}
	return n
}

// within reports whether a position of signature s can turn into one of
// signature o (captures remove pieces, promotions turn men into kings).
func (s sig) within(o sig) bool {
	return s.wm <= o.wm && s.bm <= o.bm && s.wm+s.wk <= o.wm+o.wk && s.bm+s.bk <= o.bm+o.bk
}

func newTables(v *rules.Variant, pieces int) (*Tables, error) {
	return newTablesOf(v, pieces, nil)
}

// newTablesOf makes the tables of the signatures that those of only (all
// if nil) can turn into.
func newTablesOf(v *rules.Variant, pieces int, only []sig) (*Tables, error) {
	if !Supported(v) {
		return nil, fmt.Errorf("%w: %s", ErrUnsupported, v.Name)
	}
	if pieces < 2 || pieces > MaxPieces {
		return nil, fmt.Errorf("endgame: %d pieces: want 2 to %d", pieces, MaxPieces)
	}
	b := v.Board
	t := &Tables{v: v, pieces: pieces, nsq: b.Squares()}
	for c := 0; c < 2; c++ {
		t.menPos[c] = make([]int, t.nsq+1)
		for sq := 1; sq <= t.nsq; sq++ {
			t.menPos[c][sq] = -1
			_, rank := b.Coords(sq)
			if (c == 0 && rank == b.Height) || (c == 1 && rank == 1) {
				continue // a man there would have been crowned
			}
			t.menPos[c][sq] = len(t.menSq[c])
			t.menSq[c] = append(t.menSq[c], sq)
		}
	}
	t.binom = make([][]int, t.nsq+1)
	for n := range t.binom {
		t.binom[n] = make([]int, pieces+1)
		t.binom[n][0] = 1
		for k := 1; k <= pieces && n > 0; k++ {
			t.binom[n][k] = t.binom[n-1][k-1] + t.binom[n-1][k]
		}
	}
	const r = MaxPieces + 1
	t.tabs = make([]*table, r*r*r*r)
	// Build order: fewer pieces first (a capture leads there), then fewer
	// men (a promotion leads there); a plain move keeps the signature.
	for n := 2; n <= pieces; n++ {
		for men := 0; men <= n; men++ {
			for wm := 0; wm <= men; wm++ {
				bm := men - wm
				for wk := 0; wk <= n-men; wk++ {
					bk := n - men - wk
					s := sig{wm, wk, bm, bk}
					if wm+wk == 0 || bm+bk == 0 || !s.wanted(only) {
						continue
					}
					tb := &table{sig: s}
					tb.dims = [4]int{
						t.binom[len(t.menSq[0])][wm], t.binom[t.nsq][wk],
						t.binom[len(t.menSq[1])][bm], t.binom[t.nsq][bk],
					}
					tb.size = tb.dims[0] * tb.dims[1] * tb.dims[2] * tb.dims[3]
					t.tabs[s.code()] = tb
					t.order = append(t.order, tb)
				}
			}
		}
	}
	return t, nil
}

// rank is the colex rank of the increasing positions p.
func (t *Tables) rank(p []int) int {
	r := 0
	for i, x := range p {
		r += t.binom[x][i+1]
	}
	return r
}

// unrank writes the k positions of colex rank r into p (increasing).
func (t *Tables) unrank(r, k int, p []int) {
	x := t.nsq
	for i := k - 1; i >= 0; i-- {
		x--
		for t.binom[x][i+1] > r {
			x--
		}
		p[i] = x
		r -= t.binom[x][i+1]
	}
}

// index returns pos's table and entry; tb is nil when pos has more pieces
// than the tables, or a side has none.
func (t *Tables) index(pos *rules.Position) (tb *table, i int) {
	var buf [4][MaxPieces]int
	var n [4]int
	total := 0
	for sq := 1; sq <= t.nsq; sq++ {
		pc := pos.Piece(sq)
		if pc == rules.Empty {
			continue
		}
		if total++; total > t.pieces {
			return nil, 0
		}
		k, x := 0, 0
		switch pc {
		case rules.WhiteMan:
			k, x = 0, t.menPos[0][sq]
		case rules.WhiteKing:
			k, x = 1, sq-1
		case rules.BlackMan:
			k, x = 2, t.menPos[1][sq]
		case rules.BlackKing:
			k, x = 3, sq-1
		}
		if x < 0 {
			return nil, 0 // a man on its promotion row: not a position of the game
		}
		buf[k][n[k]] = x
		n[k]++
	}
	s := sig{n[0], n[1], n[2], n[3]}
	if s.wm+s.wk == 0 || s.bm+s.bk == 0 {
		return nil, 0
	}
	if tb = t.tabs[s.code()]; tb == nil {
		return nil, 0
	}
	for k := 0; k < 4; k++ {
		i = i*tb.dims[k] + t.rank(buf[k][:n[k]])
	}
	if pos.SideToMove() == rules.Black {
		i += tb.size
	}
	return tb, i
}

// position decodes entry i of tb; ok is false for an entry with two
// pieces on one square.
func (t *Tables) position(tb *table, i int) (pos rules.Position, ok bool) {
	side := rules.White
	if i >= tb.size {
		side, i = rules.Black, i-tb.size
	}
	pos = rules.NewPosition(t.v, side)
	s := tb.sig
	ns := [4]int{s.wm, s.wk, s.bm, s.bk}
	pcs := [4]rules.Piece{rules.WhiteMan, rules.WhiteKing, rules.BlackMan, rules.BlackKing}
	var r [4]int
	for k := 3; k >= 0; k-- {
		r[k] = i % tb.dims[k]
		i /= tb.dims[k]
	}
	var p [MaxPieces]int
	for k := 0; k < 4; k++ {
		t.unrank(r[k], ns[k], p[:ns[k]])
		for _, x := range p[:ns[k]] {
			sq := x + 1
			switch k {
			case 0:
				sq = t.menSq[0][x]
			case 2:
				sq = t.menSq[1][x]
			}
			if pos.Piece(sq) != rules.Empty {
				return pos, false
			}
			pos.SetPiece(sq, pcs[k])
		}
	}
	return pos, true
}

// Probe returns the value of pos for its side to move; ok is false when pos
// is not in the tables (more pieces, or a side without any: the side to
// move without pieces has lost, which the search sees by itself).
func (t *Tables) Probe(pos *rules.Position) (v Value, ok bool) {
	if pos.Variant() != t.v {
		return 0, false
	}
	tb, i := t.index(pos)
	if tb == nil {
		return 0, false
	}
	return tb.val[i], true
}

// lookup is the value of a child position during generation: a side to
// move without pieces has lost.
func (t *Tables) lookup(pos *rules.Position) (Value, *table, int) {
	if m, k := pos.Count(pos.SideToMove()); m+k == 0 {
		return lossIn(0), nil, 0
	}
	tb, i := t.index(pos)
	return tb.val[i], tb, i
}

// Generate builds the tables of v for positions of up to pieces pieces.
// progress, if not nil, is called with the entries done and the total
// after each signature's table.
func Generate(v *rules.Variant, pieces int, progress func(done, total int64)) (*Tables, error) {
	t, err := newTables(v, pieces)
	if err != nil {
		return nil, err
	}
	t.generate(progress)
	return t, nil
}

func (t *Tables) generate(progress func(done, total int64)) {
	total := t.Entries()
	var done int64
	for _, tb := range t.order {
		tb.val = make([]Value, 2*tb.size)
		t.solve(tb)
		done += int64(len(tb.val))
		if progress != nil {
			progress(done, total)
		}
	}
}

// solve fills tb, whose successors in other tables are solved. A first
// pass makes every entry's moves once: it settles the positions without
// a move, and keeps of each other one its children in tb and a summary of
// those elsewhere. Then, for d = 1, 2, ..., a position is won in d plies
// if a child is lost in d-1, and lost in d if every child is won in at
// most d-1 (the loser delays). Undecided at the end is a draw.
func (t *Tables) solve(tb *table) {
	type entry struct {
		i        int32
		k0, k1   int32 // kids[k0:k1]: the children in tb
		crossWin int16 // the shortest win through a child elsewhere (0: none)
		crossMax int16 // the longest child win elsewhere; -1: a child elsewhere not won
	}
	var (
		ents  []entry
		kids  []int32
		moves []rules.Move
	)
	maxCross := 0
	for i := 0; i < 2*tb.size; i++ {
		pos, ok := t.position(tb, i)
		if !ok {
			continue
		}
		moves = pos.LegalMoves(moves[:0])
		if len(moves) == 0 {
			tb.val[i] = lossIn(0)
			continue
		}
		e := entry{i: int32(i), k0: int32(len(kids))}
		for j := range moves {
			c := pos
			c.Play(&moves[j])
			cv, ctb, ci := t.lookup(&c)
			if ctb == tb {
				kids = append(kids, int32(ci))
				continue
			}
			switch {
			case cv < 0:
				if w := cv.dist() + 1; e.crossWin == 0 || w < int(e.crossWin) {
					e.crossWin = int16(w)
				}
				e.crossMax = -1
			case cv > 0 && e.crossMax >= 0:
				e.crossMax = max(e.crossMax, int16(cv))
			default:
				e.crossMax = -1
			}
			if cv != 0 {
				maxCross = max(maxCross, cv.dist())
			}
		}
		e.k1 = int32(len(kids))
		ents = append(ents, e)
	}
	for d := 1; len(ents) > 0; d++ {
		settled := 0
		rest := ents[:0]
		for _, e := range ents {
			win := e.crossWin != 0 && int(e.crossWin) <= d
			allWon := e.crossMax >= 0 && int(e.crossMax) < d
			for _, k := range kids[e.k0:e.k1] {
				if win {
					break
				}
				switch cv := tb.val[k]; {
				case cv < 0 && cv.dist() < d:
					win = true
				case cv > 0 && cv.dist() < d:
				default:
					allWon = false
				}
			}
			switch {
			case win:
				tb.val[e.i] = winIn(d)
				settled++
			case allWon:
				tb.val[e.i] = lossIn(d)
				settled++
			default:
				rest = append(rest, e)
			}
		}
		ents = rest
		if settled == 0 && d > maxCross+1 {
			break
		}
	}
}
