package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateOddInputs: a file that ends in "; " (a comment opened at the
// very end) reads without a panic, and one in which nothing is PDN is
// reported as not PDN and counts as failed; the other inputs are read.
func TestValidateOddInputs(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	dir := t.TempDir()
	semi := filepath.Join(dir, "semi.pdn")
	if err := os.WriteFile(semi, []byte("[Event \"x\"]\n[GameType \"21\"]\n1. 11-15 24-20 ; "), 0o644); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	notPDN := filepath.Join(dir, "readme.pdn")
	if err := os.WriteFile(notPDN, readme, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI(t, "validate", "--quiet", "--json", semi, notPDN, "testdata/mixed.pdn")
	if code := exitCode(err); code != 1 {
		t.Fatalf("exit code %d (%v), want 1; output %s", code, err, out)
	}
	if !strings.Contains(out, notPDN+": not a PDN file") || strings.Contains(out, "panic") {
		t.Errorf("output %s", out)
	}
	var sum struct {
		Files       int `json:"files"`
		FilesFailed int `json:"files_failed"`
		GamesRead   int `json:"games_read"`
		Accepted    int `json:"accepted"`
	}
	i := strings.Index(out, "{")
	if i < 0 || json.NewDecoder(strings.NewReader(out[i:])).Decode(&sum) != nil {
		t.Fatalf("no summary in %s", out)
	}
	mixed, _ := runCLI(t, "validate", "--quiet", "--json", "testdata/mixed.pdn")
	var alone struct {
		GamesRead int `json:"games_read"`
	}
	json.NewDecoder(strings.NewReader(mixed[strings.Index(mixed, "{"):])).Decode(&alone)
	if sum.Files != 3 || sum.FilesFailed != 1 || sum.GamesRead != alone.GamesRead+1 || sum.Accepted < 1 {
		t.Errorf("summary %+v (mixed.pdn alone: %d games)", sum, alone.GamesRead)
	}
}
