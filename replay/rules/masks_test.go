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
	for _, c := range []Color{White, Black} {
		check("promoRowEight", promoRowEight(c).store(), Board8x8.promotionRow(c))
		check("promoRowTen", promoRowTen(c).store(), Board10x10.promotionRow(c))
		check("promoRowTwelve", promoRowTwelve(c).store(), Board12x12.promotionRow(c))
	}
}
