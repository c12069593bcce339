package replay

import (
	"errors"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// The Czech federation's files in the PDN test suite have no GameType and
// algebraic 8x8 moves, so their games read as Russian; the games Russian
// rejects are Czech games, and of the other algebraic 8x8 variants only
// Czech accepts them: stored as Czech, by replay, with a warning. The
// games Russian accepts stay Russian (nothing says otherwise). In
// mrdrcd07 game 6 both Brazilian and Czech accept the whole game, so it
// is rejected as Russian rejects it.
func TestCzechFilesByReplay(t *testing.T) {
	if _, err := rules.VariantByName("czech"); err != nil {
		t.Skip("rules does not play czech")
	}
	files := []struct {
		rel                       string
		games, czech, russian     int
		rejectedOrdinal, rejected int
	}{
		{"testsuite/succeed/mrcd2000kval.pdn", 40, 32, 8, 0, 0},
		{"testsuite/succeed/mrcd2006.pdn", 44, 34, 10, 0, 0},
		{"testsuite/succeed/mrcd2007.pdn", 102, 84, 18, 0, 0},
		{"testsuite/fail/mrdrcd07.pdn", 72, 65, 6, 6, 1},
		{"testsuite/fail/mrdrcd08.pdn", 40, 35, 5, 0, 0},
	}
	forced := NewReplayer(Options{Variant: rules.Czech})
	var again Game
	for _, f := range files {
		t.Run(f.rel, func(t *testing.T) {
			games, czech, russian, rejected := 0, 0, 0, 0
			sharedGamesAll(t, f.rel, func(g *Game, err error) {
				games++
				switch {
				case err != nil:
					rejected++
					var re *RejectError
					if g.PDN.Ordinal != f.rejectedOrdinal || !errors.As(err, &re) || re.Variant != "russian" || g.Variant != rules.Russian ||
						!strings.Contains(re.Detail, "brazilian and czech each accept the whole game") || len(g.Moves) != re.Ply-1 {
						t.Errorf("game %d: %v (variant %v, %d moves kept)", g.PDN.Ordinal, err, g.Variant, len(g.Moves))
					}
				case g.Basis == BasisReplay:
					czech++
					if g.Variant != rules.Czech || len(g.Warnings) == 0 ||
						!strings.HasPrefix(g.Warnings[len(g.Warnings)-1].Text, "variant decided by replay: czech: no GameType, Variant or Italian tags; russian (by notation) rejects ply ") ||
						!strings.HasSuffix(g.Warnings[len(g.Warnings)-1].Text, "of the other 8x8 algebraic variants only czech accepts every move") {
						t.Errorf("game %d: %v by %s, warnings %q", g.PDN.Ordinal, g.Variant, g.Basis, g.Warnings)
					}
					// The same moves as when Czech is forced.
					moves := append([]rules.Move(nil), g.Moves...)
					if err := forced.Replay(g.PDN, nil, &again); err != nil || len(again.Moves) != len(moves) {
						t.Fatalf("game %d forced czech: %v", g.PDN.Ordinal, err)
					}
					for i := range moves {
						if !moves[i].SameAs(&again.Moves[i]) {
							t.Fatalf("game %d ply %d differs from forced czech", g.PDN.Ordinal, i+1)
						}
					}
				default:
					russian++
					if g.Variant != rules.Russian || g.Basis != BasisMoves && !(g.Basis == BasisDefault && len(g.Moves) == 0) {
						t.Errorf("game %d: %v by %s", g.PDN.Ordinal, g.Variant, g.Basis)
					}
				}
			})
			if games != f.games || czech != f.czech || russian != f.russian || rejected != f.rejected {
				t.Errorf("%d games: %d czech by replay, %d russian, %d rejected; want %d: %d, %d, %d",
					games, czech, russian, rejected, f.games, f.czech, f.russian, f.rejected)
			}
		})
	}
}

// The frisian file's eight games without tags are numeric 10x10, so they
// read as International, which rejects them (Frisian captures along
// ranks and files); of the other numeric 10x10 variants only Frisian
// accepts them.
func TestFrisianUntaggedByReplay(t *testing.T) {
	frisian, err := rules.VariantByName("frisian")
	if err != nil {
		t.Skip("rules does not play frisian yet")
	}
	untagged := 0
	sharedGamesAll(t, "online/frisian.pdn", func(g *Game, err error) {
		if err != nil {
			t.Errorf("game %d: %v", g.PDN.Ordinal, err)
			return
		}
		if g.PDN.Tag("GameType") != "" {
			return
		}
		untagged++
		if g.Variant != frisian || g.Basis != BasisReplay {
			t.Errorf("game %d: %v by %s", g.PDN.Ordinal, g.Variant, g.Basis)
		}
	})
	if untagged != 8 {
		t.Fatalf("%d games without GameType, want 8", untagged)
	}
}

// What the second look does not do: a game whose tags name the variant,
// or whose variant is forced, is rejected as that variant; a game that no
// other variant accepts keeps its first rejection and the moves before
// it; a failure that is no move's (an unrecorded move) is not replayed.
func TestReplayOnlyWithoutEvidence(t *testing.T) {
	if _, err := rules.VariantByName("czech"); err != nil {
		t.Skip("rules does not play czech")
	}
	// The opening of mrcd2006 game 2: Russian (and Brazilian) reject
	// 7... h6xf4, where their men must go on capturing backwards over e5
	// (h6:f4:d6); Czech men capture forwards only.
	const czechGame = "1. c3-d4 d6-c5 2. b2-c3 f6-g5 3. a1-b2 g5-h4 4. g3-f4 g7-f6 5. d4-e5 f6xd4 " +
		"6. c3xe5 b6-a5 7. f4-g5 h6xf4 8. e3xg5 h8-g7 *"
	g, err := replayText(t, czechGame, Options{})
	if err != nil || g.Variant != rules.Czech || g.Basis != BasisReplay {
		t.Fatalf("untagged: %v by %s, %v; want czech by replay", g.Variant, g.Basis, err)
	}
	for _, c := range []struct {
		name string
		pdn  string
		opts Options
	}{
		{"GameType", "[GameType \"25\"]\n" + czechGame, Options{}},
		{"Variant tag", "[Variant \"Russian\"]\n" + czechGame, Options{}},
		{"forced", czechGame, Options{Variant: rules.Russian}},
	} {
		g, err := replayText(t, c.pdn, c.opts)
		var re *RejectError
		if !errors.As(err, &re) || !errors.Is(err, ErrIllegalMove) || re.Variant != "russian" || g.Variant != rules.Russian || g.Basis == BasisReplay {
			t.Errorf("%s: %v by %s, %v; want rejected as russian", c.name, g.Variant, g.Basis, err)
		}
	}
	// Illegal in every 8x8 algebraic variant: the first rejection stays,
	// with the moves played before it.
	g, err = replayText(t, "1. c3-d4 f6-e5 2. d4-e6 *", Options{})
	var re *RejectError
	if !errors.As(err, &re) || re.Ply != 3 || re.Variant != "russian" || g.Variant != rules.Russian || g.Basis != BasisMoves || len(g.Moves) != 2 || len(g.Warnings) != 0 {
		t.Fatalf("illegal everywhere: %v by %s, %d moves, %v", g.Variant, g.Basis, len(g.Moves), err)
	}
	// An unrecorded move is not the variant's fault.
	g, err = replayText(t, "1. a3-b4 b6-c5 - - *", Options{})
	if !errors.Is(err, ErrUnknownMove) || g.Variant != rules.Russian {
		t.Fatalf("unknown move: %v, %v", g.Variant, err)
	}
}
