package replay

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// maxSquares bounds the squares in one move text (a capture path).
const maxSquares = 40

// moveText is a move as written, parsed without allocating.
type moveText struct {
	sq      [maxSquares]int
	n       int
	capture bool // written with x or :
	// Russian short form "cd4": only the start file is given.
	short     bool
	shortFile int
	algebraic bool // some square was written algebraically
}

// parseMoveText reads numeric ("32-28", "28x19x10", "01-07") and algebraic
// ("c3-d4", "c3:e5:g7") moves with any of the separators - x X :, and the
// Russian short form "cd4". ok is false when s is none of these on board b.
//
// rotate reads algebraic squares from the far side (a1 is the last square):
// English games in algebraic notation name squares from the side that moves
// first, Black (rules.Variant.AlgebraicFromBlack).
func parseMoveText(b *rules.Board, s string, rotate bool, mt *moveText) (ok bool) {
	mt.n, mt.capture, mt.short, mt.shortFile, mt.algebraic = 0, false, false, 0, false // sq is overwritten as needed
	// Strip trailing marks the reader may leave ("+", "#", "*").
	for len(s) > 0 && (s[len(s)-1] == '+' || s[len(s)-1] == '#' || s[len(s)-1] == '*') {
		s = s[:len(s)-1]
	}
	if s == "" {
		return false
	}
	if isDigit(s[0]) {
		if parseNumeric(b, s, mt) {
			return true
		}
		mt.n, mt.capture = 0, false // the general parser decides
	}
	if len(s) >= 3 && isFile(s[0]) && isFile(s[1]) && isDigit(s[2]) {
		sq := squareAt(b, s[1:])
		if sq == 0 {
			return false
		}
		file := int(lower(s[0])-'a') + 1
		if rotate {
			sq, file = b.Squares()+1-sq, b.Width+1-file
		}
		mt.short, mt.shortFile, mt.algebraic = true, file, true
		mt.sq[0], mt.n = sq, 1
		return true
	}
	// Algebraic squares written without separators: "a3b4".
	glued := isFile(s[0]) && !hasSeparator(s)
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			c := s[i]
			switch {
			case glued && i > start+1 && isFile(c):
				// a square ends where the next file letter starts
			case c == 'x' || c == 'X' || c == ':':
				mt.capture = true
			case c != '-':
				continue
			}
		}
		if mt.n == maxSquares {
			return false
		}
		sq := squareAt(b, s[start:i])
		if sq == 0 {
			return false
		}
		if isFile(s[start]) {
			mt.algebraic = true
			if rotate {
				sq = b.Squares() + 1 - sq
			}
		}
		mt.sq[mt.n] = sq
		mt.n++
		start = i + 1
		if glued {
			start = i
		}
	}
	return mt.n >= 2
}

