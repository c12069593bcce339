package endgame

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestPositionCounts: the index holds every placement of n pieces on the
// 8x8 board once (a man off its promotion row), as counted for checkers'
// databases by Schaeffer et al. ("Checkers Is Solved", Science 2007; OEIS
// A055213: 120, 6,972, 261,224, 7,092,774 for 1 to 4 pieces, either side
// possibly without pieces).
func TestPositionCounts(t *testing.T) {
	want := []int64{0, 120, 6972, 261224, 7092774}
	tb, err := newTables(rules.English, 4)
	if err != nil {
		t.Fatal(err)
	}
	menSq := len(tb.menSq[0])
	for n := 1; n <= 4; n++ {
		var got int64
		for _, x := range tb.order {
			if x.sig.total() != n {
				continue
			}
			for i := 0; i < x.size; i++ { // White to move: positions, not sides
				if _, ok := tb.position(x, i); ok {
					got++
				}
			}
		}
		// One side without pieces: m men and k kings of one colour, twice.
		for m := 0; m <= n; m++ {
			got += 2 * int64(tb.binom[menSq][m]*tb.binom[tb.nsq-m][n-m])
		}
		if got != want[n] {
			t.Errorf("%d pieces: %d placements, want %d", n, got, want[n])
		}
	}
}

// win and loss are a plain AND-OR search, independent of the tables: the
// side to move wins within d plies / loses within d plies.
func win(pos *rules.Position, d int) bool {
	if d < 1 {
		return false
	}
	for _, m := range pos.LegalMoves(nil) {
		c := *pos
		c.Play(&m)
		if loss(&c, d-1) {
			return true
		}
	}
	return false
}

func loss(pos *rules.Position, d int) bool {
	moves := pos.LegalMoves(nil)
	if len(moves) == 0 {
		return true
	}
	if d < 2 {
		return false
	}
	for _, m := range moves {
		c := *pos
		c.Play(&m)
		if !win(&c, d-1) {
			return false
		}
	}
	return true
}

// checkSample compares n random positions of tb with the plain search:
// a win or loss in d plies (d <= 5) is found at d and not at d-2, and a
// draw or a longer result is neither a win within 5 nor a loss within 4.
func checkSample(t *testing.T, tb *Tables, n int, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	var seen [3]int
	for done := 0; done < n; {
		x := tb.order[r.IntN(len(tb.order))]
		i := r.IntN(2 * x.size)
		pos, ok := tb.position(x, i)
		if !ok {
			continue
		}
		done++
		v := x.val[i]
		if got, _ := tb.Probe(&pos); got != v {
			t.Fatalf("%s: Probe %v, table %v", pos.FEN(), got, v)
		}
		fen := pos.FEN()
		switch d := v.dist(); {
		case v > 0 && d <= 5:
			seen[0]++
			if !win(&pos, d) || win(&pos, d-2) {
				t.Errorf("%s %s: %v, the plain search wins within %d: %v, within %d: %v", tb.v.Name, fen, v, d, win(&pos, d), d-2, win(&pos, d-2))
			}
		case v < 0 && d <= 5:
			seen[2]++
			if !loss(&pos, d) || (d >= 2 && loss(&pos, d-2)) {
				t.Errorf("%s %s: %v, the plain search loses within %d: %v, within %d: %v", tb.v.Name, fen, v, d, loss(&pos, d), d-2, loss(&pos, d-2))
			}
		default:
			seen[1]++
			if win(&pos, 5) || loss(&pos, 4) {
				t.Errorf("%s %s: %v, the plain search wins within 5: %v, loses within 4: %v", tb.v.Name, fen, v, win(&pos, 5), loss(&pos, 4))
			}
		}
	}
	if seen[0] == 0 || seen[1] == 0 || seen[2] == 0 {
		t.Errorf("%s: sample of wins, others, losses %v: want each", tb.v.Name, seen)
	}
}

