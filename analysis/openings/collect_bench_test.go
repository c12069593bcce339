package openings

import (
	"math/rand/v2"
	"testing"

	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// BenchmarkBatchRows: an import batch of 5,000 games of 38 entries, their
// first 6 plies among 200 common positions, aggregated into rows (Add,
// Rows) as the import does for every batch.
func BenchmarkBatchRows(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	games := make([][]Entry, 5000)
	common := make([]uint64, 200)
	for i := range common {
		common[i] = r.Uint64()
	}
	for g := range games {
		for p := range 38 {
			h := r.Uint64()
			if p < 6 {
				h = common[r.IntN(len(common))]
			}
			games[g] = append(games[g], Entry{Hash: h, Code: codec.MoveCode(r.Uint32N(1 << 29)), Ply: int16(p)})
		}
	}
	var batch Batch
	for b.Loop() {
		batch.Reset()
		for g := range games {
			batch.Add(20, int16(1+g%3), games[g], 40)
		}
		_ = batch.Rows()
	}
}
