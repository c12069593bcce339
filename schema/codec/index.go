package codec

import "github.com/draughtsdb/draughtsdb/replay/rules"

// The packing of position_index before migration 0011 (0011 converts its
// rows, reading them with these numbers; position.go has the packing since)
// and of opening_index's keys (migration 0004). Databases hold rows packed
// so, and the SQL functions (draughtsdb_opening_tree,
// draughtsdb_move_code_text, 0011's conversion) unpack them with these
// numbers: they must never change.
const (
	// prefixShift leaves the top 12 bits of a position hash: the row.
	prefixShift = 52
	// entryShift and entryMask take the 32 hash bits below the prefix.
	entryShift = 20
	entryMask  = 0xFFFFFFFF

	// A move code: from << codeFromShift | to << codeToShift | capture
	// << codeCaptureShift | path hash (codePathMask).
	codeFromShift    = 22
	codeToShift      = 15
	codeCaptureShift = 14
	codePathMask     = 0x3FFF
	// keyCodeShift places the move code in an opening key, above the two
	// bits of the result slot.
	keyCodeShift = 2
	// slotMask is the result slot of a single.
	slotMask = 3
)

// PositionPrefix is the row of position hash h in position_index and in
// opening_index: its top 12 bits, as a signed number (-2048..2047).
func PositionPrefix(h uint64) int16 { return int16(int64(h) >> prefixShift) }

// PositionEntry is the position_index entry of game id at position h: the
// 32 hash bits below the prefix, then the low 32 bits of the id (a game is
// found by them and the hash checked against the game).
func PositionEntry(h uint64, id int64) int64 {
	return int64((h>>entryShift)&entryMask<<32 | uint64(id)&entryMask)
}

// A MoveCode names a move of a position in 29 bits, from the move alone:
//
//	from << 22 | to << 15 | capture << 14 | path hash
//
// Squares are the variant's numbers (1..72, 7 bits). The path hash is 14
// bits of the capture's landing squares, so that two captures with the same
// start and end but different paths (a king's or a man's two routes) get
// different codes; it is 0 for a plain move. SQL reads start, end and
// capture from the code (draughtsdb_move_code_text).
type MoveCode uint32

// MoveCodeOf returns the code of m.
func MoveCodeOf(m *rules.Move) MoveCode {
	c := MoveCode(m.From())<<codeFromShift | MoveCode(m.To())<<codeToShift
	if !m.IsCapture() {
		return c
	}
	var buf [maxPath]int
	// FNV-1a over the landing squares, folded to 14 bits.
	h := uint32(2166136261)
	for _, sq := range m.Path(buf[:0]) {
		h = (h ^ uint32(sq)) * 16777619
	}
	return c | 1<<codeCaptureShift | MoveCode(h^h>>14^h>>28)&codePathMask
}

// From, To and Capture decode a code.
func (c MoveCode) From() int     { return int(c >> codeFromShift & squareMask) }
func (c MoveCode) To() int       { return int(c >> codeToShift & squareMask) }
func (c MoveCode) Capture() bool { return c>>codeCaptureShift&1 == 1 }

// OpeningKey is the opening_index key of the move coded c played from
// position h: the 32 hash bits below the prefix, then the code, then two
// bits that are 0 in keys (with a Counts) and the result slot in singles
// (one game each, SingleEntry). 44 bits of the hash are checked; a false
// match needs 2^32 positions under one prefix.
func OpeningKey(h uint64, c MoveCode) int64 {
	return int64((h>>entryShift)&entryMask<<32 | uint64(c)<<keyCodeShift)
}

// Result slots: the index in Counts of a game's result, and the low bits
// of a single. Stored in every opening_index row: they must never change.
const (
	SlotWhiteWins = 0
	SlotDraw      = 1
	SlotBlackWins = 2
	SlotOther     = 3 // unknown, double forfeit
)

// ResultSlot maps a games.result code to its slot.
func ResultSlot(result int16) uint8 {
	switch result {
	case ResultWhiteWins:
		return SlotWhiteWins
	case ResultDraw:
		return SlotDraw
	case ResultBlackWins:
		return SlotBlackWins
	}
	return SlotOther
}

// SingleEntry is the opening_index single of an entry played by one game:
// its key with the game's result slot in the low bits.
func SingleEntry(key int64, slot uint8) int64 { return key | int64(slot&slotMask) }

// Counts are the results of the games of one opening_index key: white
// wins, draws, black wins and other results (unknown, double forfeit), by
// slot, 16 bits each, packed into one int64 as
// white << 48 | draws << 32 | black << 16 | other.
type Counts [4]uint16

// MaxCount is the most games one packed Counts field holds; a larger count
// is split over several entries of the same key.
const MaxCount = 1<<16 - 1

// Pack returns the int64 form of c.
func (c Counts) Pack() int64 {
	return int64(uint64(c[0])<<48 | uint64(c[1])<<32 | uint64(c[2])<<16 | uint64(c[3]))
}

// UnpackCounts is the inverse of Counts.Pack.
func UnpackCounts(v int64) Counts {
	u := uint64(v)
	return Counts{uint16(u >> 48), uint16(u >> 32), uint16(u >> 16), uint16(u)}
}
