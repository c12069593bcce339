package search

import (
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// middlegameFEN is an International middlegame (18 v 18 men, open centre).
const middlegameFEN = "W:W25,27,28,30,32,33,34,35,37,38,39,40,41,42,43,44,45,47:B3,6,7,8,9,11,12,13,14,16,17,18,19,20,22,23,24,26"

func benchSearch(b *testing.B, pos rules.Position, depth int) {
	var nodes uint64
	var secs float64
	for b.Loop() {
		r := Search(pos, Options{Depth: depth, TTSizeMB: 16}, nil)
		nodes += r.Nodes
		secs += r.Time.Seconds()
	}
	b.ReportMetric(float64(nodes)/secs, "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

func BenchmarkSearchInternationalStart(b *testing.B) {
	benchSearch(b, rules.International.StartPosition(), 10)
}

func BenchmarkSearchInternationalMiddlegame(b *testing.B) {
	pos, err := rules.ParseFEN(rules.International, middlegameFEN)
	if err != nil {
		b.Fatal(err)
	}
	benchSearch(b, pos, 11)
}

func BenchmarkSearchRussianStart(b *testing.B) {
	benchSearch(b, rules.Russian.StartPosition(), 12)
}