// squareAt reads one square, numeric or algebraic; 0 if it is not a square
// of b.
func squareAt(b *rules.Board, s string) int {
	if s == "" {
		return 0
	}
	if isFile(s[0]) {
		r := 0
		for i := 1; i < len(s); i++ {
			if !isDigit(s[i]) || r > 100 {
				return 0
			}
			r = r*10 + int(s[i]-'0')
		}
		if len(s) < 2 {
			return 0
		}
		return b.SquareAt(int(lower(s[0])-'a')+1, r)
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || n > 1000 {
			return 0
		}
		n = n*10 + int(s[i]-'0')
	}
	if !b.Valid(n) {
		return 0
	}
	return n
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isFile(c byte) bool  { return c >= 'a' && c <= 'l' || c >= 'A' && c <= 'L' }
func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// parseFEN reads a FEN tag or /FEN/ setup of variant v. Its algebraic
// squares are named as the variant's moves name them (AlgebraicFromBlack),
// so that a record's FEN and moves mean the same square by "c3".
func parseFEN(v *rules.Variant, s string) (rules.Position, error) {
	if v.AlgebraicFromBlack {
		s = rotateFENSquares(v.Board, s)
	}
	return rules.ParseFEN(v, s)
}

// rotateFENSquares rewrites the algebraic squares of a FEN's piece fields
// as the numbers of the squares they name from the far side (N+1-s); a
// range between two of them keeps its squares (its ends swap). Anything it
// does not read as a square is left for rules.ParseFEN to judge.
func rotateFENSquares(b *rules.Board, s string) string {
	// rotate returns the number of the square algebraic name q names from
	// the far side; ok is false for anything else (numbers stay as they are).
	rotate := func(q string) (string, bool) {
		if q = strings.TrimSpace(q); q == "" || isDigit(q[0]) {
			return q, false
		}
		sq, err := b.ParseSquare(q)
		if err != nil {
			return q, false
		}
		return strconv.Itoa(b.Squares() + 1 - sq), true
	}
	fields := strings.Split(s, ":")
	for i := 1; i < len(fields); i++ {
		f := strings.TrimSpace(fields[i])
		if f == "" || f[0] != 'W' && f[0] != 'B' && f[0] != 'w' && f[0] != 'b' {
			continue
		}
		toks := strings.Split(f[1:], ",")
		for j, tok := range toks {
			t, king := strings.TrimRight(strings.TrimSpace(tok), "."), ""
			if t != "" && (t[0] == 'K' || t[0] == 'k') {
				t, king = t[1:], "K"
			}
			lo, hi, isRange := strings.Cut(t, "-")
			rlo, okLo := rotate(lo)
			if !isRange {
				toks[j] = king + rlo
				continue
			}
			rhi, okHi := rotate(strings.TrimLeft(strings.TrimSpace(hi), "Kk"))
			if okLo && okHi {
				rlo, rhi = rhi, rlo // the range keeps its squares: its ends swap
			}
			toks[j] = king + rlo + "-" + rhi
		}
		fields[i] = f[:1] + strings.Join(toks, ",")
	}
	return strings.Join(fields, ":")
}

func hasSeparator(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '-' || c == 'x' || c == 'X' || c == ':' {
			return true
		}
	}
	return false
}

// parseNumeric is the fast path for numeric moves ("32-28", "28x19x10",
// "01-07"): digits and separators only. It reports false for anything else,
// which the general parser then reads (or rejects).
func parseNumeric(b *rules.Board, s string, mt *moveText) bool {
	n, digits := 0, 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && isDigit(s[i]) {
			if digits++; digits > 3 {
				return false
			}
			n = n*10 + int(s[i]-'0')
			continue
		}
		if digits == 0 || !b.Valid(n) || mt.n == maxSquares {
			return false
		}
		mt.sq[mt.n] = n
		mt.n++
		n, digits = 0, 0
		if i == len(s) {
			break
		}
		switch s[i] {
		case '-':
		case 'x', 'X', ':':
			mt.capture = true
		default:
			return false
		}
	}
	if mt.n < 2 {
		return false
	}
	return true
}

