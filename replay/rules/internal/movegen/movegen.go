// Package movegen renders the rules engine's move generators from one
// template: movegen.go.tmpl, written once with {{.Name}} where a board
// size's identifiers differ (bbTen, genTen, sATen...). The generator is
// specialised per board rather than generic because Go generics dispatch
// the bit operations through dictionaries: not inlined, several times
// slower (see replay/rules/doc.go).
//
// gen_movegen.go (go generate ./replay/rules) writes the files and
// TestGeneratedUpToDate compares them with Render, so the two never drift.
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

var tmpl = template.Must(template.New("movegen.go.tmpl").Option("missingkey=error").Parse(source))

// Board is one rendering of the template.
type Board struct {
	Name  string // identifier suffix: "Eight", "Ten", "Twelve"
	Board string // for the file comment: "8x8"
	File  string // the file written in replay/rules
}

// Boards lists the generated files, in board id order (rules.boardEight,
// boardTen, boardTwelve).
var Boards = []Board{
	{Name: "Eight", Board: "8x8", File: "movegen_eight.go"},
	{Name: "Ten", Board: "10x10", File: "movegen_ten.go"},
	{Name: "Twelve", Board: "12x12", File: "movegen_twelve.go"},
}

// Render returns the gofmt-formatted source of b's generator.
func Render(b Board) ([]byte, error) {
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, b); err != nil {
		return nil, fmt.Errorf("movegen %s: %w", b.Name, err)
	}
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("movegen %s: format: %w", b.Name, err)
	}
	return out, nil
}
