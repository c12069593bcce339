package pdn

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClip: a cut never splits a character, and a short text is kept.
func TestClip(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"ab" + strings.Repeat("é", 30), 10, "abéééé..."},
		{"ab" + strings.Repeat("é", 30), 9, "abééé..."},
		{"short", 10, "short"},
		{"€€€", 4, "€..."},
	} {
		if got := Clip(c.in, c.n); got != c.want || !utf8.ValidString(got) {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
