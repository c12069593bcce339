package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// lockedBuffer is a command's output that several goroutines write: the
// server's goroutines, or a Hub engine's standard error, which os/exec
// copies into the command's error writer from a goroutine of its own.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestServeCommand: `serve` answers the tree that `openings --format json`
// prints, logs one line per request, and stops cleanly when its context
// ends (what SIGINT and SIGTERM do in main).
func TestServeCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	isolate(t)
	url := pgtest.NewDBURL(t)
	if _, err := runCLI(t, "import", "--database-url", url, "--quiet", "../../ingest/pdn/testdata/shared/international"); err != nil {
		t.Fatal(err)
	}
	cli, err := runCLIStdout(t, "openings", "--database-url", url, "--variant", "international", "--moves", "32-28", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}

	t.Setenv("DRAUGHTSDB_SERVE_LISTEN", "127.0.0.1:0") // a free port, from the environment
	cmd := newRootCommand()
	var stderr lockedBuffer
	cmd.SetOut(io.Discard)
	cmd.SetErr(&stderr)
	cmd.SetArgs([]string{"serve", "--database-url", url})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()

	addrLine := regexp.MustCompile(`explorer on (http://127\.0\.0\.1:\d+/)`)
	var base string
	for deadline := time.Now().Add(time.Minute); base == ""; time.Sleep(20 * time.Millisecond) {
		if m := addrLine.FindStringSubmatch(stderr.String()); m != nil {
			base = m[1]
		}
		select {
		case err := <-done:
			t.Fatalf("serve ended: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not say where it listens:\n%s", stderr.String())
		}
	}
	resp, err := http.Get(base + "api/openings?variant=international&moves=32-28")
	if err != nil {
		t.Fatal(err)
	}
	var ans struct {
		Moves json.RawMessage `json:"moves"`
	}
	err = json.NewDecoder(resp.Body).Decode(&ans)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %v", resp.StatusCode, err)
	}
	var api, printed []map[string]any
	if err := json.Unmarshal(ans.Moves, &api); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(cli), &printed); err != nil {
		t.Fatal(err)
	}
	if a, p := mustJSON(t, api), mustJSON(t, printed); a != p || len(api) < 5 {
		t.Errorf("the API's moves\n%s\n`openings --format json` prints\n%s", a, p)
	}
	if resp, err := http.Get(base); err != nil || resp.StatusCode != 200 {
		t.Fatalf("the page: %v", err)
	} else {
		resp.Body.Close()
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve after the stop: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("serve did not stop when its context ended")
	}
	out := stderr.String()
	for _, want := range []string{"GET /api/openings 200 ", "GET / 200 ", "explorer stopped"} {
		if !strings.Contains(out, want) {
			t.Errorf("stderr lacks %q:\n%s", want, out)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestServeListenSetting: serve.listen comes from the environment like
// every setting, and an address that is no HOST:PORT is refused naming
// the setting before anything starts.
func TestServeListenSetting(t *testing.T) {
	isolate(t)
	if got := configValue(t, "serve.listen"); got != "127.0.0.1:8080" {
		t.Errorf("default serve.listen = %s", got)
	}
	t.Setenv("DRAUGHTSDB_SERVE_LISTEN", "localhost:0")
	if got := configValue(t, "serve.listen"); got != "localhost:0" {
		t.Errorf("serve.listen from the environment = %s", got)
	}
	t.Setenv("DRAUGHTSDB_SERVE_LISTEN", "localhost")
	_, err := runCLI(t, "serve", "--database-url", "postgres://nobody@127.0.0.1:1/none")
	if err == nil || !strings.Contains(err.Error(), `DRAUGHTSDB_SERVE_LISTEN="localhost" (setting serve.listen): not an address; want HOST:PORT`) {
		t.Errorf("err = %v", err)
	}
	_, err = runCLI(t, "serve", "--listen", "127.0.0.1:99999", "--database-url", "postgres://nobody@127.0.0.1:1/none")
	if err == nil || !strings.Contains(err.Error(), "cannot connect") {
		t.Errorf("--listen over the environment, then no database: err = %v", err)
	}
}
