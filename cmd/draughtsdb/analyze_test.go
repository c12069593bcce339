package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/annotate"
	"github.com/draughtsdb/draughtsdb/analysis/endgame"
	"github.com/draughtsdb/draughtsdb/analysis/engine/evalid"
	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// analyzeRole makes the test binary a child process of the analyze tests:
// "hub" serves the built-in engine over the Hub protocol on stdin/stdout,
// "cli" runs draughtsdb with the process's arguments. It is checked in an
// init function, before the tests (and pgtest) start. The name has no
// DRAUGHTSDB_ prefix, so isolate() leaves it alone.
const analyzeRole = "ANALYZE_TEST_ROLE"

// stallArg, as the first argument of the test binary, makes it a Hub
// engine that stalls: see stallingEngine.
const stallArg = "analyze-test-stalling-engine"

func init() {
	if len(os.Args) == 3 && os.Args[1] == stallArg {
		stallingEngine(os.Args[2])
	}
	switch os.Getenv(analyzeRole) {
	case "hub":
		if err := hub.Serve(os.Stdin, os.Stdout, hub.Options{Variant: "english", TTSizeMB: 16}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	case "cli":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		root := newRootCommand()
		root.SetArgs(os.Args[1:])
		err := root.ExecuteContext(ctx)
		stop()
		os.Exit(exitCode(err))
	}
}

// stallAfter is how many positions the stalling engine evaluates.
const stallAfter = 8

// stallingEngine serves the built-in engine over the Hub protocol for
// stallAfter searches; at the next "go" it creates the file marker and
// answers nothing more, until its input ends (its analyze process died).
// An engine started when marker exists stalls at its first "go", so a
// restarted engine evaluates nothing either.
func stallingEngine(marker string) {
	pr, pw := io.Pipe()
	go func() {
		hub.Serve(pr, os.Stdout, hub.Options{Variant: "english", TTSizeMB: 16})
		os.Exit(0)
	}()
	sc := bufio.NewScanner(os.Stdin)
	searches := 0
	for sc.Scan() {
		if hub.ParseLine(sc.Text()).Cmd == "go" {
			searches++
			if _, err := os.Stat(marker); err == nil || searches > stallAfter {
				os.WriteFile(marker, nil, 0o644)
				for sc.Scan() {
				}
				os.Exit(0)
			}
		}
		io.WriteString(pw, sc.Text()+"\n")
	}
	os.Exit(0)
}

// importSample loads the bundled OCA sample (English) into a fresh
// database and returns its URL and a pool on it.
func importSample(t *testing.T) (string, *pgxpool.Pool) {
	t.Helper()
	url := pgtest.NewDBURL(t)
	if out, err := runCLI(t, "import", "--database-url", url, "--quiet", "--json", "../../ingest/sample/oca-english-200.pdn"); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return url, pool
}

func analyzeJSON(t *testing.T, args ...string) annotate.Summary {
	t.Helper()
	out, err := runCLIStdout(t, append([]string{"analyze", "--json", "--quiet"}, args...)...)
	if err != nil {
		t.Fatalf("analyze %v: %v\n%s", args, err, out)
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	for _, k := range []string{"positions_evaluated", "positions_skipped", "positions_failed", "seconds", "positions_per_second"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("--json lacks %q: %s", k, out)
		}
	}
	var s annotate.Summary
	json.Unmarshal([]byte(out), &s)
	return s
}

type evalRow struct {
	Variant         int16
	Hash            int64
	Engine, Setting string
	Score           int
	Mate            bool
	Depth           int
	Best            *string
	PV              string
	Nodes           int64
	EngineVersion   string
}

func evaluations(t *testing.T, pool *pgxpool.Pool) []evalRow {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT variant, hash, engine, setting, score, mate, depth, best_move, pv, nodes, engine_version
		FROM evaluations ORDER BY variant, hash, engine, setting`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []evalRow
	for rows.Next() {
		var r evalRow
		if err := rows.Scan(&r.Variant, &r.Hash, &r.Engine, &r.Setting, &r.Score, &r.Mate, &r.Depth, &r.Best, &r.PV, &r.Nodes, &r.EngineVersion); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func count(t *testing.T, pool *pgxpool.Pool, sql string) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), sql).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// selectedPositions replays the first `games` games (by id) up to maxPly
// in Go, independently of package annotate, and returns each game's
// position hashes and the number of distinct positions.
func selectedPositions(t *testing.T, pool *pgxpool.Pool, games, maxPly int) (map[int64][]int64, int) {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT id, variant, coalesce(start_fen, ''), moves FROM games ORDER BY id LIMIT $1`, games)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	lines := map[int64][]int64{}
	distinct := map[[2]int64]bool{}
	for rows.Next() {
		var id int64
		var gt int16
		var fen string
		var moves []byte
		if err := rows.Scan(&id, &gt, &fen, &moves); err != nil {
			t.Fatal(err)
		}
		v, _ := rules.VariantByGameType(int(gt))
		pos := v.StartPosition()
		if fen != "" {
			pos, _ = rules.ParseFEN(v, fen)
		}
		ms, err := codec.DecodeMoves(v, pos, moves)
		if err != nil {
			t.Fatal(err)
		}
		hs := []int64{int64(pos.Hash())}
		for i := 0; i < len(ms) && i < maxPly; i++ {
			pos.Play(&ms[i])
			hs = append(hs, int64(pos.Hash()))
		}
		for _, h := range hs {
			distinct[[2]int64{int64(gt), h}] = true
		}
		lines[id] = hs
	}
	return lines, len(distinct)
}

