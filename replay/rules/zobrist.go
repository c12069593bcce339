package rules

// Zobrist hashing. The keys are stored in databases, so they are part of
// the file format: never change the seed, the PRNG or the drawing order.
// A golden test pins them.
//
// For a board of width W the generator splitmix64 starts from state
// ZobristSeed ^ W and keys are drawn in this order: for square 1..N, the
// keys of a white man, white king, black man, black king on that square;
// then one key that is XORed in when Black is to move. A position's hash
// is the XOR of the keys of its pieces (and the side key) and of its
// variant's key.
//
// Variant keys: the five original variants (Russian, International,
// Brazilian, Canadian, English) have key 0, so their hashes are what they
// always were (Russian and Brazilian positions share hashes, as stored).
// Every later variant has variantHashKey(Name): equal boards of two such
// variants, or of one and an original variant, never share a hash.

// ZobristSeed is the fixed seed of the Zobrist keys ("draughts" in ASCII).
const ZobristSeed uint64 = 0x6472617567687473

type zobristKeys struct {
	piece [4][128]uint64 // [Piece-1][bit index]
	side  uint64
}

// splitmix64 is Steele, Lea and Flood's SplitMix64 generator.
func splitmix64(state *uint64) uint64 {
	*state += 0x9e3779b97f4a7c15
	z := *state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func newZobristKeys(b *Board) *zobristKeys {
	k := &zobristKeys{}
	st := ZobristSeed ^ uint64(b.Width)
	for s := 1; s <= b.nsq; s++ {
		i := b.bitOf(s)
		for pc := 0; pc < 4; pc++ {
			k.piece[pc][i] = splitmix64(&st)
		}
	}
	k.side = splitmix64(&st)
	return k
}

// variantHashKey is the key of a variant added after the first five: the
// FNV-1a hash of its name, mixed by splitmix64. It depends only on the
// name, which is stable (perft.json and the CLI use it).
func variantHashKey(name string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 0x100000001b3
	}
	st := ZobristSeed ^ h
	return splitmix64(&st)
}

// ComputeHash computes the Zobrist hash from scratch.
func (p *Position) ComputeHash() uint64 {
	b := p.v.Board
	h := p.v.hashKey
	for s := 1; s <= b.nsq; s++ {
		i := b.bitOf(s)
		if pc := p.pieceAt(i); pc != Empty {
			h ^= b.keys.piece[pc-1][i]
		}
	}
	if p.side == Black {
		h ^= b.keys.side
	}
	return h
}
