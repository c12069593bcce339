package ingest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/draughtsdb/draughtsdb/queries/export"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestDateKeptAsWritten: a Date that is not YYYY.MM.DD (year last, a
// two-digit year) is stored as unknown, not guessed, with a warning, and
// the tag is kept as written (games.tags), which export writes back; a
// year-first form is read, and kept as written too when it differs.
func TestDateKeptAsWritten(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	cases := []struct{ written, stored string }{
		{"03.07.20", "????.??.??"},
		{"12.03.2005", "????.??.??"},
		{"1841-??-??", "1841.??.??"},
		{"2005.03.12", "2005.03.12"},
	}
	text := ""
	for i, c := range cases {
		text += "[Event \"d" + string(rune('0'+i)) + "\"]\n[Date \"" + c.written + "\"]\n[GameType \"21\"]\n[Result \"*\"]\n1. 11-15 24-20 *\n\n"
	}
	path := writeFile(t, filepath.Join(t.TempDir(), "dates.pdn"), []byte(text))
	sum, err := Import(ctx, pool, []string{path}, Options{Notice: func(string) {}})
	if err != nil || sum.Imported != len(cases) {
		t.Fatalf("%+v %v", sum, err)
	}
	for i, c := range cases {
		var date string
		var tag, warnings *string
		if err := pool.QueryRow(ctx, `SELECT date, tags->>'Date', array_to_string(warnings, '|') FROM games WHERE event = $1`, "d"+string(rune('0'+i))).Scan(&date, &tag, &warnings); err != nil {
			t.Fatal(err)
		}
		if date != c.stored {
			t.Errorf("%q: stored as %q, want %q", c.written, date, c.stored)
		}
		wantTag := c.written != c.stored
		if wantTag != (tag != nil) || tag != nil && *tag != c.written {
			t.Errorf("%q: tags' Date %v", c.written, tag)
		}
		warned := warnings != nil && *warnings != ""
		if unknown := c.stored == "????.??.??"; unknown != warned {
			t.Errorf("%q: warnings %v", c.written, warnings)
		}
		// Export writes the tag as written.
		h := export.Header{Date: date, Result: "*", Tags: tag}
		if tag != nil {
			js := `{"Date":"` + *tag + `"}`
			h.Tags = &js
		}
		g := export.GamePDN(rules.English, h, rules.Black, []string{"11-15"}, nil)
		if d := g.Tag("Date"); d != c.written {
			t.Errorf("%q: exported Date %q", c.written, d)
		}
		n := 0
		for _, tg := range g.Tags {
			if tg.Name == "Date" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%q: %d Date tags exported", c.written, n)
		}
	}
}
