package players

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzIdentify: any written name folds to one key without a panic, the
// same key every time and for its case-folded and respaced forms, and
// grouping any names with it never loses or repeats a spelling.
func FuzzIdentify(f *testing.F) {
	for _, s := range []string{"Sijbrands,T.", "T. Sijbrands", "Kooij,van der,W.", "A. J. Heffner", "Heffner", ",", ".", "a.b.c.d", "van der", "Gérard Vérsé", "draughtsdb 0.1 (A)", " , , ", "x,van,y,z"} {
		f.Add(s, "Heffner, A.")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			return
		}
		k := Identify(a).Key()
		if k != Identify(a).Key() {
			t.Fatalf("%q: two keys", a)
		}
		if spaced := strings.Join(strings.Fields(a), "  "); Identify(spaced).Key() != k && !strings.ContainsAny(a, "\u00a0\u2000\u3000") {
			t.Errorf("%q and %q: keys %q and %q", a, spaced, k, Identify(spaced).Key())
		}
		sp := []Spelling{{1, a, 1}, {2, b, 2}, {3, a + " X.", 3}}
		n := 0
		for _, p := range Group(sp, []Link{{b, a}}) {
			n += len(p.Spellings)
			if len(p.Spellings) == 0 {
				t.Fatal("a player without spellings")
			}
		}
		if n != len(sp) {
			t.Fatalf("%d spellings grouped into players holding %d", len(sp), n)
		}
	})
}
