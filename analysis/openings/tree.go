package openings

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
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
	Branch  []Branch    // most played first
}

// Tree returns the opening tree at pos from the opening statistics: every
// move played there in the stored games of pos's variant, transpositions
// merged, each game counted once. It reads only opening_index,
// opening_names and evaluations.
func Tree(ctx context.Context, q Querier, pos *rules.Position) (*Node, error) {
	v := pos.Variant()
	gt := int16(v.GameType)
	h := pos.Hash()
	rows, err := q.Query(ctx, `SELECT move_code, games, white_wins, draws, black_wins FROM draughtsdb_opening_tree($1, $2)`, gt, int64(h))
	if err != nil {
		return nil, err
	}
	byCode := map[Code]*Branch{}
	var order []Code
	for rows.Next() {
		var code int32
		b := &Branch{}
		if err := rows.Scan(&code, &b.Games, &b.WhiteWins, &b.Draws, &b.BlackWins); err != nil {
			rows.Close()
			return nil, err
		}
		byCode[Code(code)] = b
		order = append(order, Code(code))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}

	node := &Node{Variant: v, FEN: pos.FEN(), Hash: h, Side: pos.SideToMove()}
	legal := pos.LegalMoves(nil)
	matched := map[Code]bool{}
	for i := range legal {
		m := &legal[i]
		c := MoveCode(m)
		b, ok := byCode[c]
		if !ok || matched[c] {
			continue
		}
		matched[c] = true
		b.Move = *m
		b.Text = replay.FormatMove(v, m, v.DefaultNotation, rules.Ambiguous(legal, m))
		b.Algebraic = replay.FormatMove(v, m, rules.Algebraic, rules.Ambiguous(legal, m))
		child := *pos
		child.Play(m)
		b.Child = child.Hash()
		node.Branch = append(node.Branch, *b)
	}
	for _, c := range order {
		if !matched[c] {
			// Only a false match of 44 hash bits can get here: a move of
			// another position. Name it plainly rather than drop its games.
			b := byCode[c]
			b.Text = fmt.Sprintf("%d%s%d?", c.From(), map[bool]string{false: "-", true: "x"}[c.Capture()], c.To())
			b.Algebraic = b.Text
			node.Branch = append(node.Branch, *b)
		}
	}
	for i := range node.Branch {
		b := &node.Branch[i]
		b.Score = Score(b.WhiteWins, b.Draws, b.BlackWins)
		node.Games += b.Games
	}
	sort.SliceStable(node.Branch, func(i, j int) bool {
		a, b := &node.Branch[i], &node.Branch[j]
		if a.Games != b.Games {
			return a.Games > b.Games
		}
		return a.Text < b.Text
	})
	if err := annotate(ctx, q, gt, node); err != nil {
		return nil, err
	}
	return node, nil
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

// annotate adds the opening names of the node and its children and the
// mean evaluations of the children.
func annotate(ctx context.Context, q Querier, gt int16, node *Node) error {
	hashes := []int64{int64(node.Hash)}
	for _, b := range node.Branch {
		hashes = append(hashes, int64(b.Child))
	}
	names := map[int64]string{}
	rows, err := q.Query(ctx, `SELECT h, draughtsdb_opening_name($1, h) FROM unnest($2::bigint[]) AS h`, gt, hashes)
	if err != nil {
		return err
	}
	for rows.Next() {
		var h int64
		var name *string
		if err := rows.Scan(&h, &name); err != nil {
			rows.Close()
			return err
		}
		if name != nil {
			names[h] = *name
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	node.Name = names[int64(node.Hash)]

	type eval struct {
		whiteView float64 // the child's side to move's view until flipped below
		n         int
	}
	evals := map[int64]eval{}
	// Scores are stored from the side to move's view; the child's side to
	// move is the opponent of the mover.
	rows, err = q.Query(ctx, `SELECT hash, avg(score)::float8, count(*) FROM evaluations
		WHERE variant = $1 AND hash = ANY($2) GROUP BY hash`, gt, hashes[1:])
	if err != nil {
		return err
	}
	for rows.Next() {
		var h int64
		var e eval
		if err := rows.Scan(&h, &e.whiteView, &e.n); err != nil {
			rows.Close()
			return err
		}
		evals[h] = e
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i := range node.Branch {
		b := &node.Branch[i]
		b.Name = names[int64(b.Child)]
		if e, ok := evals[int64(b.Child)]; ok && b.Child != 0 {
			s := e.whiteView / 100
			if node.Side == rules.White { // Black is to move after the move
				s = -s
			}
			b.Eval, b.EvalCount = &s, e.n
		}
	}
	return nil
}
