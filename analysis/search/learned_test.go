package search

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// reversed is pos turned by 180 degrees with the colours and the side to
// move swapped: the same position for the other side.
func reversed(pos *rules.Position) rules.Position {
	v := pos.Variant()
	n := v.Board.Squares()
	q := rules.NewPosition(v, pos.SideToMove().Opponent())
	swap := map[rules.Piece]rules.Piece{rules.WhiteMan: rules.BlackMan, rules.BlackMan: rules.WhiteMan,
		rules.WhiteKing: rules.BlackKing, rules.BlackKing: rules.WhiteKing}
	for s := 1; s <= n; s++ {
		if pc := pos.Piece(s); pc != rules.Empty {
			q.SetPiece(n+1-s, swap[pc])
		}
	}
	q.SetSideToMove(pos.SideToMove().Opponent())
	return q
}

// TestLearnedEvaluation: every variant with a weights file evaluates with
// it (Learned names it), and on the positions of random games the
// evaluation of a position and of its colour-reversed image with the
// other side to move are the same, and the hand-set evaluation is still
// there (EvaluateHandSet, Options.HandSet).
func TestLearnedEvaluation(t *testing.T) {
	for _, v := range []*rules.Variant{rules.International, rules.Russian, rules.English, rules.Brazilian} {
		if _, ok := Learned(v); !ok {
			t.Fatalf("%s: no learned weights embedded", v.Name)
		}
	}
	rng := rand.New(rand.NewPCG(3, 9))
	for _, v := range rules.Variants() {
		name, ok := Learned(v)
		if !ok {
			continue
		}
		if len(name) < len(v.Name) || name[:len(v.Name)] != v.Name {
			t.Errorf("%s: weights named %q", v.Name, name)
		}
		differs := 0
		for g := 0; g < 20; g++ {
			pos := v.StartPosition()
			for ply := 0; ply < 120; ply++ {
				moves := pos.LegalMoves(nil)
				if len(moves) == 0 {
					break
				}
				if e, r := Evaluate(pos), Evaluate(reversed(&pos)); e != r {
					t.Fatalf("%s %s: evaluates to %d, its colour-reversed image to %d", v.Name, pos.FEN(), e, r)
				}
				if Evaluate(pos) != EvaluateHandSet(pos) {
					differs++
				}
				pos.Play(&moves[rng.IntN(len(moves))])
			}
		}
		if differs == 0 {
			t.Errorf("%s: the learned evaluation equals the hand-set one everywhere", v.Name)
		}
		pos := v.StartPosition()
		hand := Search(pos, Options{Depth: 4, HandSet: true}, nil)
		learned := Search(pos, Options{Depth: 4}, nil)
		if hand.Nodes == learned.Nodes && hand.Score == learned.Score {
			t.Errorf("%s: Options.HandSet searched as the learned evaluation (%d nodes)", v.Name, hand.Nodes)
		}
	}
}

