package replay

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// replayText reads one game from PDN text and replays it.
func replayText(t *testing.T, text string, opts Options) (*Game, error) {
	t.Helper()
	rd := pdn.NewReader(strings.NewReader(text), "test.pdn")
	pg, err := rd.Next()
	if pg == nil {
		t.Fatalf("no game read: %v", err)
	}
	var g Game
	return &g, NewReplayer(opts).Replay(pg, err, &g)
}

func TestRejections(t *testing.T) {
	cases := []struct {
		name   string
		pdn    string
		reason error
		ply    int
		text   string
		detail string // substring of the message
	}{
		{
			name:   "illegal move in the middle",
			pdn:    "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 3. 28-22 *",
			reason: ErrIllegalMove, ply: 5, text: "28-22", detail: "there is no piece on 28",
		},
		{
			name:   "capture is compulsory",
			pdn:    "[GameType \"20\"]\n1. 32-28 19-23 2. 31-27 *",
			reason: ErrIllegalMove, ply: 3, text: "31-27", detail: "a capture is compulsory (legal: 28x19)",
		},
		{
			name:   "ambiguous capture written start-end",
			pdn:    strings.Replace(campionatoGame46, `[Risultato "0-1"]`, `[Risultato "1/2-1/2"]`, 1),
			reason: ErrAmbiguousMove, ply: 26, text: "3x26", detail: "2 legal moves fit it: 3x10x19x26, 3x10x17x26; it is the game's last move",
		},
		{
			name:   "international majority capture violation",
			pdn:    "[GameType \"20\"]\n[FEN \"W:W32,34:B27,17,29,1\"]\n1. 34x23 *",
			reason: ErrIllegalMove, ply: 1, text: "34x23", detail: "majority rule: the capture must take the most pieces, 2 here (legal: 32x12)",
		},
		{
			name:   "english man capturing backwards",
			pdn:    "[GameType \"21\"]\n[FEN \"W:W18:B22,1\"]\n1. 18x25 *",
			reason: ErrIllegalMove, ply: 1, text: "18x25", detail: "men capture only forwards in english draughts",
		},
		{
			name:   "russian capture stopped at the promotion square",
			pdn:    "[GameType \"25\"]\n[FEN \"W:Wb6:Bc7,f6,a7\"]\n1. b6:d8 *",
			reason: ErrIllegalMove, ply: 1, text: "b6:d8", detail: "the capture does not stop on d8",
		},
		{
			name:   "unknown move",
			pdn:    "[GameType \"20\"]\n1. 32-28 - - *",
			reason: ErrUnknownMove, ply: 2, text: pdn.UnknownMove,
		},
		{
			name:   "unsupported variant",
			pdn:    "[GameType \"41\"]\n1. 32-28 *",
			reason: ErrUnsupportedVariant, detail: "GameType 41 (spantsiretti)",
		},
		{
			name:   "man on its promotion row in the FEN",
			pdn:    "[GameType \"20\"]\n[FEN \"W:W3:B20\"]\n1. 3-? *",
			reason: ErrBadFEN, detail: "promotion row",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := replayText(t, c.pdn, Options{})
			if err == nil {
				t.Fatal("accepted")
			}
			var re *RejectError
			if !errors.As(err, &re) {
				t.Fatalf("err %T %v is not a *RejectError", err, err)
			}
			if !errors.Is(err, c.reason) {
				t.Fatalf("reason: got %v, want %v", err, c.reason)
			}
			if re.Ply != c.ply || re.Text != c.text {
				t.Errorf("ply %d %q, want ply %d %q (%v)", re.Ply, re.Text, c.ply, c.text, err)
			}
			if !strings.Contains(err.Error(), c.detail) {
				t.Errorf("message %q does not contain %q", err.Error(), c.detail)
			}
			if re.Ply > 0 && (re.FEN == "" || re.Legal == nil) {
				t.Errorf("rejection lacks the position or the legal moves: %+v", re)
			}
		})
	}
}

func TestRussianPromotionInCaptureContinuesAsKing(t *testing.T) {
	g, err := replayText(t, "[GameType \"25\"]\n[FEN \"W:Wb6:Bc7,f6,a7\"]\n1. b6:d8:h4 *", Options{})
	if err != nil {
		t.Fatal(err)
	}
	sq, _ := rules.Russian.Board.ParseSquare("h4")
	if pc := g.Final.Piece(sq); pc != rules.WhiteKing {
		t.Fatalf("piece on h4 = %v, want a white king", pc)
	}
	if got := rules.FormatMove(g.Variant, &g.Moves[0], rules.Algebraic, true); got != "b6:d8:h4" {
		t.Errorf("normalised move %q, want b6:d8:h4", got)
	}
}