// resolve finds the one legal move that r.mt describes, by this rule:
//
//  1. A move whose full path (start and every landing square) is exactly
//     the text wins, even when a longer capture with the same start and end
//     also fits the text: "h4:f6:h8" is h4:f6:h8, not h4:f6:d8:a5:c3:h8.
//  2. A text of three or more squares that is no listed path may still be
//     a full path: the engine keeps one path per move, but a flying king
//     may land on any empty square beyond the piece it takes as long as
//     the chain goes on from there (a1:d4:g7 and a1:e5:g7 are a1:c3:g7).
//     walkHops checks the text hop by hop on the board; when it is a
//     complete, legal capture chain, it is the legal move with its start,
//     end and captured set, in the capture order written (from the keep
//     list). Like rule 1 it wins over a longer capture the text also fits.
//  3. Otherwise the moves the text fits (matches: same start and end, the
//     written intermediate squares among the landing squares, in order);
//     moves that differ only in the order of capture (same start, end and
//     captured set, rules.Move.SameAs) count as one.
//  4. One such move is the answer; several are ErrAmbiguousMove, listing
//     them; none is ErrIllegalMove with an explanation, which for a text
//     of three or more squares says what is wrong with it as a path
//     (explainPath).
//
// So start-end text ("d6:b8") is ambiguous when several captures share its
// start and end and none is the single jump d6:b8 itself; it stays an error
// because we never guess which pieces the writer meant to take.
//
// A text with intermediate squares is also matched against every capture
// order (AppendMoves with keep): duplicate removal keeps one path per move,
// and the text may name another path of the same move.
func (r *Replayer) resolve(pos *rules.Position, ply int, text string) (rules.Move, error) {
	mt := &r.mt
	// Most moves are plain moves written start-end: check that one move
	// without generating them all (PlainMove is exact, and a plain move is
	// the only legal move with its start and end).
	if !mt.short && mt.n == 2 && !mt.capture {
		if m, ok := pos.PlainMove(mt.sq[0], mt.sq[1]); ok {
			return m, nil
		}
	}
	r.legal = pos.LegalMoves(r.legal[:0])
	if !mt.short && mt.n == 2 {
		// The common case, start and end only: one move with them.
		if found, count := rules.MatchFromTo(r.board, r.legal, mt.sq[0], mt.sq[1]); count == 1 {
			return r.legal[found], nil
		}
	}
	found, exact, distinct := r.pick(r.legal, true)
	if exact {
		return r.legal[found], nil
	}
	if mt.short || mt.n == 2 {
		// Only start and end are written: every capture order of a move
		// fits iff its kept representative does, so r.legal decides.
		switch {
		case distinct == 1:
			return r.legal[found], nil
		case distinct > 1:
			return rules.Move{}, r.ambiguous(pos, ply, text, r.legal, true)
		}
		return rules.Move{}, r.reject(ErrIllegalMove, pos, ply, text, r.explainPath(pos))
	}
	r.keep = pos.AppendMoves(r.keep[:0], true)
	kfound, kexact, kdistinct := r.pick(r.keep, false)
	if kexact {
		return r.keep[kfound], nil
	}
	if m, ok := r.resolveByHops(pos); ok {
		return m, nil
	}
	switch {
	case kdistinct <= 1 && distinct == 1:
		return r.legal[found], nil // the canonical path of that move
	case kdistinct == 1:
		return r.keep[kfound], nil
	case kdistinct > 1:
		return rules.Move{}, r.ambiguous(pos, ply, text, r.keep, false)
	case distinct > 1:
		return rules.Move{}, r.ambiguous(pos, ply, text, r.legal, true)
	}
	return rules.Move{}, r.reject(ErrIllegalMove, pos, ply, text, r.explainPath(pos))
}

// maxClasses bounds the different moves pick tells apart in a capture-order
// list; past it, the text is ambiguous anyway.
const maxClasses = 16

// pick applies resolve's rule to moves. found is the index of the move
// whose full path is the text (exact) or else of the first move the text
// fits; distinct counts the different moves (SameAs) the text fits, 1 when
// exact. deduped says moves holds no two SameAs moves (LegalMoves), which
// saves comparing them.
func (r *Replayer) pick(moves []rules.Move, deduped bool) (found int, exact bool, distinct int) {
	found = -1
	var classes [maxClasses]int
	for i := range moves {
		m := &moves[i]
		if !r.matches(m) {
			continue
		}
		if r.isFullPath(m) {
			return i, true, 1
		}
		if found < 0 {
			found = i
		}
		if !deduped {
			seen := false
			for _, c := range classes[:min(distinct, maxClasses)] {
				if moves[c].SameAs(m) {
					seen = true
					break
				}
			}
			if seen {
				continue
			}
			if distinct < maxClasses {
				classes[distinct] = i
			}
		}
		distinct++
	}
	return found, false, distinct
}

