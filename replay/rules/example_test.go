package rules_test

import (
	"fmt"
	"slices"
	"strings"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// The legal moves of International draughts' start position, in the
// shortest unambiguous notation.
func ExamplePosition_LegalMoves() {
	v, _ := rules.VariantByName("international")
	p := v.StartPosition()
	moves := p.LegalMoves(nil)
	fmt.Println(len(moves), "moves, side to move:", p.SideToMove())
	var texts []string
	for _, m := range moves {
		texts = append(texts, rules.MoveText(v, moves, &m, rules.Numeric))
	}
	slices.Sort(texts)
	fmt.Println(strings.Join(texts, " "))
	// Output:
	// 9 moves, side to move: White
	// 31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30
}

// A capture is compulsory: after 32-28 19-23 White must take with 28x19.
func ExamplePosition_Play() {
	v, _ := rules.VariantByName("international")
	p := v.StartPosition()
	for _, text := range []string{"32-28", "19-23"} {
		sq, _, _ := rules.ParseMoveText(p.Board(), text)
		m, _ := p.PlainMove(sq[0], sq[1])
		p.Play(&m)
	}
	for _, m := range p.LegalMoves(nil) {
		fmt.Println(rules.FormatMove(v, &m, rules.Numeric, false), m.IsCapture())
	}
	// Output:
	// 28x19 true
}

// A FEN names the side to move and each side's pieces; the Zobrist hash
// identifies the position whatever the move order that reached it.
func ExampleParseFEN() {
	v, _ := rules.VariantByName("russian")
	p, err := rules.ParseFEN(v, "W:WK1,21:B5,6")
	if err != nil {
		fmt.Println(err)
		return
	}
	wm, wk := p.Count(rules.White)
	bm, bk := p.Count(rules.Black)
	fmt.Println(p.FEN(), wm, wk, bm, bk, p.Hash() == p.ComputeHash())
	_, err = rules.ParseFEN(v, "W:W33:B1")
	fmt.Println(err != nil)
	// Output:
	// W:WK1,21:B5,6 1 1 2 0 true
	// true
}

// Perft counts the leaves of the move tree: International's published
// counts from the start are 9, 81, 658, 4265 ...
func ExamplePerft() {
	v, _ := rules.VariantByName("international")
	p := v.StartPosition()
	for d := 1; d <= 4; d++ {
		fmt.Print(rules.Perft(v, &p, d, rules.PerftOptions{}), " ")
	}
	fmt.Println()
	// Output:
	// 9 81 658 4265
}

// FormatMove writes a move as the variant's players do. English checkers'
// first move 11-15 is c3-d4 in algebraic notation, as the sites that write
// English games algebraically name squares from Black's side; Russian's
// first move c3-d4 is square 22 to 18 on the same board.
func ExampleFormatMove() {
	for _, v := range []*rules.Variant{rules.English, rules.Russian} {
		p := v.StartPosition()
		from, to := 11, 15
		if v == rules.Russian {
			from, to = 22, 18
		}
		m, _ := p.PlainMove(from, to)
		fmt.Println(v.Name, rules.FormatMove(v, &m, rules.Numeric, false), rules.FormatMove(v, &m, rules.Algebraic, false))
	}
	// A capture: start and end, or every landing square.
	v := rules.International
	p, _ := rules.ParseFEN(v, "W:W15:B9,10")
	m := p.LegalMoves(nil)[0]
	fmt.Println(rules.FormatMove(v, &m, rules.Numeric, false), rules.FormatMove(v, &m, rules.Numeric, true), rules.FormatMove(v, &m, rules.Algebraic, true))
	// Output:
	// english 11-15 c3-d4
	// russian 22-18 c3-d4
	// 15x13 15x4x13 j8:h10:f8
}
