package codec

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// The packed opening_index of migration 0012. A row holds, for one import
// batch, one variant and one bucket (the top 10 bits of a position hash),
// every (position, move) that the batch's games played from a position of
// the bucket, with their results:
//
//	opening_index (source_id, variant, bucket, entries)
//	bucket   = h >> 54                      (signed, -512..511)
//	group    = (h >> 52) & 3                (the 2 hash bits below the bucket)
//	hash     = (h >> 20) & 0xFFFFFFFF       (the 32 bits below those)
//	entries  = header | singles | keys
//	header   = the single count of groups 0, 1, 2, 3, then the key count
//	           of groups 0, 1, 2, 3            (uint32 big-endian each)
//	singles  = group 0's singles, then 1's, 2's, 3's, 8 bytes each:
//	           hash, move code << 2 | result slot       (uint32 BE each)
//	keys     = group 0's keys, then 1's, 2's, 3's, 16 bytes each:
//	           hash, move code << 2                     (uint32 BE each)
//	           white wins, draws, black wins, other     (uint16 BE each)
//
// A single is a (position, move) of one game of the batch; a key holds the
// results of several (a count over 65535 is split over several keys of the
// same position and move). Within a group, entries are sorted by hash, then
// move code. So 10 + 2 + 32 = 44 bits of the hash are checked, as in the
// format of migration 0004 (12-bit prefix rows with three bigint[] arrays),
// whose per-row overhead (4096 rows of three array headers per batch and
// variant) took about 96 bytes per imported game. Fixed-size entries let
// SQL find a position's entries with position() on the group's segment and
// read them at entry boundaries (draughtsdb_opening_tree,
// draughtsdb_opening_entries). The move code and the result slots are
// MoveCode and ResultSlot's, unchanged.
const (
	// openingCodeShift places the move code above the 2 bits of the result
	// slot (openingSlotMask) in an entry's second uint32.
	openingCodeShift = 2
	openingSlotMask  = 3
	// OpeningMaxCount is the most games of one slot a key holds.
	OpeningMaxCount = 1<<16 - 1
	// openingHeader is the size of a row's header: single and key counts
	// of every group.
	openingHeader = 4 * 2 * PositionGroups
	// OpeningSingleSize and OpeningKeySize are the sizes of the entries.
	OpeningSingleSize = 8
	OpeningKeySize    = 16
)

// opening_index splits a position hash as position_index does
// (position.go): its row by PositionBucket (PositionBuckets of them per
// variant), the group by PositionGroup and the 32 bits an entry holds by
// PositionKey.

// An OpeningStat is the games of one (position, move) in a row: the
// position's group and 32 hash bits, the move's code and the games by
// result slot (SlotWhiteWins, SlotDraw, SlotBlackWins, SlotOther).
type OpeningStat struct {
	Group int
	Hash  uint32
	Code  MoveCode
	Games [4]uint64
}

// Total is the number of games of s.
func (s *OpeningStat) Total() uint64 { return s.Games[0] + s.Games[1] + s.Games[2] + s.Games[3] }

// compareOpeningStats orders stats as a row stores them: by group, hash,
// then move code.
func compareOpeningStats(a, b OpeningStat) int {
	if c := cmp.Compare(a.Group, b.Group); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Hash, b.Hash); c != 0 {
		return c
	}
	return cmp.Compare(a.Code, b.Code)
}

// ErrBadOpeningStat is matched by the errors of AppendOpeningEntries.
var ErrBadOpeningStat = errors.New("opening statistic out of range")

