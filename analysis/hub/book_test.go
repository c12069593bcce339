package hub

import (
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestServeBook: with Options.Book, "go" in a position the book has a
// move for answers it at once (no info line: no search), elsewhere the
// engine searches.
func TestServeBook(t *testing.T) {
	start := rules.International.StartPosition()
	bookMove := start.LegalMoves(nil)[3]
	book := func(p *rules.Position) (rules.Move, bool) {
		if p.Hash() == start.Hash() {
			return bookMove, true
		}
		return rules.Move{}, false
	}
	s := newSession(t, Options{TTSizeMB: 4, Variant: "international", Book: book})
	s.send("hub", "init")
	s.until("ready")
	s.send("pos pos="+FormatPosition(&start), "level depth=3", "go think")
	got := s.until("done")
	if len(got) != 1 || got[0] != "done move="+FormatMove(&bookMove) {
		t.Errorf("in the book: %q, want only done move=%s", got, FormatMove(&bookMove))
	}
	s.send("pos pos="+FormatPosition(&start)+" moves="+FormatMove(&bookMove), "go think")
	got = s.until("done")
	if len(got) < 2 || !strings.HasPrefix(got[0], "info ") {
		t.Errorf("out of the book: %q, want a search", got)
	}
	s.send("quit")
}
