package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// onTerminal is a draughtsdb run (the test binary in the "cli" role) under
// script(1), so that its standard error is a terminal as a user's is and
// it draws its progress bars; every piece of its output is recorded with
// the time since the start. Writing ^C to script's input is a Ctrl-C on
// that terminal: the line discipline sends SIGINT to the command.
type onTerminal struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  *os.File
	start  time.Time
	done   chan error
	mu     sync.Mutex
	pieces []piece
}

type piece struct {
	at   time.Duration
	text string
}

func runOnTerminal(t *testing.T, args ...string) *onTerminal {
	t.Helper()
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script(1) is not installed")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	quoted := []string{shellQuote(exe)}
	for _, a := range args {
		quoted = append(quoted, shellQuote(a))
	}
	r := &onTerminal{t: t, done: make(chan error, 1)}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.stdin = pw
	r.cmd = exec.Command("script", "-qefc", strings.Join(quoted, " "), "/dev/null")
	r.cmd.Env = append(os.Environ(), analyzeRole+"=cli", "TERM=dumb")
	r.cmd.Stdin = pr
	out, err := r.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r.start = time.Now()
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		r.stdin.Close()
	})
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := out.Read(buf)
			if n > 0 {
				r.mu.Lock()
				r.pieces = append(r.pieces, piece{time.Since(r.start), string(buf[:n])})
				r.mu.Unlock()
			}
			if err != nil {
				break
			}
		}
		r.done <- r.cmd.Wait()
	}()
	return r
}

// output is everything written so far.
func (r *onTerminal) output() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, p := range r.pieces {
		b.WriteString(p.text)
	}
	return b.String()
}

// zeroDone matches a bar's drawing that counts nothing done yet: the bar
// is drawn as the work starts, not at its first progress. (A bound on the
// time of the first drawing would fail on a loaded machine.)
var zeroDone = regexp.MustCompile(`\(0/|\b0%|\(\s*0 B\b`)

// firstDrawing returns the output's first drawing of a bar that shows s:
// from s to the end of that line or redraw.
func (r *onTerminal) firstDrawing(s string) (string, bool) {
	out := r.output()
	i := strings.Index(out, s)
	if i < 0 {
		return "", false
	}
	d := out[i:]
	if j := strings.IndexAny(d, "\r\n"); j >= 0 {
		d = d[:j]
	}
	return d, true
}

// waitFor waits until the output matches re, or fails the test after
// limit or if the command ends first.
func (r *onTerminal) waitFor(re *regexp.Regexp, limit time.Duration) []string {
	r.t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(r.output()); m != nil {
			return m
		}
		select {
		case err := <-r.done:
			r.done <- err
			r.t.Fatalf("the command ended (%v) before its output matched %s:\n%s", err, re, r.output())
		case <-time.After(20 * time.Millisecond):
		}
	}
	r.t.Fatalf("no output matching %s within %v:\n%s", re, limit, r.output())
	return nil
}

// interrupt types Ctrl-C.
func (r *onTerminal) interrupt() {
	if _, err := r.stdin.Write([]byte{3}); err != nil {
		r.t.Fatal(err)
	}
}

// wait waits for the command's end and returns its exit status.
func (r *onTerminal) wait() int {
	r.t.Helper()
	select {
	case err := <-r.done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		} else if err != nil {
			r.t.Fatal(err)
		}
		return 0
	case <-time.After(10 * time.Minute):
		r.t.Fatalf("still running after 10 minutes:\n%s", r.output())
	}
	return -1
}

// barRenders are the bar's drawings of a bar described by desc: the text
// between carriage returns, with the amount done and the total and the
// estimate ("" when it shows none).
type barRender struct {
	done, total int64
	eta         string
}

var barRE = regexp.MustCompile(`\((\d+)/(\d+)[^)]*\)`)

func barRenders(out, desc string) []barRender {
	var rs []barRender
	for _, s := range regexp.MustCompile("[\r\n]").Split(out, -1) {
		if !strings.HasPrefix(strings.TrimLeft(s, " "), desc) {
			continue
		}
		m := barRE.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		r := barRender{}
		r.done, _ = strconv.ParseInt(m[1], 10, 64)
		r.total, _ = strconv.ParseInt(m[2], 10, 64)
		if _, e, ok := strings.Cut(s, "ETA "); ok {
			r.eta, _, _ = strings.Cut(e, " ")
			r.eta = strings.TrimRight(r.eta, ",[")
		}
		rs = append(rs, r)
	}
	return rs
}

// checkETA: mid-run (done < total) some drawing gives a time left above
// zero, and none gives 0s.
func checkETA(t *testing.T, rs []barRender, out string) {
	t.Helper()
	real := 0
	for _, r := range rs {
		if r.done >= r.total || r.done == 0 {
			continue
		}
		switch d, err := time.ParseDuration(r.eta); {
		case r.eta == "?":
		case err != nil:
			t.Errorf("estimate %q at %d/%d", r.eta, r.done, r.total)
		case d <= 0:
			t.Errorf("estimate %s at %d/%d of the way", r.eta, r.done, r.total)
		default:
			real++
		}
	}
	if real == 0 {
		t.Errorf("no estimate mid-run in %d drawings:\n%s", len(rs), out)
	}
	var etas []string
	for i := 0; i < len(rs); i += max(1, len(rs)/8) {
		etas = append(etas, fmt.Sprintf("%d/%d %s", rs[i].done, rs[i].total, rs[i].eta))
	}
	t.Logf("%d drawings, %d with an estimate mid-run; some: %s", len(rs), real, strings.Join(etas, ", "))
}

