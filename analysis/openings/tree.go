package openings

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5"
)

// Querier is what Tree needs of a connection: *pgx.Conn, *pgxpool.Pool
// and pgx.Tx all are.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Branch is one next move of a position with the results of the games
// that played it there.
type Branch struct {
	Move      rules.Move `json:"-"`
	Text      string     `json:"move"`      // the variant's own notation, full path only when needed
	Algebraic string     `json:"algebraic"` // algebraic notation
	Games     int64      `json:"games"`
	WhiteWins int64      `json:"white_wins"`
	Draws     int64      `json:"draws"`
	BlackWins int64      `json:"black_wins"`
	// Unfinished are the games without a result ('*' or a double
	// forfeit): Games = WhiteWins + Draws + BlackWins + Unfinished.
	Unfinished int64 `json:"unfinished"`
	// Ending are the games that ended at the position after the move
	// (by any move order), which no move of that position counts.
	Ending int64 `json:"ending"`
	// Score is White's score in percent over the games with a result
	// (wins, draws, losses); NaN when there are none.
	Score float64 `json:"-"`
	// Child is the Zobrist hash of the position after the move.
	Child uint64 `json:"-"`
	// Name is the named opening (ballot) the move reaches, if any.
	Name string `json:"name,omitempty"`
	// Eval is the mean of the stored engine evaluations of the position
	// after the move, in men from White's view (+ good for White), over
	// EvalCount evaluations (engines and settings); nil when there is none.
	Eval      *float64 `json:"eval,omitempty"`
	EvalCount int      `json:"eval_count,omitempty"`
}

// Node is a position's opening tree.
type Node struct {
	Variant *rules.Variant
	FEN     string
	Hash    uint64
	Side    rules.Color // the side to move, who plays the branches
	Name    string      // the position's opening name, if any
	Games   int64       // games that played a move from here (sum of Branches)
	// Unfinished are those of Games without a result.
	Unfinished int64
	// Ending are the games that ended at this position (its final
	// position), finished or not: they played no move here, so Games
	// leaves them out.
	Ending int64
	// Sources is the source selection counted (schema.DefaultSources when
	// none was given): archive, match, all, or source ids and names.
	Sources string
	// Filter is the filter of the games counted (FilteredTreeFrom); zero
	// for the statistics of every game of the sources.
	Filter Filter
	Branch []Branch // most played first
}

// Tree returns the opening tree at pos from the opening statistics: every
// move played there in the stored games of pos's variant, transpositions
// merged, each game counted once, of the archive sources (imported PDN,
// not engine matches: TreeFrom chooses). It reads only opening_index,
// opening_names and evaluations.
func Tree(ctx context.Context, q Querier, pos *rules.Position) (*Node, error) {
	return TreeFrom(ctx, q, pos, schema.DefaultSources)
}

// TreeFrom is Tree over the games of the sources a selection names
// (schema's draughtsdb_source_ids: archive, match, all, or source ids and
// names, comma-separated); a selection that names no source is an error.
func TreeFrom(ctx context.Context, q Querier, pos *rules.Position, sources string) (*Node, error) {
	nodes, err := TreesFrom(ctx, q, []rules.Position{*pos}, sources)
	if err != nil {
		return nil, err
	}
	return nodes[0], nil
}

// Trees is Tree for several positions of one variant, in three queries
// whatever their number.
func Trees(ctx context.Context, q Querier, positions []rules.Position) ([]*Node, error) {
	return TreesFrom(ctx, q, positions, schema.DefaultSources)
}

// TreesFrom is TreeFrom for several positions of one variant.
func TreesFrom(ctx context.Context, q Querier, positions []rules.Position, sources string) ([]*Node, error) {
	if len(positions) == 0 {
		return nil, nil
	}
	if sources == "" {
		sources = schema.DefaultSources
	}
	v := positions[0].Variant()
	gt := codec.VariantID(v)
	hashes := make([]int64, len(positions))
	for i := range positions {
		if positions[i].Variant() != v {
			return nil, fmt.Errorf("openings.Trees: positions of %s and %s", v.Name, positions[i].Variant().Name)
		}
		hashes[i] = int64(positions[i].Hash())
	}
	moves, err := schema.OpeningTree(ctx, q, gt, hashes, sources)
	if err != nil {
		return nil, err
	}
	found := make([][]counted, len(positions))
	for _, m := range moves {
		c := counted{code: codec.MoveCode(m.Code), b: Branch{Games: m.Games, WhiteWins: m.WhiteWins, Draws: m.Draws,
			BlackWins: m.BlackWins, Unfinished: m.Unfinished}}
		found[m.Position] = append(found[m.Position], c)
	}
	return buildNodes(ctx, q, positions, sources, found)
}