// TestAnalyzeHubEngineMatchesBuiltin analyses the same games with the
// built-in engine and with `draughtsdb hub` driven over the Hub protocol
// (the test binary re-executed as the engine), into two databases: the
// stored evaluations are identical (positions, scores, depths, best moves,
// PVs, node counts). It also checks the annotations against the loss
// definition recomputed in Go, a rerun that skips everything, and the
// blunders query.
func TestAnalyzeHubEngineMatchesBuiltin(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	isolate(t)
	const games, maxPly = 6, 24
	urlA, poolA := importSample(t)
	urlB, poolB := importSample(t)
	common := []string{"--depth", "5", "--limit", fmt.Sprint(games), "--max-ply", fmt.Sprint(maxPly), "--workers", "2"}

	// --independent: a Hub engine searches each position on its own; in
	// game order (the default) the built-in engine keeps its table along a
	// game, and node counts and, in places, scores differ.
	a := analyzeJSON(t, append([]string{"--database-url", urlA, "--tt-size", "16", "--independent"}, common...)...)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(analyzeRole, "hub") // inherited by the engine processes
	b := analyzeJSON(t, append([]string{"--database-url", urlB, "--engine", "hub:" + exe}, common...)...)
	os.Unsetenv(analyzeRole)

	lines, distinct := selectedPositions(t, poolA, games, maxPly)
	if a.Positions != distinct || b.Positions != distinct || a.PositionsEvaluated != int64(distinct) || b.PositionsEvaluated != int64(distinct) {
		t.Fatalf("positions: builtin %+v, hub %+v, want %d distinct evaluated", a, b, distinct)
	}
	if a.PositionsFailed != 0 || b.PositionsFailed != 0 || a.PositionsSkipped != 0 {
		t.Fatalf("failed/skipped: builtin %+v, hub %+v", a, b)
	}
	ea, eb := evaluations(t, poolA), evaluations(t, poolB)
	if len(ea) != distinct || !slices.EqualFunc(ea, eb, func(x, y evalRow) bool {
		return x.Variant == y.Variant && x.Hash == y.Hash && x.Engine == y.Engine && x.Setting == y.Setting &&
			x.Score == y.Score && x.Mate == y.Mate && x.Depth == y.Depth && x.PV == y.PV && x.Nodes == y.Nodes &&
			x.EngineVersion == y.EngineVersion && (x.Best == nil) == (y.Best == nil) && (x.Best == nil || *x.Best == *y.Best)
	}) {
		for i := range min(len(ea), len(eb)) {
			if fmt.Sprint(ea[i]) != fmt.Sprint(eb[i]) {
				t.Errorf("first difference: builtin %+v, hub %+v", ea[i], eb[i])
				break
			}
		}
		t.Fatalf("evaluations differ: %d builtin rows, %d hub rows, %d positions", len(ea), len(eb), distinct)
	}
	if ea[0].Engine != "draughtsdb" || ea[0].Setting != "depth=5" || ea[0].Depth == 0 {
		t.Fatalf("row %+v", ea[0])
	}

	// Annotations: one per ply, loss and class as defined, from the stored
	// evaluations looked up by the hashes replayed here.
	score := map[int64]int{}
	for _, e := range ea {
		score[e.Hash] = e.Score
	}
	th := annotate.Thresholds{Inaccuracy: 30, Mistake: 80, Blunder: 200}
	rows, err := poolA.Query(context.Background(), `SELECT game_id, ply, loss, class FROM move_annotations WHERE engine = 'draughtsdb' AND setting = 'depth=5'`)
	if err != nil {
		t.Fatal(err)
	}
	n, classes := 0, map[string]int{}
	for rows.Next() {
		var id int64
		var ply, loss int
		var class string
		rows.Scan(&id, &ply, &loss, &class)
		hs := lines[id]
		want := annotate.Loss(score[hs[ply-1]], score[hs[ply]])
		if loss != want || class != th.Class(want) {
			t.Errorf("game %d ply %d: loss %d %s, want %d %s", id, ply, loss, class, want, th.Class(want))
		}
		n++
		classes[class]++
	}
	rows.Close()
	plies := 0
	for _, hs := range lines {
		plies += len(hs) - 1
	}
	if n != plies || int64(n) != a.MovesAnnotated {
		t.Fatalf("%d annotations, summary %d, want %d plies", n, a.MovesAnnotated, plies)
	}
	t.Logf("%d positions, %d moves annotated: %v; builtin %.1f positions/s, hub %.1f", distinct, n, classes, a.PositionsPerSecond, b.PositionsPerSecond)

	// Run again: everything is skipped, nothing evaluated.
	again := analyzeJSON(t, append([]string{"--database-url", urlA}, common...)...)
	if again.PositionsEvaluated != 0 || again.PositionsSkipped != distinct || again.PositionsEnqueued != 0 {
		t.Fatalf("second run: %+v", again)
	}
	// The blunders query lists the classed moves with their move text.
	out, err := runCLIStdout(t, "query", "blunders", "--database-url", urlA, "--param", "class=inaccuracy", "--param", "limit=1000", "--format", "csv")
	if err != nil {
		t.Fatalf("query blunders: %v\n%s", err, out)
	}
	listed := strings.Count(strings.TrimSpace(out), "\n") // minus the header line
	if want := classes["inaccuracy"] + classes["mistake"] + classes["blunder"]; listed != want {
		t.Fatalf("blunders query lists %d moves, want %d:\n%s", listed, want, out)
	}
	if listed > 0 && !strings.Contains(out, "-") {
		t.Fatalf("no move text:\n%s", out)
	}
}

