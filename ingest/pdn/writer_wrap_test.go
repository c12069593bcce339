package pdn

import (
	"strings"
	"testing"
)

// TestWrapBeforeTagWords: a comment word starting with '[' and a letter
// never starts a line as is (the reader would take it as a tag): it is
// indented there, so lines stay within MaxLineLength unless a single word
// is longer. FuzzRoundTrip found "({", a 78-byte word and " [A}" written
// as one 81-byte line (the word before "[A" was carried along with it,
// and "(" glues to it); and a carried word that reads as a tag itself
// ("[B [C}") started a line, read back as a tag.
func TestWrapBeforeTagWords(t *testing.T) {
	for pad := 40; pad <= 90; pad++ {
		word := strings.Repeat("y", pad)
		for _, in := range []string{
			"1. 32-28 {" + word + " [B [C} 19-23 *\n",
			"1. 32-28 {x " + word + " [B [C [D} 19-23 *\n",
			"1. 32-28 ({" + word + " [A} 19-23) 2. 28x19 *\n",
			"1. 32-28 ({" + word + " [A [B} 19-23 (17-21 {" + word + " [C}) 23x32) *\n",
		} {
			res := readString(t, in)
			if len(res.errs) > 0 || len(res.games) != 1 {
				t.Fatalf("%q: %v", in, res.errs)
			}
			roundTrip(t, in[:20], res.games) // lines, re-read errors, same game
		}
	}
}