// counted is one move of a position with its games, as a move code.
type counted struct {
	code codec.MoveCode
	b    Branch
}

// buildNodes writes the counted moves of each position as its Node: the
// moves in the variant's notation, sorted, with names and evaluations.
func buildNodes(ctx context.Context, q Querier, positions []rules.Position, sources string, found [][]counted) ([]*Node, error) {
	v := positions[0].Variant()
	gt := codec.VariantID(v)
	nodes := make([]*Node, len(positions))
	var legal []rules.Move
	for pi := range positions {
		pos := &positions[pi]
		node := &Node{Variant: v, FEN: pos.FEN(), Hash: pos.Hash(), Side: pos.SideToMove(), Sources: sources}
		nodes[pi] = node
		if len(found[pi]) == 0 {
			continue
		}
		byCode := make(map[codec.MoveCode]*Branch, len(found[pi]))
		for k := range found[pi] {
			byCode[found[pi][k].code] = &found[pi][k].b
		}
		legal = pos.LegalMoves(legal[:0])
		matched := map[codec.MoveCode]bool{}
		for i := range legal {
			m := &legal[i]
			c := codec.MoveCodeOf(m)
			b, ok := byCode[c]
			if !ok || matched[c] {
				continue
			}
			matched[c] = true
			b.Move = *m
			b.Text = rules.FormatMove(v, m, v.DefaultNotation, rules.Ambiguous(legal, m))
			b.Algebraic = rules.FormatMove(v, m, rules.Algebraic, rules.Ambiguous(legal, m))
			child := *pos
			child.Play(m)
			b.Child = child.Hash()
			node.Branch = append(node.Branch, *b)
		}
		for _, f := range found[pi] {
			if !matched[f.code] {
				// Only a false match of 44 hash bits can get here: a move
				// of another position. Name it plainly rather than drop
				// its games.
				b := f.b
				sep := "-"
				if f.code.Capture() {
					sep = "x"
				}
				b.Text = fmt.Sprintf("%d%s%d?", f.code.From(), sep, f.code.To())
				b.Algebraic = b.Text
				node.Branch = append(node.Branch, b)
			}
		}
		for i := range node.Branch {
			b := &node.Branch[i]
			b.Score = Score(b.WhiteWins, b.Draws, b.BlackWins)
			node.Games += b.Games
			node.Unfinished += b.Unfinished
		}
		sort.SliceStable(node.Branch, func(i, j int) bool {
			a, b := &node.Branch[i], &node.Branch[j]
			if a.Games != b.Games {
				return a.Games > b.Games
			}
			return a.Text < b.Text
		})
	}
	if err := annotate(ctx, q, gt, nodes); err != nil {
		return nil, err
	}
	if err := countEnding(ctx, q, gt, nodes, 0); err != nil {
		return nil, err
	}
	return nodes, nil
}

// Score is White's score in percent over decided and drawn games, NaN when
// there are none.
func Score(white, draws, black int64) float64 {
	n := white + draws + black
	if n == 0 {
		return math.NaN()
	}
	return 100 * (float64(white) + float64(draws)/2) / float64(n)
}

// annotate adds the opening names of the nodes and their children and the
// mean evaluations of the children.
func annotate(ctx context.Context, q Querier, gt int16, nodes []*Node) error {
	var hashes, children []int64
	for _, n := range nodes {
		hashes = append(hashes, int64(n.Hash))
		for _, b := range n.Branch {
			if b.Child != 0 {
				hashes = append(hashes, int64(b.Child))
				children = append(children, int64(b.Child))
			}
		}
	}
	names, err := schema.OpeningNames(ctx, q, gt, hashes)
	if err != nil {
		return err
	}
	evals := map[int64]schema.MeanEvaluation{}
	if len(children) > 0 {
		if evals, err = schema.MeanEvaluations(ctx, q, gt, children); err != nil {
			return err
		}
	}
	for _, node := range nodes {
		node.Name = names[int64(node.Hash)]
		for i := range node.Branch {
			b := &node.Branch[i]
			b.Name = names[int64(b.Child)]
			// Scores are stored from the side to move's view; after the
			// move the mover's opponent is to move.
			if e, ok := evals[int64(b.Child)]; ok && b.Child != 0 {
				s := e.Mean / 100
				if node.Side == rules.White {
					s = -s
				}
				b.Eval, b.EvalCount = &s, e.Count
			}
		}
	}
	return nil
}
