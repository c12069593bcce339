package codec

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The packed position_index of migration 0011. A row holds, for one import
// batch and one bucket (the top 10 bits of a position hash), every
// (position, game) of the batch's games in that bucket:
//
//	position_index (source_id, first_game, bucket, entries)
//	bucket  = h >> 54                      (signed, -512..511)
//	group   = (h >> 52) & 3                (the 2 hash bits below the bucket)
//	key     = (h >> 20) & 0xFFFFFFFF       (the 32 bits below those)
//	entries = header | keys | deltas
//	header  = the slot count of groups 0, 1, 2, 3 (uint32 big-endian each)
//	keys    = group 0's slots' keys, then group 1's, 2's, 3's (uint32 BE)
//	deltas  = the slots' id deltas in the same order (one byte each)
//
// The slots of a group are its entries in game id order. The id of a slot
// is first_game plus the sum of the group's deltas up to and including it.
// A delta is at most 254; a larger gap between two ids is bridged by filler
// slots of delta 255 (key 0), which are not entries. So 12 + 32 = 44 bits of
// the hash are checked, as in the format before 0011, and an entry takes 5
// bytes instead of 8: 4 of hash, 1 of id (ids are close within a batch:
// 72 entries per game spread over 1,024 buckets and 4 groups leave about 57
// games between two entries of a group, so fewer than 2% need a filler).
// Fixed-width slots let SQL find a key with position() and read its id with
// one running sum (draughtsdb_games_at, draughtsdb_position_entries).
const (
	// bucketShift leaves the top 10 bits of a position hash: the row.
	bucketShift = 54
	// groupShift and groupMask take the 2 bits below the bucket.
	groupShift = 52
	groupMask  = 3
	// PositionGroups is the number of groups of a row.
	PositionGroups = 4
	// positionHeader is the size of a row's header: 4 slot counts.
	positionHeader = 4 * PositionGroups
	// fillerDelta marks a filler slot: 255 added to the running id, no
	// entry.
	fillerDelta = 255
)

// PositionBuckets is the number of position_index buckets: the rows an
// import batch writes at most.
const PositionBuckets = 1 << (64 - bucketShift)

// PositionBucket is the bucket of position hash h, as stored (the top 10
// bits as a signed number, -512..511).
func PositionBucket(h uint64) int16 { return int16(int64(h) >> bucketShift) }

// PositionGroup is the group of h in its bucket's row (0..3).
func PositionGroup(h uint64) int { return int(h >> groupShift & groupMask) }

// PositionKey is the key of h in its row: the 32 hash bits below the
// bucket and group.
func PositionKey(h uint64) uint32 { return uint32(h >> entryShift) }

// PositionSlot is one entry of a row being built: the key in the high 32
// bits, the game's id minus the row's first_game in the low 32.
func PositionSlot(key uint32, offset uint32) uint64 { return uint64(key)<<32 | uint64(offset) }

// ErrBadPositionEntries is matched by the errors of DecodePositionEntries.
var ErrBadPositionEntries = errors.New("malformed position_index entries")

// AppendPositionEntries appends the entries column of a row whose groups
// hold the given slots (PositionSlot), each group's offsets ascending, and
// returns it.
func AppendPositionEntries(dst []byte, groups *[PositionGroups][]uint64) []byte {
	var counts [PositionGroups]int
	for g := range groups {
		prev := uint32(0)
		for _, s := range groups[g] {
			off := uint32(s)
			counts[g] += 1 + int((off-prev)/fillerDelta)
			prev = off
		}
	}
	total := 0
	for g := range counts {
		dst = binary.BigEndian.AppendUint32(dst, uint32(counts[g]))
		total += counts[g]
	}
	keys := len(dst)
	dst = append(dst, make([]byte, 5*total)...)
	k, d := keys, keys+4*total
	for g := range groups {
		prev := uint32(0)
		for _, s := range groups[g] {
			off := uint32(s)
			delta := off - prev
			prev = off
			for ; delta >= fillerDelta; delta -= fillerDelta {
				// A filler: key 0 (already zero), delta 255.
				dst[d] = fillerDelta
				k += 4
				d++
			}
			binary.BigEndian.PutUint32(dst[k:], uint32(s>>32))
			dst[d] = byte(delta)
			k += 4
			d++
		}
	}
	return dst
}

// DecodePositionEntries calls fn for every entry of a row's entries column
// (not its fillers), in the order stored, with the entry's group, key and
// game id.
func DecodePositionEntries(firstGame int64, b []byte, fn func(group int, key uint32, id int64)) error {
	if len(b) < positionHeader {
		return fmt.Errorf("%w: %d bytes, shorter than the header", ErrBadPositionEntries, len(b))
	}
	var counts [PositionGroups]int
	total := 0
	for g := range counts {
		counts[g] = int(binary.BigEndian.Uint32(b[4*g:]))
		total += counts[g]
		if total > len(b) {
			return fmt.Errorf("%w: header counts %d slots in %d bytes", ErrBadPositionEntries, total, len(b))
		}
	}
	if len(b) != positionHeader+5*total {
		return fmt.Errorf("%w: %d bytes for %d slots (want %d)", ErrBadPositionEntries, len(b), total, positionHeader+5*total)
	}
	k, d := positionHeader, positionHeader+4*total
	for g := range counts {
		id := firstGame
		for range counts[g] {
			delta := b[d]
			id += int64(delta)
			if delta != fillerDelta {
				fn(g, binary.BigEndian.Uint32(b[k:]), id)
			}
			k += 4
			d++
		}
	}
	return nil
}
