package replay

import (
	"errors"
	"fmt"
	"strings"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// An ambiguous move (two or more different legal moves fit the text) is
// rejected unless the rest of the game tells them apart: resolveByRest
// plays each candidate and replays the moves written after it; when
// exactly one candidate lets them all replay, that one is the move, and
// the game keeps a warning that says so. The moves after it are evidence
// written in the same file, not a guess: the other readings make a later
// written move illegal.
//
// The look ahead is bounded. A later ambiguous move inside it is tried the
// same way (any of its readings that replays counts), down to
// maxLookaheadDepth nested ambiguous moves; all the look aheads of one
// ambiguous move replay at most maxLookaheadPlies plies between them. Past
// either bound, and at a move that was not recorded ("--"), a candidate
// cannot be ruled out, so it counts as replaying. A move is chosen only
// when every other candidate was ruled out by a move that does not
// replay, and the replay then goes on after the chosen one as after any
// move, so the bounds never let an illegal reading through.
const maxLookaheadDepth = 3

// maxLookaheadPlies is a variable so that a test can lower it.
var maxLookaheadPlies = 4096

// warnResolvedByRest starts the warning of an ambiguous move that the rest
// of the game resolved.
const warnResolvedByRest = "ambiguous move resolved by the rest of the game"

// moveTextAt returns the move text that starts at token i of pg and the
// index of its last token. Column-aligned files write "1- 6" and "28x 17":
// a separator at the end of one token and the square in the next.
func moveTextAt(pg *pdn.Game, i int) (text string, last int) {
	text = pg.Moves[i].Text
	if c := text[len(text)-1]; c == '-' || c == 'x' || c == ':' {
		return joinAligned(pg, i)
	}
	return text, i // kept small, so that it is inlined
}

func joinAligned(pg *pdn.Game, i int) (string, int) {
	text := pg.Moves[i].Text
	if text != pdn.UnknownMove && i+1 < len(pg.Moves) && isNumber(pg.Moves[i+1].Text) {
		return text + pg.Moves[i+1].Text, i + 1
	}
	return text, i
}

// readMove resolves text, the move written at tokens up to last of pg, in
// pos, as replayAs does (parse, resolve, joinSplit); used is how many
// following moves a capture written hop by hop took.
func (r *Replayer) readMove(pg *pdn.Game, v *rules.Variant, pos *rules.Position, last, ply int, text string) (m rules.Move, used int, err error) {
	if !parseMoveText(v.Board, text, v.AlgebraicFromBlack, &r.mt) {
		return rules.Move{}, 0, r.reject(ErrBadMoveText, pos, ply, text, fmt.Sprintf("not a move on the %s board", v.Board.Name))
	}
	if m, err = r.resolve(pos, ply, text); err == nil {
		return m, 0, nil
	}
	return r.joinSplit(pg, pos, last, err)
}

// joinSplit follows a rejection err of the text in r.mt, written at tokens
// up to last of pg: some sites write a multi-capture hop by hop, as if
// each hop were a move of its own ("e5xc3 7. c3xa1"), so a capture that
// matches no legal move is joined with the following moves
// (joinSplitCapture); used is how many it took. Otherwise err stands.
func (r *Replayer) joinSplit(pg *pdn.Game, pos *rules.Position, last int, err error) (m rules.Move, used int, _ error) {
	if r.mt.capture && !r.mt.short {
		if joined, used, ok := r.joinSplitCapture(pos, pg.Moves[last+1:]); ok {
			return joined, used, nil
		}
	}
	return rules.Move{}, 0, err
}

// resolveByRest is the look ahead for the ambiguous move text at ply,
// whose candidates are r.cands (err0 is its rejection): each candidate is
// played and the moves from token next on are replayed. If exactly one
// candidate lets them replay, it is returned and a warning naming the
// others and where they fail is added to warnings; otherwise err0 stands,
// its detail saying why the rest of the game did not decide.
func (r *Replayer) resolveByRest(pg *pdn.Game, v *rules.Variant, pos *rules.Position, next, ply int, text string, err0 error, warnings *[]Warning) (rules.Move, error) {
	cands := append([]rules.Move(nil), r.cands...)
	track := r.track
	r.track = nil // the look ahead reads the same squares again
	defer func() { r.track = track }()
	budget := maxLookaheadPlies
	fails := make([]error, len(cands))
	replaying := 0
	for i := range cands {
		p := *pos
		p.Play(&cands[i])
		if fails[i] = r.restReplays(pg, v, p, next, ply+1, 1, &budget); fails[i] == nil {
			replaying++
		}
	}
	var re *RejectError
	if replaying != 1 && !hasMoveFrom(pg, next) {
		if m, warning, ok := resolveByResult(v, pos, cands, pg, ply, text); ok {
			*warnings = append(*warnings, Warning{Kind: WarnResolvedByResult, Text: warning})
			return m, nil
		}
	}
	if replaying != 1 {
		if errors.As(err0, &re) {
			switch {
			case !hasMoveFrom(pg, next):
				re.Detail += "; it is the game's last move, so neither the rest of the game nor its result tells them apart"
			case replaying > 1:
				re.Detail += "; the rest of the game replays after more than one of them"
			default:
				re.Detail += "; the rest of the game replays after none of them"
			}
		}
		return rules.Move{}, err0
	}
	var chosen rules.Move
	var others []string
	for i := range cands {
		if fails[i] == nil {
			chosen = cands[i]
			continue
		}
		why := Reason(fails[i])
		if errors.As(fails[i], &re) && re.Ply > 0 {
			why = fmt.Sprintf("ply %d %q is then an %s", re.Ply, quote(re.Text), why)
			if errors.Is(fails[i], ErrAmbiguousMove) {
				why = fmt.Sprintf("ply %d %q then fits several moves, and the game replays after none of them", re.Ply, quote(re.Text))
			}
		}
		others = append(others, fmt.Sprintf("%s (%s)", rules.FormatMove(v, &cands[i], v.DefaultNotation, true), why))
	}
	*warnings = append(*warnings, Warning{Kind: WarnResolvedByRest,
		Text: fmt.Sprintf("%s: ply %d %q fits %d legal moves; only %s lets the moves after it replay, not %s",
			warnResolvedByRest, ply, quote(text), len(cands), rules.FormatMove(v, &chosen, v.DefaultNotation, true), strings.Join(others, ", "))})
	return chosen, nil
}

// hasMoveFrom reports whether pg has a move written at token i or later.
func hasMoveFrom(pg *pdn.Game, i int) bool {
	for ; i < len(pg.Moves); i++ {
		if pg.Moves[i].Text != "" {
			return true
		}
	}
	return false
}

// restReplays replays pg's moves from token i on, from pos (ply is the
// next move's ply), and returns nil when they all resolve to legal moves,
// else the rejection of the first that does not. A later ambiguous move
// replays when one of its readings lets the rest replay (depth counts the
// nested ambiguous moves). Past the bounds (maxLookaheadDepth, budget) and
// at an unrecorded move it returns nil: such a reading cannot be ruled
// out.
func (r *Replayer) restReplays(pg *pdn.Game, v *rules.Variant, pos rules.Position, i, ply, depth int, budget *int) error {
	for ; i < len(pg.Moves); i++ {
		pm := &pg.Moves[i]
		if setup := pm.Setup(); setup != "" {
			p, err := parseFEN(v, setup)
			if err != nil {
				return &RejectError{Err: ErrBadFEN, Ply: ply, Text: pm.Text, Detail: fmt.Sprintf("/FEN %q/ setup: %v", quote(setup), err), Variant: v.Name, underlie: err}
			}
			pos = p
		}
		if pm.Text == "" {
			continue
		}
		if pm.Text == pdn.UnknownMove || *budget <= 0 {
			return nil
		}
		*budget--
		text, last := moveTextAt(pg, i)
		m, used, err := r.readMove(pg, v, &pos, last, ply, text)
		if errors.Is(err, ErrAmbiguousMove) && len(r.cands) > 1 {
			if depth >= maxLookaheadDepth {
				return nil
			}
			cands := append([]rules.Move(nil), r.cands...)
			for k := range cands {
				p := pos
				p.Play(&cands[k])
				if r.restReplays(pg, v, p, last+1, ply+1, depth+1, budget) == nil {
					return nil
				}
			}
			return err
		}
		if err != nil {
			return err
		}
		i = last + used
		pos.Play(&m)
		ply++
	}
	return nil
}

// warnResolvedByResult starts the warning of an ambiguous last move that
// the game's result resolved.
const warnResolvedByResult = "ambiguous last move resolved by the game's result"

// An ambiguous move that is the game's last move has no later move to
// tell its readings apart, but a decisive result is evidence too: the
// side that resigned did so in the position the move left. resolveByResult
// plays each candidate and weighs the position it leaves for the stated
// winner: a position the rules decide counts as won or lost outright;
// otherwise the material balance (a man 1, a king 3) after the captures
// the players are then forced to make (captures are compulsory in every
// variant, so they follow from the position, not from judgement; see
// forcedMaterial). When exactly one reading leaves the winner strictly
// better off than every other, it is the move, and the game keeps a
// warning naming the others and their balance. A draw, an unknown result,
// or a tie between readings decides nothing, and so does a variant whose
// winner is not the side with more material (antidraughts, breakthrough).
//
// Example (Campionato Assoluto 2005, game 46, Italian, 0-1): Black's last
// move 3x26 fits 3x10x19x26 and 3x10x17x26. After the second White must
// take back 30x21 and Black is a man down; after the first the material is
// even and White has no capture. Black won, so the first is the move.
func resolveByResult(v *rules.Variant, pos *rules.Position, cands []rules.Move, pg *pdn.Game, ply int, text string) (rules.Move, string, bool) {
	if v.Win != rules.LoseWhenNoMove || len(cands) < 2 {
		return rules.Move{}, "", false
	}
	written := writtenResult(pg)
	res, ok := ParseResult(v, written)
	if !ok {
		return rules.Move{}, "", false
	}
	winner, decisive := res.Winner()
	if !decisive {
		return rules.Move{}, "", false
	}
	values := make([]int, len(cands))
	best, ties := 0, 0
	for i := range cands {
		p := *pos
		p.Play(&cands[i])
		budget := forcedBudget
		values[i] = forcedMaterial(&p, winner, forcedDepth, &budget)
		switch {
		case i == 0 || values[i] > values[best]:
			best, ties = i, 0
		case values[i] == values[best]:
			ties++
		}
	}
	if ties > 0 {
		return rules.Move{}, "", false
	}
	describe := func(i int) string {
		m := rules.FormatMove(v, &cands[i], v.DefaultNotation, true)
		switch {
		case values[i] >= decidedValue:
			return fmt.Sprintf("%s (%s then has no legal move)", m, winner.Opponent())
		case values[i] <= -decidedValue:
			return fmt.Sprintf("%s (%s then has no legal move)", m, winner)
		}
		return fmt.Sprintf("%s (material %+d for %s after the forced captures)", m, values[i], winner)
	}
	var others []string
	for i := range cands {
		if i != best {
			others = append(others, describe(i))
		}
	}
	return cands[best], fmt.Sprintf("%s: ply %d %q fits %d legal moves and no move follows; the result %s favours %s, not %s",
		warnResolvedByResult, ply, quote(text), len(cands), res.Format(v), describe(best), strings.Join(others, ", ")), true
}

// writtenResult is the game's result as its file writes it: the Result
// tag, the Italian federation's Risultato, else the game termination token.
func writtenResult(pg *pdn.Game) string {
	written := strings.TrimSpace(pg.Tag("Result"))
	if written == "" {
		written = strings.TrimSpace(pg.Tag("Risultato"))
	}
	if written == "" {
		written = pg.Result
	}
	return written
}

// The forced-capture look ahead is bounded; past the bounds the material
// as it stands counts.
const (
	forcedDepth  = 12
	forcedBudget = 20000
	decidedValue = 1 << 20
)

// forcedMaterial is the material balance (man 1, king 3) for side c in p
// after the captures that follow by force: while the side to move must
// capture, the mover picks the capture best for itself (each side plays
// its forced captures as well as it can; a choice between captures is
// still forced to be a capture). A side to move without a legal move has
// lost (the variants this is used for). depth and budget bound the tree.
func forcedMaterial(p *rules.Position, c rules.Color, depth int, budget *int) int {
	moves := p.LegalMoves(nil)
	mover := p.SideToMove()
	if len(moves) == 0 {
		if mover == c {
			return -decidedValue
		}
		return decidedValue
	}
	if !moves[0].IsCapture() || depth == 0 || *budget <= 0 {
		return material(p, c)
	}
	bestV := 0
	for i := range moves {
		*budget--
		q := *p
		q.Play(&moves[i])
		val := forcedMaterial(&q, c, depth-1, budget)
		if i == 0 || (mover == c && val > bestV) || (mover != c && val < bestV) {
			bestV = val
		}
	}
	return bestV
}

// material is c's men plus three times its kings, less the opponent's.
func material(p *rules.Position, c rules.Color) int {
	men, kings := p.Count(c)
	oppMen, oppKings := p.Count(c.Opponent())
	return men + 3*kings - oppMen - 3*oppKings
}
