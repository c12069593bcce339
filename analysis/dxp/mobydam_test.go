package dxp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/annotate"
	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// mobyEnv names the Moby Dam binary (main/mobydam of a build of
// github.com/rhalbersma/mobydam) for the interoperability tests; without
// it they are skipped. Its opening book is taken from ../book/book.opn
// beside the binary when there is one.
const mobyEnv = "DRAUGHTSDB_MOBYDAM"

// mobyDam runs Moby Dam in a temporary directory (where it writes
// dxp.log, engine.log and result*.pdn) with a 2^20-entry table, a
// console limit of timeMs per move, and args; it returns once Moby Dam
// says it is ready. Cleanup types "exit" and waits for it.
func mobyDam(t *testing.T, timeMs int, args ...string) (dir string) {
	t.Helper()
	bin := os.Getenv(mobyEnv)
	if bin == "" {
		t.Skip(mobyEnv + " is not set")
	}
	dir = t.TempDir()
	args = append([]string{"-t", "20"}, args...)
	if book := filepath.Join(filepath.Dir(bin), "..", "book", "book.opn"); fileExists(book) {
		args = append(args, "-b", book)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		io.WriteString(stdin, "exit\n")
		cmd.Process.Kill() // it may have exited on a stop code already
		cmd.Wait()
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(dir, "dxp.log"))
			t.Logf("Moby Dam's dxp.log:\n%s", log)
		}
	})
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		t.Logf("mobydam: %s", sc.Text())
		if strings.HasPrefix(sc.Text(), "ready") {
			break
		}
	}
	go io.Copy(io.Discard, stderr)
	fmt.Fprintf(stdin, "time %d\n", timeMs)
	return dir
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// checkLegal replays moves from start.
func checkLegal(t *testing.T, start rules.Position, moves []rules.Move) rules.Position {
	t.Helper()
	pos := start
	for i := range moves {
		m, ok := sameLegal(&pos, &moves[i])
		if !ok {
			t.Fatalf("ply %d %s is not legal in %s", i+1, hub.FormatMove(&moves[i]), pos.FEN())
		}
		pos.Play(&m)
	}
	return pos
}

// TestMobyDamFollows: our Player against Moby Dam listening (it follows),
// with draughtsdb's search at depth 4 on our side, one game per colour.
func TestMobyDamFollows(t *testing.T) {
	port := freePort(t)
	mobyDam(t, 50, "-p", strconv.Itoa(port))
	ctx := context.Background()
	p, err := Dial(ctx, fmt.Sprintf("127.0.0.1:%d", port), ClientOptions{Name: "draughtsdb test", Notice: func(s string) { t.Log(s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ours := annotate.NewBuiltin(annotate.Limit{Depth: 4}, 16)
	for _, engine := range []rules.Color{rules.Black, rules.White} {
		if err := p.Start(ctx, Game{Engine: engine, Minutes: 1}); err != nil {
			t.Fatal(err)
		}
		t.Logf("playing %s", p.Opponent())
		g := newGame(rules.International.StartPosition())
		var last *rules.Move
		how := ""
		for how == "" {
			if g.pos.SideToMove() == engine {
				m, err := p.Move(ctx, g.pos, last)
				var ge *GameEndError
				if errors.As(err, &ge) {
					how = "Moby Dam ended it: " + ge.End.Reason.String()
					break
				}
				if err != nil {
					t.Fatalf("ply %d: %v", g.ply()+1, err)
				}
				g.play(m)
				last = nil
				continue
			}
			switch {
			case g.pos.IsLost():
				how = "we have no move"
				err = p.End(ctx, EndLoss)
			case g.drawn() != "":
				how = "we claim " + g.drawn()
				err = p.End(ctx, EndDraw)
			case g.ply() >= 300:
				how = "300 plies"
				err = p.End(ctx, EndUnknown)
			default:
				e, err := ours.Evaluate(ctx, g.pos)
				if err != nil {
					t.Fatal(err)
				}
				m, err := hub.ParseMove(&g.pos, e.Best)
				if err != nil {
					t.Fatal(err)
				}
				g.play(m)
				last = &g.moves[len(g.moves)-1]
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		final := checkLegal(t, g.start, g.moves)
		t.Logf("Moby Dam as %s: %d plies, %s; final %s; moves %s", engine, g.ply(), how, final.FEN(), g.moveText())
	}
}

// TestMobyDamConnects: Moby Dam connects (-c) to Serve, which initiates
// (as `draughtsdb dxp --initiate`), two games, then the stop code ends it.
func TestMobyDamConnects(t *testing.T) {
	if os.Getenv(mobyEnv) == "" {
		t.Skip(mobyEnv + " is not set")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.NewPool(nil, func() (engine.Engine, error) { return engine.NewBuiltin(16), nil }, 1)
	records := make(chan GameRecord, 4)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ln, eng, ServerOptions{Limit: annotate.Limit{Depth: 4}, Initiate: &Game{Engine: rules.White, Minutes: 1}, Games: 2,
			Notice: func(s string) { t.Log(s) }, Log: func(r GameRecord) { records <- r }})
	}()
	mobyDam(t, 50, "-c", "127.0.0.1", "-p", strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
	for range 2 {
		r := <-records
		final := checkLegal(t, r.Start, r.Moves)
		t.Logf("%s; final %s", r, final.FEN())
		if r.Result == "*" && !strings.Contains(r.End, "GAMEEND") {
			t.Errorf("game %d did not end by the protocol: %s", r.Number, r.End)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