// TestAgainstPlainSearch: every 3-piece table of the supported 8x8
// variants, and a 4-piece one of each flying-king kind, agree with a
// plain search on random positions.
func TestAgainstPlainSearch(t *testing.T) {
	for _, v := range []*rules.Variant{rules.English, rules.Brazilian, rules.Russian, rules.Pool, rules.Italian, rules.Czech} {
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			if !Supported(v) {
				t.Fatalf("%s not supported", v.Name)
			}
			tb, err := Generate(v, 3, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkSample(t, tb, 400, 1)
		})
	}
	for _, v := range []*rules.Variant{rules.English, rules.Brazilian, rules.Russian} {
		t.Run(v.Name+"-4", func(t *testing.T) {
			if testing.Short() {
				t.Skip("4-piece tables: -short")
			}
			t.Parallel()
			tb, err := newTablesOf(v, 4, []sig{{1, 1, 0, 2}, {1, 1, 1, 1}})
			if err != nil {
				t.Fatal(err)
			}
			tb.generate(nil)
			checkSample(t, tb, 200, 2)
		})
	}
}

// The main road (a1-h8) of the 8x8 board: squares 29, 25, 22, 18, 15, 11, 8, 4.
var mainRoad = map[int]bool{29: true, 25: true, 22: true, 18: true, 15: true, 11: true, 8: true, 4: true}