// naiveFeatures computes the learned evaluation's features of pos square
// by square from the board's coordinates, as learned.go describes them,
// without the fast layout's bit tricks: every block of 4 ranks by 2
// adjacent dark squares of each rank (in file order), the men in base 3
// (own 1, the opponent's 2; the first square of a rank's pair the low
// digit, rank by rank in powers of 9), White's view and then the same on
// the board turned round with the colours swapped; then the scalars.
func naiveFeatures(pos *rules.Position) (pat []int32, nWhite int, sc [NumScalars]int32) {
	v := pos.Variant()
	b := v.Board
	w, h := b.Width, b.Height
	n := w / 2
	rank := func(r int) []int { // the dark squares of rank r, file order
		var s []int
		for f := 1; f <= w; f++ {
			if q := b.SquareAt(f, r); q != 0 {
				s = append(s, q)
			}
		}
		return s
	}
	view := func(p *rules.Position) {
		block := int32(0)
		for r := 1; r+3 <= h; r++ {
			for c := 0; c+2 <= n; c++ {
				idx, mul := 0, 1
				for i := 0; i < 4; i++ {
					sq := rank(r + i)
					for j := 0; j < 2; j++ {
						d := 0
						switch p.Piece(sq[c+j]) {
						case rules.WhiteMan:
							d = 1
						case rules.BlackMan:
							d = 2
						}
						idx += d * mul
						mul *= 3
					}
				}
				pat = append(pat, block*blockSize+int32(idx))
				block++
			}
		}
		if w != 10 || h != 10 {
			return
		}
		// The large blocks: the 6 ranks ahead, 2 adjacent dark squares
		// of each, after all the small blocks' weights.
		for c := 0; c+2 <= n; c++ {
			idx, mul := 0, 1
			for r := h - 5; r <= h; r++ {
				sq := rank(r)
				for j := 0; j < 2; j++ {
					d := 0
					switch p.Piece(sq[c+j]) {
					case rules.WhiteMan:
						d = 1
					case rules.BlackMan:
						d = 2
					}
					idx += d * mul
					mul *= 3
				}
			}
			pat = append(pat, int32((h-3)*(n-1)*blockSize+c*bigSize+idx))
		}
	}
	view(pos)
	nWhite = len(pat)
	// Black's view: the board turned round by its coordinates (not by
	// square numbers, which some boards number from the other corner),
	// the colours swapped.
	rev := rules.NewPosition(v, pos.SideToMove())
	swap := map[rules.Piece]rules.Piece{rules.WhiteMan: rules.BlackMan, rules.BlackMan: rules.WhiteMan,
		rules.WhiteKing: rules.BlackKing, rules.BlackKing: rules.WhiteKing}
	for s := 1; s <= b.Squares(); s++ {
		if pc := pos.Piece(s); pc != rules.Empty {
			f, r := b.Coords(s)
			rev.SetPiece(b.SquareAt(w+1-f, h+1-r), swap[pc])
		}
	}
	view(&rev)
	empty := func(f, r int) bool {
		q := b.SquareAt(f, r)
		return q != 0 && pos.Piece(q) == rules.Empty
	}
	var kings [2]int
	for s := 1; s <= b.Squares(); s++ {
		f, r := b.Coords(s)
		switch pos.Piece(s) {
		case rules.WhiteMan:
			sc[0]++
			sc[2] += int32(r - 1)
			if empty(f-1, r+1) || empty(f+1, r+1) {
				sc[3]++
			}
		case rules.BlackMan:
			sc[0]--
			sc[2] -= int32(h - r)
			if empty(f-1, r-1) || empty(f+1, r-1) {
				sc[3]--
			}
		case rules.WhiteKing, rules.BlackKing:
			sign := int32(1)
			if pos.Piece(s) == rules.BlackKing {
				sign = -1
				kings[1]++
			} else {
				kings[0]++
			}
			sc[1] += sign
			for _, d := range [4][2]int{{-1, 1}, {1, 1}, {1, -1}, {-1, -1}} {
				if empty(f+d[0], r+d[1]) {
					sc[5] += sign
				}
			}
		}
	}
	switch {
	case kings[0] > 0 && kings[1] == 0:
		sc[4] = 1
	case kings[1] > 0 && kings[0] == 0:
		sc[4] = -1
	}
	if kings[0] > 0 && kings[1] > 0 {
		sc[10] = sc[0] + 3*sc[1]
	}
	// The wings (the three files at either edge) and the kings on the
	// long diagonal and the double-corner diagonals.
	var wing [2][2]int32 // [colour][left, right]
	for s := 1; s <= b.Squares(); s++ {
		f, r := b.Coords(s)
		pc := pos.Piece(s)
		c, sign := 0, int32(1)
		if pc == rules.BlackMan || pc == rules.BlackKing {
			c, sign = 1, -1
		}
		switch pc {
		case rules.WhiteMan, rules.BlackMan:
			if f <= 3 {
				wing[c][0]++
			}
			if f >= w-2 {
				wing[c][1]++
			}
		case rules.WhiteKing, rules.BlackKing:
			mirrored := b.SquareAt(1, 1) == 0
			if (!mirrored && f == r) || (mirrored && f+r == w+1) {
				sc[12] += sign
			}
			if (!mirrored && (f+r == w || f+r == w+2)) || (mirrored && (f-r == 1 || r-f == 1)) {
				sc[13] += sign
			}
		}
	}
	abs := func(x int32) int32 { return max(x, -x) }
	sc[11] = abs(wing[1][0]-wing[1][1]) - abs(wing[0][0]-wing[0][1])
	// A man's free path: no piece of the other colour on a square ahead
	// within as many files as ranks, 1 to 4 ranks from promotion.
	for s := 1; s <= b.Squares(); s++ {
		pc := pos.Piece(s)
		if pc != rules.WhiteMan && pc != rules.BlackMan {
			continue
		}
		f, r := b.Coords(s)
		dist, sign, dir := h-r, int32(1), 1
		if pc == rules.BlackMan {
			dist, sign, dir = r-1, -1, -1
		}
		if dist < 1 || dist > 4 {
			continue
		}
		free := true
		for t := 1; t <= b.Squares(); t++ {
			ft, rt := b.Coords(t)
			k := (rt - r) * dir
			q := pos.Piece(t)
			theirs := (pc == rules.WhiteMan && (q == rules.BlackMan || q == rules.BlackKing)) ||
				(pc == rules.BlackMan && (q == rules.WhiteMan || q == rules.WhiteKing))
			if k > 0 && max(ft-f, f-ft) <= k && theirs {
				free = false
			}
		}
		if free {
			sc[5+dist] += sign
		}
	}
	return pat, nWhite, sc
}

