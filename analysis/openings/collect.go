package openings

import (
	"slices"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// DefaultDepth is how many plies of each game the statistics count when
// the configuration does not say.
const DefaultDepth = 40

// Entry is one ply of one game: the hash of the position it was played
// from, the move's code (codec.MoveCodeOf) and its 0-based ply.
type Entry struct {
	Hash uint64
	Code codec.MoveCode
	Ply  int16
}

// GameEntries appends the entries of a game's first depth plies to dst.
// hashes are the hashes of the start position and of the position after
// every ply (len(moves)+1 of them). A position the game reaches again
// counts only at its first visit, so each game counts once per position.
func GameEntries(dst []Entry, hashes []uint64, moves []rules.Move, depth int) []Entry {
	n := min(depth, len(moves), len(hashes)-1)
	for i := 0; i < n; i++ {
		h := hashes[i]
		if slices.Contains(hashes[:i], h) {
			continue
		}
		dst = append(dst, Entry{Hash: h, Code: codec.MoveCodeOf(&moves[i]), Ply: int16(i)})
	}
	return dst
}

// itemKey is one game's entry in its bucket and group: the 32 hash bits
// below the group, the move code (29 bits) and the game's result slot, so
// that sorting the keys of a group sorts them as a row stores them.
func itemKey(h uint64, c codec.MoveCode, slot uint8) uint64 {
	return uint64(codec.PositionKey(h))<<32 | uint64(c)<<2 | uint64(slot&3)
}

// groupIndex is the index of the bucket and group of h in
// variantItems.groups.
func groupIndex(h uint64) int {
	return (int(codec.PositionBucket(h))+codec.PositionBuckets/2)*codec.PositionGroups + codec.PositionGroup(h)
}

// variantItems are a variant's entries in a batch, by bucket and group.
type variantItems struct {
	variant int16
	groups  [codec.PositionBuckets * codec.PositionGroups][]uint64
}

// Batch aggregates the entries of one import batch into opening_index
// rows. The zero value is ready; Reset makes it reusable.
type Batch struct {
	variants []*variantItems     // a batch has mostly one variant
	stats    []codec.OpeningStat // Rows' scratch
	buf      []byte              // the entries of the rows Rows returned last
}

// Add counts a game of the variant (a PDN GameType) with games.result
// result: its entries of the plies before depth.
func (b *Batch) Add(variant, result int16, entries []Entry, depth int) {
	slot := codec.ResultSlot(result)
	var v *variantItems
	for _, x := range b.variants {
		if x.variant == variant {
			v = x
			break
		}
	}
	if v == nil {
		v = &variantItems{variant: variant}
		b.variants = append(b.variants, v)
		slices.SortFunc(b.variants, func(x, y *variantItems) int { return int(x.variant) - int(y.variant) })
	}
	for _, e := range entries {
		if int(e.Ply) >= depth {
			continue
		}
		i := groupIndex(e.Hash)
		v.groups[i] = append(v.groups[i], itemKey(e.Hash, e.Code, slot))
	}
}

// Reset empties the batch, keeping its memory.
func (b *Batch) Reset() {
	for _, v := range b.variants {
		for i := range v.groups {
			v.groups[i] = v.groups[i][:0]
		}
	}
}

// Row is one opening_index row without its source: a variant's entries in
// a bucket (codec.PositionBucket), packed as codec.AppendOpeningEntries
// packs them.
type Row struct {
	Variant int16
	Bucket  int16
	Entries []byte
}

// Rows returns the batch's rows: per variant and bucket, the distinct
// (position, move) entries with their games by result. The rows' Entries
// share memory that the next call of Rows overwrites.
func (b *Batch) Rows() []Row {
	type span struct {
		variant, bucket int16
		from, to        int
	}
	var spans []span
	b.buf = b.buf[:0]
	for _, v := range b.variants {
		for bucket := range codec.PositionBuckets {
			stats := b.stats[:0]
			for g := range codec.PositionGroups {
				keys := v.groups[bucket*codec.PositionGroups+g]
				slices.Sort(keys)
				for j, k := range keys {
					if j > 0 && keys[j-1]>>2 == k>>2 {
						stats[len(stats)-1].Games[k&3]++
						continue
					}
					s := codec.OpeningStat{Group: g, Hash: uint32(k >> 32), Code: codec.MoveCode(k >> 2 & (1<<30 - 1))}
					s.Games[k&3] = 1
					stats = append(stats, s)
				}
			}
			b.stats = stats
			if len(stats) == 0 {
				continue
			}
			from := len(b.buf)
			var err error
			if b.buf, err = codec.AppendOpeningEntries(b.buf, stats); err != nil {
				// Groups come from PositionGroup and codes from MoveCodeOf:
				// always in range.
				panic(err)
			}
			spans = append(spans, span{v.variant, int16(bucket - codec.PositionBuckets/2), from, len(b.buf)})
		}
	}
	rows := make([]Row, len(spans))
	for i, s := range spans {
		rows[i] = Row{Variant: s.variant, Bucket: s.bucket, Entries: b.buf[s.from:s.to:s.to]}
	}
	return rows
}
