package replay

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Replay decides the variant from the first moves and checks the decision
// against every square it parses; this must always agree with
// ResolveVariant, which scans every move first, except where that variant
// rejects the game and another accepts it (BasisReplay).
func TestReplayVariantEqualsResolveVariant(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	srcs, errs := source.Expand([]string{"../ingest/pdn/testdata/shared", "testdata"})
	if len(errs) > 0 || len(srcs) < 80 {
		t.Fatalf("%d sources, errors %v", len(srcs), errs)
	}
	r := NewReplayer(Options{})
	var g Game
	games, replayed := 0, 0
	var widened []string
	for _, s := range srcs {
		rd, err := s.Open()
		if err != nil {
			t.Fatal(err)
		}
		pr := pdn.NewReader(rd, s.Name)
		for {
			pg, err := pr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				continue
			}
			games++
			want, wantBasis, werr := ResolveVariant(pg, nil)
			rerr := r.Replay(pg, nil, &g)
			if werr != nil {
				if !errors.Is(rerr, ErrUnsupportedVariant) {
					t.Errorf("%s game %d: ResolveVariant says %v, replay %v", s.Name, pg.Ordinal, werr, rerr)
				}
				continue
			}
			if g.Basis == BasisReplay {
				// The variant of the squares rejected the game and one
				// other variant of the same board accepted it, or none
				// did and International read its numbers up to 32 (the
				// one such game: Cat.D1.pdn game 16, a problem on 10x10).
				wider := g.Variant == rules.International && want.Board.Width == 8 && want.DefaultNotation == rules.Numeric
				if wider {
					widened = append(widened, fmt.Sprintf("%s game %d", s.Name, pg.Ordinal))
				}
				if rerr != nil || g.Variant == want || g.Variant.Board.Width != want.Board.Width && !wider || wantBasis == BasisGameType || wantBasis == BasisVariantTag ||
					len(g.Warnings) == 0 || g.Warnings[len(g.Warnings)-1].Kind.String() != "variant decided by replay" {
					t.Errorf("%s game %d: replay decided %v by %s (%v), ResolveVariant %v by %s", s.Name, pg.Ordinal, g.Variant, g.Basis, rerr, want, wantBasis)
				}
				replayed++
				continue
			}
			if g.Variant != want || g.Basis != wantBasis {
				t.Errorf("%s game %d: replay decided %v by %s, ResolveVariant %v by %s", s.Name, pg.Ordinal, g.Variant, g.Basis, want, wantBasis)
			}
		}
		rd.Close()
	}
	if games < 25000 {
		t.Fatalf("only %d games", games)
	}
	if want := []string{"../ingest/pdn/testdata/shared/testsuite/succeed/Cat.D1.pdn.gz game 16"}; !slices.Equal(widened, want) {
		t.Errorf("8x8 numeric games read as International: %q, want %q", widened, want)
	}
	t.Logf("%d games, %d decided by replay", games, replayed)
}

// playedGame plays plies moves of v from its initial position (a legal
// move picked by ply number, so the pieces spread) and writes them as PDN
// movetext in the variant's own notation, with full capture paths.
func playedGame(t *testing.T, v *rules.Variant, plies int) (text string, moves []rules.Move) {
	t.Helper()
	pos := v.StartPosition()
	var sb strings.Builder
	for ply := 0; ply < plies; ply++ {
		legal := pos.LegalMoves(nil)
		if len(legal) == 0 {
			break
		}
		m := legal[(ply*7)%len(legal)]
		if ply%2 == 0 {
			fmt.Fprintf(&sb, "%d. ", ply/2+1)
		}
		sb.WriteString(rules.FormatMove(v, &m, v.DefaultNotation, true))
		sb.WriteByte(' ')
		pos.Play(&m)
		moves = append(moves, m)
	}
	if len(moves) < 2 {
		t.Fatalf("%s: only %d moves from the initial position", v.Name, len(moves))
	}
	return sb.String() + "*", moves
}

