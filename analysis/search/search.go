package search

import (
	"context"
	"math/bits"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/endgame"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Name identifies the engine (the Hub "id" line, match game tags, stored
// evaluations).
const Name = "draughtsdb"

// Version is draughtsdb's version, the one string that `draughtsdb
// version`, the engine's name and stored evaluations give. A release build
// sets it: go build -ldflags "-X github.com/draughtsdb/draughtsdb/analysis/search.Version=1.2.3".
var Version = "0.1"

// Score bounds. A position the variant's Win rule decides (a side to move
// without a legal move has lost, or won in antidraughts; in breakthrough
// the first king has won) scores -(Win - ply) for the side that lost, ply
// counted from the root, so faster wins score higher. Any score with
// |score| >= MateThreshold is a forced win or loss.
const (
	Win           = 30000
	MateThreshold = Win - 1000
	Infinity      = 32000
	// MaxDepth is the deepest nominal iteration.
	MaxDepth = 64
	// DefaultDepth is used when Options sets neither Depth nor MoveTime.
	DefaultDepth = 8
	// DefaultTTSizeMB is the transposition table size when Options.TTSizeMB
	// is 0.
	DefaultTTSizeMB = 16
)

const maxPly = 128

// Options limit one search.
type Options struct {
	// Depth is the nominal depth in plies of the last iteration. With
	// MoveTime zero the search is deterministic: the same position and
	// depth always give the same score, best move, PV and node count.
	Depth int
	// MoveTime stops the search when it runs out; it is all used (the
	// last completed iteration counts, or the stopped one's best move so
	// far: see the package doc). With Depth zero, iterations go on up to
	// MaxDepth.
	MoveTime time.Duration
	// TTSizeMB sizes the transposition table (DefaultTTSizeMB if 0).
	TTSizeMB int
	// Now, if not nil, is the clock of MoveTime and Result.Time instead
	// of time.Now: tests drive the time control with a fake clock, so
	// that no test depends on the machine's speed or load.
	Now func() time.Time
	// History holds the hashes (rules.Position.Hash) of the positions
	// before pos, oldest first, for repetition detection. Only the plies
	// since the last irreversible move (a man move or capture) matter.
	History []uint64
	// KingMoves is the state of the variant's limit on moving one king
	// (Variant.KingMoveLimit, Frisian) before pos: the moves of the game
	// so far applied to a rules.KingMoveCounter. Nil is a fresh counter.
	// The search applies the limit along every line (rules.Position's
	// LegalMoves does not), so the best move and the PV are allowed.
	KingMoves *rules.KingMoveCounter
	// KingPlies is the variant's king-move draw count before pos
	// (rules.DrawCounter.Plies over the game so far: plies of king moves
	// without a capture, or a man move, since the last; 0 for a fresh
	// one). The search counts on along every line: a line that reaches
	// Variant.DrawKingPlies (Russian 30, International 50) is drawn, and
	// an endgame table's win or loss counts only where the count cannot
	// reach it first (endgame.Value.Exact).
	KingPlies int
	// Continue keeps what the engine learnt in its earlier searches (the
	// transposition table) instead of starting from nothing, and at a
	// fixed depth starts iterative deepening at one less than the depth
	// of the table's entry for pos: for the positions of one game searched in
	// order, where the table already holds much of the tree of the next
	// position. The result then depends on the searches since the last
	// one without Continue; the same sequence of searches gives the same
	// results. Engine.Search only; the first search of an engine starts
	// from nothing anyway.
	Continue bool
	// HandSet evaluates with the variant's hand-set weights
	// (DefaultWeights) where it has learned ones (learned.go): the
	// evaluation the engine had before them, for comparisons and for the
	// tests that hold the search to an older engine's results.
	HandSet bool
	// Selective searches with late-move reductions (the later plain moves
	// of a node searched shallower first) and aspiration windows (an
	// iteration's root searched first with a narrow window around the
	// score of the one before): a search on a clock (MoveTime)
	// always is. A fixed depth without it searches every move to that
	// depth, which is what a stored evaluation's depth means (analyze), and
	// keeps a game's positions searched in order close to their
	// independent searches; with it the search stays deterministic.
	Selective bool
	// Endgame, if not nil and of the position's variant, gives the exact
	// value of every position of its few pieces met below the root: a
	// win or loss scores as the one found by search at that distance
	// (package endgame).
	Endgame *endgame.Tables
}

// Result is the outcome of a search or of one completed iteration.
type Result struct {
	// Score is from the side to move's view in hundredths of a man; wins
	// are in [MateThreshold, Win], losses in [-Win, -MateThreshold].
	Score int
	// Depth is the nominal depth of the last completed iteration.
	Depth int
	// Best is the best move; the zero Move if the game is over in pos
	// (the side to move has no legal move, or the variant's Win rule
	// decides it: then Score is -Win or Win and PV is empty).
	Best rules.Move
	// PV is the principal variation, starting with Best.
	PV    []rules.Move
	Nodes uint64
	Time  time.Duration
	// Mate reports a forced win or loss (|Score| >= MateThreshold).
	Mate bool
}

// PliesToEnd returns the number of plies to the end of the game for a
// mate score, or 0.
func (r Result) PliesToEnd() int {
	switch {
	case r.Score >= MateThreshold:
		return Win - r.Score
	case r.Score <= -MateThreshold:
		return Win + r.Score
	}
	return 0
}

// Engine keeps a transposition table and search buffers between searches.
// An Engine is not safe for concurrent use; use one per goroutine.
type Engine struct {
	ttMB int
	s    *searcher
}

// NewEngine returns an engine with a transposition table of ttSizeMB
// megabytes (DefaultTTSizeMB if 0).
func NewEngine(ttSizeMB int) *Engine {
	if ttSizeMB <= 0 {
		ttSizeMB = DefaultTTSizeMB
	}
	return &Engine{ttMB: ttSizeMB}
}

// Search searches pos with a fresh engine. info, if not nil, is called
// after every completed iteration.
func Search(pos rules.Position, opts Options, info func(Result)) Result {
	return NewEngine(opts.TTSizeMB).Search(context.Background(), pos, opts, info)
}

// Search runs an iterative-deepening search of pos. It stops after
// opts.Depth, when opts.MoveTime runs out or when ctx is cancelled, and
// returns the last completed iteration, with the stopped iteration's best
// move so far if it has one (if cancelled during the first one, the first
// legal move with score 0 and Depth 0). The transposition table,
// killers and history are cleared first, so results never depend on
// earlier searches, unless opts.Continue keeps them.
func (e *Engine) Search(ctx context.Context, pos rules.Position, opts Options, info func(Result)) Result {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	mb := opts.TTSizeMB
	if mb <= 0 {
		mb = e.ttMB
	}
	if e.s == nil || e.s.ttMB != mb {
		e.s = newSearcher(mb)
	}
	s := e.s
	if opts.Continue && s.variant == pos.Variant() {
		s.tt.nextAge()
	} else {
		s.tt.clear()
	}
	// Killers and history start empty even with Continue: kept from one
	// position of a game to the next they cost nodes (3% on the OCA
	// positions at depth 8, 5% on the International ones).
	s.killers = [maxPly][2]uint16{}
	s.history = [historySize]int32{}
	s.reset(pos.Variant(), ctx, opts, now, start)

	depth := opts.Depth
	if depth <= 0 {
		if opts.MoveTime > 0 {
			depth = MaxDepth
		} else {
			depth = DefaultDepth
		}
	}
	depth = min(depth, MaxDepth)

	var res Result
	s.pos[0] = pos
	root := &s.pos[0]
	s.ready[0], s.side[0] = true, pos.SideToMove()
	if s.fast != nil {
		s.fast.load(root, &s.fb[0])
	}
	rootMoves := s.legalMoves(root, 0, nil)
	if sc, over := s.decided(root, len(rootMoves), 0); over {
		return Result{Score: sc, Mate: true, Time: now().Sub(start)}
	}
	res = Result{Best: rootMoves[0], PV: []rules.Move{rootMoves[0]}}
	first := 1
	if opts.Continue && !s.timed {
		// The earlier searches of the game left this position in the
		// table (the previous position's principal variation at one ply
		// less, mostly): the iterations below that depth would find
		// little the table does not hold, so the search starts at one
		// less than it. The two iterations it then runs before the new
		// depth cost about no nodes (their non-PV nodes are answered by
		// the table) and fill the killers and history about as a fresh
		// search's earlier iterations do: in the issue #17 positions
		// (doc.go) this start gives the same total nodes as starting
		// after the entry's depth, and 130 best moves that differ from
		// an independent search's instead of 217.
		if e, ok := s.tt.probe(root.Hash()); ok {
			first = min(max(int(e.depth)-1, 1), depth)
		}
	}
	for d := first; d <= depth; d++ {
		s.canStopOnTime = d > first
		if d > first {
			// A cancellation or the end of the move time between two
			// iterations stops here, not up to 1024 nodes later.
			s.checkStop()
			if s.stop {
				break
			}
		}
		s.rootBest = nil
		s.rootDepth = d
		var score int
		if s.reduce && d > first && d >= aspirationDepth && res.Depth > 0 && !res.Mate {
			score = s.aspirate(d, res.Score)
		} else {
			score = s.alphaBeta(d, 0, -Infinity, Infinity, 0)
		}
		if s.stop {
			if len(s.rootBest) > 0 {
				// The clock stopped the iteration after it had searched
				// its first move, or found a better one, to the full
				// depth: its best move so far is the better informed
				// (Moby Dam and Scan play it too). The depth stays that
				// of the last completed iteration.
				res.PV = append([]rules.Move(nil), s.rootBest...)
				res.Best, res.Score = res.PV[0], s.rootScore
			}
			break
		}
		pv := append([]rules.Move(nil), s.pv[0][:s.pvLen[0]]...)
		res = Result{Score: score, Depth: d, PV: pv, Nodes: s.nodes, Time: now().Sub(start),
			Mate: score >= MateThreshold || score <= -MateThreshold}
		if len(pv) > 0 {
			res.Best = pv[0]
		}
		if info != nil {
			info(res)
		}
		if res.Mate && res.PliesToEnd() <= d {
			break // the end of the game is inside the horizon: proven
		}
	}
	res.Nodes = s.nodes
	res.Time = now().Sub(start)
	return res
}

// Aspiration windows (selective search): from depth aspirationDepth an
// iteration first searches a window of aspirationMargin either side of
// the score of the iteration before, widened on the side that failed to
// twice its width until it reaches aspirationMax; then, or for a win or
// loss score, the full window. Scan's figures, in the same unit.
const (
	aspirationDepth  = 4
	aspirationMargin = 10
	aspirationMax    = 500
)

// aspirate is the root search of an iteration at depth with aspiration
// windows around last, the previous iteration's score.
func (s *searcher) aspirate(depth, last int) int {
	lo, hi := aspirationMargin, aspirationMargin
	for max(lo, hi) < aspirationMax {
		alpha, beta := last-lo, last+hi
		sc := s.alphaBeta(depth, 0, alpha, beta, 0)
		switch {
		case s.stop:
			return 0
		case sc >= MateThreshold || sc <= -MateThreshold:
			// A bound on a win or a loss: only the full window gives
			// its distance.
			return s.alphaBeta(depth, 0, -Infinity, Infinity, 0)
		case sc <= alpha:
			lo *= 2
		case sc >= beta:
			hi *= 2
		default:
			return sc
		}
	}
	return s.alphaBeta(depth, 0, -Infinity, Infinity, 0)
}

type searcher struct {
	ttMB    int
	variant *rules.Variant // of the last search
	tt      *table
	ev      *evaluator

	nodes         uint64
	stop          bool
	timed         bool
	canStopOnTime bool
	deadline      time.Time
	// rootBest is the principal variation of the iteration under way as
	// far as it got (nil until a root move's search completes with a
	// score above the window's lower bound), rootScore that move's score:
	// an iteration the clock stops still tells which move it found best
	// (see Search).
	rootBest  []rules.Move
	rootScore int
	// probCutPieces: ProbCut only with fewer pieces on the board.
	probCutPieces int
	// eg: Options.Endgame for this variant, and its piece count.
	eg       *endgame.Tables
	egPieces int
	now      func() time.Time
	done     <-chan struct{}
	reduce   bool // late-move reductions and aspiration windows (Options.Selective)
	// rootDepth is the depth of the iteration under way; excluded[ply]
	// the index + 1 of the move the singular-extension search at ply
	// leaves out (0: none).
	rootDepth int
	excluded  [maxPly]int

	moves   [maxPly][]rules.Move
	pos     [maxPly + 1]rules.Position        // the current path: pos[ply] is the node at ply, once ready
	ready   [maxPly + 1]bool                  // pos[ply] is made (see play)
	pending [maxPly + 1]*rules.Move           // the move that makes pos[ply] from pos[ply-1] when not ready
	side    [maxPly + 1]rules.Color           // the side to move at ply
	fast    *fastBoard                        // the fast layout (fast.go), nil for the generic path
	fb      [maxPly + 1]fboard                // the path in the fast layout
	kings   [maxPly + 1]rules.KingMoveCounter // the king move limit's state per ply
	count   [maxPly + 1]int                   // the king-move draw count per ply (Options.KingPlies)
	drawAt  int                               // Variant.DrawKingPlies: the count that draws (0: none)
	limit   bool                              // the variant has a king move limit
	win     rules.WinCondition
	order   [maxPly][]int
	keys    [maxPly][]int
	killers [maxPly][2]uint16
	history [historySize]int32
	pv      [maxPly][maxPly]rules.Move
	pvLen   [maxPly]int
	stack   []uint64 // position hashes: history, then the path
	rev     [maxPly + 1]int
	threat  []rules.Move
}

func newSearcher(mb int) *searcher {
	s := &searcher{ttMB: mb, tt: newTable(mb)}
	for i := range s.moves {
		s.moves[i] = make([]rules.Move, 0, 64)
	}
	s.threat = make([]rules.Move, 0, 64)
	return s
}

// reset prepares a search of a position of variant v; the table, killers
// and history are the caller's (Engine.Search clears them unless
// Options.Continue).
func (s *searcher) reset(v *rules.Variant, ctx context.Context, opts Options, now func() time.Time, start time.Time) {
	s.variant = v
	s.ev = evaluatorFor(v)
	s.fast = fastBoards[v]
	if opts.HandSet && learnedEvals[v] != nil {
		s.ev, s.fast = handSet[v], handFastBoards[v]
	}
	if s.fast != nil && s.fast.eval != s.ev {
		s.fast = nil
	}
	s.nodes = 0
	s.stop = false
	s.reduce = opts.Selective || opts.MoveTime > 0
	s.timed = opts.MoveTime > 0
	s.deadline = start.Add(opts.MoveTime)
	s.now = now
	s.done = ctx.Done()
	s.stack = append(s.stack[:0], opts.History...)
	s.rev[0] = len(opts.History)
	s.win, s.limit = v.Win, v.KingMoveLimit > 0
	// Not in the opening: fewer than 4/5 of the pieces at the start (32
	// of 40, Moby Dam's threshold; 19 of 24). Only in the variants where
	// a match measured it as a gain (README, "The search on a clock"); no
	// piece count is below 0 elsewhere.
	s.probCutPieces = 0
	if v == rules.International || v == rules.Russian || v == rules.Brazilian || v == rules.English {
		s.probCutPieces = 2 * v.InitialRows * v.Board.Width / 2 * 4 / 5
	}
	s.kings[0] = rules.KingMoveCounter{}
	s.count[0], s.drawAt = opts.KingPlies, v.DrawKingPlies
	s.eg, s.egPieces = nil, 0
	if t := opts.Endgame; t != nil && t.Variant() == v {
		s.eg, s.egPieces = t, t.Pieces()
	}
	if opts.KingMoves != nil {
		s.kings[0] = *opts.KingMoves
	}
}

// legalMoves generates the moves of pos at ply into buf: its legal moves,
// less those the variant's king move limit forbids on this line. When it
// forbids them all the side has no move and loses, as lidraughts plays it
// (and replay and the generator of synthetic games).
func (s *searcher) legalMoves(pos *rules.Position, ply int, buf []rules.Move) []rules.Move {
	moves := pos.LegalMoves(buf)
	if !s.limit || len(moves) == 0 || moves[0].IsCapture() {
		return moves // captures are never limited
	}
	k := &s.kings[ply]
	n := 0
	for i := range moves {
		if k.Allowed(pos, &moves[i]) {
			n++
		}
	}
	if n == len(moves) {
		return moves
	}
	return k.Filter(pos, moves)
}

// play makes move m of pos, the node at ply, into the node at ply+1, with
// the king move limit's state and the fast layout. With lazy set (only
// with the fast layout) the rules.Position of the child is made only when
// the child needs it (see made): most nodes beyond the horizon are
// answered from the fast layout alone.
func (s *searcher) play(pos *rules.Position, m *rules.Move, ply int, lazy bool) {
	s.side[ply+1] = s.side[ply] ^ 1
	if s.fast != nil {
		s.fast.play(&s.fb[ply], &s.fb[ply+1], m, s.side[ply])
	}
	if s.limit && ply+1 < len(s.kings) {
		s.kings[ply+1] = s.kings[ply]
		s.kings[ply+1].Update(pos, m)
	}
	if lazy {
		s.ready[ply+1], s.pending[ply+1] = false, m
		return
	}
	child := &s.pos[ply+1]
	*child = *pos
	child.Play(m)
	s.ready[ply+1] = true
}

// made returns the node at ply, making its position from its parent's if
// play left it to be made; push then puts its hash on the repetition
// stack (play's caller pushes those it makes).
func (s *searcher) made(ply int, push bool) *rules.Position {
	pos := &s.pos[ply]
	if !s.ready[ply] {
		*pos = s.pos[ply-1]
		pos.Play(s.pending[ply])
		s.ready[ply] = true
		if push {
			s.stack = append(s.stack, pos.Hash())
		}
	}
	return pos
}

// fewPieces reports whether the node at ply is one for the endgame
// tables, read from the fast layout (the horizon's fast path would skip
// the probe).
func (s *searcher) fewPieces(ply int) bool {
	if s.eg == nil {
		return false
	}
	fb := &s.fb[ply]
	return bits.OnesCount64(fb.men[0]|fb.men[1]|fb.kings[0]|fb.kings[1]) <= s.egPieces
}

// probe scores pos, the node at ply (not the root), from the endgame
// tables: a win in d plies scores as a search that found the end of the
// game d plies further would.
func (s *searcher) probe(pos *rules.Position, ply int) (int, bool) {
	if s.eg == nil || ply == 0 || pos.Pieces() > s.egPieces {
		return 0, false
	}
	v, ok := s.eg.Probe(pos)
	if !ok || !v.Exact(s.variant, s.count[ply]) {
		return 0, false
	}
	if won, d := v.Win(); won {
		return Win - ply - d, true
	}
	if lost, d := v.Loss(); lost {
		return -(Win - ply - d), true
	}
	return 0, true
}

// decidedFast is decided on the fast layout: fb at ply with us to move,
// which has n legal moves (0 or more).
func (s *searcher) decidedFast(fb *fboard, us rules.Color, n, ply int) (int, bool) {
	if s.win == rules.FirstKingWins {
		if fb.kings[us^1] != 0 {
			return -(Win - ply), true
		}
		if fb.kings[us] != 0 {
			return Win - ply, true
		}
	}
	if n > 0 {
		return 0, false
	}
	if s.win == rules.WinWhenNoMove {
		return Win - ply, true
	}
	return -(Win - ply), true
}

// movesKing reports whether m, a move of pos, the node at ply, moves a
// king (through the fast layout if there is one: Position.Piece was a
// twentieth of a search).
func (s *searcher) movesKing(pos *rules.Position, m *rules.Move, ply int) bool {
	if s.fast != nil {
		fb := &s.fb[ply]
		return (fb.kings[0]|fb.kings[1])>>s.fast.rbit[m.FromBit()]&1 != 0
	}
	return pos.Piece(m.From()).IsKing()
}

// evaluate is the static evaluation of pos, the node at ply.
func (s *searcher) evaluate(pos *rules.Position, ply int) int {
	if s.fast != nil {
		return s.fast.evaluate(&s.fb[ply], pos.SideToMove())
	}
	return s.ev.evaluate(pos)
}

// quiet answers, through the fast layout, what the search asks at a node
// beyond its horizon before it needs the moves: whether the side to move
// must capture (then the caller generates the moves) and otherwise whether
// it can move at all (n is 0 or 1, for decided).
func (s *searcher) quiet(ply int) (quiet bool, n int) {
	fb := &s.fb[ply]
	us := s.side[ply]
	if s.fast.hasCapture(fb, us) {
		return false, 0
	}
	if s.fast.hasMove(fb, us) {
		n = 1
	}
	return true, n
}

// decided reports whether the variant's Win rule ends the game in pos,
// which has n legal moves, and its score then from the side to move's
// view at ply. It is Position.Outcome without generating the moves again
// (a test checks the two agree): in breakthrough a side with a king has
// won (the side that just moved first: it made it); a side to move
// without a legal move has lost, or won in antidraughts.
func (s *searcher) decided(pos *rules.Position, n, ply int) (int, bool) {
	if s.win == rules.FirstKingWins {
		us := pos.SideToMove()
		if _, k := pos.Count(us.Opponent()); k > 0 {
			return -(Win - ply), true
		}
		if _, k := pos.Count(us); k > 0 {
			return Win - ply, true
		}
	}
	if n > 0 {
		return 0, false
	}
	if s.win == rules.WinWhenNoMove {
		return Win - ply, true
	}
	return -(Win - ply), true
}

func (s *searcher) checkStop() {
	if s.done != nil {
		select {
		case <-s.done:
			s.stop = true
			return
		default:
		}
	}
	if s.timed && s.canStopOnTime && s.now().After(s.deadline) {
		s.stop = true
	}
}

// repeated reports whether the position on top of the stack occurred
// before within the reversible plies.
func (s *searcher) repeated(ply int) bool {
	if s.rev[ply] < 2 {
		return false // an irreversible move led here (its hash may not be on the stack)
	}
	n := len(s.stack) - 1
	key := s.stack[n]
	for k := 2; k <= s.rev[ply] && n-k >= 0; k += 2 {
		if s.stack[n-k] == key {
			return true
		}
	}
	return false
}

func toTT(score, ply int) int {
	switch {
	case score >= MateThreshold:
		return score + ply
	case score <= -MateThreshold:
		return score - ply
	}
	return score
}

func fromTT(score, ply int) int {
	switch {
	case score >= MateThreshold:
		return score - ply
	case score <= -MateThreshold:
		return score + ply
	}
	return score
}

// moveKey identifies a move by its start and end for the killers, and
// historyIndex for the history: by their bit indices in the board's
// layout (rules.Move.FromBit), which name the same squares as From and To
// without the lookup that cost 6% of the search's time (sqOf, English
// positions in game order).
func moveKey(m *rules.Move) uint16 { return uint16(m.FromBit())<<8 | uint16(m.ToBit()) }

func historyIndex(from, to int) int { return from<<7 | to }

// historySize bounds historyIndex: bit indices are below 128.
const historySize = 128 * 128

// alphaBeta is a fail-soft principal variation search.
func (s *searcher) alphaBeta(depth, ply, alpha, beta, ext int) int {
	s.pvLen[ply] = ply
	if s.nodes&1023 == 0 {
		s.checkStop()
	}
	if s.stop {
		return 0
	}
	s.nodes++
	if ply > 0 && s.repeated(ply) {
		return 0
	}
	if ply > 0 && s.drawAt > 0 && s.count[ply] >= s.drawAt {
		// The king-move rule draws the line, unless the side to move
		// has no move and has lost first (as the match's referee rules).
		pos := s.made(ply, true)
		if n := len(s.legalMoves(pos, ply, s.moves[ply][:0])); n == 0 {
			sc, _ := s.decided(pos, 0, ply)
			return sc
		}
		return 0
	}
	if depth <= 0 && s.fast != nil && !s.fewPieces(ply) {
		// The horizon without generating the moves, or even making the
		// position, where the fast layout answers (the same decisions as
		// below, in the same order).
		if quiet, n := s.quiet(ply); quiet {
			fb, us := &s.fb[ply], s.side[ply]
			if sc, over := s.decidedFast(fb, us, n, ply); over {
				return sc
			}
			if ply >= maxPly-2 || ext >= 1 || !s.fast.hasCapture(fb, us^1) {
				return s.fast.evaluate(fb, us)
			}
		}
	}
	pos := s.made(ply, true)
	if sc, ok := s.probe(pos, ply); ok {
		return sc
	}
	pvNode := beta-alpha > 1
	key := pos.Hash()
	ttMove := -1
	excluded := s.excluded[ply] - 1
	var tte ttEntry
	hasTT := false
	if depth > 0 {
		if e, ok := s.tt.probe(key); ok {
			ttMove = int(e.move)
			tte, hasTT = e, true
			if ply > 0 && !pvNode && int(e.depth) >= depth && excluded < 0 {
				sc := fromTT(int(e.score), ply)
				switch {
				case e.bound == boundExact,
					e.bound == boundLower && sc >= beta,
					e.bound == boundUpper && sc <= alpha:
					return sc
				}
			}
		}
	}
	moves := s.legalMoves(pos, ply, s.moves[ply][:0])
	s.moves[ply] = moves
	if sc, over := s.decided(pos, len(moves), ply); over {
		return sc
	}
	if ply >= maxPly-2 {
		return s.evaluate(pos, ply)
	}
	capture := moves[0].IsCapture()
	if depth <= 0 {
		if capture {
			return s.quiesce(pos, moves, ply, alpha, beta)
		}
		if ext >= 1 || !s.threatened(pos, ply) {
			return s.evaluate(pos, ply)
		}
		// The opponent threatens a capture: look one ply further so that
		// the threat is resolved by quiescence rather than ignored.
		depth, ext = 1, ext+1
	}

	if s.reduce && probCut && excluded < 0 && !pvNode && ply > 0 && depth > 3 && beta < MateThreshold-probCutMargin && pos.Pieces() < s.probCutPieces {
		// A shallow search that clears beta by a wide margin cuts the
		// node off (Moby Dam's "poor man's ProbCut", after Scan 2.0: half
		// the depth, 0.9 man, not in the opening), from depth 4: from
		// depth 3, as Moby Dam's, it missed a composed shot at its depth.
		// It searches this same node again, which
		// regenerates its moves into the same buffer.
		if sc := s.alphaBeta(depth/2, ply, beta+probCutMargin-1, beta+probCutMargin, ext); s.stop {
			return 0
		} else if sc >= beta+probCutMargin {
			return beta
		}
		s.pvLen[ply] = ply
	}
	newDepth := depth - 1
	if len(moves) == 1 {
		newDepth = depth // forced move: extend
	}
	if ttMove >= len(moves) {
		ttMove = -1 // (a hash collision)
	}
	singular := false
	if s.reduce && singularExt && ply > 0 && excluded < 0 && ttMove >= 0 && len(moves) > 1 &&
		depth >= singularDepth && ply < 2*s.rootDepth && hasTT && int(tte.depth) >= depth-3 &&
		tte.bound != boundUpper {
		// Singular extension (Scan's, after chess engines): when every
		// other move scores well below the table move's (a search of
		// half the depth without it fails low against its score less a
		// margin), the table move is the only good one and gets a ply
		// more.
		if ts := fromTT(int(tte.score), ply); ts > -MateThreshold && ts < MateThreshold {
			sb := ts - singularMargin*depth
			s.excluded[ply] = ttMove + 1
			sc := s.alphaBeta((depth-1)/2, ply, sb-1, sb, ext)
			s.excluded[ply] = 0
			if s.stop {
				return 0
			}
			s.pvLen[ply] = ply
			singular = sc < sb
		}
	}
	var order, keys []int
	scored := false
	if ttMove >= 0 && !capture {
		// Plain moves are keyed by the history, which the table move's
		// subtree changes: they are scored before it, as the baseline
		// engine did (the golden file pins its order).
		order, keys = s.orderMoves(moves, ply, ttMove, capture)
		scored = true
	}
	best, bestIdx := -Infinity, -1
	origAlpha := alpha
	for i := range moves {
		// The table move first; captures are scored after it: when it
		// cuts off, as it mostly does, they need no keys.
		idx, j := ttMove, i
		if ttMove >= 0 {
			j-- // order holds the other moves
		}
		if j >= 0 {
			if !scored {
				order, keys = s.orderMoves(moves, ply, ttMove, capture)
				scored = true
			}
			if j > 0 {
				pickBest(order, keys, j) // orderMoves picked order[0]
			}
			idx = order[j]
		}
		if idx == excluded {
			continue // the singular-extension search's node
		}
		m := &moves[idx]
		reversible := !capture && s.movesKing(pos, m, ply)
		// A child beyond the horizon reached by an irreversible move is
		// made only if it needs its position (its repetition check looks
		// back no further than itself).
		lazy := s.fast != nil && newDepth <= 0 && !reversible
		s.play(pos, m, ply, lazy)
		stacked := len(s.stack)
		if !lazy {
			s.stack = append(s.stack, s.pos[ply+1].Hash())
		}
		if reversible {
			s.rev[ply+1] = s.rev[ply] + 1
			s.count[ply+1] = s.count[ply] + 1
		} else {
			s.rev[ply+1] = 0
			s.count[ply+1] = 0
		}
		var sc int
		if i == 0 {
			d := newDepth
			if singular {
				d++ // i == 0: the table move
			}
			sc = -s.alphaBeta(d, ply+1, -beta, -alpha, ext)
		} else {
			red := 0
			if s.reduce && !capture && depth >= 2 && i >= lmrFirst(pvNode) && !m.Promotes() && !s.mustCapture(ply+1) {
				red = 1
				if !pvNode && i >= 4 {
					red = 2
				}
			}
			sc = -s.alphaBeta(newDepth-red, ply+1, -alpha-1, -alpha, ext)
			if red > 0 && sc > alpha {
				// The reduced search says the move may be good: it
				// gets its full depth before it can count.
				sc = -s.alphaBeta(newDepth, ply+1, -alpha-1, -alpha, ext)
			}
			if sc > alpha && sc < beta {
				sc = -s.alphaBeta(newDepth, ply+1, -beta, -alpha, ext)
			}
		}
		s.stack = s.stack[:stacked]
		if s.stop {
			return 0
		}
		if sc > best {
			best, bestIdx = sc, idx
			if sc > alpha {
				alpha = sc
				s.updatePV(ply, m)
				if ply == 0 {
					s.rootBest, s.rootScore = s.pv[0][:s.pvLen[0]], sc
				}
				if alpha >= beta {
					if !capture {
						s.goodQuiet(m, ply, depth)
					}
					break
				}
			}
		}
	}
	bound := boundUpper
	switch {
	case best >= beta:
		bound = boundLower
	case best > origAlpha:
		bound = boundExact
	}
	if excluded < 0 {
		s.tt.store(key, depth, toTT(best, ply), bound, bestIdx)
	}
	return best
}

// ProbCut (selective search): see alphaBeta.
const probCutMargin = 90

// Singular extensions (selective search): from singularDepth, with a
// margin of singularMargin hundredths of a man per ply of depth; see
// alphaBeta. Off: they cost about a ply of depth in the same time and
// measured no gain in self-play (BENCHMARKS.md); the tests switch them on
// to check them.
const (
	singularDepth  = 6
	singularMargin = 2
)

var singularExt = false

// probCut switches ProbCut off for the tests that compare the search
// with and without it.
var probCut = true

// mustCapture reports whether the side to move at ply, a node play made
// in full, has a capture: the move that led there offered material (a
// sacrifice or an exchange), the tactics a reduction would cut short.
func (s *searcher) mustCapture(ply int) bool {
	if s.fast != nil {
		return s.fast.hasCapture(&s.fb[ply], s.side[ply])
	}
	s.threat = s.pos[ply].LegalMoves(s.threat[:0])
	return len(s.threat) > 0 && s.threat[0].IsCapture()
}

// lmrFirst is the index in the move order of the first plain move that
// late-move reductions shorten (plain moves that offer no capture): the
// moves ordered first (the table move, killers, the best by history) are
// searched to the full depth, more of them where the window is open. The thresholds and the reductions (one
// ply, two for the later moves of a null-window node) are Scan's, whose
// search is the strongest open one in International draughts.
func lmrFirst(pvNode bool) int {
	if pvNode {
		return 3
	}
	return 1
}

func (s *searcher) updatePV(ply int, m *rules.Move) {
	s.pv[ply][ply] = *m
	n := s.pvLen[ply+1]
	copy(s.pv[ply][ply+1:n], s.pv[ply+1][ply+1:n])
	s.pvLen[ply] = max(n, ply+1)
}

func (s *searcher) goodQuiet(m *rules.Move, ply, depth int) {
	k := moveKey(m)
	if s.killers[ply][0] != k {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = k
	}
	h := &s.history[historyIndex(m.FromBit(), m.ToBit())]
	*h += int32(depth * depth)
	if *h > 1<<16 {
		for i := range s.history {
			s.history[i] /= 2
		}
	}
}

// orderMoves lists and scores the moves other than skip (the table move,
// searched first; -1 for none) for ordering: (all moves are captures or
// none are) more captured pieces and promotions first, or killers,
// promotions and history for quiet moves.
//
// The list is in generation order but for move 0, which takes skip's
// place: the order the baseline engine searched in (it scored the table move
// highest, and its first selection swapped it with move 0). Equal keys
// are common (history 0, the same capture count), and which of them is
// searched first decides ties and, through cut-offs and the table, the
// node count; a golden test holds the search to that engine's results.
//
// The first selection is made here, on the way: the earliest of the
// highest keys is swapped with entry 0, as pickBest(order, keys, 0)
// would, so the callers pick from entry 1 on without a second pass over
// the keys (up to 5% more nodes/s in BenchmarkLine*Continue).
func (s *searcher) orderMoves(moves []rules.Move, ply, skip int, capture bool) ([]int, []int) {
	order := s.order[ply][:0]
	keys := s.keys[ply][:0]
	k0, k1 := s.killers[ply][0], s.killers[ply][1]
	b := 0 // the earliest of the highest keys so far
	first := 0
	if skip >= 0 {
		first = 1
	}
	for i := first; i < len(moves); i++ {
		mi := i
		if i == skip {
			mi = 0
		}
		m := &moves[mi]
		var k int
		switch {
		case capture:
			k = m.CaptureCount() << 8
			if m.Promotes() {
				k += 128
			}
		default:
			mk := moveKey(m)
			switch {
			case mk == k0:
				k = 1 << 26
			case mk == k1:
				k = 1 << 25
			case m.Promotes():
				k = 1 << 24
			default:
				k = int(s.history[historyIndex(m.FromBit(), m.ToBit())])
			}
		}
		if len(keys) > 0 && k > keys[b] {
			b = len(keys)
		}
		order = append(order, mi)
		keys = append(keys, k)
	}
	if b != 0 {
		// pickBest(order, keys, 0), found on the way.
		order[0], order[b] = order[b], order[0]
		keys[0], keys[b] = keys[b], keys[0]
	}
	s.order[ply], s.keys[ply] = order, keys
	return order, keys
}

// pickBest moves the highest-keyed remaining move to position i (the
// earliest of equal keys wins, so the order is deterministic) by swapping
// it with the move there. The swap reorders equal keys further on, so
// this selection, one per searched move, is not a stable sort: a sort
// of the rest once (tried, about 4% faster together with the
// table move first) searched tied moves in another order and changed 36
// of 3,535 best moves at depth 8.
func pickBest(order, keys []int, i int) {
	b := i
	for j := i + 1; j < len(order); j++ {
		if keys[j] > keys[b] {
			b = j
		}
	}
	if b != i {
		order[i], order[b] = order[b], order[i]
		keys[i], keys[b] = keys[b], keys[i]
	}
}

// threatened reports whether the opponent of the side to move would have
// a capture if it were to move.
func (s *searcher) threatened(pos *rules.Position, ply int) bool {
	if s.fast != nil {
		return s.fast.hasCapture(&s.fb[ply], pos.SideToMove().Opponent())
	}
	q := *pos
	q.SetSideToMove(pos.SideToMove().Opponent())
	s.threat = q.LegalMoves(s.threat[:0])
	return len(s.threat) > 0 && s.threat[0].IsCapture()
}

// quiesce searches the captures in moves (all captures: capturing is
// compulsory) until a position without a capture is reached, which is
// then scored by the evaluation. There is no standing pat while a capture
// is pending.
func (s *searcher) quiesce(pos *rules.Position, moves []rules.Move, ply, alpha, beta int) int {
	order, keys := s.orderMoves(moves, ply, -1, true)
	best := -Infinity
	for i := range order {
		if i > 0 {
			pickBest(order, keys, i) // orderMoves picked order[0]
		}
		m := &moves[order[i]]
		s.play(pos, m, ply, s.fast != nil)
		s.count[ply+1] = 0 // a capture
		sc := -s.qnode(ply+1, -beta, -alpha)
		if s.stop {
			return 0
		}
		if sc > best {
			best = sc
			if sc > alpha {
				alpha = sc
				s.updatePV(ply, m)
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

func (s *searcher) qnode(ply, alpha, beta int) int {
	s.pvLen[ply] = ply
	if s.nodes&1023 == 0 {
		s.checkStop()
	}
	if s.stop {
		return 0
	}
	s.nodes++
	if s.fast != nil && !s.fewPieces(ply) {
		if quiet, n := s.quiet(ply); quiet {
			fb, us := &s.fb[ply], s.side[ply]
			if sc, over := s.decidedFast(fb, us, n, ply); over {
				return sc
			}
			return s.fast.evaluate(fb, us)
		}
	}
	pos := s.made(ply, false)
	if sc, ok := s.probe(pos, ply); ok {
		return sc
	}
	moves := s.legalMoves(pos, ply, s.moves[ply][:0])
	s.moves[ply] = moves
	if sc, over := s.decided(pos, len(moves), ply); over {
		return sc
	}
	if !moves[0].IsCapture() || ply >= maxPly-2 {
		return s.evaluate(pos, ply)
	}
	return s.quiesce(pos, moves, ply, alpha, beta)
}
