package search

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// A shot: White to move plays Key (a sacrifice: Black must capture next)
// and wins at least Gain men by force. Depth is the smallest depth (in
// plies, 1, 3 or 5) at which the exhaustive reference of ref_test.go finds
// Key as the only move that gains material; the engine must find it at that
// depth. The positions were composed with TestComposeShots (random quiet
// positions filtered by the reference; they are not from the literature)
// and every run of this test re-verifies them with the reference.
type shot struct {
	variant *rules.Variant
	fen     string
	key     string
	depth   int
	gain    int
}

var shots = []shot{
	// International (10x10)
	{rules.International, "W:W16,20,24,34,41,44,50:B2,3,8,31,32,33,35", "44-40", 1, 3},
	{rules.International, "W:W34,38,39,40,41,47,50:B1,2,10,15,16,19,27", "38-32", 3, 3},
	{rules.International, "W:W16,21,22,25,35,38,40,42,45:B3,7,9,11,12,13,19,23,24", "22-18", 3, 2},
	{rules.International, "W:W18,27,29,32,37,38,42:B1,6,10,11,17,25,30", "29-24", 3, 3},
	{rules.International, "W:W23,28,33,38,43,45,48:B2,9,11,13,15,34,35", "23-18", 5, 2},
	{rules.International, "W:W22,27,30,31,35,38,46:B9,10,12,13,14,16,23", "22-18", 5, 3},
	{rules.International, "W:W20,24,26,30,31,44,49:B5,7,11,13,18,32,33", "31-27", 5, 2},
	{rules.International, "W:W18,22,27,28,33,38,44,47,50:B3,9,10,16,19,20,25,30,35", "18-13", 5, 3},
	// Russian (8x8, flying kings, a man promoted mid-capture goes on as a king)
	{rules.Russian, "W:W17,18,20,22,23,25,26,28:B1,3,4,6,7,8,11,16", "18-15", 1, 4},
	{rules.Russian, "W:W20,23,24,25,28,30:B2,3,8,9,13,14", "23-18", 3, 2},
	{rules.Russian, "W:W17,18,20,25,29,30,32:B2,5,6,8,10,11,16", "17-14", 3, 2},
	{rules.Russian, "W:W18,19,22,25,28:B3,6,9,11,12", "18-14", 5, 2},
	{rules.Russian, "W:W18,23,25,26,27,29:B2,3,8,9,11,12", "18-15", 5, 3},
	{rules.Russian, "W:W20,23,24,26,28:B8,10,11,16,17", "26-22", 5, 2},
	{rules.Russian, "W:W21,22,25,26,30:B4,10,13,16,19", "26-23", 5, 2},
	{rules.Russian, "W:W13,17,18,19,20,23,27,29,30:B1,3,4,6,8,9,10,11,12", "18-14", 5, 2},
}

func moveText(m *rules.Move) string {
	return rules.FormatMove(rules.International, m, rules.Numeric, false)
}