// matches reports whether legal move m fits the parsed text: same start and
// end (or, for the Russian short form, the end and the start's file), and
// the text's intermediate squares among m's landing squares, in order.
func (r *Replayer) matches(m *rules.Move) bool {
	mt := &r.mt
	if mt.short {
		if m.To() != mt.sq[0] {
			return false
		}
		file, _ := r.board.Coords(m.From())
		return file == mt.shortFile
	}
	if m.From() != mt.sq[0] || m.To() != mt.sq[mt.n-1] {
		return false
	}
	if mt.n == 2 {
		return true
	}
	r.path = m.Path(r.path[:0])
	j := 0
	for _, sq := range r.path[:max(0, len(r.path)-1)] {
		if j < mt.n-2 && sq == mt.sq[1+j] {
			j++
		}
	}
	return j == mt.n-2
}

// isFullPath reports whether the text is exactly m's start followed by all
// its landing squares (for a plain move or a single jump: start and end).
func (r *Replayer) isFullPath(m *rules.Move) bool {
	mt := &r.mt
	if mt.short || m.From() != mt.sq[0] {
		return false
	}
	r.path = m.Path(r.path[:0])
	if len(r.path) != mt.n-1 {
		return false
	}
	for i, sq := range r.path {
		if sq != mt.sq[1+i] {
			return false
		}
	}
	return true
}

// ambiguous is the ErrAmbiguousMove rejection: it lists every different
// move of moves that the text fits, with its full path in the variant's
// notation, and keeps them in r.cands for the look ahead (resolveByRest).
func (r *Replayer) ambiguous(pos *rules.Position, ply int, text string, moves []rules.Move, deduped bool) error {
	v := pos.Variant()
	var alts []string
	var fit []*rules.Move
	r.cands = r.cands[:0]
next:
	for i := range moves {
		m := &moves[i]
		if !r.matches(m) {
			continue
		}
		if !deduped {
			for _, o := range fit {
				if o.SameAs(m) {
					continue next
				}
			}
		}
		fit = append(fit, m)
		r.cands = append(r.cands, *m)
		alts = append(alts, rules.FormatMove(v, m, v.DefaultNotation, true))
	}
	return r.reject(ErrAmbiguousMove, pos, ply, text, fmt.Sprintf("%d legal moves fit it: %s", len(alts), strings.Join(alts, ", ")))
}

// A path read hop by hop (walkHops): what each written hop of a capture
// must be. A flying king may land on any empty square beyond the piece it
// takes, and the engine lists only one path per move, so a full path the
// engine did not list is checked against the board itself.

// hopProblem says which capture rule a written hop breaks (hopWalk).
type hopProblem uint8

const (
	hopOK             hopProblem = iota
	hopRepeated                  // the same square twice in a row
	hopNotOnLine                 // from and to are not on one line the variant captures along
	hopBackwards                 // a man capturing backwards where men may not
	hopTooLong                   // a man or a short king jumping from afar
	hopNotBehind                 // a king landing beyond the square behind the piece (Thai)
	hopTurnBack                  // a hop straight back along the previous one (Turkish)
	hopOccupied                  // the landing square holds a piece
	hopTakenTwice                // a piece already taken in this move is jumped again
	hopOwnPiece                  // a piece of the mover's side is in the way
	hopTwoPieces                 // two opponent pieces between from and to
	hopNoPiece                   // nothing to take between from and to
	hopAfterPromotion            // a hop after a promotion that ends the move
)

// lineStep is the step between neighbouring squares of a line a piece
// captures along: (±1, ±1) on a diagonal; (±2, 0) or (0, ±2) along a row or
// column of a dark-square board, where the next dark square is two files
// or ranks away (Frisian); (±1, 0) or (0, ±1) on Turkish's board, where
// every square is played.
type lineStep struct{ df, dr int }

func (d lineStep) reverse() lineStep { return lineStep{-d.df, -d.dr} }

var (
	diagonalSteps = []lineStep{{-1, 1}, {1, 1}, {-1, -1}, {1, -1}}
	frisianSteps  = []lineStep{{-1, 1}, {1, 1}, {-1, -1}, {1, -1}, {0, 2}, {0, -2}, {-2, 0}, {2, 0}}
	turkishSteps  = []lineStep{{0, 1}, {0, -1}, {-1, 0}, {1, 0}}
)

