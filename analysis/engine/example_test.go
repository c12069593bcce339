package engine_test

import (
	"context"
	"fmt"

	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Open an engine from its specification and search a game: the start
// position and the moves played, so that the engine sees repetitions.
func ExampleOpen() {
	ctx := context.Background()
	e, err := engine.Open(ctx, "builtin", nil, engine.Options{TTSizeMB: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()
	start := rules.International.StartPosition()
	first := start.LegalMoves(nil)[0]
	r, err := e.Search(ctx, engine.Game{Start: start, Moves: []rules.Move{first}}, engine.Limit{Depth: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.Name(), "answers", hub.FormatMove(&first), "with a move:", r.Move.From() != 0, "depth", r.Depth)
	// Output: draughtsdb answers 31-26 with a move: true depth 1
}

// ParseSpec is the one reader of engine specifications; a command can
// restrict the kinds it takes.
func ExampleParseSpec() {
	s, err := engine.ParseSpec("hub:/usr/local/bin/scan", []string{"hub"})
	fmt.Println(s.Kind, s.Path, s.Args, err)
	_, err = engine.ParseSpec("dxp:127.0.0.1:27531", nil, engine.Builtin, engine.Hub)
	fmt.Println(err)
	// Output:
	// hub /usr/local/bin/scan [hub] <nil>
	// engine: unknown engine "dxp:127.0.0.1:27531": this command takes builtin or hub:PATH
}
