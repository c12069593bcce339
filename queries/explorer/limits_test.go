package explorer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/jackc/pgx/v5/pgxpool"
)

// TestGate: a client over its bound waits, then gets 429; the server over
// its bound 503; both with Retry-After; a slot given back is taken by the
// next request.
func TestGate(t *testing.T) {
	t.Parallel()
	g := newGate("expensive", 2, 1, 20*time.Millisecond)
	ctx := context.Background()
	relA, err := g.enter(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	var re *RequestError
	if _, err := g.enter(ctx, "a"); !errors.As(err, &re) || re.Status != http.StatusTooManyRequests || re.RetryAfter < 1 {
		t.Fatalf("a's second request: %v", err)
	}
	relB, err := g.enter(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.enter(ctx, "c"); !errors.As(err, &re) || re.Status != http.StatusServiceUnavailable || re.RetryAfter < 1 ||
		!strings.Contains(re.Msg, "at most 2") {
		t.Fatalf("a third client with both slots taken: %v", err)
	}
	relA()
	relB()
	// A request that waits gets the slot given back while it waits.
	gw := newGate("expensive", 1, 1, time.Minute)
	rel, err := gw.enter(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		rel, err := gw.enter(ctx, "c")
		if err == nil {
			rel()
		}
		got <- err
	}()
	for {
		gw.mu.Lock()
		waiting := gw.waiting
		gw.mu.Unlock()
		if waiting == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	rel()
	if err := <-got; err != nil {
		t.Fatalf("waiting for a slot given back: %v", err)
	}
	// A cancelled request stops waiting.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	r1, _ := g.enter(ctx, "a")
	if _, err := g.enter(cctx, "a"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	r1()
	if len(g.clients) != 0 || g.waiting != 0 || len(g.slots) != 0 {
		t.Fatalf("left behind: %d clients, %d waiting, %d slots", len(g.clients), g.waiting, len(g.slots))
	}
}

// TestCheapNeverWaitsForExpensive: with every expensive slot taken, an
// expensive request gets 503 with Retry-After, another client's too, while
// cheap requests (an unfiltered tree, a position, a game) are answered.
func TestCheapNeverWaitsForExpensive(t *testing.T) {
	t.Parallel()
	pool := importArchive(t)
	s, err := New(pool, Options{DefaultVariant: "international", QueueWait: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	for i := range s.opt.MaxExpensive {
		rel, err := s.expensive.enter(context.Background(), "other"+string(rune('a'+i)))
		if err != nil {
			t.Fatal(err)
		}
		defer rel()
	}
	for _, c := range []struct {
		path   string
		params url.Values
		status int
	}{
		{"/api/openings", url.Values{"from": {"1990"}}, 503},
		{"/api/games", url.Values{"event": {"DAM"}}, 503},
		{"/api/games", url.Values{"cursor": {"x"}}, 503},
		{"/api/openings", url.Values{"moves": {"32-28"}}, 200},
		{"/api/position", url.Values{"moves": {"32-28"}}, 200},
		{"/api/games", url.Values{"moves": {"32-28"}}, 200},
		{"/api/variants", nil, 200},
	} {
		resp, err := http.Get(ts.URL + c.path + "?" + c.params.Encode())
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s %v: %d %s; want %d", c.path, c.params, resp.StatusCode, body, c.status)
		}
		if c.status == 503 && (resp.Header.Get("Retry-After") == "" || !bytes.Contains(body, []byte("busy"))) {
			t.Errorf("%s %v: Retry-After %q, %s", c.path, c.params, resp.Header.Get("Retry-After"), body)
		}
	}
}

// TestCursorsSigned: a games-list cursor is the server's own: one made up
// from the public values of a page (as the unsigned cursors were, the
// page's key and any offset), one of another run of the server, and one
// of another filter are refused; the server's own is followed.
func TestCursorsSigned(t *testing.T) {
	t.Parallel()
	pool := importArchive(t)
	s1, err := New(pool, Options{DefaultVariant: "international"})
	if err != nil {
		t.Fatal(err)
	}
	s2, err := New(pool, Options{DefaultVariant: "international"})
	if err != nil {
		t.Fatal(err)
	}
	ts1, ts2 := httptest.NewServer(s1.Handler()), httptest.NewServer(s2.Handler())
	defer ts1.Close()
	defer ts2.Close()
	for _, params := range []url.Values{{"limit": {"2"}}, {"limit": {"2"}, "from": {"2000"}}} {
		var p GamesPage
		if st, body := get(t, ts1, "/api/games", params, &p); st != 200 || p.NextCursor == "" {
			t.Fatalf("%v: %d %s", params, st, body)
		}
		q := url.Values{"cursor": {p.NextCursor}}
		for k, v := range params {
			q[k] = v
		}
		var next GamesPage
		if st, body := get(t, ts1, "/api/games", q, &next); st != 200 || len(next.Games) != 2 || next.Games[0].ID >= p.Games[1].ID {
			t.Errorf("the server's own cursor %v: %d %s", q, st, body)
		}
		if st, body := get(t, ts2, "/api/games", q, nil); st != 400 || !strings.Contains(body, "earlier run of the server") {
			t.Errorf("another server's cursor: %d %s", st, body)
		}
		q.Set("event", "DAM")
		if st, body := get(t, ts1, "/api/games", q, nil); st != 400 || !strings.Contains(body, "another position or filter") {
			t.Errorf("a cursor of another filter: %d %s", st, body)
		}
	}
	// The unsigned form: sha256 of the page's public values, then an
	// offset deep in the list.
	pos := rules.International.StartPosition()
	h := sha256.New()
	h.Write([]byte("international"))
	h.Write(binary.BigEndian.AppendUint64(nil, pos.Hash()))
	for range 5 {
		h.Write([]byte{0})
	}
	forged := base64.RawURLEncoding.EncodeToString(binary.AppendUvarint(h.Sum(nil)[:4], 900_000))
	padded := base64.RawURLEncoding.EncodeToString(append(binary.AppendUvarint(binary.AppendUvarint(nil, 900_000), 0), make([]byte, cursorMACBytes)...))
	for _, c := range []string{forged, padded} {
		if st, body := get(t, ts1, "/api/games", url.Values{"cursor": {c}}, nil); st != 400 {
			t.Errorf("made-up cursor %s: %d %s", c, st, body)
		}
	}
}

// TestScanBound: a scan of the newest games stops at MaxScanGames ids; the
// tree says so, and the games list goes on from where it stopped, so that
// following the cursors lists every game once.
func TestScanBound(t *testing.T) {
	t.Parallel()
	pool := importArchive(t)
	games := replayArchive(t)
	s, err := New(pool, Options{DefaultVariant: "international", MaxScanGames: 100})
	if err != nil {
		t.Fatal(err)
	}
	s.scanMin, s.window = 1, 50
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	var ans TreeAnswer
	if st, body := get(t, ts, "/api/openings", url.Values{"from": {"1900"}}, &ans); st != 200 {
		t.Fatalf("%d %s", st, body)
	}
	if !ans.Position.Truncated || ans.Position.Counted == 0 || ans.Position.Counted > 100 || len(ans.Position.Notes) != 1 ||
		!strings.Contains(ans.Position.Notes[0], "among the newest 100 games") {
		t.Errorf("a tree past the scan's bound: %+v", ans.Position)
	}
	pos, err := replay.PositionAfter(rules.International, "", []string{"32-28"})
	if err != nil {
		t.Fatal(err)
	}
	f := goFilter{from: "1900"}
	params := f.values()
	params.Set("moves", "32-28")
	params.Set("limit", "100")
	var ids []int64
	pages := 0
	for ; pages < 1000; pages++ {
		var p GamesPage
		if st, body := get(t, ts, "/api/games", params, &p); st != 200 {
			t.Fatalf("%v: %d %s", params, st, body)
		}
		for _, g := range p.Games {
			ids = append(ids, g.ID)
		}
		if p.NextCursor == "" {
			break
		}
		params.Set("cursor", p.NextCursor)
	}
	n := reachCount(games, pos.Hash(), f.pass)
	if len(ids) != n || len(slices.Compact(slices.Clone(ids))) != n || pages < 2 {
		t.Errorf("%d games in %d pages; %d reach the position", len(ids), pages+1, n)
	}
}

// TestDatabaseDown: with the database out of reach every API answer is
// 503 with Retry-After, naming neither the socket, the role nor the
// database; the log has the cause.
func TestDatabaseDown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pc, err := pgxpool.ParseConfig("host=" + dir + "/secret-socket-dir user=secretrole dbname=secretdb connect_timeout=2")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), pc)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var log syncBuffer
	s, err := New(pool, Options{DefaultVariant: "international", Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	for _, path := range []string{"/api/variants", "/api/openings?moves=32-28", "/api/openings?from=2000", "/api/games",
		"/api/game/1", "/api/player?name=x", "/api/players?prefix=a", "/api/position?moves=32-28"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 && path == "/api/position?moves=32-28" {
			continue // a position may need no database
		}
		if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || !bytes.Contains(body, []byte("database is not available")) {
			t.Errorf("%s: %d (Retry-After %q) %s", path, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
		for _, secret := range []string{"secret", dir, "5432", "PGSQL"} {
			if bytes.Contains(body, []byte(secret)) {
				t.Errorf("%s: the answer shows %q: %s", path, secret, body)
			}
		}
	}
	if !strings.Contains(log.String(), "secret-socket-dir") {
		t.Errorf("the log does not have the cause:\n%s", log.String())
	}
	// A pool closed under the server: the same.
	pool.Close()
	resp, err := http.Get(ts.URL + "/api/variants")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 {
		t.Errorf("closed pool: %d", resp.StatusCode)
	}
}

// TestHostCheck: on loopback only localhost, 127.0.0.1 and [::1] with the
// port are answered (a DNS rebinding sends another name); elsewhere any.
func TestHostCheck(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hosts := LoopbackHosts(ln.Addr())
	port := ln.Addr().(*net.TCPAddr).Port
	if len(hosts) != 3 || !slices.Contains(hosts, "[::1]:"+strconv.Itoa(port)) {
		t.Fatalf("LoopbackHosts(%s) = %v", ln.Addr(), hosts)
	}
	if h := LoopbackHosts(&net.TCPAddr{IP: net.IPv4zero, Port: 8080}); h != nil {
		t.Errorf("LoopbackHosts(0.0.0.0:8080) = %v", h)
	}
	if h := LoopbackHosts(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}); !slices.Contains(h, "localhost") {
		t.Errorf("LoopbackHosts(127.0.0.1:80) = %v", h)
	}
	s, err := New(nil, Options{DefaultVariant: "international", AllowedHosts: hosts})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, s.Handler(), time.Second) }()
	defer func() {
		cancel()
		<-done
	}()
	for host, want := range map[string]int{
		"127.0.0.1:" + strconv.Itoa(port):        200,
		"localhost:" + strconv.Itoa(port):        200,
		"LOCALHOST:" + strconv.Itoa(port):        200,
		"[::1]:" + strconv.Itoa(port):            200,
		"evil.example:" + strconv.Itoa(port):     421,
		"evil.example":                           421,
		"127.0.0.1":                              421,
		"localhost:1" + strconv.Itoa(port):       421,
		"127.0.0.1.nip.io:" + strconv.Itoa(port): 421,
	} {
		req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %d %s; want %d", host, resp.StatusCode, body, want)
		}
		if want == 421 && !bytes.Contains(body, []byte("listens on loopback")) {
			t.Errorf("Host %s: %s", host, body)
		}
	}
}

// TestNoFraming: the page and every API answer forbid framing.
func TestNoFraming(t *testing.T) {
	t.Parallel()
	s, err := New(nil, Options{DefaultVariant: "international"})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	for _, path := range []string{"/", "/app.js", "/api/position?moves=32-28", "/api/nothing", "/api/position?moves=99-1"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		csp := rec.Header().Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors 'none'") || rec.Header().Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s (%d): Content-Security-Policy %q, X-Frame-Options %q", path, rec.Code, csp, rec.Header().Get("X-Frame-Options"))
		}
		if path == "/" && !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("the page's policy: %q", csp)
		}
	}
}