// captureSteps are the lines variant v captures along.
func captureSteps(v *rules.Variant) []lineStep {
	switch {
	case v.Board.AllSquares:
		return turkishSteps
	case v.OrthogonalCaptures:
		return frisianSteps
	}
	return diagonalSteps
}

// captureLine finds the line v captures along from a square to the square
// df files and dr ranks away: its step and the number of steps; ok is
// false when they share no such line.
func captureLine(v *rules.Variant, df, dr int) (d lineStep, steps int, ok bool) {
	if df == 0 && dr == 0 {
		return lineStep{}, 0, false
	}
	for _, d := range captureSteps(v) {
		// (df, dr) = k * d for some k >= 1.
		var k int
		switch {
		case d.df != 0:
			k = df / d.df
		default:
			k = dr / d.dr
		}
		if k >= 1 && k*d.df == df && k*d.dr == dr {
			return d, k, true
		}
	}
	return lineStep{}, 0, false
}

// forwardsOK reports whether a man of side may capture along d: always
// where men capture backwards, else only forwards or sideways (Turkish).
func forwardsOK(v *rules.Variant, side rules.Color, d lineStep) bool {
	if v.MenCaptureBackward {
		return true
	}
	if side == rules.White {
		return d.dr >= 0
	}
	return d.dr <= 0
}

// noTurnBack: a capture may not go on straight back along the hop before
// it (Turkish; Thai's captures may, dctl's is_passing_capture).
func noTurnBack(v *rules.Variant) bool { return v.Board.AllSquares }

// hopWalk is a written path checked hop by hop on the board (walkHops).
type hopWalk struct {
	start, end int             // the first square and the last one reached
	captured   [maxSquares]int // the pieces taken, in order
	n          int
	king       bool     // the piece is a king where the walk ends (it may have promoted)
	lastKing   bool     // it moved as a king on the last hop
	stopped    bool     // it promoted where that ends the move (English)
	removed    bool     // taken pieces leave the board at once (Thai, Turkish)
	dir        lineStep // the line of the last hop
	problem    hopProblem
	from, to   int // the hop with the problem
	sq1, sq2   int // the pieces it concerns (hopTakenTwice, hopOwnPiece, hopTwoPieces)
}

func (w *hopWalk) took(sq int) bool { return slices.Contains(w.captured[:w.n], sq) }

// empty reports whether sq is empty for the walk so far: the mover's start
// square, and where taken pieces leave at once (Thai, Turkish) the squares
// of the pieces it took, count as empty.
func (w *hopWalk) empty(pos *rules.Position, sq int) bool {
	return sq == w.start || pos.Piece(sq) == rules.Empty || w.removed && w.took(sq)
}

