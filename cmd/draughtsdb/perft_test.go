package main

import (
	"bytes"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

var updatePerftGolden = flag.Bool("update-perft-golden", false, "rewrite testdata/perft_divide.golden from the current perft --divide")

// perftDivideCases are perft --divide runs whose output is pinned byte for
// byte (timings aside) in testdata/perft_divide.golden: the initial
// positions of the first five variants and positions with multi-captures,
// flying kings and capture orders (--keep-duplicates), where the full
// capture path and the generation order show.
var perftDivideCases = [][]string{
	{"--variant", "russian", "--depth", "4"},
	{"--variant", "international", "--depth", "3"},
	{"--variant", "english", "--depth", "4"},
	{"--variant", "brazilian", "--depth", "3"},
	{"--variant", "canadian", "--depth", "3"},
	{"--variant", "international", "--fen", "W:W28,K46:B19,23,K5,K33", "--depth", "3"},
	{"--variant", "international", "--fen", "W:WK46:B41,42,31,33,22,24,12,14", "--depth", "3"},
	{"--variant", "international", "--fen", "W:WK46:B41,42,31,33,22,24,12,14", "--depth", "3", "--keep-duplicates"},
	{"--variant", "russian", "--fen", "W:W18,19,22,25,28:B3,6,9,11,12", "--depth", "4"},
	{"--variant", "russian", "--fen", "W:WK29:B22,15,14,7,6,1", "--depth", "3"},
	{"--variant", "russian", "--fen", "W:WK29:B22,15,14,7,6,1", "--depth", "3", "--keep-duplicates"},
	{"--variant", "canadian", "--fen", "W:W60,61,K70:B50,52,38,40,27", "--depth", "3", "--no-bulk"},
	{"--variant", "russian", "--depth", "1"},
}

// timing matches what differs from run to run in perft --divide output.
var timing = regexp.MustCompile(`\(\d+\.\d+ s, \d+ nodes/s\)|"seconds":[0-9.e+-]+,"nodes_per_second":[0-9.e+-]+`)

// TestPerftDivideGolden: perft --divide (text on standard output, the
// total on standard error, and --json) prints exactly what it printed when
// it computed the division itself: the moves in generation order with
// their full capture paths, the counts, the total.
func TestPerftDivideGolden(t *testing.T) {
	t.Parallel()
	var got bytes.Buffer
	for _, args := range perftDivideCases {
		full := append([]string{"perft", "--divide"}, args...)
		got.WriteString("## " + strings.Join(full, " ") + "\n")
		stdout, stderr, err := runCLIBoth(t, full...)
		if err != nil {
			t.Fatalf("%v: %v", full, err)
		}
		got.WriteString(stdout)
		got.WriteString("# stderr\n" + timing.ReplaceAllString(stderr, "TIME"))
		stdout, _, err = runCLIBoth(t, append(full, "--json")...)
		if err != nil {
			t.Fatalf("%v --json: %v", full, err)
		}
		got.WriteString("# json\n" + timing.ReplaceAllString(stdout, "TIME"))
	}
	const golden = "testdata/perft_divide.golden"
	if *updatePerftGolden {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		gl, wl := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			g, w := "", ""
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s line %d:\ngot  %q\nwant %q", golden, i+1, g, w)
			}
		}
	}
}

// runCLIBoth runs the root command and returns its standard output and
// standard error.
func runCLIBoth(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	cmd := newRootCommand()
	var stdout, stderr bytes.Buffer
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return stdout.String(), stderr.String(), err
}