// TestAnalyzeTwoProcessesOneKilled runs two analyze processes on one
// database and SIGKILLs one part-way: the survivor takes over the dead
// one's claims when their lease (2 s) expires, and in the end every
// position is evaluated exactly once, with no queue rows left. The victim
// runs a Hub engine that stalls after stallAfter positions (two batches),
// holding its third batch: the test waits for that, not for a time, so it
// holds whatever the machine's load.
func TestAnalyzeTwoProcessesOneKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	const games, maxPly, batch = 20, 30, 4
	url, pool := importSample(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "stalled")
	args := []string{"analyze", "--database-url", url, "--depth", "6", "--limit", fmt.Sprint(games), "--max-ply", fmt.Sprint(maxPly),
		"--workers", "1", "--batch", fmt.Sprint(batch), "--lease", "2s", "--json", "--quiet"}
	start := func(extra ...string) (*exec.Cmd, *bytes.Buffer, chan error) {
		c := exec.Command(exe, append(args, extra...)...)
		c.Env = append(os.Environ(), analyzeRole+"=cli")
		var out bytes.Buffer
		c.Stdout, c.Stderr = &out, &out
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- c.Wait() }()
		return c, &out, done
	}
	victim, victimOut, victimDone := start("--engine", "hub:"+exe, "--engine-arg", stallArg, "--engine-arg", marker)
	defer victim.Process.Kill()
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		select {
		case err := <-victimDone:
			t.Fatalf("the victim exited (%v) before its engine stalled:\n%s", err, victimOut)
		case <-time.After(20 * time.Millisecond):
		}
	}
	// The victim stored two batches and holds the third.
	_, distinct := selectedPositions(t, pool, games, maxPly)
	owner := fmt.Sprintf("%%:%d:%%", victim.Process.Pid)
	held := count(t, pool, fmt.Sprintf("SELECT count(*) FROM analysis_queue WHERE lease_owner LIKE '%s'", owner))
	if done := count(t, pool, "SELECT count(*) FROM evaluations"); done != stallAfter || held != batch || distinct <= stallAfter+batch {
		t.Fatalf("at the stall: %d evaluations, %d rows claimed by the victim; want %d and %d (of %d positions)", done, held, stallAfter, batch, distinct)
	}

	survivor, survivorOut, survivorDone := start()
	defer survivor.Process.Kill()
	if err := victim.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-victimDone
	if err := <-survivorDone; err != nil {
		t.Fatalf("survivor: %v\n%s", err, survivorOut)
	}
	var sum annotate.Summary
	if err := json.Unmarshal(survivorOut.Bytes(), &sum); err != nil {
		t.Fatalf("%v: %s", err, survivorOut)
	}
	evals := count(t, pool, "SELECT count(*) FROM evaluations")
	queue := count(t, pool, "SELECT count(*) FROM analysis_queue")
	if evals != distinct || queue != 0 || sum.Positions != distinct || sum.PositionsFailed != 0 || sum.PositionsEvaluated != int64(distinct-stallAfter) {
		t.Fatalf("evaluations %d, queue rows %d, want %d and 0; survivor %+v, want %d evaluated by it (the victim's claims taken over)",
			evals, queue, distinct, sum, distinct-stallAfter)
	}
	// Every selected ply is annotated (the survivor annotates after the queue is empty).
	if want := count(t, pool, "SELECT count(*) FROM move_annotations"); int64(want) != sum.MovesAnnotated || want == 0 {
		t.Fatalf("annotations %d, survivor says %d", want, sum.MovesAnnotated)
	}
}