// TestAnalyzeOnATerminal: on a terminal analyze draws a bar within a
// second of its start, says what it will do before it evaluates, and its
// bar counts the positions it evaluates against those it is to evaluate,
// with an estimate above 0 mid-run. Interrupted with Ctrl-C, its summary
// counts the evaluations the database holds, and it leaves no lease.
func TestAnalyzeOnATerminal(t *testing.T) {
	isolate(t)
	url, pool := importSample(t)
	args := []string{"analyze", "--database-url", url, "--depth", "8", "--limit", "30", "--max-ply", "40", "--workers", "1"}
	r := runOnTerminal(t, args...)
	if code := r.wait(); code != 0 {
		t.Fatalf("exit status %d:\n%s", code, r.output())
	}
	out := r.output()
	if d, ok := r.firstDrawing("selecting games"); !ok || !zeroDone.MatchString(d) {
		t.Errorf("the first bar is not drawn before any work is done (shown: %v, %q):\n%s", ok, d, out)
	}
	plan := regexp.MustCompile(`analyze: 30 games, (\d+) distinct positions: 0 evaluated already by draughtsdb depth=8, (\d+) to evaluate`).FindStringSubmatch(out)
	bar := strings.Index(out, "analyzing")
	if plan == nil || bar < 0 || strings.Index(out, plan[0]) > bar || !strings.Contains(out, "analyze: engine draughtsdb ") {
		t.Fatalf("no plan before the bar:\n%s", out)
	}
	rs := barRenders(out, "analyzing")
	want, _ := strconv.ParseInt(plan[2], 10, 64)
	for _, r := range rs {
		if r.total != want {
			t.Fatalf("bar total %d, want the %d positions to evaluate", r.total, want)
		}
	}
	checkETA(t, rs, out)

	// Interrupted: a second selection, stopped after some evaluations.
	r = runOnTerminal(t, append(args[:len(args)-6], "--limit", "100", "--max-ply", "60", "--workers", "1")...)
	r.waitFor(regexp.MustCompile(`analyzing[^\r\n]*\(([1-9]\d*)/`), 5*time.Minute)
	r.interrupt()
	if code := r.wait(); code != exitInterrupted {
		t.Fatalf("exit status %d after Ctrl-C, want %d:\n%s", code, exitInterrupted, r.output())
	}
	out = r.output()
	m := regexp.MustCompile(`evaluated: +(\d+) by this run`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no summary after Ctrl-C:\n%s", out)
	}
	got, _ := strconv.Atoi(m[1])
	stored := count(t, pool, "SELECT count(*) FROM evaluations") - int(want)
	if got != stored || got == 0 || !strings.Contains(out, "interrupted before annotating") {
		t.Fatalf("the summary says %d evaluated, the database holds %d new evaluations:\n%s", got, stored, out)
	}
	if n := count(t, pool, "SELECT count(*) FROM analysis_queue WHERE lease_owner IS NOT NULL"); n != 0 {
		t.Errorf("%d leases left by the interrupted run", n)
	}
	// What it left is reported as queued by another run, and not taken.
	st, err := runCLIStdout(t, "analyze", "--status", "--database-url", url)
	left := count(t, pool, "SELECT count(*) FROM analysis_queue")
	if err != nil || !strings.Contains(st, fmt.Sprintf("draughtsdb depth=8: %d queued (0 of them leased), 0 failed", left)) || !strings.Contains(st, "leases held: none") {
		t.Errorf("analyze --status: %v\n%s", err, st)
	}
}

// TestImportOnATerminal: import draws its bar within a second, estimates
// a time left above 0 mid-run, and interrupted with Ctrl-C its summary
// counts the games the database holds.
func TestImportOnATerminal(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "synth.pdn")
	if out, err := runCLI(t, "gen", "--variant", "international", "--games", "30000", "--seed", "7", "--out", file); err != nil {
		t.Fatalf("gen: %v\n%s", err, out)
	}
	for _, interrupt := range []bool{false, true} {
		url := pgtest.NewDBURL(t)
		r := runOnTerminal(t, "import", "--database-url", url, "--batch-size", "1000", "--workers", "1", file)
		if interrupt {
			r.waitFor(regexp.MustCompile(`importing: [1-9]\d* games committed`), 5*time.Minute)
			r.interrupt()
		}
		code := r.wait()
		out := r.output()
		if d, ok := r.firstDrawing("importing"); !ok || !zeroDone.MatchString(d) {
			t.Errorf("interrupted %v: the first bar is not drawn before any work is done (shown: %v, %q):\n%s", interrupt, ok, d, out)
		}
		m := regexp.MustCompile(`games read: (\d+)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("exit status %d, no summary:\n%s", code, out)
		}
		read, _ := strconv.Atoi(m[1])
		pool, err := pgxpool.New(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		held := count(t, pool, "SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM duplicates) + (SELECT count(*) FROM rejected_games)")
		pool.Close()
		if read != held {
			t.Errorf("interrupted %v: the summary says %d games read, the database holds %d:\n%s", interrupt, read, held, out)
		}
		if !interrupt {
			if code != 0 || read != 30000 {
				t.Fatalf("exit status %d, %d games read:\n%s", code, read, out)
			}
			checkETA(t, barRenders(out, "importing"), out)
		} else if code != exitInterrupted || read == 0 || read >= 30000 {
			t.Fatalf("after Ctrl-C: exit status %d, %d games read:\n%s", code, read, out)
		}
	}
}
