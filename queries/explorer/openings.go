package explorer

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5"
)

// TreeMove is one move of the tree, with the keys of `draughtsdb openings
// --format json` (the same type).
type TreeMove = openings.MoveJSON

// TreePosition is the position of a tree with its totals.
type TreePosition struct {
	Variant    string   `json:"variant"`
	FEN        string   `json:"fen"`
	Hash       string   `json:"hash"`
	SideToMove string   `json:"side_to_move"`
	Ply        int      `json:"ply"`
	Name       string   `json:"name,omitempty"`
	Games      int64    `json:"games"` // games that played a move from here (the sum of the moves)
	WhiteWins  int64    `json:"white_wins"`
	Draws      int64    `json:"draws"`
	BlackWins  int64    `json:"black_wins"`
	Score      *float64 `json:"score"`
	// Ending are the games of the selected sources that ended at this
	// position (its final position): they played no move here, so Games
	// leaves them out. Only the opening statistics give it (null with a
	// filter).
	Ending *int64 `json:"ending"`
	// Sources is the source selection counted: archive (the default),
	// match, all, or source ids and names.
	Sources string `json:"sources"`
	// Source says where the counts come from: "statistics" (the opening
	// statistics, as `draughtsdb openings`) or "games" (the games that
	// pass the filter, counted one by one).
	Source string  `json:"source"`
	Filter *filter `json:"filter,omitempty"`
	// Counted is, for a filtered tree, the games that passed the filter
	// and were decoded; Truncated says there were more than the cap and
	// only the newest Counted were counted.
	Counted   int  `json:"counted,omitempty"`
	Truncated bool `json:"truncated,omitempty"`
	// Depth is how many plies of each game the statistics count.
	Depth int `json:"depth,omitempty"`
	// Notes are what a person should know about these counts.
	Notes []string `json:"notes,omitempty"`
}

// TreeAnswer is the answer of /api/openings.
type TreeAnswer struct {
	Position TreePosition `json:"position"`
	Moves    []TreeMove   `json:"moves"`
	TopGames []GameRow    `json:"top_games"`
}

func score1(s float64) *float64 { return openings.Score1(s) }

func treePosition(p *position, node *openings.Node) TreePosition {
	tp := TreePosition{Variant: p.v.Name, FEN: node.FEN, Hash: hashText(node.Hash), SideToMove: colorName(node.Side),
		Ply: len(p.line.Moves), Name: node.Name, Games: node.Games, Sources: node.Sources}
	for _, b := range node.Branch {
		tp.WhiteWins += b.WhiteWins
		tp.Draws += b.Draws
		tp.BlackWins += b.BlackWins
	}
	tp.Score = score1(openings.Score(tp.WhiteWins, tp.Draws, tp.BlackWins))
	return tp
}

