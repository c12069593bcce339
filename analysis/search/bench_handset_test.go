package search

import (
	"context"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// benchHandSet is benchSearch with the hand-set evaluation
// (Options.HandSet) in the variants that have learned weights: beside
// benchSearch's figures it shows what the learned evaluation costs.
func benchHandSet(b *testing.B, pos rules.Position, depth int) {
	e := NewEngine(16)
	var nodes uint64
	var secs float64
	for b.Loop() {
		r := e.Search(context.Background(), pos, Options{Depth: depth, HandSet: true}, nil)
		nodes += r.Nodes
		secs += r.Time.Seconds()
	}
	b.ReportMetric(float64(nodes)/secs, "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

func BenchmarkHandSetInternationalStart(b *testing.B) {
	benchHandSet(b, rules.International.StartPosition(), 10)
}

func BenchmarkHandSetInternationalMiddlegame(b *testing.B) {
	pos, err := rules.ParseFEN(rules.International, middlegameFEN)
	if err != nil {
		b.Fatal(err)
	}
	benchHandSet(b, pos, 11)
}