// TestKnownEndings: the endings the literature settles. English checkers
// (kings of one step): three kings beat one from every position with
// their side to move, and two kings beat one almost always (Chinook's
// databases; a draw only when a king is lost at once). Flying kings
// (Brazilian and Russian): three kings win against one when they hold the
// main road and the lone king is off it (Petrov's triangle, within the 15
// moves Russian's rules give it), and two kings do not beat one alone on
// the main road.
func TestKnownEndings(t *testing.T) {
	t.Parallel()
	count := func(tb *Tables, s sig, side int, keep func(*rules.Position) bool) (w, d, l, longest int) {
		x := tb.tabs[s.code()]
		for i := side * x.size; i < (side+1)*x.size; i++ {
			pos, ok := tb.position(x, i)
			if !ok || !keep(&pos) {
				continue
			}
			switch v := x.val[i]; {
			case v > 0:
				w++
				longest = max(longest, v.dist())
			case v < 0:
				l++
			default:
				d++
			}
		}
		return
	}
	all := func(*rules.Position) bool { return true }
	road := func(pos *rules.Position, pc rules.Piece) bool {
		for sq := range mainRoad {
			if pos.Piece(sq) == pc {
				return true
			}
		}
		return false
	}
	noCapture := func(pos *rules.Position) bool {
		m := pos.LegalMoves(nil)
		return len(m) > 0 && !m[0].IsCapture()
	}

	en, err := newTablesOf(rules.English, 4, []sig{{0, 3, 0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	en.generate(nil)
	if w, d, l, _ := count(en, sig{0, 3, 0, 1}, 0, all); d+l != 0 || w == 0 {
		t.Errorf("english, three kings v one, their side to move: %d won, %d drawn, %d lost; want all won", w, d, l)
	}
	if w, d, l, _ := count(en, sig{0, 2, 0, 1}, 0, all); l != 0 || d*100 > w {
		t.Errorf("english, two kings v one, their side to move: %d won, %d drawn, %d lost; want nearly all won", w, d, l)
	}
	if w, d, l, _ := count(en, sig{0, 1, 0, 1}, 0, noCapture); d < w+l {
		t.Errorf("english, king v king, no capture: %d won, %d drawn, %d lost; want mostly drawn", w, d, l)
	}

	for _, v := range []*rules.Variant{rules.Brazilian, rules.Russian} {
		fk, err := newTablesOf(v, 4, []sig{{0, 3, 0, 1}})
		if err != nil {
			t.Fatal(err)
		}
		fk.generate(nil)
		petrov := func(pos *rules.Position) bool {
			return road(pos, rules.WhiteKing) && !road(pos, rules.BlackKing)
		}
		w, d, l, longest := count(fk, sig{0, 3, 0, 1}, 0, petrov)
		if l != 0 || d*100 > w || longest >= 30 {
			t.Errorf("%s, three kings holding the main road v one off it, their side to move: %d won (the longest in %d plies), %d drawn, %d lost; want nearly all won within 15 moves", v.Name, w, longest, d, l)
		}
		if v == rules.Russian && !Value(longest).Exact(v, 0) {
			t.Errorf("russian: a win in %d plies from a fresh count is not exact", longest)
		}
		holds := func(pos *rules.Position) bool {
			return road(pos, rules.BlackKing) && !road(pos, rules.WhiteKing) && noCapture(pos)
		}
		if w, d, l, _ := count(fk, sig{0, 2, 0, 1}, 1, holds); w+l != 0 || d == 0 {
			t.Errorf("%s, a lone king alone on the main road, to move without a capture, v two kings: %d won, %d drawn, %d lost; want all drawn", v.Name, w, d, l)
		}
	}
}

// TestExact: under Russian's 30-ply king-move rule a draw is always
// exact and a decided value only while the count cannot reach 30 first;
// without the rule every value is.
func TestExact(t *testing.T) {
	for _, c := range []struct {
		v         Value
		variant   *rules.Variant
		kingPlies int
		want      bool
	}{
		{0, rules.Russian, 29, true},
		{winIn(29), rules.Russian, 0, true},
		{winIn(29), rules.Russian, 1, false},
		{lossIn(10), rules.Russian, 19, true},
		{lossIn(10), rules.Russian, 20, false},
		{lossIn(0), rules.Russian, 29, true},
		{winIn(101), rules.English, 500, true},
	} {
		if got := c.v.Exact(c.variant, c.kingPlies); got != c.want {
			t.Errorf("%v in %s with %d plies counted: Exact %v, want %v", c.v, c.variant.Name, c.kingPlies, got, c.want)
		}
	}
}

// TestUnsupported: the variants with a king-move limit, a board above 32
// squares, or won otherwise, have no tables.
func TestUnsupported(t *testing.T) {
	for _, v := range []*rules.Variant{rules.International, rules.Frisian, rules.Antidraughts, rules.Breakthrough} {
		if _, err := Generate(v, 3, nil); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", v.Name, err)
		}
	}
	if _, err := Generate(rules.English, MaxPieces+1, nil); err == nil {
		t.Errorf("%d pieces: no error", MaxPieces+1)
	}
}

// TestFile: the tables read back as written; a damaged or cut file is
// ErrCorrupt, and Open builds it again, once.
func TestFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	calls := 0
	progress := func(done, total int64) {
		calls++
		if done > total || done <= 0 {
			t.Errorf("progress %d of %d", done, total)
		}
	}
	a, err := Open(dir, rules.Brazilian, 3, progress)
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 {
		t.Fatal("no progress while generating")
	}
	calls = 0
	b, err := Open(dir, rules.Brazilian, 3, progress)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 0 {
		t.Errorf("second Open generated again (%d progress calls)", calls)
	}
	var wa, wb bytes.Buffer
	if _, err := a.WriteTo(&wa); err != nil {
		t.Fatal(err)
	}
	if _, err := b.WriteTo(&wb); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(wa.Bytes(), wb.Bytes()) {
		t.Fatal("the tables read differ from those written")
	}
	data := wa.Bytes()
	for name, bad := range map[string][]byte{
		"cut":     data[:len(data)-3],
		"flipped": append(append([]byte(nil), data[:len(data)/2]...), append([]byte{data[len(data)/2] ^ 4}, data[len(data)/2+1:]...)...),
		"longer":  append(append([]byte(nil), data...), 0),
	} {
		if _, err := ReadTables(bytes.NewReader(bad), rules.Brazilian, 3); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s file: %v, want ErrCorrupt", name, err)
		}
	}
	if _, err := ReadTables(bytes.NewReader(data), rules.English, 3); !errors.Is(err, ErrCorrupt) {
		t.Errorf("another variant's file: %v, want ErrCorrupt", err)
	}
	path := filepath.Join(dir, FileName(rules.Brazilian, 3))
	if err := os.WriteFile(path, data[:100], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, rules.Brazilian, 3, progress); err != nil || calls == 0 {
		t.Errorf("Open of a cut file: %v, %d progress calls; want it built again", err, calls)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != int64(len(data)) {
		t.Errorf("rebuilt file: %v, %v bytes; want %d", err, fi, len(data))
	}
}
