package search

import (
	"context"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// benchOptions is benchSearch with other options: the hand-set
// evaluation (Options.HandSet, beside benchSearch's figures it shows what
// the learned evaluation costs) or the selective search of the engine on
// a clock (Options.Selective, at a fixed depth so that every iteration
// searches the same nodes: what the reductions' checks cost). benchSearch
// stays apart, as the baseline engine has it.
func benchOptions(b *testing.B, pos rules.Position, opts Options) {
	e := NewEngine(16)
	var nodes uint64
	var secs float64
	for b.Loop() {
		r := e.Search(context.Background(), pos, opts, nil)
		nodes += r.Nodes
		secs += r.Time.Seconds()
	}
	b.ReportMetric(float64(nodes)/secs, "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

func internationalMiddlegame(b *testing.B) rules.Position {
	pos, err := rules.ParseFEN(rules.International, middlegameFEN)
	if err != nil {
		b.Fatal(err)
	}
	return pos
}

func BenchmarkHandSetInternationalStart(b *testing.B) {
	benchOptions(b, rules.International.StartPosition(), Options{Depth: 10, HandSet: true})
}

func BenchmarkHandSetInternationalMiddlegame(b *testing.B) {
	benchOptions(b, internationalMiddlegame(b), Options{Depth: 11, HandSet: true})
}

func BenchmarkSelectiveInternationalStart(b *testing.B) {
	benchOptions(b, rules.International.StartPosition(), Options{Depth: 12, Selective: true})
}

func BenchmarkSelectiveInternationalMiddlegame(b *testing.B) {
	benchOptions(b, internationalMiddlegame(b), Options{Depth: 13, Selective: true})
}
