package explorer

import (
	"context"
	"fmt"
	"strings"

	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5"
)

// The player page's parameters of /api/player, besides name.
var playerParams = []string{"name", "variant", "white_moves", "black_moves", "before", "limit"}

// Pages of a player's games.
const (
	defaultPlayerGames = 50
	maxPlayerGames     = 200
)

// playerPageAsk is what /api/player is asked beyond the name: the
// variant of the trees ("" the player's most played), the line of each
// tree, and the page of games.
type playerPageAsk struct {
	variant      string
	white, black []string
	before       int64
	limit        int
}

func (s *Server) playerPageParams(rq *request) (*playerPageAsk, error) {
	ask := &playerPageAsk{before: noBelow}
	ask.variant = strings.TrimSpace(rq.get("variant"))
	if ask.variant != "" {
		if _, err := s.variantParam(rq); err != nil {
			return nil, err
		}
	}
	for _, l := range []struct {
		name string
		to   *[]string
	}{{"white_moves", &ask.white}, {"black_moves", &ask.black}} {
		*l.to = strings.Fields(strings.ReplaceAll(rq.get(l.name), ",", " "))
		if len(*l.to) > maxPlies {
			return nil, badRequest("%s: %d plies; at most %d", l.name, len(*l.to), maxPlies)
		}
		for i, m := range *l.to {
			if len(m) > maxMoveBytes {
				return nil, badRequest("%s: ply %d %s is not a move (%d bytes)", l.name, i+1, quote(m), len(m))
			}
		}
	}
	before, err := rq.intParam("before", 0, 1, 1<<62)
	if err != nil {
		return nil, err
	}
	if before > 0 {
		ask.before = int64(before)
	}
	if ask.limit, err = rq.intParam("limit", defaultPlayerGames, 1, maxPlayerGames); err != nil {
		return nil, err
	}
	return ask, nil
}

// PlayerTree is a player's opening tree as one colour: the moves played
// from a position in the player's games with that colour that reach it
// (every ply counted, from the games themselves), with White's score as
// in /api/openings and the player's own.
type PlayerTree struct {
	Color      string   `json:"color"`
	Line       []string `json:"line"` // the moves to the position, in the variant's notation
	FEN        string   `json:"fen"`
	SideToMove string   `json:"side_to_move"`
	Name       string   `json:"name,omitempty"`
	// Games are the player's games with this colour that reach the
	// position (Counted of them looked at, the newest, when Truncated);
	// Ended those that end there.
	Games     int64            `json:"games"`
	Ended     int64            `json:"ended"`
	Truncated bool             `json:"truncated,omitempty"`
	Moves     []PlayerTreeMove `json:"moves"`
}

// PlayerTreeMove is a move of a player's tree: /api/openings' keys and
// player_score, the player's score in percent after it (null when no
// game has a result).
type PlayerTreeMove struct {
	TreeMove
	PlayerScore *float64 `json:"player_score"`
}

// playerPage fills in the variants, the two trees and the page of games
// of the player whose spellings are ids.
func (s *Server) playerPage(ctx context.Context, tx pgx.Tx, ids []int32, ask *playerPageAsk, ans *PlayerAnswer) error {
	counts, err := schema.PlayerVariants(ctx, tx, ids)
	if err != nil {
		return err
	}
	ans.Variants = []VariantCount{}
	for _, c := range counts {
		v, err := codec.VariantByID(c.Variant)
		if err != nil {
			return err
		}
		ans.Variants = append(ans.Variants, VariantCount{Variant: v.Name, Games: c.Games})
	}
	v := s.variant
	if len(ans.Variants) > 0 {
		v, _ = rules.VariantByName(ans.Variants[0].Variant)
	}
	if ask.variant != "" {
		v, _ = rules.VariantByName(ask.variant)
	}
	ans.Variant = v.Name
	if ans.WhiteTree, err = s.playerTree(ctx, tx, ids, v, rules.White, ask.white); err != nil {
		return err
	}
	if ans.BlackTree, err = s.playerTree(ctx, tx, ids, v, rules.Black, ask.black); err != nil {
		return err
	}
	ans.Games, ans.NextBefore, err = playerGamesPage(ctx, tx, ids, ask.before, ask.limit)
	return err
}