// openings answers /api/openings: without a filter the opening statistics
// (openings.Tree, what `draughtsdb openings` prints); with one, a count
// over the games that pass it (filteredTree).
func (s *Server) openings(ctx context.Context, rq *request) (any, error) {
	p, err := s.positionParam(rq)
	if err != nil {
		return nil, err
	}
	f, err := filterParam(rq)
	if err != nil {
		return nil, err
	}
	sel := sourceParam(rq)
	if err := noSourceWithFilter(sel, f); err != nil {
		return nil, err
	}
	if !f.empty() {
		// Requests for the same tree wait for this one (cachedTree); the
		// tree is kept before they are woken.
		defer s.flights.start(treeKey(p, f))()
	}
	var ans TreeAnswer
	err = s.read(ctx, func(tx pgx.Tx) error {
		var node *openings.Node
		if f.empty() {
			if err := checkSources(ctx, tx, sel); err != nil {
				return err
			}
			if node, err = openings.TreeFrom(ctx, tx, &p.line.Final, sel); err != nil {
				return err
			}
			ans.Position = treePosition(p, node)
			ans.Position.Source = "statistics"
			ans.Position.Ending = &node.Ending
			cov, err := openings.ReadCoverage(ctx, tx, p.v)
			if err != nil {
				return err
			}
			ans.Position.Depth = cov.Depth
			if cov.Uncounted > 0 {
				ans.Position.Notes = append(ans.Position.Notes, fmt.Sprintf("%d source(s) were imported before draughtsdb kept opening statistics and are not in this tree; draughtsdb db rebuild-openings counts them", cov.Uncounted))
			}
			if cov.Depth > 0 && len(p.line.Moves) >= cov.Depth && p.fen == "" {
				ans.Position.Notes = append(ans.Position.Notes, fmt.Sprintf("the opening statistics count the first %d plies of each game; this position is at ply %d (a filter counts the games themselves)", cov.Depth, len(p.line.Moves)))
			}
			if ans.TopGames, err = s.namedGamesAt(ctx, tx, p, sel, topGames, 0); err != nil {
				return err
			}
		} else {
			ft, err := s.filteredTree(ctx, tx, p, f)
			if err != nil {
				return err
			}
			node = ft.node
			ans.Position = treePosition(p, node)
			ans.Position.Source, ans.Position.Filter = "games", f
			ans.Position.Counted, ans.Position.Truncated = ft.counted, ft.truncated
			switch {
			case ft.budget:
				ans.Position.Notes = append(ans.Position.Notes, fmt.Sprintf("the counts are over the %d games that reach this position among the newest %d games that pass the filter; narrow the filter for exact counts", ft.counted, s.opt.MaxScanGames))
			case ft.truncated:
				ans.Position.Notes = append(ans.Position.Notes, fmt.Sprintf("more than %d games pass the filter at this position: the counts are over the newest %d; narrow the filter for exact counts", s.opt.MaxFilterGames, ft.counted))
			}
			ans.TopGames = ft.top
		}
		ans.Moves = node.JSONMoves()
		return nil
	})
	if err != nil {
		return nil, err
	}
	if ans.TopGames == nil {
		ans.TopGames = []GameRow{}
	}
	if !f.empty() {
		s.trees.put(treeKey(p, f), &ans)
	}
	return &ans, nil
}

// maxCachedTrees bounds the filtered trees kept (a few kB each).
const maxCachedTrees = 512

func treeKey(p *position, f *filter) string {
	return fmt.Sprintf("%s\x00%d\x00%s\x00%s\x00%s\x00%s\x00%s\x00%d", p.v.Name, p.line.Final.Hash(), f.Player, f.Color, f.Event, f.From, f.To, f.MinRating)
}

// cachedTree answers a filtered tree kept from an earlier request, or
// one being counted for another request once it is (or ctx ends). The
// line is replayed and the tree looked up in a slot of the cheap gate
// (the wait is outside it); a request it cannot answer, whose parameters
// are wrong or that finds the cheap gate full, goes on to the handler.
func (s *Server) cachedTree(ctx context.Context, client string, rq *request) (*TreeAnswer, bool) {
	release, err := s.cheap.enter(ctx, client)
	if err != nil {
		return nil, false
	}
	key, ans, ok := s.keptTree(rq)
	release()
	if ok || key == "" {
		return ans, ok
	}
	if s.flights.wait(ctx, key) {
		return s.trees.get(key)
	}
	return nil, false
}

// keptTree is the key of the filtered tree rq asks for ("" when its
// parameters are wrong) and the tree when it is kept.
func (s *Server) keptTree(rq *request) (string, *TreeAnswer, bool) {
	f, err := filterParam(rq)
	if err != nil || f.empty() {
		return "", nil, false
	}
	p, err := s.positionParam(rq)
	if err != nil {
		return "", nil, false
	}
	key := treeKey(p, f)
	ans, ok := s.trees.get(key)
	return key, ans, ok
}

// flights are the keys of answers being computed.
type flights struct {
	mu sync.Mutex
	m  map[string]chan struct{}
}

// start marks key as being computed until finish; when it is already, it
// does nothing.
func (fl *flights) start(key string) (finish func()) {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	if _, ok := fl.m[key]; ok {
		return func() {}
	}
	if fl.m == nil {
		fl.m = map[string]chan struct{}{}
	}
	ch := make(chan struct{})
	fl.m[key] = ch
	return func() {
		fl.mu.Lock()
		delete(fl.m, key)
		fl.mu.Unlock()
		close(ch)
	}
}

// wait waits for key's computation, if there is one, to finish; false
// when there is none or ctx ended first.
func (fl *flights) wait(ctx context.Context, key string) bool {
	fl.mu.Lock()
	ch, ok := fl.m[key]
	fl.mu.Unlock()
	if !ok {
		return false
	}
	select {
	case <-ch:
		return true
	case <-ctx.Done():
		return false
	}
}

