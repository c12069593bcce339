package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/draughtsdb/draughtsdb/ingest"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidateReportsEveryRejectionAndKeepsItsBytes(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	rejects := filepath.Join(t.TempDir(), "rejects.pdn")
	out, err := runCLI(t, "validate", "--json", "--quiet", "--rejects", rejects, "testdata/mixed.pdn")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var sum ingest.ValidateSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	want := map[string]int{"illegal move": 1, "unsupported variant": 1, "invalid FEN": 1}
	if sum.GamesRead != 5 || sum.Accepted != 2 || sum.Rejected != 3 || len(sum.RejectedByReason) != 3 {
		t.Fatalf("summary %+v", sum)
	}
	for r, n := range want {
		if sum.RejectedByReason[r] != n {
			t.Errorf("rejected_by_reason[%s] = %d, want %d", r, sum.RejectedByReason[r], n)
		}
	}
	// The rejects file holds the three games exactly as read: validating it
	// rejects them again, for the same reasons.
	raw, _ := os.ReadFile(rejects)
	src, _ := os.ReadFile("testdata/mixed.pdn")
	for _, ev := range []string{"illegal: capture is compulsory", "unsupported", "bad FEN"} {
		i := bytes.Index(src, []byte(`[Event "`+ev+`"]`))
		j := bytes.Index(src[i+1:], []byte("[Event"))
		game := src[i:]
		if j >= 0 {
			game = src[i : i+1+j]
		}
		if !bytes.Contains(raw, bytes.TrimRight(game, "\n")) {
			t.Errorf("rejects file lacks the bytes of %q", ev)
		}
	}
	out, err = runCLI(t, "validate", "--json", "--quiet", rejects)
	if err != nil {
		t.Fatal(err)
	}
	var again ingest.ValidateSummary
	json.Unmarshal([]byte(out), &again)
	if again.GamesRead != 3 || again.Rejected != 3 {
		t.Fatalf("re-validating the rejects: %+v", again)
	}
}

func TestValidatePrintsOneLinePerRejection(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	cmd := newRootCommand()
	var stdout, stderr bytes.Buffer
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SetArgs([]string{"validate", "testdata/mixed.pdn"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 rejection lines, got:\n%s", stderr.String())
	}
	if want := `testdata/mixed.pdn:7 game 2 ply 3 "31-27": illegal move: a capture is compulsory (legal: 28x19)`; lines[0] != want {
		t.Errorf("line\n%s\nwant\n%s", lines[0], want)
	}
	if !strings.Contains(stdout.String(), "5 read, 2 accepted, 3 rejected") {
		t.Errorf("summary: %s", stdout.String())
	}
}

func TestValidateExitStatusWhenAnInputCannotBeRead(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	_, err := runCLI(t, "validate", "--quiet", "testdata/mixed.pdn", filepath.Join(t.TempDir(), "missing.pdn"))
	var ee *exitError
	if !errors.As(err, &ee) || ee.code == 0 {
		t.Fatalf("err = %v, want a non-zero exit status", err)
	}
	if code := exitCode(err); code != 1 {
		t.Fatalf("exit code %d", code)
	}
}

// runCLIStdout runs the root command and returns only its standard output.
func runCLIStdout(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newRootCommand()
	var stdout, stderr lockedBuffer
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return stdout.String(), err
}

func TestNormalizeOutputIsStable(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	// mixed.pdn has rejected games: they are not written, and the exit
	// status says so (3), while every accepted game is written.
	out, err := runCLIStdout(t, "normalize", "testdata/mixed.pdn")
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != normalizeSomeRejected {
		t.Fatalf("normalize of a file with rejected games: %v, want exit status %d", err, normalizeSomeRejected)
	}
	// Each variant in its own notation by default, GameType saying which.
	for _, want := range []string{`[GameType "20,W,10,10,N2,0"]`, "1. 32-28 19-23 2. 28x19 14x23 2-0", `[GameType "21,B,8,8,N1,0"]`, "1. 11-15 23-19 2. 8-11 22-17 1/2-1/2"} {
		if !strings.Contains(out, want) {
			t.Fatalf("normalised output lacks %s:\n%s", want, out)
		}
	}
	path := filepath.Join(t.TempDir(), "n.pdn")
	os.WriteFile(path, []byte(out), 0o644)
	again, err := runCLIStdout(t, "normalize", path)
	if err != nil {
		t.Fatalf("every game written: want exit status 0, got %v", err)
	}
	if again != out {
		t.Fatalf("normalising twice changed the output:\n%s\n---\n%s", out, again)
	}
	// --notation algebraic: GameType follows the moves.
	alg, err := runCLIStdout(t, "normalize", "--notation", "algebraic", path)
	if err != nil || !strings.Contains(alg, `[GameType "20,W,10,10,A0,0"]`) || !strings.Contains(alg, "1. d4-e5 g7-f6") {
		t.Fatalf("%v\n%s", err, alg)
	}
	// An unreadable input: exit status 1.
	if _, err := runCLIStdout(t, "normalize", filepath.Join(t.TempDir(), "missing.pdn")); !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("missing input: %v, want exit status 1", err)
	}
}

