package ingest

import (
	"context"
	"math/bits"

	"github.com/draughtsdb/draughtsdb/schema"
)

// hashFilter is a Bloom filter of 64-bit moves hashes: may it hold h?
// (false: certainly not). It grows by adding filters twice the size of
// the last, so it needs no size up front and stays at about 16 bits per
// hash (a false positive in about 400).
//
// The import keeps one of the games it stores when it began on a database
// without games (writer.useFilter): the games a batch could duplicate are
// then only the run's own, and a batch asks PostgreSQL about the
// duplicates of only the games whose moves hash the filter may hold,
// instead of probing games_moves_hash for each of its games (a query of
// about 5 ms per 5,000 games that PostgreSQL would otherwise run on the
// import's critical path).
type hashFilter struct {
	sets []bloom
}

type bloom struct {
	bits []uint64 // a power of two of them
	n    int      // hashes added
}

const bloomHashes = 4 // bits set per hash

func newHashFilter() *hashFilter { return &hashFilter{sets: []bloom{{bits: make([]uint64, 1<<12)}}} }

func (f *hashFilter) add(h int64) {
	last := &f.sets[len(f.sets)-1]
	if last.n >= len(last.bits)*4 { // 16 bits per hash
		f.sets = append(f.sets, bloom{bits: make([]uint64, 2*len(last.bits))})
		last = &f.sets[len(f.sets)-1]
	}
	last.n++
	last.each(uint64(h), func(w int, bit uint64) bool { last.bits[w] |= bit; return true })
}

func (f *hashFilter) mayHold(h int64) bool {
	for i := range f.sets {
		b := &f.sets[i]
		if b.each(uint64(h), func(w int, bit uint64) bool { return b.bits[w]&bit != 0 }) {
			return true
		}
	}
	return false
}

// each calls fn with the word and bit of each of h's positions while fn
// returns true, and reports whether it did for all of them (double
// hashing: the moves hash is a hash already).
func (b *bloom) each(h uint64, fn func(w int, bit uint64) bool) bool {
	mask := uint64(len(b.bits)*64 - 1)
	h1, h2 := h, bits.RotateLeft64(h, 32)|1
	for i := range uint64(bloomHashes) {
		p := (h1 + i*h2) & mask
		if !fn(int(p>>6), 1<<(p&63)) {
			return false
		}
	}
	return true
}

// useFilter makes the writer keep a hashFilter of the games it stores when
// the database holds no game yet (see hashFilter). The caller holds the
// import lock, so no other writer adds games meanwhile.
func (w *writer) useFilter(ctx context.Context) error {
	empty, err := schema.NoGames(ctx, w.conn)
	if err != nil {
		return err
	}
	if empty {
		w.filter = newHashFilter()
	}
	return nil
}