// filtered is a tree counted over the games that pass a filter.
type filtered struct {
	node      *openings.Node
	counted   int
	truncated bool
	// budget says the count stopped at Options.MaxScanGames games looked
	// at, not at Options.MaxFilterGames counted.
	budget bool
	top    []GameRow
}

// tally is one move's results.
type tally struct {
	games, white, draws, black int64
}

// filteredTree counts the tree at p over the games that pass f and reach
// p, newest first, at most MaxFilterGames of them (selectGames picks the
// way to them): each is decoded up to the position's first visit and the
// move from there counted, as the statistics count it. Unlike the
// statistics, every ply counts, not only the first import.opening_depth.
// Moves are matched by move code and written as openings.Tree writes
// them; names and evaluations are the positions' after the moves. Only
// the counts per move and the first games are kept: a tree over any
// number of games takes the same memory.
func (s *Server) filteredTree(ctx context.Context, tx pgx.Tx, p *position, f *filter) (*filtered, error) {
	v, pos := p.v, &p.line.Final
	out := &filtered{}
	counts := map[codec.MoveCode]*tally{}
	sel, err := s.selectGames(ctx, tx, p, f, noBelow, s.opt.MaxFilterGames+1, true, func(h *hit) bool {
		if out.counted == s.opt.MaxFilterGames {
			out.truncated = true
			return false
		}
		out.counted++
		if len(out.top) < topGames {
			out.top = append(out.top, h.row)
		}
		if !h.hasNext {
			return true // the game ends here
		}
		c := codec.MoveCodeOf(&h.next)
		t := counts[c]
		if t == nil {
			t = &tally{}
			counts[c] = t
		}
		t.games++
		switch h.result {
		case codec.ResultWhiteWins:
			t.white++
		case codec.ResultDraw:
			t.draws++
		case codec.ResultBlackWins:
			t.black++
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	if sel.budget {
		out.truncated, out.budget = true, true
	}
	out.node, err = countedNode(ctx, tx, v, pos, counts)
	return out, err
}

// countedNode makes the tree at pos of the moves counted (by move code):
// the moves named and ordered as openings.Tree does, with the positions'
// names and evaluations.
func countedNode(ctx context.Context, tx pgx.Tx, v *rules.Variant, pos *rules.Position, counts map[codec.MoveCode]*tally) (*openings.Node, error) {
	hash := pos.Hash()
	node := &openings.Node{Variant: v, FEN: pos.FEN(), Hash: hash, Side: pos.SideToMove()}
	legal := pos.LegalMoves(nil)
	var children []rules.Position
	for i := range legal {
		m := &legal[i]
		c := codec.MoveCodeOf(m)
		t, ok := counts[c]
		if !ok {
			continue
		}
		delete(counts, c) // the first legal move of a code names it, as in openings.Tree
		b := openings.Branch{Move: *m,
			Text:      rules.FormatMove(v, m, v.DefaultNotation, rules.Ambiguous(legal, m)),
			Algebraic: rules.FormatMove(v, m, rules.Algebraic, rules.Ambiguous(legal, m)),
			Games:     t.games, WhiteWins: t.white, Draws: t.draws, BlackWins: t.black,
			Score: openings.Score(t.white, t.draws, t.black)}
		child := *pos
		child.Play(m)
		b.Child = child.Hash()
		children = append(children, child)
		node.Branch = append(node.Branch, b)
		node.Games += b.Games
	}
	sort.SliceStable(node.Branch, func(i, j int) bool {
		a, b := &node.Branch[i], &node.Branch[j]
		if a.Games != b.Games {
			return a.Games > b.Games
		}
		return a.Text < b.Text
	})
	notes, err := positionNotes(ctx, tx, append(children, *pos))
	if err != nil {
		return nil, err
	}
	if n := notes[hash]; n.name != nil {
		node.Name = *n.name
	}
	for i := range node.Branch {
		b := &node.Branch[i]
		n := notes[b.Child]
		if n.name != nil {
			b.Name = *n.name
		}
		b.Eval, b.EvalCount = n.eval, n.evalCount
	}
	return node, nil
}