// AppendOpeningEntries appends the entries column of a row holding stats
// and returns it. stats is sorted in place (by group, hash and move code),
// and the stats of one (position, move) are added up, so a row holds each
// once, whatever the order and repetitions of stats. A stat of one game is
// a single; the others are keys, split when a count exceeds
// OpeningMaxCount: key i holds min(OpeningMaxCount, count -
// i*OpeningMaxCount) games of each slot, as migration 0012 splits them. A
// (position, move) of no games is left out.
func AppendOpeningEntries(dst []byte, stats []OpeningStat) ([]byte, error) {
	if !slices.IsSortedFunc(stats, compareOpeningStats) {
		slices.SortFunc(stats, compareOpeningStats)
	}
	var singles, keys [PositionGroups]uint32
	for i := range stats {
		s := &stats[i]
		if s.Group < 0 || s.Group >= PositionGroups || s.Code > MoveCode(1<<(32-openingCodeShift)-1) {
			return dst, fmt.Errorf("%w: group %d, move code %#x", ErrBadOpeningStat, s.Group, s.Code)
		}
	}
	for i := 0; i < len(stats); {
		var s OpeningStat
		if s, i = openingRun(stats, i); s.Total() == 1 {
			singles[s.Group]++
		} else if s.Total() > 1 {
			keys[s.Group] += uint32(openingKeyParts(&s))
		}
	}
	for _, n := range singles {
		dst = binary.BigEndian.AppendUint32(dst, n)
	}
	for _, n := range keys {
		dst = binary.BigEndian.AppendUint32(dst, n)
	}
	for i := 0; i < len(stats); {
		var s OpeningStat
		if s, i = openingRun(stats, i); s.Total() != 1 {
			continue
		}
		slot := uint32(0)
		for s.Games[slot] == 0 {
			slot++
		}
		dst = binary.BigEndian.AppendUint32(dst, s.Hash)
		dst = binary.BigEndian.AppendUint32(dst, uint32(s.Code)<<openingCodeShift|slot)
	}
	for i := 0; i < len(stats); {
		var s OpeningStat
		if s, i = openingRun(stats, i); s.Total() < 2 {
			continue
		}
		for part := range openingKeyParts(&s) {
			dst = binary.BigEndian.AppendUint32(dst, s.Hash)
			dst = binary.BigEndian.AppendUint32(dst, uint32(s.Code)<<openingCodeShift)
			for _, n := range s.Games {
				dst = binary.BigEndian.AppendUint16(dst, uint16(min(OpeningMaxCount, max(0, int64(n)-int64(part)*OpeningMaxCount))))
			}
		}
	}
	return dst, nil
}

// openingRun returns the (position, move) of sorted stats at i with the
// games of all its stats added up, and the index after them.
func openingRun(stats []OpeningStat, i int) (OpeningStat, int) {
	s := stats[i]
	for i++; i < len(stats) && stats[i].Group == s.Group && stats[i].Hash == s.Hash && stats[i].Code == s.Code; i++ {
		for j, n := range stats[i].Games {
			s.Games[j] += n
		}
	}
	return s, i
}

// openingKeyParts is the number of keys that hold s: its largest count in
// pieces of at most OpeningMaxCount.
func openingKeyParts(s *OpeningStat) int {
	m := max(s.Games[0], s.Games[1], s.Games[2], s.Games[3])
	return int((m + OpeningMaxCount - 1) / OpeningMaxCount)
}

// An OpeningEntry is one stored entry of a row, as DecodeOpeningEntries
// reads it: a single (one game, Counts holds a 1 in its slot) or a key.
type OpeningEntry struct {
	Group  int
	Hash   uint32
	Code   MoveCode
	Counts [4]uint16 // by result slot
	Single bool
}

// ErrBadOpeningEntries is matched by the errors of DecodeOpeningEntries.
var ErrBadOpeningEntries = errors.New("malformed opening_index entries")

// DecodeOpeningEntries calls fn for every entry of a row's entries column
// in the order stored: the singles of groups 0..3, then the keys.
func DecodeOpeningEntries(b []byte, fn func(OpeningEntry)) error {
	if len(b) < openingHeader {
		return fmt.Errorf("%w: %d bytes, shorter than the header", ErrBadOpeningEntries, len(b))
	}
	var singles, keys [PositionGroups]uint32
	size := uint64(openingHeader)
	for g := range PositionGroups {
		singles[g] = binary.BigEndian.Uint32(b[4*g:])
		keys[g] = binary.BigEndian.Uint32(b[4*(PositionGroups+g):])
		size += OpeningSingleSize*uint64(singles[g]) + OpeningKeySize*uint64(keys[g])
	}
	if size != uint64(len(b)) {
		return fmt.Errorf("%w: %d bytes, the header counts %v singles and %v keys (%d bytes)", ErrBadOpeningEntries, len(b), singles, keys, size)
	}
	p := openingHeader
	for g := range PositionGroups {
		for range singles[g] {
			c := binary.BigEndian.Uint32(b[p+4:])
			e := OpeningEntry{Group: g, Hash: binary.BigEndian.Uint32(b[p:]), Code: MoveCode(c >> openingCodeShift), Single: true}
			e.Counts[c&openingSlotMask] = 1
			fn(e)
			p += OpeningSingleSize
		}
	}
	for g := range PositionGroups {
		for range keys[g] {
			c := binary.BigEndian.Uint32(b[p+4:])
			if c&openingSlotMask != 0 {
				return fmt.Errorf("%w: key at byte %d has slot bits %d", ErrBadOpeningEntries, p, c&openingSlotMask)
			}
			e := OpeningEntry{Group: g, Hash: binary.BigEndian.Uint32(b[p:]), Code: MoveCode(c >> openingCodeShift)}
			for i := range e.Counts {
				e.Counts[i] = binary.BigEndian.Uint16(b[p+8+2*i:])
			}
			fn(e)
			p += OpeningKeySize
		}
	}
	return nil
}