// TestLearnedFeaturesAllBoards: on every variant the trainer serves (the
// 8x8 boards of Russian, Brazilian and English among them, with flying
// and short kings, men that capture backwards and men that do not), the
// features the fast layout computes are those computed square by square
// on the positions of random games: 15 blocks of 8 dark squares on 8x8
// (5 rank-starts by 3 pairs of adjacent dark squares), 28 on 10x10 and
// there 4 large blocks of 12 (6 ranks by 2), and the scalars with kings
// counted apart from men.
func TestLearnedFeaturesAllBoards(t *testing.T) {
	wantBlocks := map[string][2]int{"international": {28, 4}, "russian": {15, 0}, "brazilian": {15, 0}, "english": {15, 0}}
	rng := rand.New(rand.NewPCG(5, 11))
	for _, v := range rules.Variants() {
		size := LearnedSize(v)
		if want, ok := wantBlocks[v.Name]; ok && size != want[0]*blockSize+want[1]*bigSize {
			t.Errorf("%s: %d pattern weights, want %d blocks of %d and %d of %d", v.Name, size, want[0], blockSize, want[1], bigSize)
		}
		if size == 0 {
			continue
		}
		var s Sample
		kingsSeen := 0
		var scalarSeen [NumScalars]int
		for g := 0; g < 10; g++ {
			pos := v.StartPosition()
			for ply := 0; ply < 150; ply++ {
				moves := pos.LegalMoves(nil)
				if len(moves) == 0 {
					break
				}
				if !Features(&pos, &s) {
					t.Fatalf("%s: no features, with %d pattern weights", v.Name, size)
				}
				pat, nw, sc := naiveFeatures(&pos)
				if s.NumPatternsWhite != nw || len(s.Pattern) != len(pat) || s.Scalar != sc {
					t.Fatalf("%s %s: %d+%d patterns, scalars %v; square by square %d+%d, %v",
						v.Name, pos.FEN(), s.NumPatternsWhite, len(s.Pattern)-s.NumPatternsWhite, s.Scalar, nw, len(pat)-nw, sc)
				}
				for i := range pat {
					if s.Pattern[i] != pat[i] {
						t.Fatalf("%s %s: pattern %d is %d, square by square %d", v.Name, pos.FEN(), i, s.Pattern[i], pat[i])
					}
				}
				if sc[1] != 0 || sc[5] != 0 {
					kingsSeen++
				}
				for i := 6; i < NumScalars; i++ {
					if sc[i] != 0 {
						scalarSeen[i]++
					}
				}
				pos.Play(&moves[rng.IntN(len(moves))])
			}
		}
		if kingsSeen == 0 {
			t.Errorf("%s: no position with kings among the random games' (the king features were not checked)", v.Name)
		}
		for i := 6; i < NumScalars; i++ {
			if scalarSeen[i] == 0 {
				t.Errorf("%s: scalar %d was 0 in every position of the random games (not checked)", v.Name, i)
			}
		}
	}
}

