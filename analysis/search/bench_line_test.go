package search

import (
	"context"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// benchLine searches the positions of a game in order at depth 8, as
// analyze does: with Continue from the second position on (cont), or each
// on its own; it reports positions and nodes per second.
func benchLine(b *testing.B, v *rules.Variant, cont bool, ttMB int) {
	line := gameLine(v, 40)
	e := NewEngine(ttMB)
	var nodes uint64
	var secs float64
	positions := 0
	for b.Loop() {
		for i, pos := range line {
			r := e.Search(context.Background(), pos, Options{Depth: 8, Continue: cont && i > 0}, nil)
			nodes += r.Nodes
			secs += r.Time.Seconds()
			positions++
		}
	}
	b.ReportMetric(float64(positions)/secs, "positions/s")
	b.ReportMetric(float64(nodes)/secs, "nodes/s")
	b.ReportMetric(float64(nodes)/float64(positions), "nodes/position")
}

func BenchmarkLineInternationalIndependent(b *testing.B) {
	benchLine(b, rules.International, false, 16)
}

func BenchmarkLineInternationalContinue(b *testing.B) {
	benchLine(b, rules.International, true, 1)
}

func BenchmarkLineEnglishIndependent(b *testing.B) { benchLine(b, rules.English, false, 16) }

func BenchmarkLineEnglishContinue(b *testing.B) { benchLine(b, rules.English, true, 1) }
