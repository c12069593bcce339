package search_test

import (
	"fmt"

	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// A fixed-depth search is deterministic: the same position and depth give
// the same move, score and nodes. Here White wins by force in 5 plies with
// 40-34, and the score says so (a win is reported as Win minus the plies
// to the end).
func ExampleSearch() {
	pos, err := rules.ParseFEN(rules.International, "W:W40,41,48:B24,38")
	if err != nil {
		panic(err)
	}
	r := search.Search(pos, search.Options{Depth: 7}, nil)
	fmt.Println(rules.FormatMove(rules.International, &r.Best, rules.Numeric, false))
	fmt.Println("mate:", r.Mate, "plies to the end:", r.PliesToEnd())
	// Output:
	// 40-34
	// mate: true plies to the end: 5
}