func TestShots(t *testing.T) {
	for _, sh := range shots {
		t.Run(sh.variant.Name+"/"+sh.key, func(t *testing.T) {
			pos, err := rules.ParseFEN(sh.variant, sh.fen)
			if err != nil {
				t.Fatal(err)
			}
			base := refMaterial(&pos)
			// The reference at the stated depth: Key is the only move that
			// gains material, and it gains at least Gain men.
			moves, vals, nodes := refRootValues(pos, sh.depth)
			keyFound := false
			for i := range moves {
				txt := moveText(&moves[i])
				gain := vals[i] - base
				if txt == sh.key {
					keyFound = true
					if gain < sh.gain {
						t.Errorf("reference: %s gains %d men at depth %d, want >= %d", txt, gain, sh.depth, sh.gain)
					}
					c := pos
					c.Play(&moves[i])
					if cm := c.LegalMoves(nil); len(cm) == 0 || !cm[0].IsCapture() {
						t.Errorf("%s is not a sacrifice", txt)
					}
				} else if gain > 0 {
					t.Errorf("reference: %s also gains %d men at depth %d", txt, gain, sh.depth)
				}
			}
			if !keyFound {
				t.Fatalf("%s is not legal in %s", sh.key, sh.fen)
			}
			// The depth is minimal: two plies less, the reference does not
			// single the key move out.
			if sh.depth > 1 {
				moves, vals, _ := refRootValues(pos, sh.depth-2)
				alone := true
				for i := range moves {
					gain := vals[i] - base
					if moveText(&moves[i]) == sh.key {
						alone = alone && gain >= sh.gain
					} else if gain > 0 {
						alone = false
					}
				}
				if alone {
					t.Errorf("reference already finds %s at depth %d; the stated depth %d is not minimal", sh.key, sh.depth-2, sh.depth)
				}
			}
			// Full width (analyze at a fixed depth) and selective (the
			// engine on a clock) must both find the shot at its depth.
			for _, sel := range []bool{false, true} {
				r := Search(pos, Options{Depth: sh.depth, Selective: sel}, nil)
				if got := moveText(&r.Best); got != sh.key {
					t.Errorf("engine (selective %v) at depth %d plays %s (score %d), want %s", sel, sh.depth, got, r.Score, sh.key)
				}
				if r.Score < 100*sh.gain-100 {
					t.Errorf("engine (selective %v) score %d, want about %d or more", sel, r.Score, 100*sh.gain)
				}
				t.Logf("%s %s: reference %d nodes; engine (selective %v) score %d, %d nodes", sh.fen, sh.key, nodes, sel, r.Score, r.Nodes)
			}
		})
	}
	var intl, rus int
	for _, sh := range shots {
		switch sh.variant {
		case rules.International:
			intl++
		case rules.Russian:
			rus++
		}
	}
	if intl < 4 || rus < 4 {
		t.Errorf("want at least 4 shots per variant, have %d International and %d Russian", intl, rus)
	}
}

// TestMateScores: positions with exactly one winning move (the opponent is
// left without a legal move), composed with TestComposeWins. The
// exhaustive reference gives the distance; the engine must report a win
// score Win - plies with the same distance and the same first move.
func TestMateScores(t *testing.T) {
	cases := []struct {
		variant *rules.Variant
		fen     string
		key     string
		plies   int
	}{
		{rules.International, "W:W40,41,48:B24,38", "40-34", 5},
		{rules.International, "W:W11,34,39,50:B6,20", "11-7", 7},
		{rules.Russian, "W:W16,18,22,23:B7,12", "23-19", 5},
		{rules.Russian, "W:W10,11,17,22:B9,13,21", "11-7", 7},
	}
	for _, c := range cases {
		pos, err := rules.ParseFEN(c.variant, c.fen)
		if err != nil {
			t.Fatal(err)
		}
		moves, vals, _ := refRootValues(pos, c.plies)
		for i := range moves {
			win := vals[i] > refWin-100
			if moveText(&moves[i]) == c.key {
				if !win || refWin-vals[i] != c.plies {
					t.Errorf("%s: reference gives %s value %d, want a win in %d plies", c.fen, c.key, vals[i], c.plies)
				}
			} else if win {
				t.Errorf("%s: reference: %s also wins", c.fen, moveText(&moves[i]))
			}
		}
		for _, sel := range []bool{false, true} {
			r := Search(pos, Options{Depth: c.plies, Selective: sel}, nil)
			if !r.Mate || r.Score != Win-c.plies || r.PliesToEnd() != c.plies || moveText(&r.Best) != c.key {
				t.Errorf("%s (selective %v): engine %s score %d mate %v plies %d, want %s, %d (win in %d)", c.fen, sel,
					moveText(&r.Best), r.Score, r.Mate, r.PliesToEnd(), c.key, Win-c.plies, c.plies)
			}
			// The loser's view: after the key move the score is a loss.
			q := pos
			for i := range moves {
				if moveText(&moves[i]) == c.key {
					q.Play(&moves[i])
				}
			}
			if r := Search(q, Options{Depth: c.plies, Selective: sel}, nil); r.Score != -(Win - (c.plies - 1)) {
				t.Errorf("%s after %s (selective %v): score %d, want %d", c.fen, c.key, sel, r.Score, -(Win - (c.plies - 1)))
			}
		}
	}
}

func TestNoLegalMove(t *testing.T) {
	pos, _ := rules.ParseFEN(rules.International, "B:W28:B")
	r := Search(pos, Options{Depth: 3}, nil)
	if r.Score != -Win || !r.Mate || len(r.PV) != 0 || r.Depth != 0 {
		t.Errorf("got %+v, want a loss with no move", r)
	}
}

