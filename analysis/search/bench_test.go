package search

import (
	"context"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// middlegameFEN is an International middlegame (18 v 18 men, open centre).
const middlegameFEN = "W:W25,27,28,30,32,33,34,35,37,38,39,40,41,42,43,44,45,47:B3,6,7,8,9,11,12,13,14,16,17,18,19,20,22,23,24,26"

// englishMiddlegameFEN is the position after 20 plies of the first game of
// ingest/sample/oca-english-200.pdn (9 v 9 men, Black to move).
const englishMiddlegameFEN = "B:W19,20,21,23,25,27,30,31,32:B2,3,6,7,8,12,13,14,15"

// benchSearch searches pos to depth once per iteration with one engine
// (its table is allocated once; each search starts from an empty table,
// so every iteration searches the same nodes) and reports the nodes per
// second of the searches. The file only uses what the baseline engine
// (testdata/README.md) already had, so it runs unchanged on both for a
// side-by-side figure.
func benchSearch(b *testing.B, pos rules.Position, depth int) {
	e := NewEngine(16)
	var nodes uint64
	var secs float64
	for b.Loop() {
		r := e.Search(context.Background(), pos, Options{Depth: depth}, nil)
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

func BenchmarkSearchEnglishStart(b *testing.B) {
	benchSearch(b, rules.English.StartPosition(), 12)
}

func BenchmarkSearchEnglishMiddlegame(b *testing.B) {
	pos, err := rules.ParseFEN(rules.English, englishMiddlegameFEN)
	if err != nil {
		b.Fatal(err)
	}
	benchSearch(b, pos, 12)
}