// TestFilteredTreeKept: a filtered tree asked again within CacheTTL is
// answered from the one kept, outside the gates: with every expensive
// slot taken it is still answered, the same, while another filter gets
// 503; with CacheTTL < 0 nothing is kept.
func TestFilteredTreeKept(t *testing.T) {
	t.Parallel()
	pool := importArchive(t)
	for _, ttl := range []time.Duration{0, -1} {
		s, err := New(pool, Options{DefaultVariant: "international", QueueWait: 10 * time.Millisecond, CacheTTL: ttl})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(s.Handler())
		defer ts.Close()
		params := url.Values{"moves": {"32-28"}, "from": {"2000"}}
		st, first := get(t, ts, "/api/openings", params, nil)
		if st != 200 {
			t.Fatalf("%d %s", st, first)
		}
		var rels []func()
		for i := range s.opt.MaxExpensive {
			rel, err := s.expensive.enter(context.Background(), "other"+strconv.Itoa(i))
			if err != nil {
				t.Fatal(err)
			}
			rels = append(rels, rel)
		}
		st, again := get(t, ts, "/api/openings", params, nil)
		if ttl == 0 && (st != 200 || again != first) {
			t.Errorf("asked again: %d %s; first %s", st, again, first)
		}
		if ttl < 0 && st != 503 {
			t.Errorf("asked again with nothing kept: %d %s", st, again)
		}
		params.Set("from", "2001")
		if st, body := get(t, ts, "/api/openings", params, nil); st != 503 {
			t.Errorf("another filter with the slots taken: %d %s", st, body)
		}
		for _, rel := range rels {
			rel()
		}
	}
}
