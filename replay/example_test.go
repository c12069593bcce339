package replay_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
)

// Replay verifies every move of a game against the rules of its variant
// (here from the GameType tag) and normalises the result by colour: an
// English "1-0" is a Black win, since Black moves first there.
func ExampleReplayer_Replay() {
	const text = `[GameType "21"] [Result "1-0"] 1. 11-15 23-19 2. 8-11 22-17 1-0`
	pg, err := pdn.NewReader(strings.NewReader(text), "english.pdn").Next()
	var g replay.Game
	err = replay.NewReplayer(replay.Options{}).Replay(pg, err, &g)
	winner, _ := g.Result.Winner()
	fmt.Println(err, g.Variant.Name, g.Plies(), "winner:", winner, "written:", g.Result.Format(g.Variant))
	// Output:
	// <nil> english 4 winner: Black written: 1-0
}

// An illegal move is rejected with the ply, the move and the legal moves.
func ExampleRejectError() {
	const text = `[GameType "20"] 1. 32-28 19-23 2. 33-29 *`
	pg, err := pdn.NewReader(strings.NewReader(text), "intl.pdn").Next()
	var g replay.Game
	err = replay.NewReplayer(replay.Options{}).Replay(pg, err, &g)
	var rej *replay.RejectError
	if errors.As(err, &rej) {
		fmt.Println("ply", rej.Ply, "move", rej.Text, "legal", rej.Legal)
	}
	// Output:
	// ply 3 move 33-29 legal [28x19]
}
