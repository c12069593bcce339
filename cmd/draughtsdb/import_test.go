package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestImportCommand(t *testing.T) {
	isolate(t)
	url := pgtest.NewDBURL(t)
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "corrupt.pdn.gz")
	os.WriteFile(corrupt, []byte("\x1f\x8b\x08\x00not really gzip"), 0o644)

	out, err := runCLIStdout(t, "import", "--database-url", url, "--json", "--quiet", "testdata/mixed.pdn", corrupt)
	if code := exitCode(err); code != 1 {
		t.Fatalf("exit code %d (err %v), want 1: one source could not be read", code, err)
	}
	var sum map[string]any
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	for _, k := range []string{"games_read", "imported", "duplicates", "rejected", "sources_failed", "seconds", "games_per_second"} {
		if _, ok := sum[k]; !ok {
			t.Errorf("--json lacks %q: %s", k, out)
		}
	}
	if sum["games_read"] != 5.0 || sum["imported"] != 2.0 || sum["rejected"] != 3.0 || sum["sources_failed"] != 1.0 {
		t.Fatalf("summary %s", out)
	}

	// The same command again adds nothing, and says so.
	again, err := runCLI(t, "import", "--database-url", url, "testdata/mixed.pdn")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(again, "already imported") || !strings.Contains(again, "imported:   0") {
		t.Fatalf("second import:\n%s", again)
	}
}

func TestWrongDatabaseURLIsOneReadableLine(t *testing.T) {
	isolate(t)
	_, err := runCLI(t, "db", "migrate", "--database-url", "postgres://nobody@127.0.0.1:1/x")
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.Contains(msg, "127.0.0.1:1") || !strings.Contains(msg, "connection refused") {
		t.Fatalf("error %q: want one line naming the host and the cause", msg)
	}
}