// TestLearnedCombinedTable: the evaluation through the combined table
// (one lookup per block) gives exactly the plain evaluation's score (both
// views looked up one by one) on the positions of random games, kings and
// all, for every variant with learned weights, and for weights that are
// not the embedded ones (random ones, through NewLearnedEvaluation).
// Weights whose differences overflow the table's int16 leave it out and
// evaluate on the plain path, with the same scores as the plain path by
// construction, so for them the test only checks that the table is left
// out.
func TestLearnedCombinedTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 17))
	check := func(name string, e *learned, f *fastBoard, v *rules.Variant) {
		if e.both == nil {
			t.Fatalf("%s: no combined table: the blocks of the two views did not pair up", name)
		}
		n := 0
		for g := 0; g < 200; g++ {
			pos := v.StartPosition()
			for ply := 0; ply < 200; ply++ {
				moves := pos.LegalMoves(nil)
				if len(moves) == 0 {
					break
				}
				var fb fboard
				f.load(&pos, &fb)
				for _, us := range []rules.Color{rules.White, rules.Black} {
					if a, b := e.evaluate(&fb, us), e.evaluatePlain(&fb, us); a != b {
						t.Fatalf("%s %s: combined table %d, plain %d", name, pos.FEN(), a, b)
					}
				}
				n++
				pos.Play(&moves[rng.IntN(len(moves))])
			}
		}
		if n < 5000 {
			t.Fatalf("%s: only %d positions compared", name, n)
		}
	}
	for v, e := range learnedEvals {
		check(v.Name, e, fastBoards[v], v)
		w := &LearnedWeights{Pattern: make([][2]float64, LearnedSize(v))}
		for i := range w.Pattern {
			w.Pattern[i] = [2]float64{rng.NormFloat64() * 100, rng.NormFloat64() * 100}
		}
		for i := range w.Scalar {
			w.Scalar[i] = [2]float64{rng.NormFloat64() * 50, rng.NormFloat64() * 50}
		}
		data, err := EncodeWeights(v, w)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := NewLearnedEvaluation(v, data)
		if err != nil {
			t.Fatal(err)
		}
		check(v.Name+" (random weights)", ev.l, ev.f, v)
		// Opposite extremes in a block and its partner: 32767 - (-32767)
		// does not fit.
		for i := range w.Pattern {
			w.Pattern[i] = [2]float64{float64(1-2*(i%2)) * 4000, 0}
		}
		if data, err = EncodeWeights(v, w); err != nil {
			t.Fatal(err)
		}
		if ev, err = NewLearnedEvaluation(v, data); err != nil {
			t.Fatal(err)
		}
		if ev.l.both != nil {
			t.Errorf("%s: a combined table of differences that overflow int16", v.Name)
		}
	}
}