func TestMoveForms(t *testing.T) {
	// One International opening written in every form the files use.
	forms := []string{
		"1. 32-28 19-23 2. 28x19 14x23",
		"1.32-28 19-23 2.28x19 14x23",
		"1. 32-28 19-23 2. 28-19 14-23", // '-' written for captures
		"1. 32-28 1... 19-23 2. 28x19 14x23",
	}
	// The same moves in algebraic notation, as the engine writes them.
	first, err := replayText(t, "[GameType \"20\"]\n"+forms[0]+" *", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var alg []string
	for i := range first.Moves {
		alg = append(alg, rules.FormatMove(first.Variant, &first.Moves[i], rules.Algebraic, true))
	}
	forms = append(forms, strings.Join(alg, " "))
	var want []uint64
	for i, f := range forms {
		g, err := replayText(t, "[GameType \"20\"]\n"+f+" *", Options{})
		if err != nil {
			t.Fatalf("form %d %q: %v", i, f, err)
		}
		if i == 0 {
			want = append([]uint64(nil), g.Hashes...)
			continue
		}
		if len(g.Hashes) != len(want) || g.Hashes[len(want)-1] != want[len(want)-1] {
			t.Errorf("form %d %q reaches another position", i, f)
		}
	}
}

func TestSplitCaptureAndGluedSquares(t *testing.T) {
	// playstrategy writes a double jump hop by hop; English algebraic is
	// named from Black's side.
	g, err := replayText(t, "[Variant \"American/English\"]\n1. c3-d4 d6-e5 2. b2-c3 c7-d6 3. a1-b2 b6-a5 4. e3-f4 a5-b4 5. a3xc5 d6xb4 6. c3xa5 e5xc3 7. c3xa1 c1-b2 *", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Variant != rules.English || g.Basis != BasisVariantTag {
		t.Fatalf("variant %v by %s", g.Variant, g.Basis)
	}
	if got := g.Plies(); got != 13 {
		t.Fatalf("plies = %d, want 13 (the split double jump is one move)", got)
	}
	if _, err := replayText(t, "[GameType \"25\"]\n1.c3d4 *", Options{}); err != nil {
		t.Fatalf("glued algebraic squares: %v", err)
	}
	if _, err := replayText(t, "[GameType \"20\"]\n1. 32-28 19- 23 2. 28x 19 14x23 *", Options{}); err != nil {
		t.Fatalf("separator and square in two tokens: %v", err)
	}
}

func TestResultNormalisation(t *testing.T) {
	// Black has no legal move after 1. 28x19: the final position decides.
	g, err := replayText(t, "[GameType \"20\"]\n[Result \"0-2\"]\n[FEN \"W:W28:B23\"]\n1. 28x19 0-2", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !g.Decided || g.Result != BlackWins || len(g.Warnings) == 0 || !strings.Contains(strings.Join(WarningTexts(g.Warnings), ";"), "contradicts") {
		t.Fatalf("decided=%v result=%v warnings=%v: want the written result kept with a warning", g.Decided, g.Result, g.Warnings)
	}
	g, err = replayText(t, "[GameType \"20\"]\n[FEN \"W:W28:B23\"]\n1. 28x19 *", Options{})
	if err != nil || g.Result != WhiteWins {
		t.Fatalf("missing result not completed from the final position: %v %v", g.Result, err)
	}
	if got := g.Result.Format(rules.International); got != "2-0" {
		t.Errorf("international result %q, want 2-0", got)
	}
}

func TestVariantResolution(t *testing.T) {
	cases := []struct {
		pdn   string
		want  *rules.Variant
		basis Basis
	}{
		{"[GameType \"20,W,10,10,N2,0\"]\n1. 32-28 *", rules.International, BasisGameType},
		{"1. 11-15 23-19 *", rules.English, BasisMoves},
		{"1. 32-28 19-23 *", rules.International, BasisMoves}, // opens from White's 10x10 front row
		{"1. c3-d4 f6-e5 *", rules.Russian, BasisMoves},
		{"[FEN \"W:W31-50:B1-20\"]\n*", rules.International, BasisFEN},
		{"[FEN \"W:W55-72:B1-20\"]\n*", rules.Canadian, BasisFEN},
		{"{no moves} *", rules.Russian, BasisDefault}, // a result alone is no game
	}
	for _, c := range cases {
		g, err := replayText(t, c.pdn, Options{})
		if err != nil {
			t.Errorf("%q: %v", c.pdn, err)
			continue
		}
		if g.Variant != c.want || g.Basis != c.basis {
			t.Errorf("%q: %v by %s, want %v by %s", c.pdn, g.Variant, g.Basis, c.want, c.basis)
		}
	}
	g, err := replayText(t, "1. 11-15 *", Options{Variant: rules.English})
	if err != nil || g.Basis != BasisForced {
		t.Errorf("forced: %v %v", g.Basis, err)
	}
}

func TestCleanDate(t *testing.T) {
	for in, want := range map[string]string{
		"1841-??-??": "1841.??.??", "1950.": "1950.??.??", "2005.03.12": "2005.03.12",
		"": "????.??.??", "1950-1951": "1950.??.??", "2001.5.7": "2001.05.07",
		"??": "????.??.??",
	} {
		if got, _ := CleanDate(in); got != want {
			t.Errorf("CleanDate(%q) = %q, want %q", in, got, want)
		}
	}
	// Not read: the year is not first, or not of four digits. Nothing is
	// guessed (03.07.20 is not 0003, nor 2020).
	for _, in := range []string{"03.07.20", "13-01-1996", "12.03.2005", "20.07.03", "95.07.03", "15 april 1995", "1995.13.01", "1995.02.40"} {
		got, ok := CleanDate(in)
		if ok {
			t.Errorf("CleanDate(%q) = %q, read", in, got)
		}
		if in != "1995.13.01" && in != "1995.02.40" && got != "????.??.??" {
			t.Errorf("CleanDate(%q) = %q, want ????.??.??", in, got)
		}
	}
}

// schildpadGame3 is game 3 of schildpad.pdn in the PDN test suite: at move
// 35 the king on 36 can capture to 16 along two routes, and the file
// writes only 36x16.
const schildpadGame3 = `[Event "10x10II"]
[Site "10x10II"]
[Date "03.07.20"]
[Round "1"]
[White "schildpad"]
[Black "ArthurdeSwart"]
[Result "2-0"]

  1. 32-28 18-23  2. 33-29 23x32  3. 37x28 20-24  4. 29x20 15x24  5. 39-33 12-18
  6. 44-39  7-12  7. 41-37  1- 7  8. 46-41 10-15  9. 31-27 17-22 10. 28x17 11x31
 11. 36x27 18-23 12. 38-32 14-20 13. 34-29 23x34 14. 39x30 20-25 15. 40-34 12-18
 16. 43-38  7-12 17. 32-28  5-10 18. 45-40  9-14 19. 38-32  4- 9 20. 41-36  2- 7
 21. 36-31 15-20 22. 33-29 24x22 23. 30-24 19x39 24. 40-34 39x30 25. 35x 4  7-11
 26. 42-38 14-20 27. 49-44 20-24 28. 48-42 24-29 29. 44-39  9-14 30. 50-45 13-19
 31. 31-26 22x31 32.  4x36 29-34 33. 39x30 25x34 34. 26-21 16x27 35. 36x16 19-24
 36. 38-33 24-30 37. 32-28 30-35 38. 16-32 14-20 39. 28-22 20-25 40. 32-49  6-11
 41. 33-29 34x23 42. 45-40 35x44 43. 49x16 25-30 44. 22-18 30-35 45. 18-13 35-40
 46. 16-11 40-45 47. 11-50  3- 9
2-0
`

// TestHugeFENIsQuotedShort: a 400 KB FEN tag is rejected with a message
// that quotes a few dozen bytes of it, not the whole tag twice.
func TestHugeFENIsQuotedShort(t *testing.T) {
	fen := "W:W" + strings.Repeat("31,", 130000) + "é"
	for _, text := range []string{
		"[FEN \"" + fen + "\"]\n\n1. 32-28 *\n",
		"[GameType \"20\"]\n\n1. 32-28 /FEN \"" + fen + "\"/ 19-23 *\n",
	} {
		pg, err := pdn.NewReader(strings.NewReader(text), "huge.pdn").Next()
		r := NewReplayer(Options{})
		var g Game
		rerr := r.Replay(pg, err, &g)
		if rerr == nil {
			t.Fatal("accepted")
		}
		if msg := rerr.Error(); len(msg) > 600 || !utf8.ValidString(msg) {
			t.Fatalf("message of %d bytes: %.300s", len(msg), msg)
		}
	}
}

// TestGuessedVariantNamedInRejection: a game that names no variant is
// read as the variant of its squares; when that variant rejects a move,
// the reason says which variant it was (its legal moves are listed), so
// that a wrong guess shows. A game that names its variant is not told so.
func TestGuessedVariantNamedInRejection(t *testing.T) {
	_, err := replayText(t, "1. 11-15 24-20 2. 15-17 *", Options{})
	if err == nil || !strings.Contains(err.Error(), "[read as english by its notation: no GameType or Variant tag; --variant sets one]") {
		t.Errorf("guessed: %v", err)
	}
	_, err = replayText(t, "[GameType \"21\"]\n1. 11-15 24-20 2. 15-17 *", Options{})
	if err == nil || strings.Contains(err.Error(), "read as") {
		t.Errorf("named: %v", err)
	}
	// Cat.D1.pdn game 16: squares up to 32 and a FEN read as English,
	// which rejects 7-12; no other 8x8 numeric variant accepts it, and
	// International does (a problem on the upper half of the 10x10 board).
	g, err := replayText(t, "[FEN \"W:W19,26,27,32:B6,7,9,17.\"]\n1. 32-28 7-12 2. 27-21 6-11 3. 19-13 9x18 4. 21-16 1-0", Options{})
	if err != nil || g.Variant != rules.International || g.Basis != BasisReplay || len(g.Warnings) == 0 ||
		!strings.Contains(g.Warnings[len(g.Warnings)-1].Text, "english (by notation) rejects ply 2 \"7-12\"") {
		t.Errorf("Cat.D1 game 16: %v by %s, %v, warnings %q", g.Variant, g.Basis, err, g.Warnings)
	}
}

// TestNoSetups: with Options.NoSetups (the import) a /FEN/ setup after the
// first move rejects the game (ErrMidGameSetup, at the ply it comes
// before); one before the first move is the start position. Without it
// both replay through their setups (validate, normalize).
func TestNoSetups(t *testing.T) {
	mid := "[GameType \"20\"]\n1. 32-28 19-23 /FEN \"W:W28,31:B23\"/ 2. 28x19 2-0"
	first := "[GameType \"20\"]\n/FEN \"W:W28,31:B23\"/ 1. 28x19 *"
	_, err := replayText(t, mid, Options{NoSetups: true})
	var re *RejectError
	if !errors.Is(err, ErrMidGameSetup) || !errors.As(err, &re) || re.Ply != 3 || Reason(err) != "mid-game setup" {
		t.Errorf("mid-game setup: %v", err)
	}
	g, err := replayText(t, first, Options{NoSetups: true})
	if err != nil || g.StartFEN != "W:W28,31:B23" || len(g.Setups) != 0 || g.Plies() != 1 {
		t.Errorf("setup before the first move: start %q, %d setups, %d plies, %v", g.StartFEN, len(g.Setups), g.Plies(), err)
	}
	for _, text := range []string{mid, first} {
		if g, err := replayText(t, text, Options{}); err != nil || len(g.Setups) != 1 {
			t.Errorf("%q without NoSetups: %d setups, %v", text, len(g.Setups), err)
		}
	}
}

// TestFrisianKingMoveLimit: in Frisian a side with men and kings may not
// move the same king more than 3 times in a row unless it captures
// (rules.KingMoveCounter; dctl's Frisian rules, lidraughts, mindsports).
// The replay did not keep the count and accepted a 4th move.
func TestFrisianKingMoveLimit(t *testing.T) {
	const moves = "1. 1-7 5-10 2. 7-1 10-15 3. 1-7 15-20 4. 7-1 20-25 *"
	for _, c := range []struct {
		name, fen, moves string
		rejectPly        int
	}{
		{"a 4th move of one king", "W:W46,K1:B5", moves, 7},
		{"another king moves 4th", "W:W46,K1,K2:B5", "1. 1-7 5-10 2. 7-1 10-15 3. 1-7 15-20 4. 2-8 20-25 5. 7-1 *", 0},
		{"only kings", "W:WK1:B5", moves, 0},
		{"a setup starts a new count", "W:W46,K1:B5", "1. 1-7 5-10 2. 7-1 10-15 3. 1-7 15-20 /FEN \"W:W46,K7:B20\"/ 4. 7-1 20-25 *", 0},
	} {
		for _, gt := range []string{"40", "97"} { // Frisian, Frysk!
			if c.rejectPly < 0 {
				continue
			}
			_, err := replayText(t, "[GameType \""+gt+"\"]\n[FEN \""+c.fen+"\"]\n"+c.moves, Options{})
			var re *RejectError
			switch {
			case c.rejectPly == 0 && err != nil:
				t.Errorf("%s (%s): %v", c.name, gt, err)
			case c.rejectPly > 0 && (!errors.As(err, &re) || re.Ply != c.rejectPly || !errors.Is(err, ErrIllegalMove) ||
				!strings.Contains(err.Error(), "may not move a 4th time in a row") || !slices.Equal(re.Legal, []string{"46-41"})):
				t.Errorf("%s (%s): %v, want illegal at ply %d with 46-41 the only legal move", c.name, gt, err, c.rejectPly)
			}
		}
	}
}

// TestFrisianKingMoveLimitBlocks: when the limit forbids every legal move
// (White's man on 46 is blocked, its king has moved 3 times), White has no
// move the game allows and has lost, as lidraughts plays it: an unknown
// result is completed, and a 4th king move is illegal with no legal move.
func TestFrisianKingMoveLimitBlocks(t *testing.T) {
	const head = "[GameType \"40\"]\n[FEN \"W:W46,K50:B5,37,41\"]\n"
	g, err := replayText(t, head+"1. 50-44 5-10 2. 44-50 10-15 3. 50-44 15-20 *", Options{})
	if err != nil || g.Result != BlackWins || !g.Decided || len(g.Warnings) != 1 ||
		!strings.Contains(g.Warnings[0].Text, "White has no legal move (its only moves are a 4th move in a row of one king, which frisian forbids)") {
		t.Errorf("blocked: %v, decided %v, warnings %q, %v", g.Result, g.Decided, g.Warnings, err)
	}
	_, err = replayText(t, head+"1. 50-44 5-10 2. 44-50 10-15 3. 50-44 15-20 4. 44-50 *", Options{})
	if err == nil || !strings.Contains(err.Error(), "(legal: none: White has no move the game allows, and has lost)") {
		t.Errorf("a 4th move when blocked: %v", err)
	}
}

// TestRepeatedTagWarned: a tag given again with another value is said
// (the PDN standard's own checkers example repeats Event); normalize and
// the database keep the first, and dropped the second silently.
func TestRepeatedTagWarned(t *testing.T) {
	g, err := replayText(t, "[Event \"A\"]\n[Event \"This is an 8x8 draughts game\"]\n[Site \"s\"]\n[Site \"s\"]\n[GameType \"21\"]\n1. 11-15 *", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Warnings) != 1 || g.Warnings[0].Kind.String() != warnRepeatedTag || !strings.Contains(g.Warnings[0].Text, `Event given again as "This is an 8x8 draughts game"; the first, "A", is kept`) {
		t.Errorf("warnings %q", g.Warnings)
	}
}

// TestFENUnknownSide: PDN 3.0 allows "?" for the side to move of a FEN
// (its test suite's games/succeed/fen.pdn); the side is the one whose
// legal moves include the game's first move, else the variant's first
// mover, with a warning. Such games were rejected as an invalid FEN.
func TestFENUnknownSide(t *testing.T) {
	for _, c := range []struct {
		moves string
		want  rules.Color
		why   string
	}{
		{"1... 20-25 *", rules.Black, "the first move, 20-25, is Black's"},
		{"1. 31-26 *", rules.White, "the first move, 31-26, is White's"},
		{"*", rules.White, "the first move does not tell"},
	} {
		g, err := replayText(t, "[GameType \"20\"]\n[FEN \"?:W31,32:B19,20\"]\n"+c.moves, Options{})
		if err != nil || g.Start.SideToMove() != c.want || len(g.Warnings) != 1 ||
			g.Warnings[0].Kind.String() != "FEN side to move unknown" || !strings.Contains(g.Warnings[0].Text, c.why) {
			t.Errorf("%s: %v to move, warnings %q, %v", c.moves, g.Start.SideToMove(), g.Warnings, err)
		}
	}
	if _, err := replayText(t, "[GameType \"20\"]\n[FEN \"?:W31,32:B99\"]\n*", Options{}); !errors.Is(err, ErrBadFEN) {
		t.Errorf("a bad square with side '?': %v", err)
	}
}