// walkHops checks the path sqs (start first) of the piece on sqs[0], which
// belongs to the side to move, hop by hop in pos, stopping at the first hop
// that breaks a rule (w.problem). Each hop goes along one line the variant
// captures along (captureSteps: diagonals; Frisian also rows and columns;
// Turkish ranks and files only) over exactly one opponent piece not taken
// before and otherwise empty squares, to an empty square; the mover's own
// start square counts as empty. Taken pieces stay on the board until the
// move ends, so they block, except where they leave at once (Thai,
// Turkish: their squares are then empty). A man, and a king where kings
// do not fly, jumps to the square just beyond the piece, a Thai king too;
// a man captures only forwards (and sideways, Turkish) where men do not
// capture backwards; a Turkish capture never turns straight back. A man
// reaching the far row goes on as the variant says: as a king (Russian),
// as a man (International), or not at all (English).
//
// It does not check that the chain is complete or the landing square
// right (chainStop), nor that the capture is the best one.
func walkHops(pos *rules.Position, sqs []int, w *hopWalk) {
	v, b := pos.Variant(), pos.Board()
	side := pos.SideToMove()
	*w = hopWalk{start: sqs[0], end: sqs[0], king: pos.Piece(sqs[0]).IsKing(), removed: v.CapturesRemovedAtOnce}
	fail := func(p hopProblem, from, to int) { w.problem, w.from, w.to = p, from, to }
	for _, to := range sqs[1:] {
		from := w.end
		f0, r0 := b.Coords(from)
		f1, r1 := b.Coords(to)
		d, dist, onLine := captureLine(v, f1-f0, r1-r0)
		switch {
		case w.stopped:
			fail(hopAfterPromotion, from, to)
		case from == to:
			fail(hopRepeated, from, to)
		case !onLine:
			fail(hopNotOnLine, from, to)
		case !w.king && !forwardsOK(v, side, d):
			fail(hopBackwards, from, to)
		case dist > 2 && (!w.king || !v.FlyingKings):
			fail(hopTooLong, from, to)
		case w.n > 0 && noTurnBack(v) && d == w.dir.reverse():
			fail(hopTurnBack, from, to)
		case !w.empty(pos, to):
			fail(hopOccupied, from, to)
		}
		if w.problem != hopOK {
			return
		}
		jumped, jumpedAt := 0, 0
		for k := 1; k < dist; k++ {
			q := b.SquareAt(f0+k*d.df, r0+k*d.dr)
			if w.empty(pos, q) {
				continue
			}
			switch {
			case w.took(q):
				fail(hopTakenTwice, from, to)
				w.sq1 = q
			case pos.Piece(q).Color() == side:
				fail(hopOwnPiece, from, to)
				w.sq1 = q
			case jumped != 0:
				fail(hopTwoPieces, from, to)
				w.sq1, w.sq2 = jumped, q
			}
			if w.problem != hopOK {
				return
			}
			jumped, jumpedAt = q, k
		}
		if jumped == 0 {
			fail(hopNoPiece, from, to)
			return
		}
		if w.king && v.KingLandsBehind && dist != jumpedAt+1 {
			fail(hopNotBehind, from, to)
			w.sq1 = jumped
			return
		}
		w.captured[w.n] = jumped // n < len(sqs) <= maxSquares
		w.n++
		w.lastKing = w.king
		w.end, w.dir = to, d
		if _, rank := b.Coords(to); !w.king && (side == rules.White && rank == b.Height || side == rules.Black && rank == 1) {
			switch v.Promotion {
			case rules.PromoteAndContinue:
				w.king = true
			case rules.PromoteEndsMove:
				w.king, w.stopped = true, true
			}
		}
	}
}

// lineWords names the lines variant v captures along, for messages.
func lineWords(v *rules.Variant) string {
	switch {
	case v.Board.AllSquares:
		return "a rank or file"
	case v.OrthogonalCaptures:
		return "a diagonal, row or column"
	}
	return "a diagonal"
}

// explain says what is wrong with the hop w stopped at, naming squares in
// the variant's notation.
func (w *hopWalk) explain(v *rules.Variant) string {
	b := v.Board
	from, to := sqName(b, v, w.from), sqName(b, v, w.to)
	switch w.problem {
	case hopAfterPromotion:
		return fmt.Sprintf("the man promotes on %s and the move ends there; it cannot go on to %s", from, to)
	case hopRepeated:
		return fmt.Sprintf("the path names %s twice in a row", from)
	case hopNotOnLine:
		return fmt.Sprintf("%s to %s is not along %s", from, to, lineWords(v))
	case hopBackwards:
		return fmt.Sprintf("men capture only forwards in %s draughts, and %s to %s goes back", v.Name, from, to)
	case hopTooLong:
		if w.king {
			return fmt.Sprintf("kings do not fly in %s draughts: a king takes by jumping to the square just beyond the piece, and %s to %s is longer", v.Name, from, to)
		}
		return fmt.Sprintf("a man takes by jumping to the square just beyond the piece, and %s to %s is longer", from, to)
	case hopNotBehind:
		return fmt.Sprintf("a king lands directly behind the piece it takes in %s draughts, and %s to %s goes beyond %s", v.Name, from, to, sqName(b, v, w.sq1))
	case hopTurnBack:
		return fmt.Sprintf("%s to %s turns straight back, which a capture may not do in %s draughts", from, to, v.Name)
	case hopOccupied:
		return fmt.Sprintf("%s to %s lands on an occupied square", from, to)
	case hopTakenTwice:
		return fmt.Sprintf("%s to %s jumps %s a second time (a taken piece stays on the board until the move ends)", from, to, sqName(b, v, w.sq1))
	case hopOwnPiece:
		return fmt.Sprintf("%s to %s is blocked by a piece of the mover's own on %s", from, to, sqName(b, v, w.sq1))
	case hopTwoPieces:
		return fmt.Sprintf("%s to %s jumps two pieces, %s and %s", from, to, sqName(b, v, w.sq1), sqName(b, v, w.sq2))
	case hopNoPiece:
		return fmt.Sprintf("no piece to capture between %s and %s", from, to)
	}
	return ""
}

