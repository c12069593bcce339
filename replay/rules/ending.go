package rules

// EndingCounter applies FMJD's endgame rules of International draughts
// (rules of the game, art. 6.3 and 6.4): with three pieces, at least one a
// king (three kings, two kings and a man, a king and two men), against a
// lone king, the game is drawn after 16 moves of each side; with two
// kings, a king and a man, or a king, against a lone king, after 5 moves
// each. The count starts when the material first takes that form and
// starts again when it changes to the other form. Other variants have no
// such rule: the counter never draws there. The zero value is ready; call
// Update with the start position and after every move.
type EndingCounter struct {
	class int // 16, 5 or 0: none applies
	plies int // plies since the class began
}

// Update counts position p, the position after the last move (or the
// start).
func (e *EndingCounter) Update(p *Position) {
	c := EndingClass(p)
	if c != e.class {
		e.class, e.plies = c, 0
		return
	}
	if c != 0 {
		e.plies++
	}
}

// Drawn reports whether the rule has drawn the game.
func (e *EndingCounter) Drawn() bool {
	return e.class != 0 && e.plies >= 2*e.class
}

// Class is the rule that applies: 16, 5, or 0 for none.
func (e *EndingCounter) Class() int { return e.class }

// EndingClass is the endgame rule position p falls under in International
// draughts: 16 (three pieces with a king against a lone king), 5 (two or
// one, with a king, against a lone king) or 0.
func EndingClass(p *Position) int {
	if p.Variant() != International {
		return 0
	}
	for _, strong := range []Color{White, Black} {
		wm, wk := p.Count(strong.Opponent())
		if wm != 0 || wk != 1 {
			continue
		}
		m, k := p.Count(strong)
		switch {
		case k >= 1 && m+k == 3:
			return 16
		case k >= 1 && m+k <= 2:
			return 5
		}
	}
	return 0
}
