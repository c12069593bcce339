package codec

import (
	"fmt"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Game is a stored game decoded (Decode): its moves and every position it
// passes through.
type Game struct {
	Variant *rules.Variant
	// Moves are the legal moves of its plies, in order.
	Moves []rules.Move
	// Positions are the start position (Positions[0]) and the position
	// after every ply (Positions[i] after ply i): len(Moves)+1 of them.
	Positions []rules.Position
}

// Start is the position the game starts from.
func (g *Game) Start() *rules.Position { return &g.Positions[0] }

// Final is the position after the last ply.
func (g *Game) Final() *rules.Position { return &g.Positions[len(g.Positions)-1] }

// Decode replays a stored game of variant v from its columns start_fen ("",
// or NULL read as "", for the initial position) and moves. A start FEN that
// does not parse is an error that says "start FEN"; moves that do not
// replay are a *DecodeError. Neither should happen to a stored game: the
// import verified it.
func Decode(v *rules.Variant, startFEN string, moves []byte) (Game, error) {
	g := Game{Variant: v}
	start := v.StartPosition()
	if startFEN != "" {
		var err error
		if start, err = rules.ParseFEN(v, startFEN); err != nil {
			return g, fmt.Errorf("start FEN: %w", err)
		}
	}
	// A ply takes at least two bytes.
	g.Positions = make([]rules.Position, 1, len(moves)/2+1)
	g.Positions[0] = start
	var err error
	g.Moves, err = decode(start, moves, make([]rules.Move, 0, len(moves)/2), &g.Positions, nil, nil)
	return g, err
}
