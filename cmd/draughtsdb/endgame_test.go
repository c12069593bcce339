package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/endgame"
	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// hubScore runs `hub` with args on one depth-1 search of pos and returns
// its last score (men) and what it printed.
func hubScore(t *testing.T, pos rules.Position, args ...string) (float64, string) {
	t.Helper()
	cmd := newRootCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetIn(strings.NewReader("hub\ninit\npos pos=" + hub.FormatPosition(&pos) + "\nlevel depth=1\ngo think\nping\n"))
	cmd.SetArgs(append([]string{"hub", "--tt-size", "1"}, args...))
	if err := cmd.Execute(); err != nil {
		t.Fatalf("hub %q: %v\n%s", args, err, out.String())
	}
	o := out.String()
	score := -1000.0
	for _, line := range strings.Split(o, "\n") {
		for _, f := range strings.Fields(line) {
			if s, ok := strings.CutPrefix(f, "score="); ok {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Fatalf("hub: score %q: %v", s, err)
				}
				score = v
			}
		}
	}
	if !strings.Contains(o, "done move=") || score == -1000 {
		t.Fatalf("hub %q: no search:\n%s", args, o)
	}
	return score, o
}

// TestHubEndgameTables: `hub --endgame-pieces N` builds the tables into the
// data directory on the variant's first search, and a depth-1 search of a
// won three-piece ending then scores the forced win, which the same search
// without them cannot see; a variant without tables says so and searches;
// a bad count is refused.
func TestHubEndgameTables(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	dataDir := t.TempDir()
	v := rules.English
	// Two kings against one, far apart: won (the tables' own judgement,
	// which the endgame package checks against a plain search), and more
	// than one ply from the end.
	pos, err := rules.ParseFEN(v, "B:WK29:BK1,K2")
	if err != nil {
		t.Fatal(err)
	}
	tabs, err := endgame.Generate(v, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	val, ok := tabs.Probe(&pos)
	if won, plies := val.Win(); !ok || !won || plies < 3 {
		t.Fatalf("%s: %v %v; want a win of more than one ply", pos.FEN(), val, ok)
	}

	plain, _ := hubScore(t, pos, "--variant", "english")
	with, o := hubScore(t, pos, "--variant", "english", "--endgame-pieces", "3", "--data-dir", dataDir)
	want := 300 - float64(val.Plies())/100
	if with < want-0.005 || with > want+0.005 || plain > 100 {
		t.Errorf("depth 1 with the tables: %.2f, without: %.2f; want %.2f (a win in %d plies) with them only\n%s", with, plain, want, val.Plies(), o)
	}
	if !strings.Contains(o, " endgame=3 ") {
		t.Errorf("the id line does not name the tables (stored evaluations would not tell them apart):\n%s", o)
	}
	t.Logf("%s: depth 1 with the tables %.2f, without %.2f (%v)", pos.FEN(), with, plain, val)
	if st, err := os.Stat(filepath.Join(dataDir, "endgame", endgame.FileName(v, 3))); err != nil || st.Size() == 0 {
		t.Errorf("the tables' file: %v", err)
	}

	in, err := rules.ParseFEN(rules.International, "W:WK46,K47:BK5")
	if err != nil {
		t.Fatal(err)
	}
	_, o = hubScore(t, in, "--variant", "international", "--endgame-pieces", "3", "--data-dir", dataDir)
	if !strings.Contains(o, "international has no endgame tables") {
		t.Errorf("hub --variant international --endgame-pieces 3: no notice:\n%s", o)
	}

	for _, n := range []string{"1", "6", "-2"} {
		_, err := runCLI(t, "hub", "--endgame-pieces="+n)
		if err == nil || !strings.Contains(err.Error(), "--endgame-pieces "+n) {
			t.Errorf("hub --endgame-pieces %s: %v", n, err)
		}
	}
}
