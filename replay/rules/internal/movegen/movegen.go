// Package movegen renders the rules engine's move generators from one
// template: movegen.go.tmpl, written once with {{.Name}} where a board
// size's identifiers differ (bbTen, genTen, sATen...). The generator is
// specialised per board rather than generic because Go generics dispatch
// the bit operations through dictionaries: not inlined, several times
// slower (see replay/rules/doc.go).
//
// gen_movegen.go (go generate ./replay/rules) writes the files and
// a test compares them with Render, so the two never drift.
package movegen

import (
	"bytes"
	_ "embed"
	"fmt"
	"go/format"
	"text/template"
)

//go:embed movegen.go.tmpl
var source string

var tmpl = template.Must(template.New("movegen.go.tmpl").Option("missingkey=error").Funcs(template.FuncMap{
	"special": func(g Generator, special bool) specialData { return specialData{g, special} },
}).Parse(source))

// specialData renders genMoves and countMoves twice: the classic body and
// the Special one with the checks for rare rules (see the template).
type specialData struct {
	Generator
	Special bool
}

// Generator is one rendering of the template.
type Generator struct {
	// Name is the identifier suffix of the generator's functions and types:
	// "Eight", "Ten", "Twelve", "EightThai", "TenFrisian".
	Name string
	// Bits is the suffix of the board-size helpers it uses (bit set type
	// bbEight, shifts sAEight/sBEight, masks validEight, ...).
	Bits string
	// BitsN is the number of bits of that bit set type (64 or 128).
	BitsN int
	Board string // for the file comment: "8x8"
	File  string // the file written in replay/rules
	// Ortho renders Frisian's captures: men and kings also capture along
	// rows and columns (eight directions).
	Ortho bool
	// Thai renders Thai's captures: a jumped piece leaves the board at once
	// (so a king may cross its square again and turn straight back) and a
	// flying king lands directly behind the piece it jumps.
	Thai bool
}

// Generators lists the generated files, in the order of the rules
// package's movegen* constants.
var Generators = []Generator{
	{Name: "Eight", Bits: "Eight", BitsN: 64, Board: "8x8", File: "movegen_eight.go"},
	{Name: "Ten", Bits: "Ten", BitsN: 64, Board: "10x10", File: "movegen_ten.go"},
	{Name: "Twelve", Bits: "Twelve", BitsN: 128, Board: "12x12", File: "movegen_twelve.go"},
	{Name: "EightThai", Bits: "Eight", BitsN: 64, Board: "8x8", File: "movegen_eight_thai.go", Thai: true},
	{Name: "TenFrisian", Bits: "Ten", BitsN: 64, Board: "10x10", File: "movegen_ten_frisian.go", Ortho: true},
}

// Render returns the gofmt-formatted source of g.
func Render(g Generator) ([]byte, error) {
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, g); err != nil {
		return nil, fmt.Errorf("movegen %s: %w", g.Name, err)
	}
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("movegen %s: format: %w", g.Name, err)
	}
	return out, nil
}