// fullGameType writes v's GameType in the full form ("20,W,10,10,N2,0").
func fullGameType(v *rules.Variant) string {
	colour, notation := "W", "N2"
	if v.FirstToMove == rules.Black {
		colour = "B"
	}
	if v.DefaultNotation == rules.Algebraic {
		notation = "A0"
	}
	invert := 0
	if v.Board.Mirrored {
		invert = 1
	}
	return fmt.Sprintf("%d,%s,%d,%d,%s,%d", v.GameType, colour, v.Board.Width, v.Board.Height, notation, invert)
}

// Every variant rules plays is read from its GameType, short and full
// form, and from its name in a Variant tag; the moves, written in the
// variant's own notation, are the moves played.
func TestEveryVariantByGameTypeAndName(t *testing.T) {
	for _, v := range rules.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			text, moves := playedGame(t, v, 12)
			var headers []string
			want := []Basis{}
			if v.GameType != 0 {
				headers = append(headers, fmt.Sprintf("[GameType %q]\n", strconv.Itoa(v.GameType)), fmt.Sprintf("[GameType %q]\n", fullGameType(v)))
				want = append(want, BasisGameType, BasisGameType)
			}
			headers = append(headers, fmt.Sprintf("[Variant %q]\n", strings.ToUpper(v.Name[:1])+v.Name[1:]))
			want = append(want, BasisVariantTag)
			for i, h := range headers {
				g, err := replayText(t, h+text, Options{})
				if err != nil {
					t.Fatalf("%s%s: %v", h, text, err)
				}
				if g.Variant != v || g.Basis != want[i] {
					t.Fatalf("%s: %v by %s, want %v by %s", h, g.Variant, g.Basis, v, want[i])
				}
				if len(g.Moves) != len(moves) {
					t.Fatalf("%s: %d moves, want %d", h, len(g.Moves), len(moves))
				}
				for k := range moves {
					if !g.Moves[k].SameAs(&moves[k]) {
						t.Fatalf("%s: ply %d is %s, want %s", h, k+1, rules.FormatMove(v, &g.Moves[k], v.DefaultNotation, true), rules.FormatMove(v, &moves[k], v.DefaultNotation, true))
					}
				}
			}
		})
	}
}

