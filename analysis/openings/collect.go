package openings

import (
	"slices"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// DefaultDepth is how many plies of each game the statistics count when
// the configuration does not say.
const DefaultDepth = 40

// Entry is one ply of one game: its opening key (codec.OpeningKey: the
// position and the move), the hash prefix of the position it was played
// from (codec.PositionPrefix) and its 0-based ply.
type Entry struct {
	Key    int64
	Prefix int16
	Ply    int16
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
		dst = append(dst, Entry{Key: codec.OpeningKey(h, codec.MoveCodeOf(&moves[i])), Prefix: codec.PositionPrefix(h), Ply: int16(i)})
	}
	return dst
}

// item is one game's entry in a batch.
type item struct {
	key     int64
	variant int16
	slot    uint8
}

// Batch aggregates the entries of one import batch into opening_index
// rows. The zero value is ready; Reset makes it reusable.
type Batch struct {
	buckets [4096][]item
}

// Add counts a game of the variant (a PDN GameType) with games.result
// result: its entries of the plies before depth.
func (b *Batch) Add(variant, result int16, entries []Entry, depth int) {
	slot := codec.ResultSlot(result)
	for _, e := range entries {
		if int(e.Ply) >= depth {
			continue
		}
		i := int(e.Prefix) + 2048
		b.buckets[i] = append(b.buckets[i], item{key: e.Key, variant: variant, slot: slot})
	}
}

// Reset empties the batch, keeping its memory.
func (b *Batch) Reset() {
	for i := range b.buckets {
		b.buckets[i] = b.buckets[i][:0]
	}
}

// Row is one opening_index row without its source.
type Row struct {
	Variant int16
	Prefix  int16
	Singles []int64 // (position, move) played by one game: codec.SingleEntry
	Keys    []int64 // the others: codec.OpeningKey, with Counts (codec.Counts.Pack)
	Counts  []int64
}

// Rows returns the batch's rows: per variant and prefix, the distinct keys
// with their summed counts, keys ascending. A key of one game goes to
// Singles with its result in the low bits, which halves the size of most
// entries (the deep plies of a game are mostly its own).
func (b *Batch) Rows() []Row {
	var rows []Row
	for i := range b.buckets {
		items := b.buckets[i]
		if len(items) == 0 {
			continue
		}
		slices.SortFunc(items, func(x, y item) int {
			if x.variant != y.variant {
				return int(x.variant) - int(y.variant)
			}
			switch {
			case x.key < y.key:
				return -1
			case x.key > y.key:
				return 1
			}
			return 0
		})
		var row *Row
		for j := 0; j < len(items); {
			it := items[j]
			if row == nil || row.Variant != it.variant {
				rows = append(rows, Row{Variant: it.variant, Prefix: int16(i - 2048)})
				row = &rows[len(rows)-1]
			}
			var c codec.Counts
			n := 0
			for ; j < len(items) && items[j].key == it.key && items[j].variant == it.variant; j++ {
				s := items[j].slot
				if c[s] == codec.MaxCount {
					row.Keys = append(row.Keys, it.key)
					row.Counts = append(row.Counts, c.Pack())
					c = codec.Counts{}
				}
				c[s]++
				n++
			}
			if n == 1 {
				row.Singles = append(row.Singles, codec.SingleEntry(it.key, it.slot))
				continue
			}
			row.Keys = append(row.Keys, it.key)
			row.Counts = append(row.Counts, c.Pack())
		}
	}
	return rows
}