// canTake returns a piece that the mover of walk w, standing on from (as a
// king or a man), could take next, or 0 if there is none. A Turkish
// capture does not look straight back along the walk's last hop.
func canTake(pos *rules.Position, w *hopWalk, from int, king bool) int {
	v, b := pos.Variant(), pos.Board()
	side := pos.SideToMove()
	f, r := b.Coords(from)
	for _, d := range captureSteps(v) {
		if !king && !forwardsOK(v, side, d) || w.n > 0 && noTurnBack(v) && d == w.dir.reverse() {
			continue
		}
		k := 1
		q := b.SquareAt(f+d.df, r+d.dr)
		if king && v.FlyingKings {
			for q != 0 && w.empty(pos, q) {
				k++
				q = b.SquareAt(f+k*d.df, r+k*d.dr)
			}
		}
		if q == 0 || w.empty(pos, q) || w.took(q) || pos.Piece(q).Color() == side {
			continue
		}
		if l := b.SquareAt(f+(k+1)*d.df, r+(k+1)*d.dr); l != 0 && w.empty(pos, l) {
			return q
		}
	}
	return 0
}

// chainStop checks where a walk without a broken hop ends. next is a piece
// the mover could still take from there (a started capture must be
// finished); else goOn lists, for a flying king, the other squares beyond
// the last piece taken from which the chain would go on: where there are
// such squares, the king must land on one of them. A walk whose next is 0
// and goOn empty is a complete capture chain.
func chainStop(pos *rules.Position, w *hopWalk, goOn []int) (next int, _ []int) {
	if w.stopped {
		return 0, goOn
	}
	v := pos.Variant()
	if next = canTake(pos, w, w.end, w.king); next != 0 || !w.lastKing || !v.FlyingKings || v.KingLandsBehind {
		return next, goOn
	}
	b := pos.Board()
	fl, rl := b.Coords(w.captured[w.n-1])
	for k := 1; ; k++ {
		s := b.SquareAt(fl+k*w.dir.df, rl+k*w.dir.dr)
		if s == 0 || !w.empty(pos, s) {
			break
		}
		if s != w.end && canTake(pos, w, s, true) != 0 {
			goOn = append(goOn, s)
		}
	}
	return 0, goOn
}

// resolveByHops is resolve's rule 2: the text (three or more squares) read
// as a full path, hop by hop. ok when it is a complete capture chain that
// the rules allow and a legal move has its start, end and captured set;
// the move returned is the keep list's path with the capture order
// written, or the legal list's when no path has it.
func (r *Replayer) resolveByHops(pos *rules.Position) (m rules.Move, ok bool) {
	mt := &r.mt
	if mt.short || mt.n < 3 {
		return rules.Move{}, false
	}
	if pc := pos.Piece(mt.sq[0]); pc == rules.Empty || pc.Color() != pos.SideToMove() {
		return rules.Move{}, false
	}
	var w hopWalk
	walkHops(pos, mt.sq[:mt.n], &w)
	if w.problem != hopOK {
		return rules.Move{}, false
	}
	var buf [maxSquares]int
	if next, goOn := chainStop(pos, &w, buf[:0]); next != 0 || len(goOn) != 0 {
		return rules.Move{}, false
	}
	var set [maxSquares]int
	taken := set[:w.n]
	copy(taken, w.captured[:w.n])
	slices.Sort(taken)
	for i := range r.legal {
		lm := &r.legal[i]
		if lm.From() != w.start || lm.To() != w.end || lm.CaptureCount() != w.n || !slices.Equal(lm.Captured(buf[:0]), taken) {
			continue
		}
		var o hopWalk
		for k := range r.keep {
			km := &r.keep[k]
			if !km.SameAs(lm) {
				continue
			}
			r.path = km.Path(append(r.path[:0], km.From()))
			walkHops(pos, r.path, &o)
			if o.problem == hopOK && slices.Equal(o.captured[:o.n], w.captured[:w.n]) {
				return *km, true
			}
		}
		return *lm, true
	}
	return rules.Move{}, false
}