func TestPerftCommand(t *testing.T) {
	t.Parallel()
	out, err := runCLIStdout(t, "perft", "--variant", "international", "--depth", "5")
	if err != nil || !strings.Contains(out, "perft(5) = 27117 ") {
		t.Fatalf("%v\n%s", err, out)
	}
	out, err = runCLIStdout(t, "perft", "--variant", "russian", "--depth", "4", "--divide")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	total := 0
	for _, l := range lines {
		var mv string
		var n int
		if _, err := fmt.Sscanf(l, "%s %d", &mv, &n); err != nil || !strings.Contains(mv, "-") {
			t.Fatalf("divide line %q", l)
		}
		total += n
	}
	if len(lines) != 7 || total != 1469 {
		t.Fatalf("divide: %d moves, %d nodes; want 7 and perft(4) = 1469\n%s", len(lines), total, out)
	}
	out, err = runCLIStdout(t, "perft", "--variant", "english", "--depth", "6", "--json")
	var obj map[string]any
	if err != nil || json.Unmarshal([]byte(out), &obj) != nil || obj["nodes"] != 36768.0 || obj["variant"] != "english" {
		t.Fatalf("%v %s", err, out)
	}
	// --divide --json: one JSON object with the moves of the text form,
	// their counts and the total (it used to print the text form).
	text, err := runCLIStdout(t, "perft", "--variant", "russian", "--depth", "4", "--divide")
	if err != nil {
		t.Fatal(err)
	}
	out, err = runCLIStdout(t, "perft", "--variant", "russian", "--depth", "4", "--divide", "--json")
	var div struct {
		Variant string
		Depth   int
		Moves   []struct {
			Move  string
			Nodes uint64
		}
		Nodes uint64
	}
	if err != nil || json.Unmarshal([]byte(out), &div) != nil {
		t.Fatalf("--divide --json: %v\n%s", err, out)
	}
	var fromJSON []string
	var sum uint64
	for _, m := range div.Moves {
		fromJSON = append(fromJSON, fmt.Sprintf("%s %d", m.Move, m.Nodes))
		sum += m.Nodes
	}
	if div.Variant != "russian" || div.Depth != 4 || div.Nodes != 1469 || sum != 1469 ||
		strings.Join(fromJSON, "\n") != strings.TrimSpace(text) {
		t.Fatalf("--divide --json: %+v\nwant the moves of\n%s", div, text)
	}
}

// runCLIWith runs the root command with ctx, its standard output going to
// out, and returns what it wrote on standard error.
func runCLIWith(t *testing.T, ctx context.Context, out io.Writer, args ...string) (string, error) {
	t.Helper()
	cmd := newRootCommand()
	var stderr lockedBuffer
	cmd.SetOut(out)
	cmd.SetErr(&stderr)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(ctx)
	return stderr.String(), err
}

// wantInterrupted fails unless err is exit status 130 with a message
// saying that command was interrupted.
func wantInterrupted(t *testing.T, err error, command string) {
	t.Helper()
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitInterrupted || !strings.HasPrefix(ee.msg, command+" interrupted") {
		t.Errorf("%s, interrupted: %v (%#v), want exit status 130 and %q", command, err, ee, command+" interrupted...")
	}
}

