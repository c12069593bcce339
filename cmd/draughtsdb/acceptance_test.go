package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/schema/pgcluster"
)

// TestSourcesPositionsAcceptance is the second acceptance check,
// end to end on a fresh data directory with the embedded cluster: import
// the shared International archives; sources --json lists them; removing
// one takes exactly its games out of the tree; re-importing it restores
// the tree; a 2-game engine match leaves the archive tree as it was and
// shows under --source match; export --moves 32-28 gives the tree's 32-28
// games; psql's draughtsdb_hash and draughtsdb_hash_moves give the hash
// the explorer's API gives for the position.
func TestSourcesPositionsAcceptance(t *testing.T) {
	isolate(t)
	base, err := os.MkdirTemp("", "draughtsdb-acceptance-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o711); err != nil { // the postgres user passes through when we run as root
		t.Fatal(err)
	}
	bin, err := pgcluster.FindBinDir("")
	if errors.Is(err, pgcluster.ErrNoServer) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(base, "data")
	dd := []string{"--data-dir", dataDir}
	t.Cleanup(func() { runCLI(t, "db", "stop", "--data-dir", dataDir) }) //nolint:errcheck
	run := func(args ...string) string {
		t.Helper()
		out, err := runCLIStdout(t, append(args, dd...)...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		return out
	}
	tree := func(args ...string) map[string][5]int64 {
		t.Helper()
		return treeJSONArgs(t, append(dd, args...)...)
	}
	total := func(m map[string][5]int64) (n int64) {
		for _, c := range m {
			n += c[0]
		}
		return n
	}

	run("import", "--quiet", sharedInternational)
	var list []listedSource
	if err := json.Unmarshal([]byte(run("sources", "--json")), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) < 20 {
		t.Fatalf("%d sources listed", len(list))
	}
	before := tree()
	after3228 := tree("--moves", "32-28")

	// Remove the source with the most games: the tree loses exactly them.
	victim := list[0]
	for _, s := range list {
		if s.Games > victim.Games {
			victim = s
		}
	}
	run("sources", "remove", victim.Name)
	removed := tree()
	if got := total(before) - total(removed); got != victim.Games {
		t.Errorf("removing %s (%d games): the tree lost %d games", victim.Name, victim.Games, got)
	}
	// Re-imported, the tree is what it was.
	run("import", "--quiet", filepath.Join(sharedInternational, filepath.Base(victim.Name)))
	if got := tree(); !reflect.DeepEqual(got, before) {
		t.Errorf("tree after re-importing %s: %v, want %v", victim.Name, got, before)
	}

	// A 2-game match: the archive tree does not change; the match's games
	// are counted under --source match.
	run("match", "--variant", "international", "--engine", "builtin", "--engine", "builtin", "--games", "2", "--depth", "2")
	if got := tree(); !reflect.DeepEqual(got, before) {
		t.Errorf("archive tree after the match: %v, want %v", got, before)
	}
	if got := total(tree("--source", "match")); got != 2 {
		t.Errorf("--source match: %d games in the tree, want the match's 2", got)
	}

	// export --moves 32-28: the games the tree counts after 32-28.
	out := filepath.Join(base, "e.csv")
	run("export", "--variant", "international", "--moves", "32-28", "--format", "csv", "--out", out)
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if want := before["32-28"][0]; int64(len(rows)-1) != want || total(after3228) != want {
		t.Errorf("export --moves 32-28: %d games; the tree has %d after 32-28 (%d in its next moves)", len(rows)-1, want, total(after3228))
	}

	// psql's hash of the FEN after 32-28, and of the moves, is the API's.
	fen := "B:W28,31,33-50:B1-20"
	url := strings.TrimSpace(run("db", "url"))
	psql := exec.Command(filepath.Join(bin, "psql"), "-X", "-At", "-d", url, "-c",
		"SELECT draughtsdb_hash('international', '"+fen+"') || ' ' || draughtsdb_hash_moves('international', '1. 32-28')")
	b, err := psql.CombinedOutput()
	if err != nil {
		t.Fatalf("psql: %v: %s", err, b)
	}
	hashes := strings.Fields(string(b))
	api := apiPositionHash(t, dd, "variant=international&fen="+fen)
	if len(hashes) != 2 || hashes[0] != api || hashes[1] != api {
		t.Errorf("psql draughtsdb_hash, draughtsdb_hash_moves %q; the API's hash %s", hashes, api)
	}
}

// treeJSONArgs is treeJSON with the database given by args (--data-dir).
func treeJSONArgs(t *testing.T, args ...string) map[string][5]int64 {
	t.Helper()
	out, err := runCLIStdout(t, append([]string{"openings", "--variant", "international", "--format", "json"}, args...)...)
	if err != nil {
		t.Fatalf("openings %v: %v", args, err)
	}
	var moves []struct {
		Move       string `json:"move"`
		Games      int64  `json:"games"`
		WhiteWins  int64  `json:"white_wins"`
		Draws      int64  `json:"draws"`
		BlackWins  int64  `json:"black_wins"`
		Unfinished int64  `json:"unfinished"`
	}
	if err := json.Unmarshal([]byte(out), &moves); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	got := map[string][5]int64{}
	for _, m := range moves {
		got[m.Move] = [5]int64{m.Games, m.WhiteWins, m.Draws, m.BlackWins, m.Unfinished}
	}
	return got
}

// apiPositionHash runs serve on a free port and returns the hash
// /api/position answers for query.
func apiPositionHash(t *testing.T, db []string, query string) string {
	t.Helper()
	t.Setenv("DRAUGHTSDB_SERVE_LISTEN", "127.0.0.1:0")
	cmd := newRootCommand()
	var stderr lockedBuffer
	cmd.SetOut(io.Discard)
	cmd.SetErr(&stderr)
	cmd.SetArgs(append([]string{"serve"}, db...))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	addrLine := regexp.MustCompile(`explorer on (http://127\.0\.0\.1:\d+/)`)
	var base string
	for deadline := time.Now().Add(time.Minute); base == ""; time.Sleep(20 * time.Millisecond) {
		if m := addrLine.FindStringSubmatch(stderr.String()); m != nil {
			base = m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not say where it listens:\n%s", stderr.String())
		}
	}
	resp, err := http.Get(base + "api/position?" + query)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var pos struct {
		Hash string `json:"hash"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&pos); err != nil || resp.StatusCode != http.StatusOK || pos.Hash == "" {
		t.Fatalf("/api/position?%s: %d %v %+v", query, resp.StatusCode, err, pos)
	}
	return pos.Hash
}