// explainPath is explainIllegal for a text of squares that resolves to no
// legal move: read as a path, hop by hop (walkHops), it names the first hop
// that breaks a capture rule, or else why the chain may not end where it
// does (a capture left unfinished, a landing square from which the chain
// cannot go on where another lets it), or the majority rule. A start-end
// text whose one hop is no legal jump may stand for a longer capture, and a
// path that stops on a landing square of a legal capture is that capture
// cut short, so those keep explainIllegal's reasons.
func (r *Replayer) explainPath(pos *rules.Position) string {
	mt := &r.mt
	if mt.short || len(r.legal) == 0 {
		return r.explainIllegal(pos)
	}
	if pc := pos.Piece(mt.sq[0]); pc == rules.Empty || pc.Color() != pos.SideToMove() {
		return r.explainIllegal(pos)
	}
	v, b := pos.Variant(), pos.Board()
	var w hopWalk
	walkHops(pos, mt.sq[:mt.n], &w)
	if w.problem != hopOK {
		if mt.n == 2 {
			return r.explainIllegal(pos)
		}
		if r.stopsShort() {
			return fmt.Sprintf("the capture does not stop on %s: a started capture must be finished (legal: %s)", sqName(b, v, mt.sq[mt.n-1]), r.legalList(pos, 12))
		}
		return fmt.Sprintf("%s (legal: %s)", w.explain(v), r.legalList(pos, 12))
	}
	next, goOn := chainStop(pos, &w, nil)
	switch {
	case next != 0:
		return fmt.Sprintf("the capture does not stop on %s: it can go on to take %s, and a started capture must be finished (legal: %s)",
			sqName(b, v, w.end), sqName(b, v, next), r.legalList(pos, 12))
	case len(goOn) != 0:
		names := make([]string, len(goOn))
		for i, s := range goOn {
			names[i] = sqName(b, v, s)
		}
		return fmt.Sprintf("after taking %s the king must land where the capture goes on (%s), not on %s (legal: %s)",
			sqName(b, v, w.captured[w.n-1]), strings.Join(names, ", "), sqName(b, v, w.end), r.legalList(pos, 12))
	}
	most := 0
	for i := range r.legal {
		most = max(most, r.legal[i].CaptureCount())
	}
	if v.MajorityCapture && w.n < most {
		return fmt.Sprintf("majority rule: the capture must take the most pieces, %d here (legal: %s)", most, r.legalList(pos, 12))
	}
	return r.explainIllegal(pos)
}

// stopsShort reports whether the text's squares after the start are, in
// order, landing squares of a legal capture (any capture order) from the
// same start, none of them its end: the text cuts that capture short.
// r.keep must hold the position's capture paths.
func (r *Replayer) stopsShort() bool {
	mt := &r.mt
	for i := range r.keep {
		m := &r.keep[i]
		if m.From() != mt.sq[0] || !m.IsCapture() {
			continue
		}
		r.path = m.Path(r.path[:0])
		j := 1
		for _, sq := range r.path[:len(r.path)-1] {
			if j < mt.n && sq == mt.sq[j] {
				j++
			}
		}
		if j == mt.n {
			return true
		}
	}
	return false
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
