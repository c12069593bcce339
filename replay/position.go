package replay

import (
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// PositionAfter plays moves (as written in any notation replay reads) from
// fen, or from the variant's initial position when fen is "", and returns
// the position reached. A move that does not resolve to exactly one legal
// move is a *RejectError, as in Replay.
func PositionAfter(v *rules.Variant, fen string, moves []string) (rules.Position, error) {
	g, err := PlayLine(v, fen, moves)
	if err != nil {
		return rules.Position{}, err
	}
	return g.Final, nil
}

// PlayLine is PositionAfter returning the whole line: the start position,
// each move resolved to the legal move it names, and the positions' hashes.
func PlayLine(v *rules.Variant, fen string, moves []string) (*Game, error) {
	g := &pdn.Game{Tags: []pdn.Tag{{Name: "GameType", Value: strconv.Itoa(v.GameType)}}}
	if strings.TrimSpace(fen) != "" {
		g.Tags = append(g.Tags, pdn.Tag{Name: "FEN", Value: fen})
	}
	for _, m := range moves {
		g.Moves = append(g.Moves, pdn.Move{Text: m})
	}
	out := &Game{}
	if err := NewReplayer(Options{Variant: v}).Replay(g, nil, out); err != nil {
		return nil, err
	}
	return out, nil
}
