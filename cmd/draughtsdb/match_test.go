package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/draughtsdb/draughtsdb/analysis/endgame"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/annotate"
	"github.com/draughtsdb/draughtsdb/analysis/dxp"
	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/analysis/match"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// matchEngineArg, as the first argument of the test binary, makes it a Hub
// engine for the match tests; the second argument is its behaviour:
//
//	serve               the built-in engine, as `draughtsdb hub`
//	hang:N:MARKER       serves N searches, then at the next "go" creates
//	                    MARKER and answers nothing more (until its input
//	                    ends); started when MARKER exists, it serves normally
//	crash:N:MARKER      the same, but exits (status 3) at that "go"
//	hang:game2:MARKER   hangs at its first search of the match's second
//	                    game (the first position with more pieces than the
//	                    one before it)
//
// So a failing engine fails once; the engine the match restarts plays on.
const matchEngineArg = "match-test-engine"

// matchCLIArg, as the first argument of the test binary, runs draughtsdb
// with the arguments after it (a match process the test can kill). Not an
// environment variable: the engines the match starts inherit those.
const matchCLIArg = "match-test-cli"

func init() {
	if len(os.Args) == 3 && os.Args[1] == matchEngineArg {
		matchTestEngine(os.Args[2])
	}
	if len(os.Args) > 1 && os.Args[1] == matchCLIArg {
		root := newRootCommand()
		root.SetArgs(os.Args[2:])
		os.Exit(exitCode(root.Execute()))
	}
}

func matchTestEngine(mode string) {
	kind, rest, _ := strings.Cut(mode, ":")
	nText, marker, _ := strings.Cut(rest, ":")
	n, _ := strconv.Atoi(nText)
	if kind == "serve" {
		hub.Serve(os.Stdin, os.Stdout, hub.Options{Variant: "international", TTSizeMB: 8}) //nolint:errcheck
		os.Exit(0)
	}
	_, statErr := os.Stat(marker)
	armed := statErr != nil
	pr, pw := io.Pipe()
	go func() {
		hub.Serve(pr, os.Stdout, hub.Options{Variant: "international", TTSizeMB: 8}) //nolint:errcheck
		os.Exit(0)
	}()
	sc := bufio.NewScanner(os.Stdin)
	searches, pieces, newGame := 0, 0, false
	for sc.Scan() {
		l := hub.ParseLine(sc.Text())
		if l.Cmd == "pos" {
			pos := l.Args["pos"] // side to move, then a character per square
			p := len(pos) - 1 - strings.Count(pos, "e")
			newGame = newGame || pieces > 0 && p > pieces
			pieces = p
		}
		if armed && l.Cmd == "go" {
			if searches++; nText == "game2" && newGame || nText != "game2" && searches > n {
				os.WriteFile(marker, nil, 0o644)
				if kind == "crash" {
					os.Exit(3)
				}
				for sc.Scan() {
				}
				os.Exit(0)
			}
		}
		io.WriteString(pw, sc.Text()+"\n")
	}
	os.Exit(0)
}

// matchGame is a stored game of a match as a query returns it.
type matchGame struct {
	id                       int64
	round, white, black      string
	result                   int16
	plies                    int
	startFEN                 *string
	moves                    []byte
	termination, forfeit, mk *string
}

// matchGames reads the games of the match source, by ordinal.
// storedMatchGames is matchGames on a pool of its own for the database at url.
func storedMatchGames(t *testing.T, url string) []matchGame {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	return matchGames(t, pool)
}

