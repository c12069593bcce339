package codec_test

import (
	"fmt"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// A game's moves are stored as a compact byte string: a plain move is two
// bytes (from, to), a capture one byte more per piece taken; decoding
// replays them, so a stored game is always a legal one.
func ExampleAppendMoves() {
	v, _ := rules.VariantByName("international")
	start := v.StartPosition()
	p := start
	var played []rules.Move
	for _, ft := range [][2]int{{32, 28}, {19, 23}} {
		m, _ := p.PlainMove(ft[0], ft[1])
		played = append(played, m)
		p.Play(&m)
	}
	capture := p.LegalMoves(nil)[0] // 28x19, forced
	played = append(played, capture)

	b := codec.AppendMoves(nil, played)
	back, err := codec.DecodeMoves(v, start, b)
	fmt.Println(len(b), "bytes;", err)
	for _, m := range back {
		fmt.Print(rules.FormatMove(v, &m, rules.Numeric, false), " ")
	}
	fmt.Println()
	// Output:
	// 6 bytes; <nil>
	// 32-28 19-23 28x19
}

// The variant of a stored game is a small number; VariantByID reads it back.
func ExampleVariantID() {
	v, _ := rules.VariantByName("english")
	id := codec.VariantID(v)
	back, _ := codec.VariantByID(id)
	fmt.Println(back.Name)
	// Output:
	// english
}
