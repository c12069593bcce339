package rules

// EndingCounter applies FMJD's endgame rules of International draughts
// (rules of the game, art. 6.3 and 6.4): with three pieces, at least one a
// king (three kings, two kings and a man, a king and two men), against a
// lone king, the game is drawn after 16 moves of each side; with two
// kings, a king and a man, or a king, against a lone king, after 5 moves
// each. Each count starts when the material first takes that form; the
// 5-move count starts again when a capture brings the material to it.
// A capture does not lift the 16-move limit: the game is drawn 16 moves
// after the three pieces met the lone king, or 5 after the two did,
// whichever comes first: in the rule's words, when a piece is taken
// during the 16 moves, the maximum of 16 moves stays. Moby Dam (after
// KNDB's rules, art. 9) draws at the same plies.
// Other variants have no such rule: the counter never draws there. The
// zero value is ready; call Update with the start position and after
// every move.
type EndingCounter struct {
	class   int  // 16, 5 or 0: the rule the position falls under
	plies   int  // plies since the class began
	in16    bool // the 16-move count runs: the material was 3 v 1 with a king
	plies16 int  // plies since the 16-move class began
}

// Update counts position p, the position after the last move (or the
// start).
func (e *EndingCounter) Update(p *Position) {
	c := EndingClass(p)
	if e.in16 {
		// Material only shrinks from 3 v 1, so the limit holds to the end.
		e.plies16++
	}
	if c != e.class {
		e.class, e.plies = c, 0
		if c == 16 {
			e.in16, e.plies16 = true, 0
		}
		return
	}
	if c != 0 {
		e.plies++
	}
}

// Drawn reports whether the rule has drawn the game.
func (e *EndingCounter) Drawn() bool { return e.Rule() != 0 }

// Rule is the rule that has drawn the game, 16 or 5, or 0 while neither
// has.
func (e *EndingCounter) Rule() int {
	switch {
	case e.in16 && e.plies16 >= 32: // the class-16 count too: plies16 >= plies there
		return 16
	case e.class == 5 && e.plies >= 10:
		return 5
	}
	return 0
}

// Class is the rule the last position falls under: 16, 5, or 0 for none.
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