func TestDeterministic(t *testing.T) {
	for _, sel := range []bool{false, true} {
		testDeterministic(t, sel)
	}
	// The selective search is another search: were Selective ignored at a
	// fixed depth, the two would search the same nodes.
	mid, _ := rules.ParseFEN(rules.International, middlegameFEN)
	full, sel := Search(mid, Options{Depth: 8}, nil), Search(mid, Options{Depth: 8, Selective: true}, nil)
	if sel.Nodes >= full.Nodes {
		t.Errorf("depth 8: selective %d nodes, full width %d", sel.Nodes, full.Nodes)
	}
}

func testDeterministic(t *testing.T, selective bool) {
	mid, _ := rules.ParseFEN(rules.International, middlegameFEN)
	for _, pos := range []rules.Position{rules.International.StartPosition(), mid, rules.Russian.StartPosition()} {
		var iters [2][]Result
		var res [2]Result
		e := NewEngine(4)
		for i := 0; i < 2; i++ {
			// The second run reuses the engine: its table is cleared, so
			// nothing carries over.
			res[i] = e.Search(context.Background(), pos, Options{Depth: 7, Selective: selective}, func(r Result) {
				r.Time = 0
				iters[i] = append(iters[i], r)
			})
			res[i].Time = 0
		}
		if !reflect.DeepEqual(res[0], res[1]) || !reflect.DeepEqual(iters[0], iters[1]) {
			t.Errorf("%s (selective %v): two searches differ: %+v vs %+v", pos.FEN(), selective, res[0], res[1])
		}
		if fresh := Search(pos, Options{Depth: 7, TTSizeMB: 4, Selective: selective}, nil); fresh.Nodes != res[0].Nodes || fresh.Score != res[0].Score || fresh.Best != res[0].Best {
			t.Errorf("selective %v: fresh engine differs", selective)
		}
		if len(iters[0]) != 7 || res[0].Depth != 7 {
			t.Errorf("want 7 iterations, got %d (depth %d)", len(iters[0]), res[0].Depth)
		}
	}
}

// TestAllVariants: every variant searches its start position, the PV is
// legal move by move, and the best move is legal.
func TestAllVariants(t *testing.T) {
	for _, v := range rules.Variants() {
		pos := v.StartPosition()
		r := Search(pos, Options{Depth: 5}, nil)
		if r.Depth != 5 || len(r.PV) == 0 || r.Nodes == 0 || r.Mate {
			t.Errorf("%s: %+v", v.Name, r)
			continue
		}
		if !r.PV[0].SameAs(&r.Best) {
			t.Errorf("%s: PV does not start with the best move", v.Name)
		}
		p := pos
		for i := range r.PV {
			legal := p.LegalMoves(nil)
			ok := false
			for j := range legal {
				if legal[j].SameAs(&r.PV[i]) {
					ok = true
				}
			}
			if !ok {
				t.Fatalf("%s: PV move %d (%s) is illegal", v.Name, i, moveText(&r.PV[i]))
			}
			p.Play(&r.PV[i])
		}
		if e := Evaluate(pos); e != 0 && v != rules.English {
			t.Errorf("%s: start position is symmetric but evaluates to %d", v.Name, e)
		}
	}
}

// fakeClock is Options.Now for the time-control tests: it moves only when
// the test moves it, so they hold on any machine under any load. set
// moves it now; jump moves it at the given call of now (counted from 1),
// which lets a test end the move time in the middle of an iteration.
type fakeClock struct {
	t      time.Time
	calls  int
	jumpAt int
	jumpTo time.Time
	onCall func(call int)
}

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func newFakeClock() *fakeClock { return &fakeClock{t: epoch} }

func (c *fakeClock) now() time.Time {
	c.calls++
	if c.jumpAt > 0 && c.calls >= c.jumpAt {
		c.t, c.jumpAt = c.jumpTo, 0
	}
	if c.onCall != nil {
		c.onCall(c.calls)
	}
	return c.t
}

func (c *fakeClock) set(d time.Duration) { c.t = epoch.Add(d) }

