package pdn_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
)

// A Reader streams games one at a time: tags, moves with their comments,
// and the result as written. It does not check moves against the rules
// (package replay does).
func ExampleReader() {
	const text = `[Event "Example"]
[White "Sijbrands,T."]
[Black "Baba,A."]
[Result "2-0"]
{Opening comment.} 1. 32-28 {Centre first.} 19-23! 2. 28x19 14x23 2-0

[Event "Second"]
1. 32-28 18-23 *
`
	rd := pdn.NewReader(strings.NewReader(text), "example.pdn")
	for {
		g, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Printf("game %d at line %d: %s, %d moves, result %s\n", g.Ordinal, g.Line, g.Tag("Event"), len(g.Moves), g.Result)
		for _, m := range g.Moves {
			if c := m.Comments(); len(c) > 0 || m.Strength != "" {
				fmt.Printf("  %s%s %q\n", m.Text, m.Strength, c)
			}
		}
	}
	// Output:
	// game 1 at line 1: Example, 4 moves, result 2-0
	//   32-28 ["Centre first."]
	//   19-23! []
	// game 2 at line 7: Second, 2 moves, result *
}

// A Writer writes games back as PDN 3.0.
func ExampleWriter() {
	rd := pdn.NewReader(strings.NewReader(`[Event "x"] 1. 32-28 19-23 2. 28x19 14x23 *`), "in.pdn")
	g, _ := rd.Next()
	w := pdn.NewWriter(os.Stdout)
	if err := w.WriteGame(g); err != nil {
		fmt.Println(err)
	}
	// Output:
	// [Event "x"]
	//
	// 1. 32-28 19-23 2. 28x19 14x23 *
}
