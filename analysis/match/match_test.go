package match

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/annotate"
	"github.com/draughtsdb/draughtsdb/analysis/dxp"
	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestEloAgainstCutechess checks the statistics against match results
// that cutechess-cli printed in public pull requests ("Score of X vs Y: W
// - L - D ... Elo difference: E +/- M"). cutechess computes the same
// trinomial standard error and logistic Elo, with an approximate normal
// quantile (1.9572 instead of 1.95996), so its margins may differ from
// ours in the second decimal: the Elo difference must agree to the printed
// decimal, the margin within 0.06.
func TestEloAgainstCutechess(t *testing.T) {
	for _, c := range []struct {
		src            string
		w, l, d        int
		elo, margin    float64
		score, printed float64 // cutechess's [0.xxx]
	}{
		{"JoAnnP38/Pedantic#8", 332, 316, 352, 5.6, 17.3, 0.508, 0.508},
		{"JoAnnP38/Pedantic#10", 1342, 1317, 1341, 2.2, 8.8, 0.503, 0.503},
		{"spamdrew128/Wahoo#104", 509, 396, 1058, 20.0, 10.4, 0.529, 0.529},
		{"jw1912/akimbo#29", 1593, 1433, 1971, 11.1, 7.5, 0.516, 0.516},
		{"dede1751/carp#5", 1448, 1320, 1679, 10.0, 8.0, 0.514, 0.514},
		{"justNo4b/Equisetum#10", 3068, 2861, 4061, 7.2, 5.2, 0.510, 0.510},
	} {
		s := Stats{Wins: c.w, Draws: c.d, Losses: c.l}
		if got := math.Round(s.Score()*1000) / 1000; got != c.printed {
			t.Errorf("%s: score %.4f, cutechess %.3f", c.src, s.Score(), c.printed)
		}
		if got := math.Round(s.Elo()*10) / 10; got != c.elo {
			t.Errorf("%s: Elo %.2f, cutechess %.1f", c.src, s.Elo(), c.elo)
		}
		if m := s.EloError(); math.Abs(m-c.margin) > 0.06 {
			t.Errorf("%s: Elo error %.3f, cutechess %.1f", c.src, m, c.margin)
		}
	}
}

// TestStatsByHand: 6 wins, 2 draws, 2 losses, worked out on paper.
// s = (6 + 1) / 10 = 0.7; one game's variance = 0.6*0.3^2 + 0.2*0.2^2 +
// 0.2*0.7^2 = 0.054 + 0.008 + 0.098 = 0.16; se = sqrt(0.16/10) = 0.126491;
// interval 0.7 +- 1.959964*0.126491 = 0.7 +- 0.247918 = [0.452082,
// 0.947918]; Elo(0.7) = -400 log10(3/7) = 147.19; the interval's ends give
// -400 log10(0.547918/0.452082) = -33.40 and -400 log10(0.052082/0.947918)
// = +504.03, so the error is (504.03 + 33.40) / 2 = 268.72.
func TestStatsByHand(t *testing.T) {
	s := Stats{Wins: 6, Draws: 2, Losses: 2}
	near := func(what string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.6f, want %.6f", what, got, want)
		}
	}
	near("score", s.Score(), 0.7, 1e-12)
	near("stderr", s.StdErr(), 0.126491, 1e-6)
	lo, hi := s.Interval()
	near("low", lo, 0.452082, 1e-6)
	near("high", hi, 0.947918, 1e-6)
	near("elo", s.Elo(), 147.19, 0.01)
	elo1, elo2 := s.EloInterval()
	near("elo low", elo1, -33.40, 0.01)
	near("elo high", elo2, 504.03, 0.01)
	near("elo error", s.EloError(), 268.72, 0.01)

	// Without spread or at the edges, the error is unbounded, not NaN.
	if e := (Stats{Wins: 3}).EloError(); !math.IsInf(e, 1) {
		t.Errorf("3-0: Elo error %v, want +Inf", e)
	}
	if e := (Stats{Draws: 4}).EloError(); e != 0 {
		t.Errorf("four draws: Elo error %v, want 0 (no spread)", e)
	}
	if !strings.Contains((Stats{Wins: 3}).String(), "+inf +/- inf") {
		t.Errorf("3-0: %s", Stats{Wins: 3})
	}
}