// TestMoveTime drives the time control with a fake clock: which iteration
// it stops after, and that the first one always completes.
func TestMoveTime(t *testing.T) {
	pos := rules.International.StartPosition()
	const moveTime = time.Second

	// Most of the move time gone after an iteration: the next one still
	// starts (what it finds before the clock stops it counts, below), and
	// the end of the time between two iterations stops the search there.
	clock := newFakeClock()
	var iters []Result
	r := NewEngine(4).Search(context.Background(), pos, Options{MoveTime: moveTime, Now: clock.now}, func(it Result) {
		iters = append(iters, it)
		switch it.Depth {
		case 4:
			clock.set(moveTime - time.Millisecond)
		case 5:
			clock.set(moveTime + time.Millisecond)
		}
	})
	if r.Depth != 5 || len(iters) != 5 || r.Nodes != iters[4].Nodes || !reflect.DeepEqual(r.PV, iters[4].PV) || r.Time != moveTime+time.Millisecond {
		t.Errorf("time out after depth 5: depth %d after %d iterations, %d nodes, time %v; want depth 5, %d nodes, %v",
			r.Depth, len(iters), r.Nodes, iters[len(iters)-1].Nodes, r.Time, moveTime+time.Millisecond)
	}

	// The move time runs out inside an iteration. The clock's calls of a
	// search that completes depth 8 tell where each iteration ends (the
	// search is deterministic, and the clock is consulted every 1024
	// nodes): stopped just after depth 5, no root move of depth 6 has
	// been searched and depth 5's move is played; stopped late enough
	// inside an iteration that changes the PV (at one of its clock calls:
	// which one depends on where the search settles on its move, so each
	// is tried from the last), that iteration's best move so far (its PV
	// and score) is played, with the one before as the last completed
	// iteration.
	clock = newFakeClock()
	var ends []int
	var done []Result
	full := NewEngine(4).Search(context.Background(), pos, Options{Depth: 8, MoveTime: moveTime, Now: clock.now}, func(it Result) {
		done = append(done, it)
		ends = append(ends, clock.calls)
	})
	if full.Depth != 8 || len(ends) != 8 {
		t.Fatalf("depth 8 on a clock that stands still: depth %d, clock calls at the iterations' ends %v", full.Depth, ends)
	}
	stopAt := func(jumpAt int) Result {
		clock = newFakeClock()
		clock.jumpAt, clock.jumpTo = jumpAt, epoch.Add(moveTime+time.Millisecond)
		return NewEngine(4).Search(context.Background(), pos, Options{Depth: 8, MoveTime: moveTime, Now: clock.now}, nil)
	}
	at5 := done[4]
	r = stopAt(ends[4] + 2)
	if r.Depth != 5 || r.Nodes <= at5.Nodes || !reflect.DeepEqual(r.PV, at5.PV) || r.Score != at5.Score || !r.Best.SameAs(&at5.PV[0]) {
		t.Errorf("just after depth 5: depth %d, %d nodes (%d after depth 5), score %d, PV %v; want depth 5, score %d, PV %v",
			r.Depth, r.Nodes, at5.Nodes, r.Score, r.PV, at5.Score, at5.PV)
	}
	played := 0 // the depth whose move was played before it completed
	for d := 6; d <= 8 && played == 0; d++ {
		prev, it := done[d-2], done[d-1]
		if reflect.DeepEqual(prev.PV, it.PV) && prev.Score == it.Score {
			continue
		}
		for c := ends[d-1] - 1; c > ends[d-2]+2 && played == 0; c-- {
			r = stopAt(c)
			if r.Depth != d-1 {
				t.Fatalf("stopped at clock call %d inside depth %d (%d..%d): depth %d", c, d, ends[d-2], ends[d-1], r.Depth)
			}
			if reflect.DeepEqual(r.PV, it.PV) && r.Score == it.Score && r.Best.SameAs(&it.PV[0]) {
				played = d
			}
		}
	}
	if played == 0 {
		t.Errorf("stopped inside depths 6 to 8 at any of their clock calls: never that iteration's new PV and score")
	}

	// Out of time from the start: the first iteration still completes.
	clock = newFakeClock()
	clock.jumpAt, clock.jumpTo = 2, epoch.Add(time.Hour)
	iters = nil
	r = NewEngine(4).Search(context.Background(), pos, Options{MoveTime: moveTime, Now: clock.now}, func(it Result) { iters = append(iters, it) })
	if r.Depth != 1 || len(iters) != 1 || len(r.PV) == 0 || !r.Best.SameAs(&r.PV[0]) {
		t.Errorf("out of time at once: depth %d after %d iterations, PV %v; want depth 1", r.Depth, len(iters), r.PV)
	}

	// Without a move time the clock never stops the search.
	clock = newFakeClock()
	clock.jumpAt, clock.jumpTo = 2, epoch.Add(time.Hour)
	if r := Search(pos, Options{Depth: 4, Now: clock.now}, nil); r.Depth != 4 {
		t.Errorf("depth 4 with the clock far ahead: depth %d", r.Depth)
	}

	// The real clock: a move-time search ends by itself with a move (how
	// deep it gets depends on the machine, so that is not checked).
	n := 0
	r = NewEngine(4).Search(context.Background(), pos, Options{MoveTime: 20 * time.Millisecond}, func(Result) { n++ })
	if r.Depth < 1 || n != r.Depth || len(r.PV) == 0 {
		t.Errorf("real clock: depth %d after %d iterations", r.Depth, n)
	}
}