// TestAnalyzeWhereCannotWrite: the --where text runs in a READ ONLY
// transaction with a statement timeout: a second statement, a writing
// function and a slow condition all fail, and nothing changes.
func TestAnalyzeWhereCannotWrite(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	url, pool := importSample(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `CREATE FUNCTION wipe() RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN DELETE FROM games; RETURN true; END $$`); err != nil {
		t.Fatal(err)
	}
	before := count(t, pool, "SELECT count(*) FROM games")
	for _, c := range []struct{ where, want string }{
		{"true; DELETE FROM games", "syntax error"},
		{"wipe()", "read-only transaction"},
		{"false) OR (SELECT wipe()", "read-only transaction"},
		{"true)) AS x; DELETE FROM games; SELECT ((true", "syntax error"},
		{"pg_sleep(3) IS NOT NULL", "statement timeout"},
	} {
		out, err := runCLI(t, "analyze", "--database-url", url, "--quiet", "--depth", "1", "--where", c.where, "--where-timeout", "300ms")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--where %q: err %v, want one mentioning %q\n%s", c.where, err, c.want, out)
		}
	}
	if after := count(t, pool, "SELECT count(*) FROM games"); after != before || before == 0 {
		t.Fatalf("games %d -> %d", before, after)
	}
	if n := count(t, pool, "SELECT count(*) FROM evaluations") + count(t, pool, "SELECT count(*) FROM analysis_queue"); n != 0 {
		t.Fatalf("%d rows analysed", n)
	}
	// A harmless filter works and selects what it says.
	s := analyzeJSON(t, "--database-url", url, "--depth", "1", "--where", "id IN (SELECT id FROM games ORDER BY id LIMIT 2) -- a comment", "--max-ply", "3")
	if s.Games != 2 || s.PositionsEvaluated == 0 {
		t.Fatalf("%+v", s)
	}
}

// gateEvaluator is a test Evaluator: it waits for before (if set), closes
// started on its first call (if set), then waits for release (if set) on
// that first call, and answers a fixed evaluation.
type gateEvaluator struct {
	before, release <-chan struct{}
	started         chan struct{}
	calls           int
}

func (g *gateEvaluator) Evaluate(ctx context.Context, pos rules.Position) (annotate.Eval, error) {
	g.calls++
	if g.before != nil {
		<-g.before
	}
	if g.calls == 1 && g.started != nil {
		close(g.started)
	}
	if g.calls == 1 && g.release != nil {
		select {
		case <-g.release:
		case <-ctx.Done():
			return annotate.Eval{}, ctx.Err()
		}
	}
	return annotate.Eval{Depth: 1, Nodes: 1}, nil
}

func (g *gateEvaluator) Close() error { return nil }

