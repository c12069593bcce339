package replay

import (
	"errors"
	"fmt"
	"strings"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Options control replay.
type Options struct {
	// Variant, when set, is used for every game (the --variant flag).
	Variant *rules.Variant
	// NoSetups rejects a game with a mid-game /FEN/ setup
	// (ErrMidGameSetup): the database stores a game as one start position
	// and its moves, so the import keeps such a game with the rejected
	// ones rather than store it wrongly. validate and normalize read it.
	NoSetups bool
}

// Replayer verifies games. It keeps scratch buffers between games, so use
// one per goroutine.
type Replayer struct {
	// numberOffset is 1 when the game being normalised starts with the
	// second mover (move numbers of its variations, see NormalizedPDN).
	numberOffset int
	opts         Options
	legal        []rules.Move
	keep         []rules.Move
	path         []int
	mt           moveText
	board        *rules.Board // of the game being replayed
	variant      *rules.Variant
	track        *boardHints  // see replayAs
	cands        []rules.Move // the moves an ambiguous text fits (see ambiguous)
	tracked      boardHints   // Replay's hints, kept here so they do not escape
	// kings is the king move limit's count at the end of the game being
	// replayed (Frisian: rules.KingMoveCounter), for its outcome.
	kings rules.KingMoveCounter
	// alt and found are scratch games for replayOthers, allocated on its
	// first use.
	alt, found *Game
	// keepIllegal keeps an illegal variation as written (AnnotatedPDN).
	keepIllegal bool
}

// NewReplayer returns a Replayer with the given options.
func NewReplayer(opts Options) *Replayer {
	return &Replayer{opts: opts, legal: make([]rules.Move, 0, 64), keep: make([]rules.Move, 0, 64), path: make([]int, 0, maxSquares)}
}

// Replay verifies pg and fills out (reusing its memory). readErr is the
// error the PDN reader returned with pg, if any: such a game is rejected as
// ErrSyntax. A rejection is a *RejectError; out then holds the moves
// played before the rejected one.
//
// The result is normalised: the Result tag (or Risultato, or the result
// token when the tag is missing) in the variant's standard form; when the
// final position decides the game (CheckFinal) and the result is missing
// or unknown, the decided result is used; when they contradict, the tag is
// kept and a warning recorded.
func (r *Replayer) Replay(pg *pdn.Game, readErr error, out *Game) error {
	out.reset()
	out.PDN = pg
	if readErr != nil {
		var se *pdn.SyntaxError
		detail := readErr.Error()
		if errors.As(readErr, &se) {
			detail = fmt.Sprintf("line %d column %d: %s", se.Line, se.Column, se.Reason)
		}
		return &RejectError{Err: ErrSyntax, Detail: detail, underlie: readErr}
	}
	v, basis, fen, decided, err := variantFromTags(pg, r.opts.Variant)
	if err != nil {
		return &RejectError{Err: ErrUnsupportedVariant, Detail: strings.TrimPrefix(err.Error(), ErrUnsupportedVariant.Error()+": ")}
	}
	if decided {
		return r.replayAs(pg, v, basis, out, nil)
	}
	err = r.replayBySquares(pg, fen, out)
	if err != nil && otherVariantMayAccept(err) {
		err = r.replayOthers(pg, out, err)
	}
	var re *RejectError
	if errors.As(err, &re) && re.Variant != "" && otherVariantMayAccept(err) {
		// The variant was a guess: say which, so that a wrong guess shows
		// (the legal moves listed are that variant's).
		re.Detail += fmt.Sprintf(" [read as %s by its %s: no GameType or Variant tag; --variant sets one]", re.Variant, out.Basis)
	}
	return err
}

// replayBySquares replays pg, which names no variant, as the variant its
// squares suggest (ResolveVariant, steps 5 and 6). Rather than scan every
// move first, it decides on the first moves, replays, and checks the
// decision against every square the replay parsed: the same answer as
// ResolveVariant, and one pass over the moves instead of two.
func (r *Replayer) replayBySquares(pg *pdn.Game, fen string, out *Game) error {
	var quick boardHints
	for i, seen := 0, 0; i < len(pg.Moves) && seen < 8; i++ {
		if t := pg.Moves[i].Text; t != "" && t != pdn.UnknownMove {
			quick.add(t, seen == 0)
			seen++
		}
	}
	fenH := fenHints(fen)
	v0, _ := decideFromSquares(quick, fenH)
	r.tracked = boardHints{}
	err := r.replayAs(pg, v0, BasisMoves, out, &r.tracked)
	if err != nil {
		// Stopped early: not every square was seen, so ask the full rule.
		full, fullBasis, _ := ResolveVariant(pg, nil)
		if full != v0 {
			return r.replayAs(pg, full, fullBasis, out, nil)
		}
		out.Basis = fullBasis
		return err
	}
	full, fullBasis := decideFromSquares(r.tracked, fenH)
	if full != v0 {
		return r.replayAs(pg, full, fullBasis, out, nil)
	}
	out.Basis = fullBasis
	return nil
}

// otherVariantMayAccept reports whether a rejection may be the rules of
// the variant rather than the game: an illegal, ambiguous or unreadable
// move. An unrecorded move, a bad FEN or a syntax error fail the same way
// in every variant.
func otherVariantMayAccept(err error) bool {
	return errors.Is(err, ErrIllegalMove) || errors.Is(err, ErrAmbiguousMove) || errors.Is(err, ErrBadMoveText)
}

// replayOthers is the second look at a game that names no variant and
// that the variant of its squares (out.Variant) rejected with err0: the
// Czech federation's files, for one, are algebraic 8x8 without a GameType,
// so they read as Russian, and Russian rejects most of their games. The
// game is replayed under every other variant with the same board size and
// notation (rules.Variant.DefaultNotation) as out.Variant; if exactly one
// accepts the whole game, out becomes that game, with BasisReplay and a
// warning that says so. Otherwise out keeps the first rejection and err0
// is returned (with the variants that accept it, when several do). It runs
// only on such a rejection, and replays at most a handful of variants.
func (r *Replayer) replayOthers(pg *pdn.Game, out *Game, err0 error) error {
	v0, basis0 := out.Variant, out.Basis
	if r.alt == nil {
		r.alt, r.found = new(Game), new(Game)
	}
	var accepting []string
	var accepted *rules.Variant
	for _, c := range rules.Variants() {
		if c == v0 || !SameBoardAndNotation(c, v0) {
			continue
		}
		if r.replayAs(pg, c, BasisReplay, r.alt, nil) != nil {
			continue
		}
		accepting = append(accepting, c.Name)
		if accepted == nil {
			accepted = c
			r.alt, r.found = r.found, r.alt
		}
	}
	wider := ""
	if len(accepting) == 0 && v0.Board.Width == 8 && !v0.Board.AllSquares && v0.DefaultNotation == rules.Numeric {
		// Numbers up to 32 are squares of the 10x10 board too: a problem
		// set up by a FEN on 10x10's upper half reads as English by its
		// squares (Cat.D1.pdn game 16, in a file of International games).
		// International stands for its board: the other 10x10 variants
		// are lidraughts', whose games name their variant.
		if r.replayAs(pg, rules.International, BasisReplay, r.alt, nil) == nil {
			accepting, accepted = []string{rules.International.Name}, rules.International
			r.alt, r.found = r.found, r.alt
			wider = fmt.Sprintf(", none of the other %s numeric variants accepts it, and %s (numbered alike on 1-32) accepts every move", v0.Board.Name, accepted.Name)
		}
	}
	if len(accepting) != 1 {
		var re *RejectError
		if len(accepting) > 1 && errors.As(err0, &re) {
			re.Detail += fmt.Sprintf(" (without a variant tag; %s each accept the whole game)", strings.Join(accepting, " and "))
		}
		return err0
	}
	*out, *r.found = *r.found, *out
	what := Reason(err0)
	var re *RejectError
	if errors.As(err0, &re) && re.Ply > 0 {
		what = fmt.Sprintf("ply %d %q: %s", re.Ply, quote(re.Text), what)
	}
	notation := "numeric"
	if v0.DefaultNotation == rules.Algebraic {
		notation = "algebraic"
	}
	if wider != "" {
		out.Warnings = append(out.Warnings, Warning{Kind: WarnVariantByReplay, Variant: accepted.Name,
			Text: fmt.Sprintf("%s %s: no GameType, Variant or Italian tags; %s (by %s) rejects %s%s",
				variantByReplay, accepted.Name, v0.Name, basis0, what, wider)})
		return nil
	}
	out.Warnings = append(out.Warnings, Warning{Kind: WarnVariantByReplay, Variant: accepted.Name,
		Text: fmt.Sprintf("%s %s: no GameType, Variant or Italian tags; %s (by %s) rejects %s, and of the other %s %s variants only %s accepts every move",
			variantByReplay, accepted.Name, v0.Name, basis0, what, v0.Board.Name, notation, accepted.Name)})
	return nil
}

// variantByReplay starts the warning of a game stored under BasisReplay.
const variantByReplay = "variant decided by replay:"

// replayAs replays pg as variant v. track, when not nil, collects what the
// written squares say about the board (see boardHints).
func (r *Replayer) replayAs(pg *pdn.Game, v *rules.Variant, basis Basis, out *Game, track *boardHints) error {
	out.reset()
	out.PDN = pg
	out.Variant, out.Basis = v, basis
	out.Warnings = readerWarnings(pg, out.Warnings)
	r.board, r.variant = v.Board, v
	pos := v.StartPosition()
	if fen := strings.TrimSpace(pg.Tag("FEN")); fen != "" {
		p, err := parseFEN(v, fen)
		if err != nil && unknownSide(fen) {
			p, err = r.unknownSideFEN(pg, v, fen, out)
		}
		if err != nil {
			return &RejectError{Err: ErrBadFEN, Detail: fmt.Sprintf("FEN tag %q: %v", quote(fen), err), Variant: v.Name, underlie: err}
		}
		pos = p
		out.StartFEN = startFEN(v, &p)
	}
	out.Start = pos

	ply := 0
	// Frisian's limit on moving one king (rules.KingMoveCounter) is a
	// rule of the game, not of a position: the replay keeps its count.
	var kings rules.KingMoveCounter
	for i := 0; i < len(pg.Moves); i++ {
		pm := &pg.Moves[i]
		if setup := pm.Setup(); setup != "" {
			kings = rules.KingMoveCounter{} // a set-up position has no history
			if r.opts.NoSetups && ply > 0 {
				return &RejectError{Err: ErrMidGameSetup, Ply: ply + 1, Text: pm.Text, FEN: pos.FEN(), Variant: v.Name,
					Detail: fmt.Sprintf("/FEN %q/ before ply %d: the database stores a game from one start position, so it is kept here (validate and normalize read it)", quote(setup), ply+1)}
			}
			p, err := parseFEN(v, setup)
			if err != nil {
				return &RejectError{Err: ErrBadFEN, Ply: ply + 1, Text: pm.Text, Detail: fmt.Sprintf("/FEN %q/ setup: %v", quote(setup), err), Variant: v.Name, underlie: err}
			}
			pos = p
			if r.opts.NoSetups {
				// Before the first move a setup is the start position.
				out.Start, out.StartFEN = p, startFEN(v, &p)
			} else {
				out.Setups = append(out.Setups, Setup{BeforePly: ply + 1, Position: p})
			}
		}
		if pm.Text == "" {
			continue
		}
		ply++
		text, last := moveTextAt(pg, i)
		if pm.Text == pdn.UnknownMove {
			return r.reject(ErrUnknownMove, &pos, ply, pm.Text, "the move was not recorded, so the game cannot be verified past it")
		}
		if !parseMoveText(v.Board, text, v.AlgebraicFromBlack, &r.mt) {
			return r.reject(ErrBadMoveText, &pos, ply, text, fmt.Sprintf("not a move on the %s board", v.Board.Name))
		}
		if track != nil {
			track.addParsed(&r.mt, ply == 1)
		}
		r.track = track
		token := int32(i)
		m, err := r.resolve(&pos, ply, text)
		if err != nil {
			var used int
			if m, used, err = r.joinSplit(pg, &pos, last, err); err == nil {
				last += used
			} else if errors.Is(err, ErrAmbiguousMove) && len(r.cands) > 1 {
				m, err = r.resolveByRest(pg, v, &pos, last+1, ply, text, err, &out.Warnings)
			}
			if err != nil {
				return err
			}
		}
		if v.KingMoveLimit > 0 {
			if !kings.Allowed(&pos, &m) {
				r.legal = kings.Filter(&pos, pos.LegalMoves(r.legal[:0]))
				legal := r.legalList(&pos, 12)
				if len(r.legal) == 0 {
					legal = "none: " + pos.SideToMove().String() + " has no move the game allows, and has lost"
				}
				return r.rejectAmong(ErrIllegalMove, &pos, r.legal, ply, text,
					fmt.Sprintf("the king on %s may not move a %s time in a row: %s allows %d while its side has men as well as kings (legal: %s)",
						sqName(v.Board, v, m.From()), nth(v.KingMoveLimit+1), v.Name, v.KingMoveLimit, legal))
			}
			kings.Update(&pos, &m)
		}
		i = last
		pos.Play(&m)
		out.Moves = append(out.Moves, m)
		out.Hashes = append(out.Hashes, pos.Hash())
		out.Tokens = append(out.Tokens, token)
	}
	out.Final = pos
	r.kings = kings
	r.finishResult(pg, out)
	out.Warnings = repeatedTags(pg, out.Warnings)
	out.White, out.Black = Players(pg, v)
	date, ok := CleanDate(pg.Tag("Date"))
	switch {
	case !ok:
		out.Warnings = append(out.Warnings, Warning{Kind: WarnDateNotUnderstood,
			Text: fmt.Sprintf("date %q not understood; stored as %s (not YYYY.MM.DD: nothing is guessed; the Date tag keeps it as written)", quote(pg.Tag("Date")), date)})
	case isDateRange(pg.Tag("Date")):
		out.Warnings = append(out.Warnings, Warning{Kind: WarnDateRange,
			Text: fmt.Sprintf("date %q is a range; stored as its first date %s", quote(pg.Tag("Date")), date)})
	}
	out.Date = date
	return nil
}

// startFEN is the Game.StartFEN of a game that starts at p: "" for the
// variant's initial position, which a FEN of it is (the game must hash and
// compare like one written without the tag).
func startFEN(v *rules.Variant, p *rules.Position) string {
	if start := v.StartPosition(); p.Hash() == start.Hash() && p.FEN() == start.FEN() {
		return ""
	}
	return p.FEN()
}

// unknownSide reports whether fen gives "?" for the side to move, which
// PDN 3.0 allows ("we allow ? to denote an unknown color"; its own test
// suite's fen.pdn has one).
func unknownSide(fen string) bool { return strings.HasPrefix(strings.Trim(fen, "\" "), "?") }

// unknownSideFEN reads a FEN whose side to move is "?": the side whose
// legal moves include the game's first move, or, when its first move does
// not tell (no move, or both sides could play it), the variant's first
// mover; a warning says which.
func (r *Replayer) unknownSideFEN(pg *pdn.Game, v *rules.Variant, fen string, out *Game) (rules.Position, error) {
	rest := strings.Trim(fen, "\" ")[1:]
	var cand [2]rules.Position
	for c, side := range []string{"W", "B"} {
		p, err := parseFEN(v, side+rest)
		if err != nil {
			return p, err
		}
		cand[c] = p
	}
	text := ""
	for i := range pg.Moves {
		if pg.Moves[i].Setup() != "" {
			break
		}
		if pg.Moves[i].Text != "" && pg.Moves[i].Text != pdn.UnknownMove {
			text, _ = moveTextAt(pg, i)
			break
		}
	}
	var fits []rules.Color
	if text != "" && parseMoveText(v.Board, text, v.AlgebraicFromBlack, &r.mt) {
		for c := range cand {
			if _, err := r.resolve(&cand[c], 1, text); err == nil {
				fits = append(fits, rules.Color(c))
			}
		}
	}
	side, why := v.FirstToMove, "the variant's first mover: the first move does not tell"
	if len(fits) == 1 {
		side, why = fits[0], fmt.Sprintf("the first move, %s, is %s's", quote(text), fits[0])
	}
	out.Warnings = append(out.Warnings, Warning{Kind: WarnFENSideUnknown, Text: fmt.Sprintf("FEN side to move \"?\" read as %s (%s)", side, why)})
	return cand[side], nil
}

// repeatedTags warns of a tag given again with another value: the first
// is the game's (pdn.Game.Tag), and normalize and the database keep only
// it (the PDN standard's own example repeats Event).
func repeatedTags(pg *pdn.Game, dst []Warning) []Warning {
	for i := 1; i < len(pg.Tags); i++ {
		t := &pg.Tags[i]
		for j := 0; j < i; j++ {
			if f := &pg.Tags[j]; f.Name == t.Name {
				if f.Value != t.Value {
					dst = append(dst, Warning{Kind: WarnRepeatedTag,
						Text: fmt.Sprintf("%s %s given again as %q; the first, %q, is kept", warnRepeatedTag, t.Name, quote(t.Value), quote(f.Value))})
				}
				break
			}
		}
	}
	return dst
}

// readerWarnings turns what the PDN reader noticed (a result token that
// differs from the Result tag, a missing result, ...) into game warnings,
// so that nothing it repaired goes unsaid.
func readerWarnings(pg *pdn.Game, dst []Warning) []Warning {
	for _, w := range pg.Warnings {
		dst = append(dst, Warning{Kind: readerKind(w.Kind), Text: fmt.Sprintf("line %d column %d: %s", w.Line, w.Column, w.Reason)})
	}
	return dst
}

func (r *Replayer) finishResult(pg *pdn.Game, out *Game) {
	written := writtenResult(pg)
	res, ok := ParseResult(out.Variant, written)
	if !ok {
		out.Warnings = append(out.Warnings, Warning{Kind: WarnResultNotUnderstood, Text: fmt.Sprintf("result %q is not a game result; stored as *", written)})
	}
	// The Result tag and the token may disagree (the reader warns). When
	// the final position decides the game and only the token agrees with
	// it, the file's own evidence is the token: lidraughts' Russian games
	// 1, 12 and 15 of the shared archive have tags 1-1, 1-1, 2-0 and tokens
	// 2-0, 0-2, 0-2 that their final positions prove.
	if token := strings.TrimSpace(pg.Result); token != "" && token != written {
		if tres, ok := ParseResult(out.Variant, token); ok && tres != res {
			if d, decided, _ := r.checkFinal(out.Variant, &out.Final, ResultUnknown, token); decided && tres == d {
				out.Warnings = append(out.Warnings, Warning{Kind: WarnResultFromToken,
					Text: fmt.Sprintf("%s %s, which the final position proves (the Result tag says %q)", warnResultFromToken, tres.Format(out.Variant), quote(written))})
				res, written = tres, token
			}
		}
	}
	var warning Warning
	res, out.Proven, warning = checkFinalProven(out.Variant, &out.Final, &r.kings, res, written)
	out.Decided = out.Proven != ResultUnknown
	if warning.Text != "" {
		out.Warnings = append(out.Warnings, warning)
	}
	out.Result = res
}

// checkFinal compares a result with the final position (see CheckFinal).
func (r *Replayer) checkFinal(v *rules.Variant, final *rules.Position, res Result, written string) (Result, bool, string) {
	return checkFinalAfter(v, final, &r.kings, res, written)
}

// CheckFinal compares a game's result with its final position. When the
// position decides the game under the variant's Win rule (rules.Outcome: a
// side to move without a legal move loses, or wins in antidraughts; the
// first king wins in breakthrough), an unknown result becomes the decided
// one, with a warning that says so, and a result that contradicts it is
// kept, with a warning. written is the result as the file wrote it (for
// the warning). Replay applies it to every game; repairs of stored games
// use it to give the same warnings.
func CheckFinal(v *rules.Variant, final *rules.Position, res Result, written string) (_ Result, decided bool, warning string) {
	return checkFinal(v, final, res, written)
}

func checkFinal(v *rules.Variant, final *rules.Position, res Result, written string) (Result, bool, string) {
	return checkFinalAfter(v, final, &rules.KingMoveCounter{}, res, written)
}

// checkFinalAfter is checkFinal for a game whose king move limit's count
// at the end is kings: it may leave the side to move no move the game
// allows (rules.KingMoveCounter.Outcome).
func checkFinalAfter(v *rules.Variant, final *rules.Position, kings *rules.KingMoveCounter, res Result, written string) (Result, bool, string) {
	res, proven, warning := checkFinalProven(v, final, kings, res, written)
	return res, proven != ResultUnknown, warning.Text
}

// checkFinalProven is checkFinalAfter returning, instead of whether the
// final position decides the game, the result it proves (ResultUnknown
// where it proves none): Game.Proven, and the warning as a Warning (its
// Text "" for none).
func checkFinalProven(v *rules.Variant, final *rules.Position, kings *rules.KingMoveCounter, res Result, written string) (Result, Result, Warning) {
	var decided Result
	outcome := kings.Outcome(final)
	switch outcome {
	case rules.WhiteWins:
		decided = WhiteWins
	case rules.BlackWins:
		decided = BlackWins
	default:
		return res, ResultUnknown, Warning{}
	}
	blocked := outcome != final.Outcome()
	why := fmt.Sprintf("%s has no legal move", final.SideToMove())
	if blocked {
		why += fmt.Sprintf(" (its only moves are a %s move in a row of one king, which %s forbids)", nth(v.KingMoveLimit+1), v.Name)
	}
	switch v.Win {
	case rules.WinWhenNoMove:
		why += fmt.Sprintf(", which wins in %s", v.Name)
	case rules.FirstKingWins:
		winner, _ := decided.Winner()
		if _, kings := final.Count(winner); kings > 0 {
			why = fmt.Sprintf("%s has a king, which wins in %s", winner, v.Name)
		}
	}
	switch {
	case res == ResultUnknown:
		return decided, decided, Warning{Kind: WarnResultCompleted, Text: fmt.Sprintf("result %q completed from the final position: %s", written, why)}
	case res != decided:
		return res, decided, Warning{Kind: WarnResultContradicts, Text: fmt.Sprintf("result %s contradicts the final position, where %s", res.Format(v), why)}
	}
	return res, decided, Warning{}
}

// reject builds a RejectError with the position and the legal moves there.
func (r *Replayer) reject(reason error, pos *rules.Position, ply int, text, detail string) error {
	return r.rejectAmong(reason, pos, pos.LegalMoves(nil), ply, text, detail)
}

// rejectAmong is reject with the moves the game allows there given.
func (r *Replayer) rejectAmong(reason error, pos *rules.Position, legal []rules.Move, ply int, text, detail string) error {
	v := pos.Variant()
	names := make([]string, len(legal))
	for i := range legal {
		names[i] = rules.MoveText(v, legal, &legal[i], v.DefaultNotation)
	}
	return &RejectError{Err: reason, Ply: ply, Text: text, FEN: pos.FEN(), Legal: names, Detail: detail, Variant: v.Name}
}

// joinSplitCapture extends the capture in r.mt (which matched no legal
// move in pos) with the hops written as the following moves, each starting
// where the previous one ended, until the squares so far are one legal
// move by resolve's rules: a legal move's full path, a full path read hop
// by hop on the board (resolveByHops: a flying king may land on any square
// from which the chain goes on, not only the one the engine lists, so
// "a1xd4 d4xg7" joins as well as "a1xc3 c3xg7"), or the one move they fit.
// It reports how many following moves it used. r.legal must hold the
// position's moves.
func (r *Replayer) joinSplitCapture(pos *rules.Position, next []pdn.Move) (rules.Move, int, bool) {
	b := pos.Board()
	var hop moveText
	kept := false
	for j := range next {
		if next[j].Text == "" || next[j].Setup() != "" ||
			!parseMoveText(b, next[j].Text, r.variant.AlgebraicFromBlack, &hop) || r.trackHop(&hop) ||
			hop.short || hop.sq[0] != r.mt.sq[r.mt.n-1] || r.mt.n+hop.n-1 > maxSquares {
			return rules.Move{}, 0, false
		}
		copy(r.mt.sq[r.mt.n:], hop.sq[1:hop.n])
		r.mt.n += hop.n - 1
		found, exact, count := r.pick(r.legal, true)
		if exact {
			return r.legal[found], j + 1, true
		}
		if !kept {
			r.keep = pos.AppendMoves(r.keep[:0], true)
			kept = true
		}
		if k, kexact, _ := r.pick(r.keep, false); kexact {
			return r.keep[k], j + 1, true
		}
		if m, ok := r.resolveByHops(pos); ok {
			return m, j + 1, true
		}
		switch count {
		case 1:
			return r.legal[found], j + 1, true
		case 0:
			continue
		default:
			return rules.Move{}, 0, false
		}
	}
	return rules.Move{}, 0, false
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// trackHop records a capture hop's squares (joinSplitCapture); it always
// returns false so it can sit in a condition.
func (r *Replayer) trackHop(hop *moveText) bool {
	if r.track != nil {
		r.track.addParsed(hop, false)
	}
	return false
}

// nth writes n as an English ordinal: 1st, 2nd, 3rd, 4th, ...
func nth(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}
