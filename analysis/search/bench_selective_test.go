package search

import (
	"context"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// benchSelective is benchSearch with the selective search of the engine
// on a clock (Options.Selective), at a fixed depth so that every
// iteration searches the same nodes: its nodes/s beside benchSearch's
// (and the baseline's) show what the reductions' checks cost.
func benchSelective(b *testing.B, pos rules.Position, depth int) {
	e := NewEngine(16)
	var nodes uint64
	var secs float64
	for b.Loop() {
		r := e.Search(context.Background(), pos, Options{Depth: depth, Selective: true}, nil)
		nodes += r.Nodes
		secs += r.Time.Seconds()
	}
	b.ReportMetric(float64(nodes)/secs, "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

func BenchmarkSelectiveInternationalStart(b *testing.B) {
	benchSelective(b, rules.International.StartPosition(), 12)
}

func BenchmarkSelectiveInternationalMiddlegame(b *testing.B) {
	pos, err := rules.ParseFEN(rules.International, middlegameFEN)
	if err != nil {
		b.Fatal(err)
	}
	benchSelective(b, pos, 13)
}