// TestAnalyzeOwnWorkersAreNotOthers: in a single analyze run, a worker that
// finds the rest of the queue held by the run's own other workers waits
// without a notice; it used to report them as "leased by other workers",
// as if another process were sharing the queue. Worker 0 holds its first
// position until worker 1 has evaluated all the others (and then, for a
// moment, found nothing to claim).
func TestAnalyzeOwnWorkersAreNotOthers(t *testing.T) {
	t.Parallel()
	_, pool := importSample(t)
	started, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	open := func() { once.Do(func() { close(release) }) }
	var mu sync.Mutex
	var notices []string
	opts := annotate.Options{
		Engine: "gate", EngineVersion: "1", Setting: "depth=1",
		First:        &gateEvaluator{started: started, release: release},
		NewEvaluator: func() (annotate.Evaluator, error) { return &gateEvaluator{before: started}, nil },
		Workers:      2, Batch: 1, Limit: 1, MaxPly: 6,
		Thresholds: annotate.Thresholds{Inaccuracy: 30, Mistake: 80, Blunder: 200},
		Notice: func(s string) {
			mu.Lock()
			notices = append(notices, s)
			mu.Unlock()
			open()
		},
		Progress: func(evaluated, failed, total int64) {
			if evaluated == total-1 {
				// Worker 1 is done and now finds only worker 0's row:
				// give it time to say so (the old code did at once),
				// then let worker 0 finish. The sleep only orders
				// events; no outcome of this test depends on it.
				go func() { time.Sleep(300 * time.Millisecond); open() }()
			}
		},
	}
	sum, err := annotate.Run(context.Background(), pool, opts)
	if err != nil {
		t.Fatal(err)
	}
	if sum.PositionsFailed != 0 || sum.PositionsEvaluated != int64(sum.PositionsEnqueued) || sum.PositionsEvaluated < 3 {
		t.Fatalf("summary %+v", sum)
	}
	for _, n := range notices {
		if strings.Contains(n, "other") {
			t.Errorf("a single run reported its own workers as others: %q", n)
		}
	}
}

// TestAnalyzeEngineFlags: --engine, --engine-arg, --depth and --movetime
// are checked by annotate.OpenEngine, before any database is opened; the
// error names the flags and wraps annotate's sentinel.
func TestAnalyzeEngineFlags(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	for _, c := range []struct {
		args []string
		want error
		flag string
	}{
		{[]string{"--engine", "scan"}, annotate.ErrEngineSpec, "--engine"},
		{[]string{"--engine", "hub:"}, annotate.ErrEngineSpec, "--engine"},
		{[]string{"--engine", "builtin", "--engine-arg", "hub"}, annotate.ErrEngineSpec, "--engine-arg"},
		{[]string{"--depth", "0"}, annotate.ErrLimit, "--depth"},
		{[]string{"--depth", "1000"}, annotate.ErrLimit, "--depth"},
	} {
		_, err := runCLI(t, append([]string{"analyze", "--database-url", "postgres://127.0.0.1:1/none"}, c.args...)...)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.flag) {
			t.Errorf("analyze %q: %v, want %v naming %s", c.args, err, c.want, c.flag)
		}
	}
	if _, err := runCLI(t, "analyze", "--depth", "4", "--movetime", "100"); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("--depth and --movetime: %v", err)
	}
}

// TestAnalyzeEndgameTables: analyze --endgame-pieces builds the tables of
// --variant before the work and stores evaluations whose engine version
// names them, so that --reevaluate tells them from the others; a variant
// without tables and a Hub engine refuse the flag.
func TestAnalyzeEndgameTables(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	isolate(t)
	url, pool := importSample(t)
	dir := t.TempDir()
	common := []string{"--database-url", url, "--data-dir", dir, "--variant", "english", "--depth", "2", "--limit", "2", "--max-ply", "8"}
	sum := analyzeJSON(t, append(common, "--endgame-pieces", "3")...)
	if sum.PositionsEvaluated == 0 {
		t.Fatalf("nothing evaluated: %+v", sum)
	}
	want := evalid.Version() + "+endgame.3"
	for _, e := range evaluations(t, pool) {
		if e.EngineVersion != want {
			t.Fatalf("engine_version %q, want %q", e.EngineVersion, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "endgame", endgame.FileName(rules.English, 3))); err != nil {
		t.Errorf("the tables' file: %v", err)
	}
	// Without the tables the stored ones are of another engine version.
	again := analyzeJSON(t, append(common, "--reevaluate")...)
	if again.PositionsEvaluated != sum.PositionsEvaluated {
		t.Errorf("--reevaluate without the tables: %+v, want the %d positions evaluated again", again, sum.PositionsEvaluated)
	}
	for _, c := range [][]string{
		{"--variant", "international", "--endgame-pieces", "3"},
		{"--engine", "hub:/bin/true", "--endgame-pieces", "3"},
		{"--endgame-pieces", "6"},
	} {
		_, err := runCLI(t, append([]string{"analyze", "--database-url", "postgres://127.0.0.1:1/none"}, c...)...)
		if err == nil || !strings.Contains(err.Error(), "--endgame-pieces") {
			t.Errorf("analyze %q: %v, want an error naming --endgame-pieces", c, err)
		}
	}
}
