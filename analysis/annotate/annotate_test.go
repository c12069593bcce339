package annotate

import "testing"

func TestLossAndClass(t *testing.T) {
	th := Thresholds{Inaccuracy: 30, Mistake: 80, Blunder: 200}
	for _, c := range []struct {
		before, after, loss int
		class               string
	}{
		{0, 0, 0, "ok"},    // level before and after
		{50, -50, 0, "ok"}, // kept the advantage
		{50, -80, 0, "ok"}, // improved: never negative
		{50, -20, 30, "inaccuracy"},
		{100, 0, 100, "mistake"},    // a man up, then level
		{0, 250, 250, "blunder"},    // level, then the opponent is 2.5 men up
		{29990, 0, 3000, "blunder"}, // threw away a forced win: capped at 30 men
		{29990, -29989, 0, "ok"},    // still winning by force
		{-29990, 29991, 0, "ok"},    // lost anyway
	} {
		if got := Loss(c.before, c.after); got != c.loss || th.Class(got) != c.class {
			t.Errorf("Loss(%d, %d) = %d %s, want %d %s", c.before, c.after, got, th.Class(got), c.loss, c.class)
		}
	}
	if (Limit{Depth: 8}).Setting() != "depth=8" || (Limit{MoveTime: 500e6}).Setting() != "movetime=500" {
		t.Error("settings")
	}
}