// A GameType or Variant tag that names a variant rules does not play yet
// is rejected as unsupported, naming the variant; one that rules plays is
// never rejected so. The cases follow rules as variants land.
func TestVariantTagsAndGameTypes(t *testing.T) {
	tags := []struct{ tag, want string }{
		// PlayStrategy's Variant tags.
		{"American/English", "english"}, {"International", "international"}, {"Russian", "russian"},
		{"Brazilian", "brazilian"}, {"Pool", "pool"}, {"Spanish", "spanish"}, {"Frisian", "frisian"},
		{"Frysk!", "frysk"}, {"Antidraughts", "antidraughts"}, {"BRKTHRU", "breakthrough"},
		// lidraughts' names and others.
		{"Standard", "international"}, {"Breakthrough", "breakthrough"}, {"Frysk", "frysk"},
		{"Portuguese", "spanish"}, {"Czech", "czech"}, {"Italian", "italian"}, {"Thai", "thai"},
		{"Turkish", "turkish"}, {"Killer", "killer"}, {"canadian", "canadian"}, {"english", "english"},
	}
	for _, c := range tags {
		pg := &pdn.Game{Tags: []pdn.Tag{{Name: "Variant", Value: c.tag}}}
		checkResolved(t, pg, "Variant tag "+c.tag, c.want, BasisVariantTag)
	}
	// The draughts GameType numbers of the PDN standard (wiegerw/pdn
	// doc/gametype.rst) and of lidraughts (96-99), by the variant each
	// stands for: every one is read as rules says (Variant.GameType and
	// OtherGameTypes) or rejected naming the variant.
	standard := map[int]string{
		20: "international", 21: "english", 22: "italian", 23: "pool", 24: "spanish", 25: "russian",
		26: "brazilian", 27: "canadian", 28: "spanish", 29: "czech", 30: "turkish", 31: "thai",
		40: "frisian", 41: "spantsiretti",
		96: "breakthrough", 97: "frysk", 98: "antidraughts",
		// lidraughts' "From Position": International rules from a set-up
		// position (the FEN tag).
		99: "international",
	}
	for n, name := range standard {
		pg := &pdn.Game{Tags: []pdn.Tag{{Name: "GameType", Value: strconv.Itoa(n)}}}
		checkResolved(t, pg, "GameType "+strconv.Itoa(n), name, BasisGameType)
	}
	// Every number rules reads is in the standard's table, as the variant
	// the table names.
	for _, v := range rules.Variants() {
		for _, n := range append([]int{v.GameType}, v.OtherGameTypes...) {
			if n != 0 && standard[n] != v.Name {
				t.Errorf("%s reads GameType %d, which the PDN standard gives %q", v.Name, n, standard[n])
			}
		}
	}
	// Tags that name no variant leave the decision to the squares.
	for _, tag := range []string{"From Position", "fromPosition", "?"} {
		pg := &pdn.Game{Tags: []pdn.Tag{{Name: "Variant", Value: tag}}}
		if v, basis, err := ResolveVariant(pg, nil); err != nil || v != rules.Russian || basis != BasisDefault {
			t.Errorf("Variant tag %q: %v by %s, %v; want the default", tag, v, basis, err)
		}
	}
	// Numbers that nobody plays are rejected with the variant's name, or
	// as unknown.
	for gt, want := range map[string]string{"41": "GameType 41 (spantsiretti)", "77,W,8,8,A0,0": "GameType 77 (unknown)", "x": `GameType "x" is not a number`} {
		pg := &pdn.Game{Tags: []pdn.Tag{{Name: "GameType", Value: gt}}}
		_, _, err := ResolveVariant(pg, nil)
		if !errors.Is(err, ErrUnsupportedVariant) || !strings.Contains(err.Error(), want) {
			t.Errorf("GameType %q: %v, want unsupported %q", gt, err, want)
		}
	}
}

// checkResolved checks that pg resolves to the variant named want by
// basis when rules plays it, and is rejected as unsupported, naming it,
// when rules does not.
func checkResolved(t *testing.T, pg *pdn.Game, what, want string, basis Basis) {
	t.Helper()
	v, b, err := ResolveVariant(pg, nil)
	if wantV, rerr := rules.VariantByName(want); rerr == nil {
		if err != nil || v != wantV || b != basis {
			t.Errorf("%s: %v by %s, %v; want %s by %s", what, v, b, err, want, basis)
		}
		return
	}
	if !errors.Is(err, ErrUnsupportedVariant) || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: %v; want unsupported, naming %s (rules does not play it yet)", what, err, want)
	}
}

// onlineVariants is the variant of each shared online file (lidraughts
// writes GameType, PlayStrategy a Variant tag).
var onlineVariants = map[string]string{
	"american": "english", "antidraughts": "antidraughts", "brazilian": "brazilian",
	"breakthrough": "breakthrough", "frisian": "frisian", "frysk": "frysk",
	"russian": "russian", "standard": "international",
}

// Every tagged game of the shared online files resolves to its file's
// variant, and once rules plays that variant no game of the file is
// rejected as unsupported. Until then the file is skipped, so the test
// starts checking when the variant lands.
func TestOnlineFilesVariants(t *testing.T) {
	for file, name := range onlineVariants {
		t.Run(file, func(t *testing.T) {
			want, err := rules.VariantByName(name)
			if err != nil {
				t.Skipf("rules does not play %s yet", name)
			}
			tagged, accepted, games := 0, 0, 0
			sharedGamesAll(t, "online/"+file+".pdn", func(g *Game, err error) {
				games++
				if errors.Is(err, ErrUnsupportedVariant) {
					t.Errorf("game %d: %v", g.PDN.Ordinal, err)
				}
				if g.PDN.Tag("GameType") != "" || g.PDN.Tag("Variant") != "" {
					tagged++
					v, _, rerr := ResolveVariant(g.PDN, nil)
					if rerr != nil || v != want {
						t.Errorf("game %d: %v, %v; want %s", g.PDN.Ordinal, v, rerr, name)
					}
				}
				if err == nil {
					accepted++
				}
			})
			if tagged == 0 {
				t.Fatal("no tagged game")
			}
			t.Logf("%s: %d games, %d tagged, %d accepted", file, games, tagged, accepted)
		})
	}
}