// TestWeightsFileWithFirstScalars: a weights file with only the first
// scalars (as written before the free-path, king-ending, wing and diagonal
// features; the 8x8 files still are) evaluates as a full file whose other
// scalar weights are 0, and a full file with one of the later weights set
// does not: the later features are neither left out of a full file nor
// read into a short one.
func TestWeightsFileWithFirstScalars(t *testing.T) {
	v := rules.International
	rng := rand.New(rand.NewPCG(7, 3))
	w := &LearnedWeights{Pattern: make([][2]float64, LearnedSize(v))}
	for i := range w.Pattern {
		w.Pattern[i] = [2]float64{rng.NormFloat64() * 50, rng.NormFloat64() * 50}
	}
	for i := 0; i < scalarsBefore; i++ {
		w.Scalar[i] = [2]float64{rng.NormFloat64() * 50, rng.NormFloat64() * 50}
	}
	full, err := EncodeWeights(v, w)
	if err != nil {
		t.Fatal(err)
	}
	// The short file: the same header with the first scalars' count, the
	// later scalars' bytes dropped.
	nl := bytes.IndexByte(full[len(weightsMagic):], '\n') + len(weightsMagic)
	head := fmt.Sprintf("%s%s %d %d", weightsMagic, v.Name, LearnedSize(v), scalarsBefore)
	short := append([]byte(head), full[nl:len(full)-8*(NumScalars-scalarsBefore)]...)
	w.Scalar[sFreePath] = [2]float64{150, 150} // a free path one rank from promotion
	more, err := EncodeWeights(v, w)
	if err != nil {
		t.Fatal(err)
	}
	evals := map[string]*Evaluation{}
	for name, data := range map[string][]byte{"full": full, "short": short, "more": more} {
		if evals[name], err = NewLearnedEvaluation(v, data); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if evals["short"].l.nscalar != scalarsBefore || evals["full"].l.nscalar != NumScalars {
		t.Fatalf("scalars read: short %d, full %d", evals["short"].l.nscalar, evals["full"].l.nscalar)
	}
	differ := 0
	for g := 0; g < 100; g++ {
		pos := v.StartPosition()
		for ply := 0; ply < 200; ply++ {
			moves := pos.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			a, b := evals["full"].Evaluate(&pos), evals["short"].Evaluate(&pos)
			if a != b {
				t.Fatalf("%s: full file %d, short file %d", pos.FEN(), a, b)
			}
			if evals["more"].Evaluate(&pos) != a {
				differ++
			}
			pos.Play(&moves[rng.IntN(len(moves))])
		}
	}
	if differ == 0 {
		t.Error("a free-path weight changed no evaluation of the random games")
	}
	if _, err := NewLearnedEvaluation(v, append([]byte(fmt.Sprintf("%s%s %d %d", weightsMagic, v.Name, LearnedSize(v), 7)), full[nl:]...)); err == nil {
		t.Error("a file of 7 scalars was read")
	}
}

// TestLearnedEvaluationIsItsFeatures: with random weights (every weight of
// the small and the large blocks set), the evaluation of the positions of
// random games is the weights of their features computed square by
// square (naiveFeatures) summed and mixed by the phase, as the trainer
// fits them: the search and the trainer see the same features.
func TestLearnedEvaluationIsItsFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 21))
	for _, v := range []*rules.Variant{rules.International, rules.Russian} {
		w := &LearnedWeights{Pattern: make([][2]float64, LearnedSize(v))}
		for i := range w.Pattern {
			w.Pattern[i] = [2]float64{rng.NormFloat64() * 30, rng.NormFloat64() * 30}
		}
		for i := range w.Scalar {
			w.Scalar[i] = [2]float64{rng.NormFloat64() * 50, rng.NormFloat64() * 50}
		}
		data, err := EncodeWeights(v, w)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := NewLearnedEvaluation(v, data)
		if err != nil {
			t.Fatal(err)
		}
		e := ev.l
		if v == rules.International && !e.big {
			t.Fatalf("%s: the large blocks' weights were not read", v.Name)
		}
		for g := 0; g < 20; g++ {
			pos := v.StartPosition()
			for ply := 0; ply < 150; ply++ {
				moves := pos.LegalMoves(nil)
				if len(moves) == 0 {
					break
				}
				pat, nw, sc := naiveFeatures(&pos)
				var mid, end int64
				for i, k := range pat {
					sign := int64(1)
					if i >= nw {
						sign = -1
					}
					mid += sign * int64(e.pat[k][0])
					end += sign * int64(e.pat[k][1])
				}
				for i, x := range sc {
					mid += int64(x) * int64(e.scalar[i][0])
					end += int64(x) * int64(e.scalar[i][1])
				}
				pieces := int64(e.lay.pieces)
				ph := min(int64(pos.Pieces()), pieces)
				want := (mid*ph + end*(pieces-ph)) / (pieces * weightScale)
				if pos.SideToMove() == rules.Black {
					want = -want
				}
				if got := ev.Evaluate(&pos); int64(got) != want {
					t.Fatalf("%s %s: evaluates to %d, its features' weights to %d", v.Name, pos.FEN(), got, want)
				}
				pos.Play(&moves[rng.IntN(len(moves))])
			}
		}
	}
}

