package main

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestOpeningsCountGamesEnding: openings' ending counts (per move in
// --format json and the table, and in the heading for the position) are
// the games whose final position is the one after the move, as replaying
// the archive files in Go finds them.
func TestOpeningsCountGamesEnding(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	url := pgtest.NewDBURL(t)
	if _, err := runCLI(t, "import", "--database-url", url, "--quiet", sharedInternational); err != nil {
		t.Fatal(err)
	}
	// Every game's final hash and moves, from the files.
	finals := map[uint64]int64{}
	var shortest *replay.Game
	files, _ := filepath.Glob(filepath.Join(sharedInternational, "*.pdn.gz"))
	rp := replay.NewReplayer(replay.Options{})
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		rd := pdn.NewReader(z, file)
		for {
			pg, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				continue
			}
			g := new(replay.Game)
			if rp.Replay(pg, nil, g) != nil {
				continue
			}
			finals[g.Final.Hash()]++
			if g.StartFEN == "" && len(g.Moves) >= 4 && (shortest == nil || len(g.Moves) < len(shortest.Moves)) {
				shortest = g
			}
		}
		f.Close()
	}
	if shortest == nil {
		t.Fatal("no game from the initial position")
	}
	// The position before the shortest game's last move: its move to the
	// final position counts the games ending there.
	var text []string
	for i := range shortest.Moves {
		text = append(text, rules.FormatMove(shortest.Variant, &shortest.Moves[i], rules.Numeric, true))
	}
	before := strings.Join(text[:len(text)-1], " ")
	final := shortest.Final.Hash()
	out, err := runCLIStdout(t, "openings", "--database-url", url, "--variant", "international", "--moves", before, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var moves []map[string]any
	if err := json.Unmarshal([]byte(out), &moves); err != nil {
		t.Fatal(err)
	}
	last := shortest.Moves[len(shortest.Moves)-1]
	found := false
	for _, m := range moves {
		if _, ok := m["ending"]; !ok {
			t.Fatalf("move %v has no key ending", m)
		}
		if m["move"] == rules.FormatMove(shortest.Variant, &last, rules.Numeric, false) || m["move"] == rules.FormatMove(shortest.Variant, &last, rules.Numeric, true) {
			found = true
			if got := int64(m["ending"].(float64)); got != finals[final] || got == 0 {
				t.Errorf("after %s, %v: ending %d, want the %d games the files end there", before, m["move"], got, finals[final])
			}
		}
	}
	if !found {
		t.Fatalf("after %s: no move %s in %s", before, text[len(text)-1], out)
	}
	table, err := runCLIStdout(t, "openings", "--database-url", url, "--variant", "international", "--moves", strings.Join(text, " "))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("; %d games ended here", finals[final]); !strings.Contains(table, want) {
		t.Errorf("table at the final position does not say %q:\n%s", want, table)
	}
	initial := rules.International.StartPosition()
	start, err := runCLIStdout(t, "openings", "--database-url", url, "--variant", "international")
	if err != nil || !strings.Contains(start, "ending") || !strings.Contains(start, fmt.Sprintf("; %d games ended here", finals[initial.Hash()])) {
		t.Errorf("table at the start: %v\n%s", err, start)
	}
}