// The Italian championship file has Italian tag names only (Bianco, Nero,
// Risultato): Italian, with the players and the result from those tags.
func TestItalianTags(t *testing.T) {
	const rel = "testsuite/succeed/Campionato Assoluto 2005.pdn"
	italian, err := rules.VariantByName("italian")
	games, accepted := 0, 0
	sharedGamesAll(t, rel, func(g *Game, rerr error) {
		games++
		if italian == nil {
			if !errors.Is(rerr, ErrUnsupportedVariant) || !strings.Contains(rerr.Error(), "italian") {
				t.Errorf("game %d: %v; want unsupported, naming italian", g.PDN.Ordinal, rerr)
			}
			return
		}
		if g.Variant != italian || g.Basis != BasisItalianTags {
			t.Errorf("game %d: %v by %s, want italian by %s (%v)", g.PDN.Ordinal, g.Variant, g.Basis, BasisItalianTags, rerr)
		}
		if rerr != nil {
			t.Errorf("game %d: %v", g.PDN.Ordinal, rerr)
			return
		}
		// Game 46 ends with 3x26, where two captures of three men, by
		// 10-19 and by 10-17, are equal under every precedence rule; its
		// result (0-1) picks the one after which Black is not a man down.
		if g.PDN.Ordinal == 46 {
			if got := rules.FormatMove(italian, &g.Moves[len(g.Moves)-1], rules.Numeric, true); got != "3x10x19x26" || !strings.Contains(strings.Join(WarningTexts(g.Warnings), "\n"), warnResolvedByResult) {
				t.Errorf("game 46: last move %s, warnings %q; want 3x10x19x26 resolved by the result", got, g.Warnings)
			}
		}
		accepted++
		if g.White != g.PDN.Tag("Bianco") || g.Black != g.PDN.Tag("Nero") || g.White == "" {
			t.Errorf("game %d: players %q - %q, want Bianco %q, Nero %q", g.PDN.Ordinal, g.White, g.Black, g.PDN.Tag("Bianco"), g.PDN.Tag("Nero"))
		}
		if want, ok := ParseResult(italian, g.PDN.Tag("Risultato")); ok && want != ResultUnknown && !g.Decided && g.Result != want {
			t.Errorf("game %d: result %v, want Risultato %q", g.PDN.Ordinal, g.Result, g.PDN.Tag("Risultato"))
		}
	})
	if games != 53 {
		t.Fatalf("%d games, want 53", games)
	}
	if err != nil {
		t.Skipf("rules does not play italian yet: all %d games rejected as unsupported", games)
	}
	if accepted != games {
		t.Fatalf("%d of %d games accepted, want all", accepted, games)
	}
}

// Risultato stands for Result where the Result tag is missing (Italian
// files): here a result the final position does not decide.
func TestRisultato(t *testing.T) {
	g, err := replayText(t, "[Bianco \"A\"]\n[Nero \"B\"]\n[Risultato \"0-1\"]\n\n1. 21-17 12-15 *", Options{})
	if italian, verr := rules.VariantByName("italian"); verr != nil {
		if !errors.Is(err, ErrUnsupportedVariant) {
			t.Fatalf("%v; want unsupported (rules does not play italian)", err)
		}
		return
	} else if err != nil || g.Variant != italian {
		t.Fatalf("%v %v", g.Variant, err)
	}
	if g.Result != BlackWins || g.White != "A" || g.Black != "B" {
		t.Fatalf("result %v, players %q - %q; want 0-1 from Risultato, A - B", g.Result, g.White, g.Black)
	}
}
