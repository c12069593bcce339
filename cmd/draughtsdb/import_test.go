package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestMain isolates the process from the user's configuration once (a
// config directory of its own, no DRAUGHTSDB_* variables), so that the
// command tests that set no variable of their own may run in parallel;
// those that do set some with isolate and t.Setenv, and stay sequential.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "draughtsdb-cmd-config-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	for _, kv := range os.Environ() {
		// DRAUGHTSDB_PGTEST_CPU is pgtest's knob, not a setting.
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "DRAUGHTSDB_") && k != "DRAUGHTSDB_PGTEST_CPU" {
			os.Unsetenv(k)
		}
	}
	code := pgtest.Run(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestImportCommand(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
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
	t.Parallel() // the test binary keeps the user's configuration out, once
	_, err := runCLI(t, "db", "migrate", "--database-url", "postgres://nobody@127.0.0.1:1/x")
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.Contains(msg, "127.0.0.1:1") || !strings.Contains(msg, "connection refused") {
		t.Fatalf("error %q: want one line naming the host and the cause", msg)
	}
}

// TestImportFailureNamesEachSource: the exit status is 1 and the last
// message names each failed source once, with the game where it stopped
// (it used to say only "1 source(s) could not be read completely").
func TestImportFailureNamesEachSource(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	url := pgtest.NewDBURL(t)
	dir := t.TempDir()
	text, err := os.ReadFile("../../ingest/sample/oca-english-200.pdn")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(text)
	zw.Close()
	trunc := filepath.Join(dir, "trunc.pdn.gz")
	os.WriteFile(trunc, gz.Bytes()[:gz.Len()/2], 0o644)
	notGzip := filepath.Join(dir, "corrupt.pdn.gz")
	os.WriteFile(notGzip, []byte("\x1f\x8b\x08\x00not really gzip"), 0o644)

	out, err := runCLIStdout(t, "import", "--database-url", url, "--json", "--quiet", trunc, notGzip, "testdata/mixed.pdn")
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("exit %v, want status 1", err)
	}
	var sum struct {
		Imported int `json:"imported"`
		Failures []struct {
			Source string `json:"source"`
			Game   int    `json:"game"`
		} `json:"failures"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	// In the order they failed: the one that breaks at once first.
	if len(sum.Failures) != 2 || sum.Failures[0].Source != notGzip || sum.Failures[1].Source != trunc || sum.Failures[1].Game == 0 {
		t.Fatalf("failures %+v", sum.Failures)
	}
	cut := sum.Failures[1].Game
	// The games of the cut file before the cut are stored (the archive
	// repeats 10 of its games), with mixed.pdn's 2.
	if sum.Imported < 2+cut-1-10 {
		t.Fatalf("imported %d games; the cut is in game %d", sum.Imported, cut)
	}
	lines := strings.Split(ee.msg, "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "2 source(s)") ||
		!strings.HasPrefix(strings.TrimSpace(lines[1]), notGzip+": flate: corrupt input") ||
		!strings.HasPrefix(strings.TrimSpace(lines[2]), trunc+": game "+strconv.Itoa(cut)+": unexpected EOF") {
		t.Fatalf("message:\n%s", ee.msg)
	}
	for _, l := range lines[1:] {
		if strings.Count(l, ".pdn.gz") != 1 {
			t.Errorf("%q names its file more than once", l)
		}
	}
}

// TestValidateNamesACutFileOnce: validate printed a truncated .gz as
// "x.gz: x.gz: x.gz: unexpected EOF" (the source, the pipeline and the
// command each added the name).
func TestValidateNamesACutFileOnce(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	text, err := os.ReadFile("../../ingest/sample/oca-english-200.pdn")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(text)
	zw.Close()
	trunc := filepath.Join(t.TempDir(), "cut.pdn.gz")
	os.WriteFile(trunc, gz.Bytes()[:gz.Len()/2], 0o644)
	cmd := newRootCommand()
	var stdout, stderr bytes.Buffer
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SetArgs([]string{"validate", "--quiet", trunc})
	if err := cmd.Execute(); exitCode(err) != 1 {
		t.Fatalf("exit %v, want status 1", err)
	}
	var line string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, "cut.pdn.gz") {
			line = l
		}
	}
	if strings.Count(line, "cut.pdn.gz") != 1 || !strings.Contains(line, ": game ") || !strings.Contains(line, "unexpected EOF") {
		t.Fatalf("stderr:\n%s", stderr.String())
	}
}

// TestImportSummaryReasonOrder: the rejection reasons are listed by count,
// ties by name, so the summary is the same on every run (ties came out in
// map order).
func TestImportSummaryReasonOrder(t *testing.T) {
	t.Parallel()
	s := &ingest.Summary{RejectedByReason: map[string]int{
		"illegal move": 3, "unknown variant": 1, "bad FEN": 1, "no moves": 1, "ambiguous move": 1, "truncated": 1, "bad result": 7,
	}}
	want := []string{"bad result", "illegal move", "ambiguous move", "bad FEN", "no moves", "truncated", "unknown variant"}
	for range 20 {
		var b bytes.Buffer
		printImportSummary(&b, s)
		var got []string
		for _, l := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(l, "  ") {
				got = append(got, strings.TrimSpace(l[:2+24]))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("reasons in the order %q, want %q\n%s", got, want, b.String())
		}
	}
}

// TestOpeningDepthCheckedByConfig: import and db rebuild-openings take
// import.opening_depth as the configuration checked it (1..1000): a value
// out of range is a SettingError naming the flag, before any database is
// opened (the commands no longer check it themselves).
func TestOpeningDepthCheckedByConfig(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	for _, args := range [][]string{
		{"import", "--opening-depth", "0", "x.pdn"},
		{"import", "--opening-depth", "1001", "x.pdn"},
		{"db", "rebuild-openings", "--opening-depth", "0"},
	} {
		_, err := runCLI(t, args...)
		var se *SettingError
		if !errors.As(err, &se) || se.Key != "import.opening_depth" || se.Source != "--opening-depth" || !errors.Is(err, ErrOutOfRange) {
			t.Errorf("%v: %v, want a SettingError for --opening-depth", args, err)
		}
	}
}

// TestImportSourcesCountEveryInput: sources counts every source, those
// that failed included: a path that cannot be opened failed before it was
// counted (8 sources of which 2 failed printed "sources: 7 (..., 2
// failed)").
func TestImportSourcesCountEveryInput(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	url := pgtest.NewDBURL(t)
	dir := t.TempDir()
	notGzip := filepath.Join(dir, "corrupt.pdn.gz")
	os.WriteFile(notGzip, []byte("\x1f\x8b\x08\x00not really gzip"), 0o644)
	args := []string{"testdata/mixed.pdn", filepath.Join(dir, "missing.pdn"), notGzip}
	out, err := runCLIStdout(t, append([]string{"import", "--database-url", url, "--json", "--quiet"}, args...)...)
	if exitCode(err) != 1 {
		t.Fatalf("exit status %d (%v), want 1", exitCode(err), err)
	}
	var sum struct {
		Sources       int `json:"sources"`
		SourcesFailed int `json:"sources_failed"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	if sum.Sources != 3 || sum.SourcesFailed != 2 {
		t.Errorf("--json: sources %d, sources_failed %d; want 3 and 2", sum.Sources, sum.SourcesFailed)
	}
	// Again, as text: mixed.pdn is imported already.
	out, _ = runCLIStdout(t, append([]string{"import", "--database-url", url, "--quiet"}, args...)...)
	if !strings.Contains(out, "sources:    3 (1 already imported, 0 resumed, 2 failed)\n") {
		t.Errorf("summary:\n%s", out)
	}
}