func matchGames(t *testing.T, pool *pgxpool.Pool) []matchGame {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT g.id, g.round, w.name, b.name, g.result, g.ply_count, g.start_fen, g.moves,
		g.tags->>'Termination', g.tags->>'Forfeit', g.tags->>'Match'
		FROM games g JOIN sources s ON s.id = g.source_id JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id
		WHERE s.name LIKE 'match: %' ORDER BY g.ordinal`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []matchGame
	for rows.Next() {
		var g matchGame
		if err := rows.Scan(&g.id, &g.round, &g.white, &g.black, &g.result, &g.plies, &g.startFEN, &g.moves, &g.termination, &g.forfeit, &g.mk); err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func testExe(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// TestMatchStoredAndQueryable: a 10-game match of the built-in engine
// against itself over the Hub protocol at depth 2 is stored as one source
// of 10 games whose moves replay, which the named queries, the opening
// tree and analyze then see.
func TestMatchStoredAndQueryable(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	url := pgtest.NewDBURL(t)
	exe := testExe(t)
	args := []string{"match", "--database-url", url, "--variant", "international", "--depth", "2", "--games", "10",
		"--engine", "builtin", "--engine", "hub:" + exe, "--engine-arg-b", matchEngineArg, "--engine-arg-b", "serve", "--event", "depth 2 test"}
	out, err := runCLIStdout(t, args...)
	if err != nil {
		t.Fatalf("match: %v\n%s", err, out)
	}
	for _, want := range []string{`match "depth 2 test"`, "  10/10  ", "A draughtsdb 0.1 (A)", "B draughtsdb 0.1 (B)", "Elo difference A - B:", "10 played now, 0 stored before"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "/10  "); n != 10 {
		t.Errorf("%d game lines:\n%s", n, out)
	}
	games := storedMatchGames(t, url)
	if len(games) != 10 {
		t.Fatalf("%d games stored", len(games))
	}
	ballots, err := match.Ballots(rules.International)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range games {
		if g.round != fmt.Sprint(i+1) || g.termination == nil || g.mk == nil || g.startFEN != nil {
			t.Errorf("game %d: round %s, termination %v, match %v, FEN %v", i+1, g.round, g.termination, g.mk, g.startFEN)
		}
		wantWhite := map[bool]string{true: "draughtsdb 0.1 (A)", false: "draughtsdb 0.1 (B)"}[i%2 == 0]
		if g.white != wantWhite {
			t.Errorf("game %d: White %s", i+1, g.white)
		}
		dg, err := codec.Decode(rules.International, "", g.moves)
		if err != nil || len(dg.Moves) != g.plies || g.plies < 3 {
			t.Fatalf("game %d: %d plies decoded of %d: %v", i+1, len(dg.Moves), g.plies, err)
		}
		// It opens with its ballot's two moves.
		b := &ballots[i/2]
		if !dg.Moves[0].SameAs(&b.Line[0]) || !dg.Moves[1].SameAs(&b.Line[1]) {
			t.Errorf("game %d does not open with ballot %d", i+1, i/2+1)
		}
	}
	// The named query events sees the match when asked for match sources;
	// the opening tree counts its games with --source match (by default
	// archive sources only: none here); analyze evaluates them.
	q, err := runCLIStdout(t, "query", "events", "--database-url", url, "--param", "source=match", "--format", "csv")
	if err != nil || !strings.Contains(q, "depth 2 test,international,10,") {
		t.Errorf("query events: %v\n%s", err, q)
	}
	if tree, err := runCLIStdout(t, "openings", "--database-url", url, "--variant", "international", "--format", "json"); err != nil || strings.TrimSpace(tree) != "[]" {
		t.Errorf("the default (archive) tree: %v %s, want no moves", err, tree)
	}
	tree, err := runCLIStdout(t, "openings", "--database-url", url, "--variant", "international", "--source", "match", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct{ Games int }
	if err := json.Unmarshal([]byte(tree), &rows); err != nil {
		t.Fatalf("%v: %s", err, tree)
	}
	total := 0
	for _, r := range rows {
		total += r.Games
	}
	if total != 10 {
		t.Errorf("the opening tree counts %d games at the start:\n%s", total, tree)
	}
	s := analyzeJSON(t, "--database-url", url, "--depth", "1", "--max-ply", "4")
	if s.Games != 10 || s.PositionsEvaluated == 0 {
		t.Errorf("analyze: %+v", s)
	}

	// The same command again: the match is complete, nothing is played.
	out, err = runCLIStdout(t, append(args, "--json")...)
	if err != nil {
		t.Fatalf("again: %v\n%s", err, out)
	}
	var sum map[string]any
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if sum["games"] != 10.0 || sum["played"] != 0.0 || sum["resumed"] != 10.0 || sum["source_id"] == 0.0 ||
		sum["wins"].(float64)+sum["draws"].(float64)+sum["losses"].(float64) != 10 || sum["engine_a"] != "draughtsdb 0.1 (A)" {
		t.Fatalf("--json: %s", out)
	}
	if n := len(storedMatchGames(t, url)); n != 10 {
		t.Fatalf("%d games after running it again", n)
	}
}

// TestMatchForfeitsAndGoesOn: an engine that hangs, and one that crashes,
// at one move loses that game by forfeit (the reason stored), is
// restarted, and the match plays every game.
func TestMatchForfeitsAndGoesOn(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	exe := testExe(t)
	for _, c := range []struct{ kind, reason string }{{"hang", "time forfeit"}, {"crash", "engine crash"}} {
		t.Run(c.kind, func(t *testing.T) {
			url := pgtest.NewDBURL(t)
			marker := filepath.Join(t.TempDir(), "failed")
			// B fails at its 8th search: in game 1 (each side makes more
			// than 8 moves in every game at depth 2 from a ballot).
			out, err := runCLIStdout(t, "match", "--database-url", url, "--variant", "international", "--depth", "2", "--games", "4",
				"--engine", "builtin", "--engine", "hub:"+exe, "--engine-arg-b", matchEngineArg, "--engine-arg-b", c.kind+":7:"+marker,
				"--timeout", "2s")
			if err != nil {
				t.Fatalf("match: %v\n%s", err, out)
			}
			if _, err := os.Stat(marker); err != nil {
				t.Fatalf("the engine never failed:\n%s", out)
			}
			games := storedMatchGames(t, url)
			if len(games) != 4 {
				t.Fatalf("%d games stored:\n%s", len(games), out)
			}
			g := games[0]
			if *g.termination != c.reason || g.forfeit == nil || !strings.Contains(*g.forfeit, "(B) at ply") ||
				codec.ResultOf(g.result).Format(rules.International) != "2-0" {
				t.Errorf("game 1: %s %v %v\n%s", codec.ResultOf(g.result).Format(rules.International), *g.termination, g.forfeit, out)
			}
			for i, g := range games[1:] {
				if strings.Contains(*g.termination, "forfeit") || *g.termination == "engine crash" || g.forfeit != nil {
					t.Errorf("game %d: %s", i+2, *g.termination)
				}
			}
			if !strings.Contains(out, "forfeits: A 0, B 1") {
				t.Errorf("output:\n%s", out)
			}
		})
	}
}

// TestMatchResumesAfterCancel: a match stopped (its context cancelled)
// after k games is resumed by running it again: N games in all, rounds
// 1..N once each.
func TestMatchResumesAfterCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	const n, k = 6, 2
	url := pgtest.NewDBURL(t)
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := runCLI(t, "db", "migrate", "--database-url", url); err != nil {
		t.Fatal(err)
	}
	v := rules.International
	ballots, err := match.Ballots(v)
	if err != nil {
		t.Fatal(err)
	}
	lim := annotate.Limit{Depth: 2}
	key := match.Key(v, "builtin", nil, "builtin", nil, lim.Setting(), -1, "resume", "", ballots)
	mk := func() match.Player {
		p, err := match.OpenPlayer(context.Background(), "builtin", nil, v, match.EngineOptions{Limit: lim})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ctx, cancel := context.WithCancel(context.Background())
	stored, err := schema.OpenMatch(ctx, pool, key)
	if err != nil {
		t.Fatal(err)
	}
	store := &matchStore{Match: stored, pool: pool, name: "match: resume", variant: v}
	sum, err := match.Run(ctx, match.Options{Variant: v, Openings: ballots, Games: n, MaxPlies: -1, A: mk(), B: mk(),
		Event: "resume", Key: key, Store: store,
		Progress: func(g *match.Game, _ match.Stats) {
			if g.Round == k {
				cancel()
			}
		}})
	stored.Close()
	if err == nil || sum.Played != k {
		t.Fatalf("first run: %+v, %v", sum, err)
	}
	if got := len(matchGames(t, pool)); got != k {
		t.Fatalf("%d games after the cancel, want %d", got, k)
	}
	// The CLI with the same settings resumes.
	out, err := runCLIStdout(t, "match", "--database-url", url, "--variant", "international", "--depth", "2", "--games", fmt.Sprint(n),
		"--engine", "builtin", "--engine", "builtin", "--event", "resume", "--max-plies", "0")
	if err != nil || !strings.Contains(out, fmt.Sprintf("%d played now, %d stored before", n-k, k)) {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	games := matchGames(t, pool)
	if len(games) != n {
		t.Fatalf("%d games, want %d", len(games), n)
	}
	for i, g := range games {
		if g.round != fmt.Sprint(i+1) || *g.mk != key {
			t.Errorf("game %d: round %s, match %s", i+1, g.round, *g.mk)
		}
	}
	if _, stored, ok, err := schema.AppendedSource(context.Background(), pool, key); !ok || err != nil || stored != n {
		t.Errorf("the source under the match key: %d games, %v, %v", stored, ok, err)
	}
	// While one process plays the match, another cannot.
	held, err := schema.OpenMatch(context.Background(), pool, key)
	if err != nil {
		t.Fatal(err)
	}
	_, err = runCLIStdout(t, "match", "--database-url", url, "--variant", "international", "--depth", "2", "--games", fmt.Sprint(n+2),
		"--engine", "builtin", "--engine", "builtin", "--event", "resume", "--max-plies", "0")
	held.Close()
	if err == nil || !strings.Contains(err.Error(), "being played by another process") {
		t.Fatalf("a second process on the match: %v", err)
	}
	// --restart plays it anew.
	out, err = runCLIStdout(t, "match", "--database-url", url, "--variant", "international", "--depth", "2", "--games", "2",
		"--engine", "builtin", "--engine", "builtin", "--event", "resume", "--max-plies", "0", "--restart")
	if err != nil || !strings.Contains(out, "2 played now, 0 stored before") {
		t.Fatalf("restart: %v\n%s", err, out)
	}
	if got := len(matchGames(t, pool)); got != 2 {
		t.Fatalf("%d games after --restart --games 2", got)
	}
}

// TestMatchResumesAfterKill: a match process killed with SIGKILL in the
// middle of a game (its engine B stalls there) is resumed by the same
// command: the finished games are kept, the interrupted one is played
// again, and every round is stored once.
func TestMatchResumesAfterKill(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	const n = 4
	url := pgtest.NewDBURL(t)
	exe := testExe(t)
	marker := filepath.Join(t.TempDir(), "stalled")
	// B stalls at its first move of game 2; --timeout is far beyond the
	// test.
	args := []string{"match", "--database-url", url, "--variant", "international", "--depth", "2", "--games", fmt.Sprint(n),
		"--engine", "builtin", "--engine", "hub:" + exe, "--engine-arg-b", matchEngineArg, "--engine-arg-b", "hang:game2:" + marker,
		"--timeout", "1h"}
	c := exec.Command(exe, append([]string{matchCLIArg}, args...)...)
	var childOut bytes.Buffer
	c.Stdout, c.Stderr = &childOut, &childOut
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	defer c.Process.Kill()
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the match ended (%v) before its engine stalled:\n%s", err, childOut.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := c.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-done
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	k := len(matchGames(t, pool))
	if k != 1 {
		t.Fatalf("%d games stored when the engine stalled in game 2:\n%s", k, childOut.String())
	}
	// Again, in this process: the restarted engine finds the marker and
	// plays normally.
	out, err := runCLIStdout(t, args...)
	if err != nil || !strings.Contains(out, fmt.Sprintf("%d played now, %d stored before", n-k, k)) {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	games := matchGames(t, pool)
	if len(games) != n {
		t.Fatalf("%d games, want %d", len(games), n)
	}
	for i, g := range games {
		if g.round != fmt.Sprint(i+1) || g.forfeit != nil {
			t.Errorf("game %d: round %s, forfeit %v", i+1, g.round, g.forfeit)
		}
	}
}

// TestMatchFlagErrors: bad settings are refused before anything runs,
// naming the flag.
func TestMatchFlagErrors(t *testing.T) {
	t.Parallel() // the test binary keeps the user's configuration out, once
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.fen")
	os.WriteFile(bad, []byte("W:W31-50:B1-20\n32-28 32-27\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--engine", "builtin"}, "exactly two engines"},
		{[]string{"--engine", "builtin", "--engine", "builtin", "--variant", "chess"}, "--variant"},
		{[]string{"--engine", "builtin", "--engine", "builtin", "--depth", "3", "--movetime", "100"}, "not both"},
		{[]string{"--engine", "builtin", "--engine", "builtin", "--timeout", "5ms"}, "match.timeout"},
		{[]string{"--engine", "builtin", "--engine", "builtin", "--variant", "international", "--openings", bad}, "bad.fen:2"},
		{[]string{"--engine", "builtin", "--engine", "builtin", "--openings", filepath.Join(dir, "none")}, "--openings"},
		{[]string{"--engine", "builtin", "--engine", "builtin", "--depth", "0"}, "--depth/--movetime"},
		{[]string{"--engine", "builtin", "--engine", "builtin", "--variant", "english", "--endgame-pieces", "9"}, "--endgame-pieces 9: want 0 (none) or 2..5"},
		{[]string{"--engine", "builtin", "--engine", "builtin", "--variant", "international", "--endgame-pieces", "3"}, "international has no endgame tables"},
		{[]string{"--engine", "hub:/bin/true", "--engine", "hub:/bin/true", "--variant", "english", "--endgame-pieces", "3"}, "for builtin engines"},
	} {
		out, err := runCLI(t, append([]string{"match", "--database-url", "postgres://nowhere.invalid/x"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error naming %q\n%s", c.args, err, c.want, out)
		}
	}
}

// TestMatchDXPEngineAtDepth: `match --depth 2` against a DXP engine (our
// own dxp.Serve on a free loopback port) with the default --dxp-minutes
// requests each game with 2 minutes, not 0 (Moby Dam answers no GAMEREQ
// of 0 minutes, so every game was lost by timeout), plays and stores the
// games; --dxp-minutes and --dxp-moves are sent as given, and --movetime
// derives the minutes from 75 moves.
func TestMatchDXPEngineAtDepth(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	url := pgtest.NewDBURL(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lim := annotate.Limit{Depth: 2}
	eng := engine.NewPool(nil, func() (engine.Engine, error) { return engine.NewBuiltin(8), nil }, 1)
	var mu sync.Mutex
	var reqs []dxp.GameReq
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- dxp.Serve(ctx, ln, eng, dxp.ServerOptions{Limit: lim, Name: "dxp server",
			Trace: func(_ string, sent bool, raw []byte) {
				if m, err := dxp.Parse(raw); err == nil && !sent {
					if req, ok := m.(dxp.GameReq); ok {
						mu.Lock()
						reqs = append(reqs, req)
						mu.Unlock()
					}
				}
			}})
	}()
	defer func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("dxp.Serve: %v", err)
		}
	}()
	taken := func() []dxp.GameReq {
		mu.Lock()
		defer mu.Unlock()
		r := reqs
		reqs = nil
		return r
	}
	for _, c := range []struct {
		args           []string
		games          int
		minutes, moves int
		maxPlies       int
	}{
		{[]string{"--depth", "2"}, 2, 2, 0, 300},
		// Our server would end this game itself (E00) once 40 moves are played.
		{[]string{"--depth", "2", "--dxp-minutes", "3", "--dxp-moves", "40"}, 1, 3, 40, 20},
		// 75 x 2 s = 2.5 minutes, rounded up; one move of A's at 2 s.
		{[]string{"--movetime", "2000"}, 1, 3, 0, 2},
	} {
		args := append([]string{"match", "--database-url", url, "--variant", "international", "--games", fmt.Sprint(c.games),
			"--engine", "builtin", "--engine", "dxp:" + ln.Addr().String(), "--tt-size", "8", "--quiet", "--json"}, c.args...)
		args = append(args, "--max-plies", fmt.Sprint(c.maxPlies))
		out, err := runCLIStdout(t, args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", c.args, err, out)
		}
		var sum map[string]any
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatalf("%v: --json: %v\n%s", c.args, err, out)
		}
		if sum["played"] != float64(c.games) || sum["engine_b"] != "dxp server" || sum["forfeits_b"] != 0.0 || sum["forfeits_a"] != 0.0 {
			t.Errorf("%v: %s", c.args, out)
		}
		got := taken()
		if len(got) != c.games {
			t.Errorf("%v: %d GAMEREQs, want %d", c.args, len(got), c.games)
		}
		for i, req := range got {
			if req.Minutes != c.minutes || req.Moves != c.moves {
				t.Errorf("%v: GAMEREQ %d gives %d minutes, %d moves; want %d, %d", c.args, i+1, req.Minutes, req.Moves, c.minutes, c.moves)
			}
		}
	}
	games := storedMatchGames(t, url)
	if len(games) != 4 {
		t.Fatalf("%d games stored, want 4 (three matches: the time control is part of the key)", len(games))
	}
	for i, g := range games { // the ballot's 2 plies and at least 2 of the engines'
		if g.termination == nil || g.forfeit != nil || g.plies < 4 {
			t.Errorf("stored game %d: %d plies, termination %q, forfeit %q", i+1, g.plies, deref(g.termination), deref(g.forfeit))
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "(none)"
	}
	return *s
}

// TestMatchJSONEvenScore: an even score's Elo is 0 in --json, not -0
// (math.Round of a negative zero kept its sign).
func TestMatchJSONEvenScore(t *testing.T) {
	t.Parallel()
	s := &match.Summary{Stats: match.Stats{Wins: 1, Losses: 1, Draws: 2}}
	b, err := json.Marshal(matchJSON(s, "e", "k", rules.International, 1))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"elo":0,`) {
		t.Errorf("%s", b)
	}
}

