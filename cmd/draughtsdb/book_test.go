package main

import (
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestMatchBook: match --book-min-games builds the book from the opening
// statistics and says how large it is; the flags are checked first; a
// match with a book is another match than one without (its key).
func TestMatchBook(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	url := pgtest.NewDBURL(t)
	if out, err := runCLI(t, "import", "--database-url", url, "--quiet", "../../ingest/sample/oca-english-200.pdn"); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--book-min-games", "-1"}, "--book-min-games -1"},
		{[]string{"--book-min-games", "2", "--book-min-score", "101"}, "--book-min-score 101"},
		{[]string{"--book-min-score", "60"}, "go with --book-min-games"},
	} {
		args := append([]string{"match", "--database-url", url, "--variant", "english", "--depth", "1", "--games", "2",
			"--engine", "builtin", "--engine", "builtin"}, c.args...)
		if out, err := runCLI(t, args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v\n%s, want an error with %q", c.args, err, out, c.want)
		}
	}
	base := []string{"match", "--database-url", url, "--variant", "english", "--depth", "1", "--games", "2", "--engine", "builtin", "--engine", "builtin"}
	out, err := runCLI(t, append(base, "--book-min-games", "2", "--book-min-score", "0")...)
	if err != nil || !strings.Contains(out, "opening book: ") || strings.Contains(out, "opening book: 0 positions") {
		t.Fatalf("match with a book: %v\n%s", err, out)
	}
	var keyBook, keyPlain string
	for _, l := range strings.Split(out, "\n") {
		if _, rest, ok := strings.Cut(l, "(key "); ok {
			keyBook, _, _ = strings.Cut(rest, ")")
		}
	}
	out, err = runCLI(t, base...)
	if err != nil {
		t.Fatalf("match without a book: %v\n%s", err, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if _, rest, ok := strings.Cut(l, "(key "); ok {
			keyPlain, _, _ = strings.Cut(rest, ")")
		}
	}
	if keyBook == "" || keyBook == keyPlain {
		t.Errorf("keys with and without the book: %q, %q", keyBook, keyPlain)
	}
}
