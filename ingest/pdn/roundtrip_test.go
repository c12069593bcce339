package pdn

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// sameGame compares what the writer promises to keep: tags (with the
// writer's normalisation), comments, moves with all attachments, result.
func sameGame(a, b *Game) error {
	ta := normTags(a.Tags)
	tb := normTags(b.Tags)
	if !reflect.DeepEqual(ta, tb) {
		return fmt.Errorf("tags differ:\n%v\n%v", ta, tb)
	}
	if !reflect.DeepEqual(a.Comments, b.Comments) {
		return fmt.Errorf("comments differ: %q vs %q", a.Comments, b.Comments)
	}
	if !reflect.DeepEqual(a.Moves, b.Moves) {
		for i := range min(len(a.Moves), len(b.Moves)) {
			if !reflect.DeepEqual(a.Moves[i], b.Moves[i]) {
				return fmt.Errorf("move %d differs: %+v vs %+v", i, a.Moves[i], b.Moves[i])
			}
		}
		return fmt.Errorf("moves differ: %d vs %d moves", len(a.Moves), len(b.Moves))
	}
	ra, rb := a.Result, b.Result
	if ra == "" {
		ra = "*"
	}
	if ra != rb {
		return fmt.Errorf("result %q vs %q", a.Result, b.Result)
	}
	return nil
}

// normTags puts the tags in the writer's order with its value rules.
func normTags(tags []Tag) []Tag {
	out := []Tag{}
	for _, n := range standardTags {
		for _, t := range tags {
			if t.Name == n {
				out = append(out, Tag{t.Name, NormalizeTagValue(t.Name, t.Value)})
			}
		}
	}
	for _, t := range tags {
		if !isStandardTag(t.Name) {
			out = append(out, Tag{t.Name, NormalizeTagValue(t.Name, t.Value)})
		}
	}
	return out
}

// roundTrip writes games and reads them back, checking equality and the
// line length.
func roundTrip(t testing.TB, name string, games []*Game) {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, g := range games {
		if err := w.WriteGame(g); err != nil {
			t.Fatalf("%s: write game %d: %v", name, g.Ordinal, err)
		}
	}
	for i, line := range strings.Split(buf.String(), "\n") {
		// A tag, or a ';' comment (one that holds '}'), cannot wrap.
		if len(line) > MaxLineLength && strings.Contains(strings.TrimSpace(line), " ") && !strings.HasPrefix(line, "[") && !strings.HasPrefix(line, ";") {
			t.Errorf("%s: output line %d has %d bytes: %q", name, i+1, len(line), line)
		}
	}
	res := readAll(t, bytes.NewReader(buf.Bytes()), name+" (written)")
	for _, e := range res.errs {
		t.Errorf("re-read error: %v", e)
	}
	if len(res.games) != len(games) {
		t.Fatalf("%s: wrote %d games, read back %d", name, len(games), len(res.games))
	}
	for i := range games {
		if err := sameGame(games[i], res.games[i]); err != nil {
			t.Errorf("%s: game %d: %v", name, games[i].Ordinal, err)
		}
	}
}

func TestRoundTripShared(t *testing.T) {
	files := []string{}
	for rel := range sharedCounts {
		if testing.Short() && strings.HasPrefix(rel, "english/") {
			continue
		}
		files = append(files, rel)
	}
	for _, tc := range failFiles {
		files = append(files, "testsuite/fail/"+tc.file)
	}
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			f := openShared(t, rel)
			defer f.Close()
			roundTrip(t, rel, readAll(t, f, rel).games)
		})
	}
}
