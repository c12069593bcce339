package rules

import "testing"

func TestBoardMaskConstants(t *testing.T) {
	check := func(name string, got, want [2]uint64) {
		if got != want {
			t.Errorf("%s: constant %#x, board table %#x", name, got, want)
		}
	}
	check("validEight", validEight().store(), Board8x8.valid)
	check("validTen", validTen().store(), Board10x10.valid)
	check("validTwelve", validTwelve().store(), Board12x12.valid)
	// A row step may enter any square but the wrap targets: the last
	// square of an even internal row (from the next row's first, moving
	// left) and the first of an odd one (moving right).
	var w, e [2]uint64
	b := Board10x10
	for s := 1; s <= b.Squares(); s++ {
		k := s - 1
		r, c := k/b.half, k%b.half
		if !(r%2 == 0 && c == b.half-1) {
			setBit(&w, b.bitOf(s))
		}
		if !(r%2 == 1 && c == 0) {
			setBit(&e, b.bitOf(s))
		}
	}
	check("orthoWTen", orthoWTen().store(), w)
	check("orthoETen", orthoETen().store(), e)
	for _, c := range []Color{White, Black} {
		check("promoRowEight", promoRowEight(c).store(), Board8x8.promotionRow(c))
		check("promoRowTen", promoRowTen(c).store(), Board10x10.promotionRow(c))
		check("promoRowTwelve", promoRowTwelve(c).store(), Board12x12.promotionRow(c))
	}
}