func TestBallots(t *testing.T) {
	// International: Moby Dam's 79, each a 2-ply line from the start; with
	// the two that lose a man, every 2-ply position.
	intl, err := Ballots(rules.International)
	if err != nil {
		t.Fatal(err)
	}
	if len(intl) != 79 {
		t.Fatalf("%d International ballots, want 79", len(intl))
	}
	all := map[uint64]bool{}
	for _, o := range generatedBallots(rules.International, 2) {
		all[o.Pos.Hash()] = true
	}
	for i, o := range intl {
		if len(o.Line) != 2 || !all[o.Pos.Hash()] {
			t.Errorf("ballot %d (%s): line of %d plies", i+1, o.FEN(), len(o.Line))
		}
		delete(all, o.Pos.Hash())
	}
	var left []string
	for _, o := range generatedBallots(rules.International, 2) {
		if all[o.Pos.Hash()] {
			left = append(left, moveText(&o.Line[0])+" "+moveText(&o.Line[1]))
		}
	}
	if strings.Join(left, ", ") != "32-27 16-21, 31-27 16-21" {
		t.Errorf("2-ply positions that are no ballot: %v", left)
	}

	// Russian and Brazilian: the names spell the lines in the short form
	// ("cd4" = from the c file to d4).
	for _, v := range []*rules.Variant{rules.Russian, rules.Brazilian} {
		bs, err := Ballots(v)
		if err != nil {
			t.Fatal(err)
		}
		if len(bs) != 150 {
			t.Fatalf("%s: %d ballots, want 150", v.Name, len(bs))
		}
		for _, o := range bs {
			name := strings.Fields(o.Name)[1:]
			switch o.Name {
			case "5-VII Free": // the initial position itself
				if len(o.Line) != 0 {
					t.Errorf("%s: %q has a line", v.Name, o.Name)
				}
				continue
			case "2-IV ef4 fe5 ab4": // the list's FEN is after ab4 fe5 ba5: the position counts
				if len(o.Line) != 3 {
					t.Errorf("%s: %q: %d plies", v.Name, o.Name, len(o.Line))
				}
				continue
			}
			var got []string
			for i := range o.Line {
				m := &o.Line[i]
				got = append(got, v.Board.Algebraic(m.From())[:1]+v.Board.Algebraic(m.To()))
			}
			if strings.Join(got, " ") != strings.Join(name, " ") {
				t.Errorf("%s ballot %q: line %v", v.Name, o.Name, got)
			}
		}
	}
	// English: the ACF 3-move ballots, named by their moves.
	en, err := Ballots(rules.English)
	if err != nil {
		t.Fatal(err)
	}
	if len(en) != 157 {
		t.Fatalf("%d English ballots", len(en))
	}
	for _, o := range en {
		var got []string
		for i := range o.Line {
			got = append(got, fmt.Sprintf("%02d-%02d", o.Line[i].From(), o.Line[i].To()))
		}
		if want := strings.Fields(o.Name)[1:]; strings.Join(got, " ") != strings.Join(want, " ") && !strings.Contains(o.Name, "x") {
			// a capture's name gives from-to too: compare the squares
			t.Errorf("English ballot %q: line %v", o.Name, got)
		}
	}
	// Generated: Frisian has no list.
	fr, err := Ballots(rules.Frisian)
	if err != nil || len(fr) == 0 {
		t.Fatalf("frisian: %d, %v", len(fr), err)
	}
}

func TestReadOpenings(t *testing.T) {
	v := rules.International
	text := "# comment\n\nW:W26,32-50:B1-15,17-21\n32-28 19-23\n1. 33-29 17-22\nB:W31-50:B1-20\n"
	os, err := ReadOpenings(v, strings.NewReader(text), "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(os) != 4 {
		t.Fatalf("%d openings", len(os))
	}
	if got := moveText(&os[0].Line[0]) + " " + moveText(&os[0].Line[1]); got != "31-26 16-21" {
		t.Errorf("FEN opening's line %q", got)
	}
	if len(os[1].Line) != 2 || len(os[2].Line) != 2 {
		t.Errorf("move lines: %d, %d plies", len(os[1].Line), len(os[2].Line))
	}
	// Black to move at the start: no line reaches it, the game starts from it.
	if len(os[3].Line) != 0 || os[3].Start.SideToMove() != rules.Black {
		t.Errorf("set-up opening: start %s line %v", os[3].Start.FEN(), os[3].Line)
	}
	pd := "[Event \"x\"]\n[FEN \"W:W31-50:B1-20\"]\n1. 32-28 18-23 *\n\n[Event \"y\"]\n1. 31-27 *\n"
	os, err = ReadOpenings(v, strings.NewReader(pd), "f.pdn")
	if err != nil || len(os) != 2 || len(os[0].Line) != 2 || len(os[1].Line) != 1 {
		t.Fatalf("PDN openings: %d, %v", len(os), err)
	}
	for _, bad := range []struct{ text, want string }{
		{"32-28\n32-28 32-27\n", "f:2"},
		{"W:W31-50:B1-20\nW:Wx:B1\n", "f:2"},
		{"\n# nothing\n", "no opening"},
		{"W:W1:B2\n", "f:1"},
	} {
		_, err := ReadOpenings(v, strings.NewReader(bad.text), "f")
		if !errors.Is(err, ErrOpenings) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want ErrOpenings naming %q", bad.text, err, bad.want)
		}
	}
}

