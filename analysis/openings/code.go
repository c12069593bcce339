package openings

import "github.com/draughtsdb/draughtsdb/replay/rules"

// A move code names a move of a position in 29 bits, from the move alone:
//
//	from << 22 | to << 15 | capture << 14 | path hash
//
// Squares are the variant's numbers (1..72, 7 bits). The path hash is 14
// bits of the capture's landing squares, so that two captures with the same
// start and end but different paths (a king's or a man's two routes) get
// different codes; it is 0 for a plain move. SQL reads start, end and
// capture from the code (draughtsdb_move_code_text).
type Code uint32

// MoveCode returns the code of m.
func MoveCode(m *rules.Move) Code {
	c := Code(m.From())<<22 | Code(m.To())<<15
	if !m.IsCapture() {
		return c
	}
	var buf [40]int
	h := uint32(2166136261)
	for _, sq := range m.Path(buf[:0]) {
		h = (h ^ uint32(sq)) * 16777619
	}
	return c | 1<<14 | Code(h^h>>14^h>>28)&0x3FFF
}

// From, To and Capture decode a code.
func (c Code) From() int     { return int(c >> 22 & 127) }
func (c Code) To() int       { return int(c >> 15 & 127) }
func (c Code) Capture() bool { return c>>14&1 == 1 }

// Prefix is the opening_index row of position hash h: its top 12 bits, as
// in position_index.
func Prefix(h uint64) int16 { return int16(int64(h) >> 52) }

// Key is the entry key of the move coded c played from position h: the 32
// hash bits below the prefix, then the code, then two bits that are 0 in
// keys (with a Counts) and the result slot in singles (one game each).
// 44 bits of the hash are checked; a false match needs 2^32 positions
// under one prefix.
func Key(h uint64, c Code) int64 {
	return int64((h>>20)&0xFFFFFFFF<<32 | uint64(c)<<2)
}

// Counts are the results of the games of one entry: white wins, draws,
// black wins and other results (unknown, double forfeit), 16 bits each,
// packed into one int64 as white << 48 | draws << 32 | black << 16 | other.
type Counts [4]uint16

const maxCount = 1<<16 - 1

// Pack returns the int64 form of c.
func (c Counts) Pack() int64 {
	return int64(uint64(c[0])<<48 | uint64(c[1])<<32 | uint64(c[2])<<16 | uint64(c[3]))
}

// Unpack is the inverse of Pack.
func Unpack(v int64) Counts {
	u := uint64(v)
	return Counts{uint16(u >> 48), uint16(u >> 32), uint16(u >> 16), uint16(u)}
}

// resultSlot maps games.result (0 unknown, 1 white wins, 2 draw, 3 black
// wins, 4 double forfeit) to the index in Counts.
func resultSlot(result int16) int {
	switch result {
	case 1:
		return 0
	case 2:
		return 1
	case 3:
		return 2
	}
	return 3
}