// TestWeightsFileWithoutLargeBlocks: a weights file of the small blocks
// only (as written before the large ones were added) evaluates as a full
// file whose large blocks' weights are 0, and setting one large weight
// changes evaluations: the large blocks are neither left out of a full
// file nor read into a short one.
func TestWeightsFileWithoutLargeBlocks(t *testing.T) {
	v := rules.International
	small := len(layouts[v].blocks) * blockSize
	if small == LearnedSize(v) {
		t.Fatalf("%s: no large blocks", v.Name)
	}
	rng := rand.New(rand.NewPCG(9, 4))
	w := &LearnedWeights{Pattern: make([][2]float64, LearnedSize(v))}
	for i := range w.Pattern[:small] {
		w.Pattern[i] = [2]float64{rng.NormFloat64() * 50, rng.NormFloat64() * 50}
	}
	for i := range w.Scalar {
		w.Scalar[i] = [2]float64{rng.NormFloat64() * 50, rng.NormFloat64() * 50}
	}
	full, err := EncodeWeights(v, w)
	if err != nil {
		t.Fatal(err)
	}
	nl := bytes.IndexByte(full[len(weightsMagic):], '\n') + len(weightsMagic)
	body := full[nl+1:]
	short := fmt.Appendf(nil, "%s%s %d %d\n", weightsMagic, v.Name, small, NumScalars)
	short = append(short, body[:4*small]...)
	short = append(short, body[4*LearnedSize(v):]...)
	// The empty square pattern of the first large block in White's
	// view, and one with a White man on its first square: common ones.
	base := small
	w.Pattern[base] = [2]float64{80, 80}
	w.Pattern[base+1] = [2]float64{-60, 40}
	more, err := EncodeWeights(v, w)
	if err != nil {
		t.Fatal(err)
	}
	evals := map[string]*Evaluation{}
	for name, data := range map[string][]byte{"full": full, "short": short, "more": more} {
		if evals[name], err = NewLearnedEvaluation(v, data); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if evals["short"].l.big || !evals["full"].l.big {
		t.Fatalf("large blocks read: short %v, full %v", evals["short"].l.big, evals["full"].l.big)
	}
	differ := 0
	for g := 0; g < 50; g++ {
		pos := v.StartPosition()
		for ply := 0; ply < 200; ply++ {
			moves := pos.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			a, b := evals["full"].Evaluate(&pos), evals["short"].Evaluate(&pos)
			if a != b {
				t.Fatalf("%s: full file %d, short file %d", pos.FEN(), a, b)
			}
			if evals["more"].Evaluate(&pos) != a {
				differ++
			}
			pos.Play(&moves[rng.IntN(len(moves))])
		}
	}
	if differ == 0 {
		t.Error("a large block's weight changed no evaluation of the random games")
	}
	if _, err := NewLearnedEvaluation(v, short[:len(short)-1]); err == nil {
		t.Error("a file a byte short was read")
	}
}
