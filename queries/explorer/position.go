package explorer

import (
	"context"
	"strconv"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5"
)

// Square is one dark square of a board, for drawing it.
type Square struct {
	N         int    `json:"n"`
	File      int    `json:"file"` // 1 = a, from White's left
	Rank      int    `json:"rank"` // 1 = White's side
	Numeric   string `json:"numeric"`
	Algebraic string `json:"algebraic"` // as the variant writes it
}

// VariantInfo describes a variant for the page.
type VariantInfo struct {
	Name     string `json:"name"`
	GameType int    `json:"game_type"`
	Board    struct {
		Name     string `json:"name"`
		Width    int    `json:"width"`
		Height   int    `json:"height"`
		Mirrored bool   `json:"mirrored"`
		Reversed bool   `json:"reversed"`
	} `json:"board"`
	FirstToMove string `json:"first_to_move"`
	Notation    string `json:"notation"` // numeric or algebraic: how the variant writes moves
	// Bottom is the side drawn at the bottom: the side the algebraic names
	// are read from (White, but Black in English checkers, whose algebraic
	// squares draughtsdb names from Black's side).
	Bottom   string   `json:"bottom"`
	StartFEN string   `json:"start_fen"`
	Games    int64    `json:"games"` // games in the opening statistics from the initial position
	Squares  []Square `json:"squares"`
}

func colorName(c rules.Color) string {
	if c == rules.White {
		return "white"
	}
	return "black"
}

func notationName(n rules.Notation) string {
	if n == rules.Algebraic {
		return "algebraic"
	}
	return "numeric"
}

func describe(v *rules.Variant) VariantInfo {
	var vi VariantInfo
	b := v.Board
	vi.Name, vi.GameType = v.Name, v.GameType
	vi.Board.Name, vi.Board.Width, vi.Board.Height = b.Name, b.Width, b.Height
	vi.Board.Mirrored, vi.Board.Reversed = b.Mirrored, b.Reversed
	vi.FirstToMove = colorName(v.FirstToMove)
	vi.Notation = notationName(v.DefaultNotation)
	vi.Bottom = "white"
	if v.AlgebraicFromBlack {
		vi.Bottom = "black"
	}
	vi.StartFEN = v.StartPosition().FEN()
	for sq := 1; sq <= b.Squares(); sq++ {
		f, r := b.Coords(sq)
		vi.Squares = append(vi.Squares, Square{N: sq, File: f, Rank: r, Numeric: strconv.Itoa(sq), Algebraic: v.SquareName(sq, rules.Algebraic)})
	}
	return vi
}

// variants answers /api/variants: every variant with its board and the
// number of games from its initial position (openings.Tree).
func (s *Server) variants(ctx context.Context, _ *request) (any, error) {
	out := struct {
		Default  string        `json:"default"`
		Variants []VariantInfo `json:"variants"`
	}{Default: s.variant.Name}
	err := s.read(ctx, func(tx pgx.Tx) error {
		for _, v := range rules.Variants() {
			vi := describe(v)
			start := v.StartPosition()
			node, err := openings.Tree(ctx, tx, &start)
			if err != nil {
				return err
			}
			vi.Games = node.Games
			out.Variants = append(out.Variants, vi)
		}
		return nil
	})
	return out, err
}

// LegalMove is a legal move of a position.
type LegalMove struct {
	Move      string `json:"move"`      // the variant's notation, full path only when needed
	Numeric   string `json:"numeric"`   // numeric, full path
	Algebraic string `json:"algebraic"` // algebraic (the variant's naming), full path
	From      int    `json:"from"`
	To        int    `json:"to"`
	Path      []int  `json:"path"`     // landing squares, To last
	Captured  []int  `json:"captured"` // captured squares, ascending
	Promotes  bool   `json:"promotes,omitempty"`
}

// PlayedMove is a move of the line played to reach the position.
type PlayedMove struct {
	Ply       int    `json:"ply"`
	Move      string `json:"move"`
	Algebraic string `json:"algebraic"`
	Numeric   string `json:"numeric"`
	From      int    `json:"from"`
	To        int    `json:"to"`
}

// Pieces are the squares of each kind of piece, in ascending order.
type Pieces struct {
	White      []int `json:"white"`
	Black      []int `json:"black"`
	WhiteKings []int `json:"white_kings"`
	BlackKings []int `json:"black_kings"`
}

// PositionInfo is the answer of /api/position.
type PositionInfo struct {
	Variant    string       `json:"variant"`
	FEN        string       `json:"fen"`
	Hash       string       `json:"hash"` // signed decimal, as SQL and `query --param hash=` take it
	SideToMove string       `json:"side_to_move"`
	Ply        int          `json:"ply"`
	Outcome    string       `json:"outcome,omitempty"` // when the position decides the game
	Line       []PlayedMove `json:"line"`
	Pieces     Pieces       `json:"pieces"`
	LegalMoves []LegalMove  `json:"legal_moves"`
	Name       *string      `json:"name"`       // the ballot name, null when none
	Eval       *float64     `json:"eval"`       // mean evaluation in men from White's view, null when none
	EvalCount  int          `json:"eval_count"` // evaluations averaged
}