// playerTree counts the moves from the position after line in the
// player's games as color: the newest Options.MaxFilterGames of those
// games, each decoded up to the position's first visit (as a filtered
// tree counts), so a line that is not legal is a 400 and a transposition
// counts.
func (s *Server) playerTree(ctx context.Context, tx pgx.Tx, ids []int32, v *rules.Variant, color rules.Color, line []string) (*PlayerTree, error) {
	field := "white_moves"
	if color == rules.Black {
		field = "black_moves"
	}
	played, err := replay.PlayLine(v, "", line)
	if err != nil {
		return nil, badRequest("%s (%s): %v", field, v.Name, err)
	}
	pos := &played.Final
	hash := pos.Hash()
	t := &PlayerTree{Color: colorName(color), Line: []string{}, FEN: pos.FEN(), SideToMove: colorName(pos.SideToMove())}
	for _, m := range describeLine(v, played.Start, played.Moves) {
		t.Line = append(t.Line, m.Move)
	}
	counts := map[codec.MoveCode]*tally{}
	var vis codec.Visitor
	looked := 0
	err = schema.ForEachPlayerTreeGame(ctx, tx, ids, codec.VariantID(v), color == rules.White, s.opt.MaxFilterGames+1,
		func(g *schema.TreeGame) (bool, error) {
			if looked == s.opt.MaxFilterGames {
				t.Truncated = true
				return false, nil
			}
			looked++
			_, next, hasNext, found, err := vis.FirstVisit(v, g.StartFEN, g.Moves, hash)
			if err != nil {
				return false, fmt.Errorf("game %d: stored moves do not decode: %w", g.ID, err)
			}
			if !found {
				return true, nil
			}
			t.Games++
			if !hasNext {
				t.Ended++
				return true, nil
			}
			c := codec.MoveCodeOf(&next)
			tl := counts[c]
			if tl == nil {
				tl = &tally{}
				counts[c] = tl
			}
			tl.games++
			switch g.Result {
			case codec.ResultWhiteWins:
				tl.white++
			case codec.ResultDraw:
				tl.draws++
			case codec.ResultBlackWins:
				tl.black++
			}
			return true, nil
		})
	if err != nil {
		return nil, err
	}
	node, err := countedNode(ctx, tx, v, pos, counts)
	if err != nil {
		return nil, err
	}
	t.Name = node.Name
	t.Moves = []PlayerTreeMove{}
	for _, m := range node.JSONMoves() {
		pm := PlayerTreeMove{TreeMove: m, PlayerScore: m.Score}
		if m.Score != nil && color == rules.Black {
			own := 100 - *m.Score
			pm.PlayerScore = score1(own)
		}
		t.Moves = append(t.Moves, pm)
	}
	return t, nil
}

// playerGamesPage is a page of the games of the spellings ids with an id
// below below, newest first, and the before= of the next page (0: none).
func playerGamesPage(ctx context.Context, tx pgx.Tx, ids []int32, below int64, limit int) ([]GameRow, int64, error) {
	rows, err := schema.PlayerGamesPage(ctx, tx, ids, below, limit+1)
	if err != nil {
		return nil, 0, err
	}
	out := []GameRow{}
	var next int64
	for _, r := range rows {
		if len(out) == limit {
			next = out[len(out)-1].ID
			break
		}
		v, err := codec.VariantByID(r.Variant)
		if err != nil {
			return nil, 0, fmt.Errorf("game %d: %w", r.ID, err)
		}
		out = append(out, GameRow{ID: r.ID, Variant: v.Name, White: r.White, Black: r.Black, Event: r.Event, Date: r.Date,
			Result: codec.ResultOf(r.Result).Format(v), Plies: r.Plies})
	}
	return out, next, nil
}