// scripted is a test player: pick chooses its move.
type scripted struct {
	name    string
	pick    func(g *Game) (rules.Move, error)
	resets  int
	finish  int
	failRst error
}

func (p *scripted) Name() string                                        { return p.name }
func (p *scripted) Begin(context.Context, *Game, rules.Color) error     { return nil }
func (p *scripted) Move(_ context.Context, g *Game) (rules.Move, error) { return p.pick(g) }
func (p *scripted) Finish(context.Context, *Game) error                 { p.finish++; return nil }
func (p *scripted) Reset(context.Context) error                         { p.resets++; return p.failRst }
func (p *scripted) Close() error                                        { return nil }

// wander plays the first legal move (captures first, as they are forced
// anyway) that leads to a position not seen yet in the game, else the
// first legal move: games that neither repeat nor end fast.
func wander(g *Game) (rules.Move, error) {
	moves := g.KingMoves.Filter(&g.Pos, g.Pos.LegalMoves(nil))
	seen := map[uint64]bool{}
	for _, h := range g.History {
		seen[h] = true
	}
	for _, m := range moves {
		q := g.Pos
		q.Play(&m)
		if !seen[q.Hash()] {
			return m, nil
		}
	}
	return moves[0], nil
}

// safe filters moves to those after which the opponent cannot capture
// (when there are any): the material stays as it is.
func safe(p *rules.Position, moves []rules.Move) []rules.Move {
	var out []rules.Move
	for _, m := range moves {
		q := *p
		q.Play(&m)
		capt := false
		for _, r := range q.LegalMoves(nil) {
			capt = capt || r.IsCapture()
		}
		if !capt {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return moves
	}
	return out
}

// calm is wander among the moves that give the opponent no capture.
func calm(g *Game) (rules.Move, error) {
	moves := safe(&g.Pos, g.Pos.LegalMoves(nil))
	seen := map[uint64]bool{}
	for _, h := range g.History {
		seen[h] = true
	}
	for _, m := range moves {
		q := g.Pos
		q.Play(&m)
		if !seen[q.Hash()] {
			return m, nil
		}
	}
	return moves[0], nil
}

// first plays the first move that gives the opponent no capture: kings
// alone soon repeat.
func first(g *Game) (rules.Move, error) { return safe(&g.Pos, g.Pos.LegalMoves(nil))[0], nil }

func playFrom(t *testing.T, v *rules.Variant, fen string, white, black func(*Game) (rules.Move, error), maxPlies int) *Game {
	t.Helper()
	pos, err := rules.ParseFEN(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(1, &Opening{Start: pos, Pos: pos})
	failed, err := play(context.Background(), g, &scripted{name: "w", pick: white}, &scripted{name: "b", pick: black}, maxPlies)
	if err != nil || failed != nil {
		t.Fatalf("play: %v, failed %v", err, failed)
	}
	return g
}

func TestAdjudication(t *testing.T) {
	v := rules.International
	// 16-move rule: three kings against one; neither side repeats, the
	// lone king is never taken within the 32 plies.
	g := playFrom(t, v, "W:WK1,K2,K3:BK28", calm, calm, 0)
	if g.Reason != Rule16 || g.Result != replay.Draw || len(g.Moves) != 32 {
		t.Errorf("3 kings v 1: %s %s after %d plies", g.Result.Format(v), g.Reason, len(g.Moves))
	}
	// 5-move rule: two kings against one.
	g = playFrom(t, v, "W:WK1,K2:BK28", calm, calm, 0)
	if g.Reason != Rule5 || len(g.Moves) != 10 {
		t.Errorf("2 kings v 1: %s after %d plies", g.Reason, len(g.Moves))
	}
	// Threefold repetition: kings that always play their first move.
	g = playFrom(t, v, "W:WK46,K47,K48,K49:BK5,K4", first, first, 0)
	if g.Reason != Repetition || rules.Repetitions(g.History) != 2 {
		t.Errorf("first moves: %s after %d plies", g.Reason, len(g.Moves))
	}
	// 25-move rule: 4 kings each, no repetition: 50 plies of king moves.
	g = playFrom(t, v, "W:WK46,K47,K48,K49:BK1,K2,K3,K4", calm, calm, 0)
	if g.Reason != KingRule(v) || KingRule(v) != "25-move rule" || len(g.Moves) != 50 {
		t.Errorf("4 kings each: %s after %d plies", g.Reason, len(g.Moves))
	}
	// No legal move: White's man blocked, Black to move has nothing: a
	// lone black man on 46? Black men move down: a black man on 46 (the
	// last row) cannot exist; use a blocked black man at 36 behind white
	// men on 41 and 47 (41 blocks, 47 stops the jump).
	g = playFrom(t, v, "B:W41,47:B36", wander, wander, 0)
	if g.Reason != NoLegalMove || g.Result != replay.WhiteWins || len(g.Moves) != 0 {
		t.Errorf("blocked: %s %s after %d", g.Result.Format(v), g.Reason, len(g.Moves))
	}
	// Move limit.
	g = playFrom(t, v, "W:WK46,K47,K48,K49:BK1,K2,K3,K4", calm, calm, 7)
	if g.Reason != MoveLimit || len(g.Moves) != 7 {
		t.Errorf("limit 7: %s after %d", g.Reason, len(g.Moves))
	}
	// Breakthrough: the first king wins.
	g = playFrom(t, rules.Breakthrough, "W:W7:B45", wander, wander, 0)
	if g.Reason != FirstKing || g.Result != replay.WhiteWins {
		t.Errorf("breakthrough: %s %s after %d", g.Result.Format(rules.Breakthrough), g.Reason, len(g.Moves))
	}
	// Russian: the 15-move rule.
	if KingRule(rules.Russian) != "15-move rule" {
		t.Errorf("Russian: %s", KingRule(rules.Russian))
	}
}

func TestEndingCounter(t *testing.T) {
	v := rules.International
	pos := func(fen string) *rules.Position {
		p, err := rules.ParseFEN(v, fen)
		if err != nil {
			t.Fatal(err)
		}
		return &p
	}
	for fen, want := range map[string]int{
		"W:WK46,K47,K48:BK5": 16, "W:WK46,K47,30:BK5": 16, "W:WK46,30,29:BK5": 16, "B:W:B5,K10,K20:WK46": 16,
		"W:WK46,K47:BK5": 5, "W:WK46,30:BK5": 5, "W:WK46:BK5": 5,
		"W:W46,47,48:BK5": 0, "W:WK46,K47,K48,K49:BK5": 0, "W:WK46,K47,K48:B5": 0, "W:WK46,K47,K48:BK5,K4": 0,
	} {
		if got := rules.EndingClass(pos(fen)); got != want {
			t.Errorf("%s: class %d, want %d", fen, got, want)
		}
	}
	if rules.EndingClass(func() *rules.Position { p, _ := rules.ParseFEN(rules.Brazilian, "W:WK1,K2,K3:BK32"); return &p }()) != 0 {
		t.Error("the endgame rules are International's only")
	}
	// The 5-move count starts when a capture leaves two pieces against
	// the king, and the 16-move limit still holds. Moby Dam's is_draw
	// (core/util.c, after KNDB's rules, art. 9) draws at the same plies.
	// It looks 32 plies back for three pieces with a king against a lone
	// king, and 10 plies back for two or one.
	three, two, men := pos("W:WK46,K47,K48:BK5"), pos("W:WK46,K47:BK5"), pos("W:W36,37:BK5")
	play := func(capture int, after ...*rules.Position) (drawnAt, rule int) {
		var e rules.EndingCounter
		e.Update(pos("W:WK46,K47,K48,K49:BK5")) // no rule yet
		e.Update(three)                         // ply 0 of the 16 moves
		for ply := 1; ply <= 60; ply++ {
			p := three
			if ply >= capture {
				p = after[0]
				if len(after) > 1 && ply >= capture+3 {
					p = after[1]
				}
			}
			e.Update(p)
			if e.Drawn() {
				return ply, e.Rule()
			}
		}
		return 0, 0
	}
	for _, c := range []struct {
		name      string
		capture   int
		after     []*rules.Position
		ply, rule int
	}{
		{"no capture", 100, []*rules.Position{three}, 32, 16},
		{"a capture at ply 10: the 5 moves end first", 10, []*rules.Position{two}, 20, 5},
		{"a capture at ply 22: both end at ply 32", 22, []*rules.Position{two}, 32, 16},
		{"a capture at ply 25: the 16 moves end first", 25, []*rules.Position{two}, 32, 16},
		{"a capture at ply 32 itself", 32, []*rules.Position{two}, 32, 16},
		{"the king taken, two men left: the 16 moves still end it", 20, []*rules.Position{men}, 32, 16},
		{"the king taken, then a man crowned: 5 moves from the crowning", 5, []*rules.Position{men, pos("W:WK46,37:BK5")}, 18, 5},
	} {
		if ply, rule := play(c.capture, c.after...); ply != c.ply || rule != c.rule {
			t.Errorf("%s: drawn at ply %d by the %d-move rule, want ply %d by the %d-move rule", c.name, ply, rule, c.ply, c.rule)
		}
	}
	var e rules.EndingCounter
	for range 40 {
		e.Update(pos("W:WK46,K47,K48,K49:BK5"))
	}
	if e.Drawn() || e.Class() != 0 {
		t.Fatalf("four pieces against a king: %+v", e)
	}
	for range 10 { // plies 0 to 9 of 2 v 1
		e.Update(two)
	}
	if e.Drawn() || e.Class() != 5 {
		t.Fatalf("9 plies of 2 v 1 after 4 v 1: %+v", e)
	}
	e.Update(two)
	if !e.Drawn() || e.Rule() != 5 {
		t.Fatalf("not drawn after 10 plies of 2 v 1: %+v", e)
	}
}

// memStore keeps games in memory (the database store is tested in
// cmd/draughtsdb against PostgreSQL).
type memStore struct {
	results []replay.Result
	texts   [][]byte
	games   []*Game
}

func (s *memStore) Results(context.Context) ([]replay.Result, error) { return s.results, nil }
func (s *memStore) Save(_ context.Context, g *Game, text []byte) error {
	if g.Round != len(s.results)+1 {
		return fmt.Errorf("round %d after %d", g.Round, len(s.results))
	}
	s.results = append(s.results, g.Result)
	s.texts = append(s.texts, text)
	s.games = append(s.games, g)
	return nil
}

func TestRunScheduleForfeitsAndPDN(t *testing.T) {
	v := rules.International
	bs, err := Ballots(v)
	if err != nil {
		t.Fatal(err)
	}
	// B fails on its 3rd call of each game it is asked in game 3: an
	// error; in game 4 it plays an illegal move; else it wanders.
	a := &scripted{name: "alpha", pick: wander}
	var calls int
	b := &scripted{name: "beta"}
	b.pick = func(g *Game) (rules.Move, error) {
		calls++
		switch {
		case g.Round == 3 && len(g.Moves) >= 4:
			return rules.Move{}, fmt.Errorf("boom: %w", hub.ErrTimeout)
		case g.Round == 4 && len(g.Moves) >= 5:
			q := g.Pos
			q.SetSideToMove(q.SideToMove().Opponent())
			return q.LegalMoves(nil)[0], nil // the other side's move
		}
		return wander(g)
	}
	st := &memStore{}
	var lines []string
	clock := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	sum, err := Run(context.Background(), Options{Variant: v, Openings: bs[:3], Games: 5, MaxPlies: 40, A: a, B: b,
		Event: "test", Site: "here", Key: "k", Store: st, Now: func() time.Time { return clock },
		Progress: func(g *Game, s Stats) { lines = append(lines, g.String()) }})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Played != 5 || len(st.games) != 5 || len(lines) != 5 || sum.Stats.Games() != 5 {
		t.Fatalf("played %d, stored %d, lines %d", sum.Played, len(st.games), len(lines))
	}
	for i, g := range st.games {
		op := &bs[i/2]
		if g.Opening != op || g.AWhite != (i%2 == 0) {
			t.Errorf("game %d: opening %s, A white %v", i+1, g.Opening.FEN(), g.AWhite)
		}
		if wantW := map[bool]string{true: "alpha", false: "beta"}[g.AWhite]; g.White != wantW {
			t.Errorf("game %d: White %s", i+1, g.White)
		}
	}
	if g := st.games[2]; g.Reason != TimeForfeit || g.Result != replay.WhiteWins || !strings.Contains(g.Detail, "beta at ply 6") {
		t.Errorf("game 3 (B black, timed out): %s %s %q", g.Result.Format(v), g.Reason, g.Detail)
	}
	if g := st.games[3]; g.Reason != IllegalMove || g.Result != replay.BlackWins {
		t.Errorf("game 4 (B white, illegal): %s %s %q", g.Result.Format(v), g.Reason, g.Detail)
	}
	if b.resets != 2 || a.resets != 0 || sum.Forfeits != [2]int{0, 2} {
		t.Errorf("resets A %d B %d, forfeits %v", a.resets, b.resets, sum.Forfeits)
	}
	// The PDN reads back as the same game, from the initial position.
	for i, text := range st.texts {
		g := st.games[i]
		pg, err := pdn.NewReader(bytes.NewReader(text), "x").Next()
		if err != nil {
			t.Fatal(err)
		}
		var rg replay.Game
		if err := replay.NewReplayer(replay.Options{}).Replay(pg, nil, &rg); err != nil {
			t.Fatalf("game %d: %v\n%s", i+1, err, text)
		}
		if rg.Variant != v || rg.StartFEN != "" || len(rg.Moves) != len(g.Opening.Line)+len(g.Moves) ||
			rg.Final.Hash() != g.Pos.Hash() || rg.Result != g.Result || len(rg.Warnings) > 0 {
			t.Errorf("game %d reads back as %d plies, %v, warnings %v:\n%s", i+1, len(rg.Moves), rg.Result, rg.Warnings, text)
		}
		for _, tag := range []string{"Event", "Round", "White", "Black", "Termination", "Match", "Date"} {
			if pg.Tag(tag) == "" {
				t.Errorf("game %d: no %s tag", i+1, tag)
			}
		}
		if pg.Tag("Date") != "2026.11.30" || pg.Tag("Round") != fmt.Sprint(i+1) {
			t.Errorf("game %d: Date %s Round %s", i+1, pg.Tag("Date"), pg.Tag("Round"))
		}
	}

	// Resume: the stored games are counted, play goes on after them.
	sum, err = Run(context.Background(), Options{Variant: v, Openings: bs[:3], Games: 6, MaxPlies: 40, A: a, B: b, Key: "k", Store: st})
	if err != nil || sum.Resumed != 5 || sum.Played != 1 || len(st.games) != 6 || sum.Stats.Games() != 6 {
		t.Fatalf("resume: %+v, %v", sum, err)
	}

	// A Reset that fails stops the match with ErrEngineLost, after the
	// game was stored.
	b.failRst = errors.New("no such program")
	b.pick = func(g *Game) (rules.Move, error) { return rules.Move{}, errors.New("dead") }
	st3 := &memStore{}
	_, err = Run(context.Background(), Options{Variant: v, Openings: bs[1:2], Games: 2, A: a, B: b, Key: "k", Store: st3})
	if !errors.Is(err, ErrEngineLost) || len(st3.games) != 1 || st3.games[0].Reason != EngineError {
		t.Errorf("engine lost: %v, %d games stored", err, len(st3.games))
	}
}

// TestCancelAbandonsTheGame: a cancelled match stores nothing of the game
// in play.
func TestCancelAbandonsTheGame(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	a := &scripted{name: "a", pick: wander}
	b := &scripted{name: "b", pick: func(g *Game) (rules.Move, error) {
		if g.Round == 2 && len(g.Moves) > 6 {
			cancel()
			return rules.Move{}, ctx.Err()
		}
		return wander(g)
	}}
	bs, _ := Ballots(rules.International)
	st := &memStore{}
	sum, err := Run(ctx, Options{Variant: rules.International, Openings: bs[:2], A: a, B: b, Key: "k", Store: st, MaxPlies: 30})
	if !errors.Is(err, context.Canceled) || len(st.games) != 1 || sum.Played != 1 || b.resets != 0 {
		t.Fatalf("cancel: %v, stored %d, %+v", err, len(st.games), sum)
	}
}

func TestPDNOfOtherVariants(t *testing.T) {
	for _, v := range []*rules.Variant{rules.English, rules.Killer, rules.Russian, rules.Turkish} {
		bs, err := Ballots(v)
		if err != nil {
			t.Fatal(err)
		}
		st := &memStore{}
		_, err = Run(context.Background(), Options{Variant: v, Openings: bs[:1], A: &scripted{name: "a", pick: wander},
			B: &scripted{name: "b", pick: wander}, Key: "k", Store: st, MaxPlies: 60})
		if err != nil {
			t.Fatal(err)
		}
		for i, text := range st.texts {
			pg, err := pdn.NewReader(bytes.NewReader(text), "x").Next()
			if err != nil {
				t.Fatal(err)
			}
			var rg replay.Game
			if err := replay.NewReplayer(replay.Options{}).Replay(pg, nil, &rg); err != nil {
				t.Fatalf("%s game %d: %v\n%s", v.Name, i+1, err, text)
			}
			g := st.games[i]
			if rg.Variant != v || rg.Final.Hash() != g.Pos.Hash() || rg.Result != g.Result {
				t.Errorf("%s game %d reads back as %s, %v (want %v):\n%s", v.Name, i+1, rg.Variant.Name, rg.Result, g.Result, text)
			}
		}
	}
}

// TestBuiltinPlayer: the built-in engine plays legal moves with the game's
// history, and two of them at a fixed depth play the same game twice.
func TestBuiltinPlayer(t *testing.T) {
	ctx := context.Background()
	mk := func() Player {
		p, err := OpenPlayer(ctx, "builtin", nil, rules.International, EngineOptions{Limit: annotate.Limit{Depth: 2}})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	bs, _ := Ballots(rules.International)
	var texts [2][]string
	for i := range texts {
		st := &memStore{}
		if _, err := Run(ctx, Options{Variant: rules.International, Openings: bs[:1], A: mk(), B: mk(), Key: "k", Store: st}); err != nil {
			t.Fatal(err)
		}
		for _, g := range st.games {
			texts[i] = append(texts[i], string(g.Reason)+fmt.Sprint(len(g.Moves)))
		}
	}
	if strings.Join(texts[0], ",") != strings.Join(texts[1], ",") {
		t.Errorf("depth 2 is not deterministic: %v / %v", texts[0], texts[1])
	}
	if _, err := OpenPlayer(ctx, "builtin", []string{"x"}, rules.International, EngineOptions{Limit: annotate.Limit{Depth: 2}}); !errors.Is(err, ErrEngineSpec) {
		t.Errorf("builtin with args: %v", err)
	}
	if _, err := OpenPlayer(ctx, "dxp:localhost:1", nil, rules.Russian, EngineOptions{Limit: annotate.Limit{Depth: 2}}); !errors.Is(err, ErrEngineSpec) {
		t.Errorf("dxp for Russian: %v", err)
	}
	if _, err := OpenPlayer(ctx, "uci:x", nil, rules.Russian, EngineOptions{Limit: annotate.Limit{Depth: 2}}); !errors.Is(err, ErrEngineSpec) {
		t.Errorf("uci: %v", err)
	}
	if _, err := OpenPlayer(ctx, "builtin", nil, rules.Russian, EngineOptions{}); !errors.Is(err, annotate.ErrLimit) {
		t.Errorf("no limit: %v", err)
	}
}

// gameReqs records the GAMEREQs a dxp.Serve receives (its Trace runs on
// the connections' goroutines).
type gameReqs struct {
	mu   sync.Mutex
	reqs []dxp.GameReq
}

func (r *gameReqs) trace(_ string, sent bool, raw []byte) {
	if m, err := dxp.Parse(raw); err == nil && !sent {
		if req, ok := m.(dxp.GameReq); ok {
			r.mu.Lock()
			r.reqs = append(r.reqs, req)
			r.mu.Unlock()
		}
	}
}

func (r *gameReqs) get() []dxp.GameReq {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.reqs)
}

// TestDXPMinutesFor: the game time sent to a DXP engine is 75 moves at
// the move time, rounded up, and at a fixed depth (no move time) 75 moves
// at dxp.DefaultMoveTime; never 0 minutes, which Moby Dam does not answer.
func TestDXPMinutesFor(t *testing.T) {
	for _, c := range []struct {
		moveTime time.Duration
		want     int
	}{
		{0, 2}, {-time.Second, 2}, {time.Millisecond, 1}, {800 * time.Millisecond, 1},
		{801 * time.Millisecond, 2}, {time.Second, 2}, {2 * time.Second, 3}, {10 * time.Second, 13},
	} {
		if got := DXPMinutesFor(c.moveTime); got != c.want {
			t.Errorf("DXPMinutesFor(%v) = %d, want %d", c.moveTime, got, c.want)
		}
	}
}

// TestDXPEngine: a DXP engine (dxp.Serve with the built-in engine on a
// loopback port) plays a match against the built-in engine at a fixed
// depth, each game requested with 2 minutes (not 0, which Moby Dam never
// answers); when it goes away, the game it should start is forfeited and
// the match stops with ErrEngineLost, as it cannot be reached again.
func TestDXPEngine(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lim := annotate.Limit{Depth: 2}
	eng := engine.NewPool(nil, func() (engine.Engine, error) { return engine.NewBuiltin(0), nil }, 1)
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	reqs := &gameReqs{}
	var logMu sync.Mutex
	var logged []dxp.GameRecord
	logGame := func(r dxp.GameRecord) {
		logMu.Lock()
		logged = append(logged, r)
		logMu.Unlock()
	}
	go func() {
		served <- dxp.Serve(ctx, ln, eng, dxp.ServerOptions{Limit: lim, Name: "dxp server", Trace: reqs.trace, Log: logGame})
	}()
	defer func() { stop(); <-served }()

	v := rules.International
	bg := context.Background()
	a, err := OpenPlayer(bg, "builtin", nil, v, EngineOptions{Limit: lim})
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenPlayer(bg, "dxp:"+ln.Addr().String(), nil, v, EngineOptions{Limit: lim, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	bs, _ := Ballots(v)
	st := &memStore{}
	sum, err := Run(bg, Options{Variant: v, Openings: bs[:2], A: a, B: b, Key: "k", Store: st})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Played != 4 || sum.NameB != "dxp server" {
		t.Fatalf("%+v", sum)
	}
	for i, g := range st.games {
		if g.Reason.IsForfeit() || g.Reason == DrawClaim || g.Reason == Resignation || len(g.Moves) < 10 {
			t.Errorf("game %d: %s", i+1, g)
		}
		want := map[bool]string{true: "dxp server", false: "draughtsdb 0.1"}[i%2 == 0]
		if g.Black != want {
			t.Errorf("game %d: Black %q, want %q", i+1, g.Black, want)
		}
	}
	got := reqs.get()
	if len(got) != 4 {
		t.Errorf("%d GAMEREQs received, want 4: %+v", len(got), got)
	}
	for i, req := range got {
		if req.Minutes != 2 || req.Moves != 0 || req.Follower != map[bool]rules.Color{true: rules.Black, false: rules.White}[i%2 == 0] {
			t.Errorf("GAMEREQ %d at depth 2: %d minutes, %d moves, follower %s; want 2 minutes, 0 moves, the follower B's colour", i+1, req.Minutes, req.Moves, req.Follower)
		}
	}
	stop()
	<-served
	served <- nil // for the deferred wait
	// The engine's record of each game is the match's, to the last move
	// (the engine's copy lacked our last move when it ended the game). The
	// server logs a game once it has our acknowledgement of its GAMEEND,
	// which may come after Run returns: read the log once it has stopped.
	logMu.Lock()
	byNumber := map[int]dxp.GameRecord{} // one connection: games 1 to 4
	for _, r := range logged {
		byNumber[r.Number] = r
	}
	for i, g := range st.games {
		r, ok := byNumber[i+1]
		if !ok || len(r.Moves) != len(g.Moves) {
			t.Errorf("game %d: the DXP engine's record %+v (%v), the match's %d plies", i+1, r, ok, len(g.Moves))
		} else if res, _ := replay.ParseResult(nil, r.Result); res != g.Result {
			t.Errorf("game %d: the DXP engine's record %+v, the match's %d plies, %s", i+1, r, len(g.Moves), g.Result.Format(v))
		}
	}
	logMu.Unlock()

	st = &memStore{}
	_, err = Run(bg, Options{Variant: v, Openings: bs[:1], A: a, B: b, Key: "k", Store: st})
	if !errors.Is(err, ErrEngineLost) || len(st.games) != 1 || st.games[0].Reason != Crash && st.games[0].Reason != EngineError {
		t.Fatalf("after the server went away: %v, %d games", err, len(st.games))
	}
	if g := st.games[0]; g.Result != replay.WhiteWins || !strings.Contains(g.Detail, "starting the game") {
		t.Errorf("the game the DXP engine could not start: %s", g)
	}
}

// fakeHubEnv makes the test binary a Hub engine that declares only English
// checkers (its "variant" parameter) and answers nothing else.
const fakeHubEnv = "MATCH_TEST_FAKE_HUB"

func TestMain(m *testing.M) {
	if os.Getenv(fakeHubEnv) != "" {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			switch hub.ParseLine(sc.Text()).Cmd {
			case "hub":
				fmt.Println("id name=fake version=1\nparam name=variant value=english type=enum values=\"english\"\nwait")
			case "init":
				fmt.Println("ready")
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestHubEngineOfAnotherVariant: a Hub engine that does not play the
// match's variant stops the match (it is no game's failure); nothing is
// stored.
func TestHubEngineOfAnotherVariant(t *testing.T) {
	t.Setenv(fakeHubEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	v := rules.International
	bg := context.Background()
	lim := annotate.Limit{Depth: 2}
	b, err := OpenPlayer(bg, "hub:"+exe, nil, v, EngineOptions{Limit: lim})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Name() != "fake 1" {
		t.Errorf("name %q", b.Name())
	}
	a, _ := OpenPlayer(bg, "builtin", nil, v, EngineOptions{Limit: lim})
	bs, _ := Ballots(v)
	st := &memStore{}
	_, err = Run(bg, Options{Variant: v, Openings: bs[:1], A: a, B: b, Key: "k", Store: st})
	if !errors.Is(err, hub.ErrVariant) || len(st.games) != 0 {
		t.Fatalf("%v, %d games stored", err, len(st.games))
	}
}

// TestCancelWithEnginesThatAnswer: the built-in engine answers a cancelled
// search with a move; the match stops all the same, after the game that
// was stored when the cancel came.
func TestCancelWithEnginesThatAnswer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	v := rules.International
	mk := func() Player {
		p, err := OpenPlayer(ctx, "builtin", nil, v, EngineOptions{Limit: annotate.Limit{Depth: 2}})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	bs, _ := Ballots(v)
	st := &memStore{}
	sum, err := Run(ctx, Options{Variant: v, Openings: bs[:2], A: mk(), B: mk(), Key: "k", Store: st,
		Progress: func(g *Game, _ Stats) { cancel() }})
	if !errors.Is(err, context.Canceled) || len(st.games) != 1 || sum.Played != 1 {
		t.Fatalf("%v: %d games stored, %d played", err, len(st.games), sum.Played)
	}
}

// TestAdjudicateKingMoveLimitBlocked: a Frisian side whose only moves are
// a 4th move in a row of one king has no move the game allows, and loses
// (as replay and lidraughts have it); the game went on to an illegal move.
func TestAdjudicateKingMoveLimitBlocked(t *testing.T) {
	start, err := rules.ParseFEN(rules.Frisian, "W:W46,K50:B5,37,41")
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(1, &Opening{Start: start, Pos: start})
	for _, text := range []string{"50-44", "5-10", "44-50", "10-15", "50-44", "15-20"} {
		if r, why, over := g.adjudicate(0); over {
			t.Fatalf("before %s: %v %s", text, r, why)
		}
		var from, to int
		fmt.Sscanf(text, "%d-%d", &from, &to)
		m, ok := g.Pos.PlainMove(from, to)
		if !ok {
			t.Fatalf("%s is not legal in %s", text, g.Pos.FEN())
		}
		g.play(m)
	}
	if r, why, over := g.adjudicate(0); !over || r != replay.BlackWins || why != NoLegalMove {
		t.Errorf("blocked: %v %s %v, want a Black win, no legal move", r, why, over)
	}
}