// TestMatchEndgameTables: with --endgame-pieces both builtin engines play
// a three-piece English ending (a king and a man against a king, won in
// 47 plies) from the tables (built before the first
// game into the data directory): the winner takes the shortest way and
// the loser the longest, so each game lasts exactly the plies the tables
// give, where the same depth-2 engines without them wander (their games
// last longer or are drawn). The flag is part of the match key.
func TestMatchEndgameTables(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel() // the test binary keeps the user's configuration out, once
	url := pgtest.NewDBURL(t)
	dir := t.TempDir()
	const fen = "W:WK1,29:BK10"
	openings := filepath.Join(dir, "ending.fen")
	if err := os.WriteFile(openings, []byte(fen+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pos, err := rules.ParseFEN(rules.English, fen)
	if err != nil {
		t.Fatal(err)
	}
	tabs, err := endgame.Generate(rules.English, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	val, _ := tabs.Probe(&pos)
	if won, _ := val.Win(); !won {
		t.Fatalf("%s: %v, want a win", fen, val)
	}
	run := func(extra ...string) string {
		args := append([]string{"match", "--database-url", url, "--data-dir", dir, "--variant", "english", "--depth", "2",
			"--openings", openings, "--engine", "builtin", "--engine", "builtin", "--max-plies", "100"}, extra...)
		out, err := runCLIStdout(t, args...)
		if err != nil {
			t.Fatalf("match %v: %v\n%s", extra, err, out)
		}
		return out
	}
	with := run("--endgame-pieces", "3")
	want := fmt.Sprintf("no legal move, %d plies", val.Plies())
	if n := strings.Count(with, want); n != 2 {
		t.Errorf("with the tables: %d games %q, want 2:\n%s", n, want, with)
	}
	if _, err := os.Stat(filepath.Join(dir, "endgame", endgame.FileName(rules.English, 3))); err != nil {
		t.Errorf("the tables' file: %v", err)
	}
	t.Logf("with the tables:\n%s", with)
	without := run()
	t.Logf("without:\n%s", without)
	if strings.Contains(without, "stored before") && !strings.Contains(without, "0 stored before") {
		t.Errorf("the match without tables resumed the one with them (one key):\n%s", without)
	}
	if n := strings.Count(without, want); n == 2 {
		t.Errorf("without the tables the depth-2 engines also played the shortest win twice; the test shows nothing:\n%s", without)
	}
}
