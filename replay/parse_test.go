package replay

import (
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

func TestParseMoveText(t *testing.T) {
	b10, b8 := rules.Board10x10, rules.Board8x8
	cases := []struct {
		b       *rules.Board
		text    string
		ok      bool
		squares []int
		capture bool
		short   bool
	}{
		{b10, "32-28", true, []int{32, 28}, false, false},
		{b10, "28x19x10", true, []int{28, 19, 10}, true, false},
		{b10, "01-07", true, []int{1, 7}, false, false},
		{b10, "28:19", true, []int{28, 19}, true, false},
		{b10, "51-46", false, nil, false, false},
		{b10, "1-", false, nil, false, false},
		{b10, "1--6", false, nil, false, false},
		{b10, "32-28+", true, []int{32, 28}, false, false},
		{b10, "0007-0012", true, []int{7, 12}, false, false},
		{b8, "c3-d4", true, []int{22, 18}, false, false},
		{b8, "c3:e5:g7", true, []int{22, 15, 8}, true, false},
		{b8, "c3d4", true, []int{22, 18}, false, false},
		{b8, "cd4", true, []int{18}, false, true},
		{b8, "i3-d4", false, nil, false, false},
		{b8, "22-d4", true, []int{22, 18}, false, false},
	}
	for _, c := range cases {
		var mt moveText
		ok := parseMoveText(c.b, c.text, false, &mt)
		if ok != c.ok {
			t.Errorf("%q: ok = %v", c.text, ok)
			continue
		}
		if !ok {
			continue
		}
		got := mt.sq[:mt.n]
		if len(got) != len(c.squares) || mt.capture != c.capture || mt.short != c.short {
			t.Errorf("%q: squares %v capture %v short %v", c.text, got, mt.capture, mt.short)
			continue
		}
		for i := range got {
			if got[i] != c.squares[i] {
				t.Errorf("%q: squares %v, want %v", c.text, got, c.squares)
			}
		}
	}
}
