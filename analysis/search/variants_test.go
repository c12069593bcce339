package search

import (
	"math/rand/v2"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestDecidedAgreesWithOutcome: the search ends a line exactly where the
// variant's Win rule (rules.Position.Outcome) ends the game, with the
// winner's sign, on the positions of random games of every variant (their
// last positions included, where the rules decide most games).
func TestDecidedAgreesWithOutcome(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	s := newSearcher(1)
	for _, v := range rules.Variants() {
		s.reset(v, t.Context(), Options{}, nil, epoch)
		decided := 0
		for game := 0; game < 60; game++ {
			pos := v.StartPosition()
			for ply := 0; ply < 200; ply++ {
				legal := pos.LegalMoves(nil)
				sc, over := s.decided(&pos, len(legal), 3)
				switch o := pos.Outcome(); {
				case o == rules.Undecided && over, o != rules.Undecided && !over:
					t.Fatalf("%s %s: Outcome %v, search decided=%v", v.Name, pos.FEN(), o, over)
				case over:
					decided++
					winner := rules.White
					if o == rules.BlackWins {
						winner = rules.Black
					}
					if want := Win - 3; (winner == pos.SideToMove()) != (sc == want) || (sc != want && sc != -want) {
						t.Fatalf("%s %s: Outcome %v, search score %d for the side to move", v.Name, pos.FEN(), o, sc)
					}
				}
				if over {
					break
				}
				pos.Play(&legal[rng.IntN(len(legal))])
			}
		}
		if decided == 0 && v.Win != rules.LoseWhenNoMove {
			t.Errorf("%s: no random game ended by its Win rule: the check tests nothing", v.Name)
		}
	}
}

func mustFEN(t *testing.T, v *rules.Variant, fen string) rules.Position {
	t.Helper()
	pos, err := rules.ParseFEN(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// TestAntidraughts: the side without pieces has won; the engine gives its
// last man away (a forced win in two plies) where the International rules
// keep it; its evaluation prefers fewer pieces.
func TestAntidraughts(t *testing.T) {
	if r := Search(mustFEN(t, rules.Antidraughts, "W:W:B1,2"), Options{Depth: 3}, nil); r.Score != Win || !r.Mate || len(r.PV) != 0 {
		t.Errorf("White to move without pieces: %+v, want a win", r)
	}
	if r := Search(mustFEN(t, rules.International, "W:W:B1,2"), Options{Depth: 3}, nil); r.Score != -Win {
		t.Errorf("international, White without pieces: %+v, want a loss", r)
	}
	// White's man on 32 can move to 27 or 28; on 28 Black's man on 23 must
	// take it, and White, without pieces, wins.
	const fen = "W:W32:B1,23"
	r := Search(mustFEN(t, rules.Antidraughts, fen), Options{Depth: 4}, nil)
	if moveText(&r.Best) != "32-28" || r.Score != Win-2 || !r.Mate {
		t.Errorf("antidraughts %s: %s score %d, want 32-28 winning in 2 plies", fen, moveText(&r.Best), r.Score)
	}
	if r := Search(mustFEN(t, rules.International, fen), Options{Depth: 4}, nil); moveText(&r.Best) == "32-28" {
		t.Errorf("international %s: gives the man away (%+v)", fen, r)
	}
	fewer, more := mustFEN(t, rules.Antidraughts, "W:W46:B1,2,3"), mustFEN(t, rules.Antidraughts, "W:W46,47,48:B1")
	if !(Evaluate(fewer) > 0 && Evaluate(more) < 0) {
		t.Errorf("antidraughts: one man against three %d, three against one %d; want fewer pieces better", Evaluate(fewer), Evaluate(more))
	}
}

// TestBreakthrough: the first king wins: a position with a king is over,
// the engine promotes at once where it can (a win in one ply) and sees
// the opponent's promotion coming.
func TestBreakthrough(t *testing.T) {
	if r := Search(mustFEN(t, rules.Breakthrough, "B:WK3,40:B20,30"), Options{Depth: 3}, nil); r.Score != -Win || !r.Mate || len(r.PV) != 0 {
		t.Errorf("Black to move after White made a king: %+v, want a loss with no move", r)
	}
	if r := Search(mustFEN(t, rules.International, "B:WK3,40:B20,30"), Options{Depth: 3}, nil); r.Mate {
		t.Errorf("international, a king on the board: %+v, the game goes on", r)
	}
	// White's man on 7 promotes on 1 or 2; Black has more men.
	const fen = "W:W7:B16,17,18,19,20,21"
	r := Search(mustFEN(t, rules.Breakthrough, fen), Options{Depth: 3}, nil)
	if r.Score != Win-1 || !r.Mate || (moveText(&r.Best) != "7-1" && moveText(&r.Best) != "7-2") {
		t.Errorf("breakthrough %s: %s score %d, want a promotion winning in 1 ply", fen, moveText(&r.Best), r.Score)
	}
	// Black to move cannot stop White's man on 7 (no capture reaches it):
	// lost in two plies whatever Black plays.
	r = Search(mustFEN(t, rules.Breakthrough, "B:W7:B16,17"), Options{Depth: 4}, nil)
	if r.Score != -(Win - 2) {
		t.Errorf("breakthrough, Black against a man about to promote: score %d, want %d", r.Score, -(Win - 2))
	}
}

// TestKingMoveLimit: in Frisian a side with men and kings may not move the
// same king a fourth time in a row; given the game's counter the engine
// never plays such a move, at the root or in its PV.
func TestKingMoveLimit(t *testing.T) {
	v := rules.Frisian
	// White's man on 50 can only go to 44, where Black's man on 39 takes
	// it; the king is free.
	pos := mustFEN(t, v, "W:WK46,50:B3,39,45")
	var k rules.KingMoveCounter
	// The king goes 46-41-46-41 while Black moves a far man: three moves
	// in a row, no capture on the way.
	for _, text := range []string{"46-41", "3-8", "41-46", "8-12", "46-41", "12-17"} {
		m := find(t, &pos, text)
		k.Update(&pos, &m)
		pos.Play(&m)
	}
	if allowed := k.Filter(&pos, pos.LegalMoves(nil)); len(allowed) == 0 || len(allowed) == len(pos.LegalMoves(nil)) {
		t.Fatalf("the limit allows %d of %d moves: the position tests nothing", len(allowed), len(pos.LegalMoves(nil)))
	}
	r := Search(pos, Options{Depth: 5, KingMoves: &k}, nil)
	if r.Best.From() != 50 {
		t.Errorf("moved the king a fourth time: %s", moveText(&r.Best))
	}
	p, kk := pos, k
	for i := range r.PV {
		if !kk.Allowed(&p, &r.PV[i]) {
			t.Fatalf("PV move %d (%s) breaks the limit", i+1, moveText(&r.PV[i]))
		}
		kk.Update(&p, &r.PV[i])
		p.Play(&r.PV[i])
	}
	t.Logf("%s, king moved three times: %s (%d)", pos.FEN(), moveText(&r.Best), r.Score)
	// Without the game's history nothing is forbidden, and the engine
	// prefers the king here: the limit is what changes its move.
	if free := Search(pos, Options{Depth: 5}, nil); free.Best.From() == 50 {
		t.Errorf("without the limit the engine moves the man too (%s): the position tests nothing", moveText(&free.Best))
	}
}

// TestKingMoveLimitBlocked: when the limit forbids every legal move
// (White's man on 46 blocked by 41 and 37, its king moved three times in a
// row), White has no move and has lost, as lidraughts (and replay) have it;
// the search gave way and moved the king a fourth time.
func TestKingMoveLimitBlocked(t *testing.T) {
	pos := mustFEN(t, rules.Frisian, "W:W46,K50:B5,37,41")
	var k rules.KingMoveCounter
	for _, text := range []string{"50-44", "5-10", "44-50", "10-15", "50-44", "15-20"} {
		m := find(t, &pos, text)
		k.Update(&pos, &m)
		pos.Play(&m)
	}
	if !k.Blocked(&pos) {
		t.Fatalf("%s: not blocked: the position tests nothing", pos.FEN())
	}
	r := Search(pos, Options{Depth: 3, KingMoves: &k}, nil)
	if len(r.PV) != 0 || r.Score != -Win {
		t.Errorf("blocked: score %d, PV %d moves; want a loss and no move", r.Score, len(r.PV))
	}
}

// TestWeightsPerVariant: every variant's king is worth more than a man
// (breakthrough aside, where a king ends the game), the five first
// variants keep the weights their stored evaluations were made with, and
// every start position, symmetric, evaluates to 0 (English, Pool and Thai,
// where Black moves first, included).
func TestWeightsPerVariant(t *testing.T) {
	old := map[*rules.Variant]Weights{
		rules.English:       {Man: 100, King: 150, Advance: 3, AdvanceEnd: 6, Centre: 4, KingCentre: 4, BackRank: 8, Mobility: 2, EndgamePieces: 8},
		rules.International: {Man: 100, King: 300, Advance: 2, AdvanceEnd: 6, Centre: 4, KingCentre: 10, BackRank: 6, Mobility: 1, EndgamePieces: 12},
		rules.Canadian:      {Man: 100, King: 300, Advance: 2, AdvanceEnd: 5, Centre: 3, KingCentre: 10, BackRank: 5, Mobility: 1, EndgamePieces: 16},
		rules.Russian:       {Man: 100, King: 280, Advance: 3, AdvanceEnd: 7, Centre: 5, KingCentre: 10, BackRank: 8, Mobility: 2, EndgamePieces: 8},
		rules.Brazilian:     {Man: 100, King: 280, Advance: 3, AdvanceEnd: 7, Centre: 5, KingCentre: 10, BackRank: 8, Mobility: 2, EndgamePieces: 8},
	}
	for _, v := range rules.Variants() {
		w := DefaultWeights(v)
		if want, ok := old[v]; ok && w != want {
			t.Errorf("%s: weights %+v, stored evaluations used %+v", v.Name, w, want)
		}
		if w.Man != 100 || (w.King <= w.Man && v.Win != rules.FirstKingWins) {
			t.Errorf("%s: man %d, king %d", v.Name, w.Man, w.King)
		}
		if w.Inverted != (v.Win == rules.WinWhenNoMove) {
			t.Errorf("%s: inverted %v", v.Name, w.Inverted)
		}
		start := v.StartPosition()
		if e := Evaluate(start); e != 0 && v != rules.English {
			t.Errorf("%s: the start position evaluates to %d", v.Name, e)
		}
	}
}

func find(t *testing.T, pos *rules.Position, text string) rules.Move {
	t.Helper()
	for _, m := range pos.LegalMoves(nil) {
		if moveText(&m) == text {
			return m
		}
	}
	t.Fatalf("%s: no move %s", pos.FEN(), text)
	return rules.Move{}
}