// TestCancel cancels the context at chosen points of the search: between
// iterations, inside one (from the fake clock, which the search consults
// every 1024 nodes) and before it starts.
func TestCancel(t *testing.T) {
	pos := rules.International.StartPosition()

	ctx, cancel := context.WithCancel(context.Background())
	var iters []Result
	r := NewEngine(4).Search(ctx, pos, Options{Depth: MaxDepth}, func(it Result) {
		iters = append(iters, it)
		if it.Depth == 2 {
			cancel()
		}
	})
	if r.Depth != 2 || len(iters) != 2 || r.Nodes != iters[1].Nodes || !reflect.DeepEqual(r.PV, iters[1].PV) {
		t.Errorf("cancelled after depth 2: depth %d after %d iterations, %d nodes", r.Depth, len(iters), r.Nodes)
	}

	// Inside iteration 6: the clock (consulted only with a move time, here
	// far away) cancels at its first call from inside the iteration.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	clock := newFakeClock()
	iters = nil
	armed := 0
	clock.onCall = func(call int) {
		if armed > 0 && call >= armed {
			cancel()
		}
	}
	r = NewEngine(4).Search(ctx, pos, Options{MoveTime: time.Hour, Now: clock.now}, func(it Result) {
		iters = append(iters, it)
		if it.Depth == 5 {
			// Past the call between iterations: the first one from
			// inside iteration 6.
			armed = clock.calls + 2
		}
	})
	// Iteration 6's best move so far may be played, as when the clock
	// stops it (TestMoveTime): a legal move at the head of its PV.
	legal := false
	for _, m := range pos.LegalMoves(nil) {
		legal = legal || m.SameAs(&r.Best)
	}
	if r.Depth != 5 || len(iters) != 5 || r.Nodes <= iters[4].Nodes || !legal || len(r.PV) == 0 || !r.Best.SameAs(&r.PV[0]) {
		t.Errorf("cancelled inside iteration 6: depth %d after %d iterations, %d nodes (%d after depth 5), best %v",
			r.Depth, len(iters), r.Nodes, iters[len(iters)-1].Nodes, r.Best)
	}

	// Cancelled before it starts: the first legal move, depth 0.
	r = NewEngine(4).Search(ctx, pos, Options{Depth: MaxDepth}, nil)
	first := pos.LegalMoves(nil)[0]
	if r.Depth != 0 || len(r.PV) != 1 || !r.Best.SameAs(&first) {
		t.Errorf("cancelled before the start: %+v", r)
	}
}

// TestRepetition: two kings v one (about +3 men by the hand-set weights) is
// a draw by repetition when every White move returns to a position of the
// history (with the same side to move, within the reversible plies).
func TestRepetition(t *testing.T) {
	pos, _ := rules.ParseFEN(rules.International, "W:WK48,K28:BK3")
	if r := Search(pos, Options{Depth: 4, HandSet: true}, nil); r.Score < 200 || r.Mate {
		t.Fatalf("two kings v one: score %d, want about +300", r.Score)
	}
	var hist []uint64
	moves := pos.LegalMoves(nil)
	for i := range moves {
		c := pos
		c.Play(&moves[i])
		hist = append(hist, c.Hash(), uint64(i)+1) // the child, then a filler ply
	}
	if r := Search(pos, Options{Depth: 4, History: hist, HandSet: true}, nil); r.Score != 0 {
		t.Errorf("every move repeats: score %d, want 0", r.Score)
	}
}

