package replay

import (
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// The final position decides a game by the variant's Win rule: in
// antidraughts the side to move without a legal move wins, in
// breakthrough the first king wins. Reading every variant as "no legal
// move loses" gave lidraughts' antidraughts games a contradiction warning
// each and completed their unknown results for the wrong side.
func TestResultByWinRule(t *testing.T) {
	// White to move, its only man on 46 blocked by 41 and 37.
	const blocked = "[FEN \"W:W46:B41,37\"]\n"
	cases := []struct {
		name, pdn string
		want      Result
		warning   string // substring of the one warning, "" for none
	}{
		{"international: blocked loses", "[GameType \"20\"]\n" + blocked + "*", BlackWins, "completed from the final position: White has no legal move"},
		{"antidraughts: blocked wins", "[GameType \"98\"]\n" + blocked + "*", WhiteWins, "completed from the final position: White has no legal move, which wins in antidraughts"},
		{"antidraughts: written win agrees", "[GameType \"98\"]\n[Result \"2-0\"]\n" + blocked + "2-0", WhiteWins, ""},
		{"antidraughts: written loss contradicts", "[GameType \"98\"]\n[Result \"0-2\"]\n" + blocked + "0-2", BlackWins, "contradicts the final position, where White has no legal move, which wins in antidraughts"},
		{"breakthrough: the first king wins", "[GameType \"96\"]\n[FEN \"B:WK3,32:B19\"]\n*", WhiteWins, "completed from the final position: White has a king, which wins in breakthrough"},
		{"breakthrough: a king made in the game", "[GameType \"96\"]\n[FEN \"W:W7,32:B19\"]\n1. 7-1 *", WhiteWins, "White has a king"},
		{"international: a king decides nothing", "[GameType \"20\"]\n[FEN \"W:W7,32:B19\"]\n1. 7-1 *", ResultUnknown, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, name := range []string{"antidraughts", "breakthrough"} {
				if strings.Contains(c.name, name) {
					if _, err := rules.VariantByName(name); err != nil {
						t.Skipf("rules does not play %s yet", name)
					}
				}
			}
			g, err := replayText(t, c.pdn, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if g.Result != c.want {
				t.Errorf("result %v, want %v", g.Result, c.want)
			}
			if c.want != ResultUnknown && !g.Decided {
				t.Errorf("not decided by the final position")
			}
			got := strings.Join(WarningTexts(g.Warnings), "; ")
			if c.warning == "" && got != "" || c.warning != "" && (len(g.Warnings) != 1 || !strings.Contains(got, c.warning)) {
				t.Errorf("warnings %q, want %q", got, c.warning)
			}
		})
	}
}

// lidraughts' antidraughts and breakthrough games: no result contradicts
// its final position, and the games the position decides are counted.
func TestOnlineResultsByWinRule(t *testing.T) {
	for _, name := range []string{"antidraughts", "breakthrough"} {
		t.Run(name, func(t *testing.T) {
			if _, err := rules.VariantByName(name); err != nil {
				t.Skipf("rules does not play %s yet", name)
			}
			decided := 0
			accepted := sharedGames(t, "online/"+name+".pdn", func(g *Game) {
				for _, w := range g.Warnings {
					if w.Kind.String() == "result contradicts the final position" {
						t.Errorf("game %d: %s", g.PDN.Ordinal, w)
					}
				}
				if g.Decided {
					decided++
				}
			})
			if accepted != 25 || decided == 0 {
				t.Fatalf("%d games accepted, %d decided by the final position; want 25 and some", accepted, decided)
			}
			t.Logf("%d decided by the final position", decided)
		})
	}
}
