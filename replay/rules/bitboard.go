package rules

import "math/bits"

// bb64 is the bit set of the 8x8 (35 bits) and 10x10 (54 bits) layouts.
// bb128 is the 12x12 layout (77 bits). Both have the same small method set
// so that one template (internal/movegen) renders the generator for every
// board size; the methods inline, so the uint64 copies compile to plain
// machine operations.
type bb64 uint64

type bb128 struct{ lo, hi uint64 }

// The generated generators name their bit set type after the board size.
type (
	bbEight  = bb64
	bbTen    = bb64
	bbTwelve = bb128
)

func (a bb64) and(b bb64) bb64    { return a & b }
func (a bb64) or(b bb64) bb64     { return a | b }
func (a bb64) andNot(b bb64) bb64 { return a &^ b }
func (a bb64) shl(n uint) bb64    { return a << n }
func (a bb64) shr(n uint) bb64    { return a >> n }
func (a bb64) any() bool          { return a != 0 }
func (a bb64) count() int         { return bits.OnesCount64(uint64(a)) }
func (a bb64) lowest() int        { return bits.TrailingZeros64(uint64(a)) }
func (a bb64) dropLowest() bb64   { return a & (a - 1) }
func (a bb64) has(i int) bool     { return uint(i) < 64 && a>>uint(i)&1 != 0 }
func (a bb64) store() [2]uint64   { return [2]uint64{uint64(a), 0} }
func (a bb64) with(i int) bb64    { return a | 1<<uint(i) }
func (a bb64) without(i int) bb64 { return a &^ (1 << uint(i)) }

// Loads and stores go through pointers element by element: [2]uint64 is
// not SSA-able, so passing or building it by value spills it to the stack
// (and a 16-byte reload of two 8-byte stores stalls store forwarding).
func load64(x *[2]uint64) bb64 { return bb64(x[0]) }

// put stores a into x (the high word of a 64-bit layout is always 0).
func (a bb64) put(x *[2]uint64) { x[0], x[1] = uint64(a), 0 }

func (a bb128) and(b bb128) bb128    { return bb128{a.lo & b.lo, a.hi & b.hi} }
func (a bb128) or(b bb128) bb128     { return bb128{a.lo | b.lo, a.hi | b.hi} }
func (a bb128) andNot(b bb128) bb128 { return bb128{a.lo &^ b.lo, a.hi &^ b.hi} }

// shl and shr are only called with constant n < 64.
func (a bb128) shl(n uint) bb128 { return bb128{a.lo << n, a.hi<<n | a.lo>>(64-n)} }
func (a bb128) shr(n uint) bb128 { return bb128{a.lo>>n | a.hi<<(64-n), a.hi >> n} }
func (a bb128) any() bool        { return a.lo|a.hi != 0 }
func (a bb128) count() int       { return bits.OnesCount64(a.lo) + bits.OnesCount64(a.hi) }
func (a bb128) lowest() int {
	if a.lo != 0 {
		return bits.TrailingZeros64(a.lo)
	}
	return 64 + bits.TrailingZeros64(a.hi)
}
func (a bb128) dropLowest() bb128 {
	if a.lo != 0 {
		return bb128{a.lo & (a.lo - 1), a.hi}
	}
	return bb128{0, a.hi & (a.hi - 1)}
}
func (a bb128) has(i int) bool {
	if uint(i) >= 128 {
		return false
	}
	if i < 64 {
		return a.lo>>uint(i)&1 != 0
	}
	return a.hi>>uint(i-64)&1 != 0
}
func (a bb128) store() [2]uint64 { return [2]uint64{a.lo, a.hi} }
func (a bb128) with(i int) bb128 {
	if i < 64 {
		a.lo |= 1 << uint(i)
	} else {
		a.hi |= 1 << uint(i-64)
	}
	return a
}
func (a bb128) without(i int) bb128 {
	if i < 64 {
		a.lo &^= 1 << uint(i)
	} else {
		a.hi &^= 1 << uint(i-64)
	}
	return a
}

func load128(x *[2]uint64) bb128 { return bb128{x[0], x[1]} }

func (a bb128) put(x *[2]uint64) { x[0], x[1] = a.lo, a.hi }

// Per-size constants for the generated generators: sA and sB are the two
// diagonal shift distances (W/2 and W/2+1).
const (
	sAEight, sBEight   = 4, 5
	sATen, sBTen       = 5, 6
	sATwelve, sBTwelve = 6, 7
	// sVTen is a step along a column (two ranks, one internal row pair).
	sVTen = sATen + sBTen
)

func loadEight(x *[2]uint64) bbEight   { return load64(x) }
func loadTen(x *[2]uint64) bbTen       { return load64(x) }
func loadTwelve(x *[2]uint64) bbTwelve { return load128(x) }
func bitEight(i int) bbEight           { return bb64(1) << (uint(i) & 63) }
func bitTen(i int) bbTen               { return bb64(1) << (uint(i) & 63) }
func bitTwelve(i int) bbTwelve         { return bb128{}.with(i) }

// Per-size board masks as constants (a test checks them against the Board
// tables) so that the generators need no loads through
// Position.v.
func validEight() bbEight   { return 0x7fbfdfeff }
func validTen() bbTen       { return 0x3ff7feffdffbff }
func validTwelve() bbTwelve { return bb128{0xfff7ffbffdffefff, 0x1ffe} }

// orthoWTen and orthoETen are the squares a step left (bit -1) or right
// (bit +1) along a row may enter: a step left from the first square of an
// odd internal row would wrap onto the last square of the row above
// (bits 4, 15, 26, 37, 48), a step right from the last square of an even
// row onto the first square of the row below (bits 5, 16, 27, 38, 49).
// A test checks them against the board.
func orthoWTen() bbTen { return validTen() &^ 0x1002004008010 }
func orthoETen() bbTen { return validTen() &^ 0x2004008010020 }

func promoRowEight(c Color) bbEight {
	if c == White {
		return 0xf
	}
	return 0x780000000
}

func promoRowTen(c Color) bbTen {
	if c == White {
		return 0x1f
	}
	return 0x3e000000000000
}

func promoRowTwelve(c Color) bbTwelve {
	if c == White {
		return bb128{0x3f, 0}
	}
	return bb128{0, 0x1f80}
}