// TestProbCut: the selective search of a middlegame (fewer than 4/5 of the
// starting pieces) cuts nodes off with ProbCut in the variants where a
// match measured it, and still finds the shots (TestShots runs with it);
// not in the International opening (at depth 9 no exchange takes a line
// below 32 pieces), nor in the other variants, where it searches as
// without it.
func TestProbCut(t *testing.T) {
	nodes := func(v *rules.Variant, fen string, on bool) (uint64, int) {
		t.Helper()
		pos := v.StartPosition()
		if fen != "" {
			var err error
			if pos, err = rules.ParseFEN(v, fen); err != nil {
				t.Fatal(err)
			}
		}
		defer func(old bool) { probCut = old }(probCut)
		probCut = on
		r := Search(pos, Options{Depth: 9, Selective: true}, nil)
		return r.Nodes, r.Score
	}
	// 18 pieces on 8x8, below the 19 of 24 (Black moves first in English).
	mid8 := "W:W18,21,22,23,25,26,27,29,31:B1,2,3,5,6,9,11,12,13"
	for _, c := range []struct {
		v   *rules.Variant
		fen string
	}{
		{rules.International, "W:W22,27,28,31,32,33,34,36,37,38,39,41,42,43,44:B3,6,8,9,11,12,13,14,16,17,18,19,21,23,24"},
		{rules.Russian, mid8},
		{rules.Brazilian, mid8},
		{rules.English, "B:W18,21,22,23,25,26,27,29,31:B1,2,3,5,6,9,11,12,13"},
	} {
		with, _ := nodes(c.v, c.fen, true)
		without, _ := nodes(c.v, c.fen, false)
		if with >= without {
			t.Errorf("%s middlegame %q, selective depth 9: %d nodes with ProbCut, %d without; want fewer with", c.v.Name, c.fen, with, without)
		}
	}
	for _, c := range []struct {
		v   *rules.Variant
		fen string
	}{
		{rules.International, ""},
		// Not measured in pool: the same search as without it.
		{rules.Pool, "B:W18,21,22,23,25,26,27,29,31:B1,2,3,5,6,9,11,12,13"},
	} {
		with, sw := nodes(c.v, c.fen, true)
		without, so := nodes(c.v, c.fen, false)
		if with != without || sw != so {
			t.Errorf("%s %q: %d nodes, score %d with ProbCut; %d, %d without; want the same", c.v.Name, c.fen, with, sw, without, so)
		}
	}
}

// TestSingularExtension: switched on (they are off by default), the
// selective search extends a table move that a search without it shows
// to be the only good one (singular extensions): in middlegames at
// selective depth 9 the search with them visits other nodes than
// without, and the full-width search (not selective) is the same with and
// without them. The default search has them off.
func TestSingularExtension(t *testing.T) {
	search := func(v *rules.Variant, fen string, selective, on bool) Result {
		t.Helper()
		pos, err := rules.ParseFEN(v, fen)
		if err != nil {
			t.Fatal(err)
		}
		defer func(old bool) { singularExt = old }(singularExt)
		singularExt = on
		return Search(pos, Options{Depth: 9, Selective: selective}, nil)
	}
	for _, c := range []struct {
		v   *rules.Variant
		fen string
	}{
		{rules.International, "W:W22,27,28,31,32,33,34,36,37,38,39,41,42,43,44:B3,6,8,9,11,12,13,14,16,17,18,19,21,23,24"},
		{rules.Russian, "W:W18,21,22,23,25,26,27,29,31:B1,2,3,5,6,9,11,12,13"},
	} {
		with, without := search(c.v, c.fen, true, true), search(c.v, c.fen, true, false)
		if with.Nodes == without.Nodes {
			t.Errorf("%s %q, selective depth 9: %d nodes with singular extensions and without", c.v.Name, c.fen, with.Nodes)
		}
		full, fullOff := search(c.v, c.fen, false, true), search(c.v, c.fen, false, false)
		if full.Nodes != fullOff.Nodes || full.Score != fullOff.Score {
			t.Errorf("%s %q, full-width depth 9: %d nodes, score %d with singular extensions; %d, %d without; want the same", c.v.Name, c.fen, full.Nodes, full.Score, fullOff.Nodes, fullOff.Score)
		}
		if def := Search(mustFEN(t, c.v, c.fen), Options{Depth: 9, Selective: true}, nil); def.Nodes != without.Nodes {
			t.Errorf("%s: the default search visited %d nodes, the one without singular extensions %d", c.v.Name, def.Nodes, without.Nodes)
		}
		t.Logf("%s: selective depth 9, %d nodes with singular extensions, %d without", c.v.Name, with.Nodes, without.Nodes)
	}
}
