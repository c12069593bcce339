package replay

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// textKinds is how warnings were told apart before they carried a kind: by
// a phrase of their text, the first that matches. Stored warnings are
// texts only, so this is still how a reader of games.warnings would count
// them; every warning's Kind must agree with it.
var textKinds = []struct{ kind, phrase string }{
	{"result taken from the result token", "result taken from the result token"},
	{"tag repeated:", "tag repeated:"},
	{"FEN side to move unknown", `FEN side to move "?" read as`},
	{"result completed from the final position", "completed from the final position"},
	{"result contradicts the final position", "contradicts the final position"},
	{"result not understood", "is not a game result"},
	{"result token differs from the Result tag", "differs from the Result tag"},
	{"no result at the end of the game", "no result at the end of the game"},
	{"moves without tags", "moves without tags"},
	{"date not understood", "not understood; stored as"},
	{"date range", "is a range; stored as its first date"},
	{"NUL byte removed", "NUL"},
	{"text between tags skipped", "neither a tag nor movetext skipped"},
	{"text that is not PDN skipped", "that is not PDN skipped"},
	{"variant decided by replay", "variant decided by replay:"},
	{"ambiguous move resolved by the rest of the game", "ambiguous move resolved by the rest of the game"},
	{"ambiguous last move resolved by the game's result", "ambiguous last move resolved by the game's result"},
	{"variant decided by its source", "variant decided by its source:"},
	{"the variant of its source rejects it", "the variant of its source rejects it:"},
}

func textKind(w string) string {
	for _, k := range textKinds {
		if strings.Contains(w, k.phrase) {
			return k.kind
		}
	}
	return "other"
}

// Every warning of every shared archive has a kind (none is WarnOther),
// the kind its text names, and the variant it says decided the game where
// its kind names one.
func TestWarningKindsMatchTheirTexts(t *testing.T) {
	root := filepath.Join("..", "ingest", "pdn", "testdata", "shared")
	seen := map[WarningKind]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".pdn.gz") {
			return err
		}
		rel := strings.TrimSuffix(filepath.ToSlash(path[len(root)+1:]), ".gz")
		sharedGamesAll(t, rel, func(g *Game, err error) {
			if err != nil {
				return
			}
			for _, w := range g.Warnings {
				seen[w.Kind]++
				if w.Kind == WarnOther || w.Kind.String() != textKind(w.Text) || w.String() != w.Text {
					t.Errorf("%s game %d: kind %q, text %q (reads as %q)", rel, g.PDN.Ordinal, w.Kind, w.Text, textKind(w.Text))
				}
				if w.Kind == WarnVariantByReplay {
					if w.Variant != g.Variant.Name || !strings.HasPrefix(w.Text, variantByReplay+" "+w.Variant+":") || DecidedByReplay(g.Warnings) != w.Variant {
						t.Errorf("%s game %d: variant %q, text %q, game %s", rel, g.PDN.Ordinal, w.Variant, w.Text, g.Variant)
					}
				} else if w.Variant != "" {
					t.Errorf("%s game %d: %s names variant %q", rel, g.PDN.Ordinal, w.Kind, w.Variant)
				}
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The archives hold most kinds; these at least, so that the check
	// above cannot pass on an archive without warnings.
	for _, k := range []WarningKind{WarnResultFromToken, WarnResultCompleted, WarnResultContradicts, WarnVariantByReplay,
		WarnResolvedByRest, WarnDateNotUnderstood, WarnNoResult} {
		if seen[k] == 0 {
			t.Errorf("no %q warning in the shared archives (%v)", k, seen)
		}
	}
	for k := WarningKind(0); k < numWarningKinds+2; k++ {
		if n := k.String(); n == "" || k >= numWarningKinds && n != "other" {
			t.Errorf("kind %d: name %q", k, n)
		}
	}
}