func hashText(h uint64) string { return strconv.FormatInt(int64(h), 10) }

func describeMove(v *rules.Variant, legal []rules.Move, m *rules.Move) LegalMove {
	return LegalMove{
		Move:      rules.FormatMove(v, m, v.DefaultNotation, rules.Ambiguous(legal, m)),
		Numeric:   rules.FormatMove(v, m, rules.Numeric, true),
		Algebraic: rules.FormatMove(v, m, rules.Algebraic, true),
		From:      m.From(),
		To:        m.To(),
		Path:      m.Path(nil),
		Captured:  append([]int{}, m.Captured(nil)...),
		Promotes:  m.Promotes(),
	}
}

// describeLine writes the moves of a line in the three forms.
func describeLine(v *rules.Variant, start rules.Position, moves []rules.Move) []PlayedMove {
	out := make([]PlayedMove, 0, len(moves))
	pos := start
	var legal []rules.Move
	for i := range moves {
		m := &moves[i]
		legal = pos.LegalMoves(legal[:0])
		out = append(out, PlayedMove{Ply: i + 1,
			Move:      rules.FormatMove(v, m, v.DefaultNotation, rules.Ambiguous(legal, m)),
			Algebraic: rules.FormatMove(v, m, rules.Algebraic, rules.Ambiguous(legal, m)),
			Numeric:   rules.FormatMove(v, m, rules.Numeric, rules.Ambiguous(legal, m)),
			From:      m.From(), To: m.To(),
		})
		pos.Play(m)
	}
	return out
}

func describePosition(p *position) *PositionInfo {
	v, pos := p.v, &p.line.Final
	info := &PositionInfo{Variant: v.Name, FEN: pos.FEN(), Hash: hashText(pos.Hash()),
		SideToMove: colorName(pos.SideToMove()), Ply: len(p.line.Moves),
		Line: describeLine(v, p.line.Start, p.line.Moves), LegalMoves: []LegalMove{},
		Pieces: Pieces{White: []int{}, Black: []int{}, WhiteKings: []int{}, BlackKings: []int{}}}
	if o := pos.Outcome(); o != rules.Undecided {
		info.Outcome = o.String()
	}
	for sq := 1; sq <= v.Board.Squares(); sq++ {
		switch pos.Piece(sq) {
		case rules.WhiteMan:
			info.Pieces.White = append(info.Pieces.White, sq)
		case rules.BlackMan:
			info.Pieces.Black = append(info.Pieces.Black, sq)
		case rules.WhiteKing:
			info.Pieces.WhiteKings = append(info.Pieces.WhiteKings, sq)
		case rules.BlackKing:
			info.Pieces.BlackKings = append(info.Pieces.BlackKings, sq)
		}
	}
	legal := pos.LegalMoves(nil)
	for i := range legal {
		info.LegalMoves = append(info.LegalMoves, describeMove(v, legal, &legal[i]))
	}
	return info
}

// position answers /api/position.
func (s *Server) position(ctx context.Context, rq *request) (any, error) {
	p, err := s.positionParam(rq)
	if err != nil {
		return nil, err
	}
	info := describePosition(p)
	err = s.read(ctx, func(tx pgx.Tx) error {
		notes, err := positionNotes(ctx, tx, []rules.Position{p.line.Final})
		if err != nil {
			return err
		}
		n := notes[p.line.Final.Hash()]
		info.Name, info.Eval, info.EvalCount = n.name, n.eval, n.evalCount
		return nil
	})
	return info, err
}

// note is what the database knows of a position besides its games: its
// ballot name and the mean of its evaluations.
type note struct {
	name      *string
	eval      *float64 // men, White's view
	evalCount int
}

// positionNotes reads the names (draughtsdb_opening_name, as the tree
// writes them) and mean evaluations of positions of one variant, by hash.
// The evaluation is turned to White's view as openings.Tree does.
func positionNotes(ctx context.Context, tx pgx.Tx, positions []rules.Position) (map[uint64]note, error) {
	out := make(map[uint64]note, len(positions))
	if len(positions) == 0 {
		return out, nil
	}
	gt := codec.VariantID(positions[0].Variant())
	hashes := make([]int64, len(positions))
	side := map[int64]rules.Color{}
	for i := range positions {
		hashes[i] = int64(positions[i].Hash())
		side[hashes[i]] = positions[i].SideToMove()
	}
	rows, err := schema.PositionNotes(ctx, tx, gt, hashes)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		n := note{name: r.Name, evalCount: r.Evals}
		if r.Eval != nil {
			e := *r.Eval / 100
			if side[r.Hash] == rules.Black {
				e = -e
			}
			n.eval = &e
		}
		out[uint64(r.Hash)] = n
	}
	return out, nil
}
