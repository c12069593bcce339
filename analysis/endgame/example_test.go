package endgame_test

import (
	"fmt"

	"github.com/draughtsdb/draughtsdb/analysis/endgame"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// A king and a man against a king in English checkers: the tables give
// the win and its length; Frisian, whose king moves are limited, has no
// tables.
func ExampleTables_Probe() {
	t, err := endgame.Generate(rules.English, 3, nil)
	if err != nil {
		panic(err)
	}
	pos, _ := rules.ParseFEN(rules.English, "W:WK1,29:BK10")
	v, _ := t.Probe(&pos)
	fmt.Println(pos.FEN(), v)
	won, plies := v.Win()
	fmt.Println(won, plies)
	fmt.Println(endgame.Supported(rules.English), endgame.Supported(rules.Frisian))
	// Output:
	// W:WK1,29:BK10 win in 47
	// true 47
	// true false
}