// TestInterruptedCommandsSaySo: Ctrl-C (main cancels the context) stops
// validate, normalize, gen and perft with exit status 130 and a message
// saying so, as import's; validate and normalize said "context canceled"
// and exited 1, an unreadable input's status, while gen and perft went on
// to the end.
func TestInterruptedCommandsSaySo(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{
		{"validate", "--quiet", "testdata/mixed.pdn"},
		{"validate", "--json", "testdata/mixed.pdn"},
		{"normalize", "testdata/mixed.pdn"},
		{"gen", "--games", "1000", "--out", filepath.Join(t.TempDir(), "g.pdn")},
		{"perft", "--depth", "3"},
		{"perft", "--depth", "3", "--divide"},
	} {
		_, err := runCLIWith(t, ctx, io.Discard, args...)
		wantInterrupted(t, err, args[0])
	}
	// Any other command that stops on the cancelled context: 130 too.
	if code := exitCode(fmt.Errorf("query: %w", context.Canceled)); code != exitInterrupted {
		t.Errorf("exit status of a cancelled command: %d, want %d", code, exitInterrupted)
	}
}

// TestFilesCountEveryInput: the files of validate's summary are every
// input, those that could not be read included (a missing file or a bad
// zip fails before it is read and was only counted as failed: "files: 0
// (1 could not be read)"); normalize counts its inputs the same way.
func TestFilesCountEveryInput(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.pdn")
	badZip := filepath.Join(dir, "bad.zip")
	os.WriteFile(badZip, []byte("not a zip"), 0o644)
	args := []string{"testdata/mixed.pdn", missing, badZip}
	out, err := runCLIStdout(t, append([]string{"validate", "--json", "--quiet"}, args...)...)
	if exitCode(err) != 1 {
		t.Fatalf("exit status %d (%v), want 1", exitCode(err), err)
	}
	var sum ingest.ValidateSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	if sum.Files != 3 || sum.FilesFailed != 2 {
		t.Errorf("--json: files %d, files_failed %d; want 3 and 2", sum.Files, sum.FilesFailed)
	}
	out, _ = runCLIStdout(t, append([]string{"validate", "--quiet"}, args...)...)
	if !strings.Contains(out, "files:     3 (2 could not be read)\n") {
		t.Errorf("summary:\n%s", out)
	}
	_, stderr, _ := runCLIBoth(t, append([]string{"normalize"}, args...)...)
	if !strings.Contains(stderr, "inputs: 3 (2 could not be read)\n") {
		t.Errorf("normalize:\n%s", stderr)
	}
}

// TestUnknownSubcommandIsAnError: "db stpo" printed db's help and exited
// 0; like an unknown command of draughtsdb itself it is an error (exit
// status 1) naming it, for every command that groups subcommands.
func TestUnknownSubcommandIsAnError(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	for _, c := range newRootCommand().Commands() {
		if !c.HasSubCommands() || c.Name() == "help" {
			continue
		}
		_, err := runCLI(t, c.Name(), "stpo")
		if want := `unknown command "stpo" for "draughtsdb ` + c.Name() + `"`; err == nil || !strings.HasPrefix(err.Error(), want) || exitCode(err) != 1 {
			t.Errorf("%s stpo: %v, want %s and exit status 1", c.Name(), err, want)
		}
	}
	if _, err := runCLI(t, "db", "stpo"); err == nil || !strings.Contains(err.Error(), "Did you mean this?\n\tstop") {
		t.Errorf("db stpo: %v, want stop suggested", err)
	}
	// db alone still prints its help.
	if out, err := runCLI(t, "db"); err != nil || !strings.Contains(out, "Available Commands:") {
		t.Errorf("db: %v\n%s", err, out)
	}
}

// TestGenRejectsNegativeCount: gen --games -1 wrote nothing and exited 0.
func TestGenRejectsNegativeCount(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	out := filepath.Join(t.TempDir(), "g.pdn")
	if _, err := runCLI(t, "gen", "--games", "-1", "--out", out); err == nil || !strings.Contains(err.Error(), "--games -1") {
		t.Errorf("gen --games -1: %v, want an error naming --games", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("gen --games -1 created %s", out)
	}
}

// failingWriter fails every write, as standard output on a full disk.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestOutputWriteErrorFails: a command whose standard output cannot be
// written exits 1 naming the error; version, config, perft, validate's
// summary (and db status, the import summary) ignored it and exited 0.
func TestOutputWriteErrorFails(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	for _, args := range [][]string{
		{"version"}, {"config"}, {"perft", "--depth", "2"}, {"validate", "--quiet", "testdata/mixed.pdn"}, {"db"},
	} {
		_, err := runCLIWith(t, context.Background(), failingWriter{}, args...)
		if err == nil || !strings.Contains(err.Error(), "standard output: no space left on device") || exitCode(err) != 1 {
			t.Errorf("%v: %v, want the write error and exit status 1", args, err)
		}
	}
}
