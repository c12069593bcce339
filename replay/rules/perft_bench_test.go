package rules

import "testing"

func benchPerft(b *testing.B, v *Variant, depth int, opts PerftOptions) {
	pos := v.StartPosition()
	b.ReportAllocs()
	var nodes uint64
	for b.Loop() {
		nodes += Perft(v, &pos, depth, opts)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(0, "ns/op")
}

func BenchmarkPerftInternational9Bulk(b *testing.B) {
	benchPerft(b, International, 9, PerftOptions{})
}
func BenchmarkPerftInternational8NoBulk(b *testing.B) {
	benchPerft(b, International, 8, PerftOptions{NoBulk: true})
}
func BenchmarkPerftRussian10Bulk(b *testing.B) { benchPerft(b, Russian, 10, PerftOptions{}) }
func BenchmarkPerftRussian9NoBulk(b *testing.B) {
	benchPerft(b, Russian, 9, PerftOptions{NoBulk: true})
}
func BenchmarkPerftCanadian7Bulk(b *testing.B) { benchPerft(b, Canadian, 7, PerftOptions{}) }

// The later variants, one benchmark each (bulk counting), deep enough for
// tens of millions of leaves.
func BenchmarkPerftPool10Bulk(b *testing.B)    { benchPerft(b, Pool, 10, PerftOptions{}) }
func BenchmarkPerftCzech10Bulk(b *testing.B)   { benchPerft(b, Czech, 10, PerftOptions{}) }
func BenchmarkPerftSpanish10Bulk(b *testing.B) { benchPerft(b, Spanish, 10, PerftOptions{}) }
func BenchmarkPerftItalian10Bulk(b *testing.B) { benchPerft(b, Italian, 10, PerftOptions{}) }
func BenchmarkPerftThai10Bulk(b *testing.B)    { benchPerft(b, Thai, 10, PerftOptions{}) }
func BenchmarkPerftKiller9Bulk(b *testing.B)   { benchPerft(b, Killer, 9, PerftOptions{}) }
func BenchmarkPerftFrisian9Bulk(b *testing.B)  { benchPerft(b, Frisian, 9, PerftOptions{}) }
func BenchmarkPerftTurkish8Bulk(b *testing.B)  { benchPerft(b, Turkish, 8, PerftOptions{Keep: true}) }

// The five original variants' others and the International-move variants,
// so that every variant has a figure.
func BenchmarkPerftBrazilian10Bulk(b *testing.B) { benchPerft(b, Brazilian, 10, PerftOptions{}) }
func BenchmarkPerftEnglish10Bulk(b *testing.B)   { benchPerft(b, English, 10, PerftOptions{}) }
func BenchmarkPerftAntidraughts9Bulk(b *testing.B) {
	benchPerft(b, Antidraughts, 9, PerftOptions{})
}
func BenchmarkPerftBreakthrough9Bulk(b *testing.B) {
	benchPerft(b, Breakthrough, 9, PerftOptions{})
}
func BenchmarkPerftFrysk8Bulk(b *testing.B) { benchPerft(b, Frysk, 8, PerftOptions{}) }
