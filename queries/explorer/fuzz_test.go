package explorer

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// fuzzEndpoints are the paths FuzzAPI sends parameters to; the game's id
// is the fuzzed path.
var fuzzEndpoints = []string{"/api/position", "/api/openings", "/api/games", "/api/game/", "/api/player", "/api/players", "/api/variants", "/api/download"}

// FuzzAPI sends arbitrary query strings (and game ids) to every endpoint
// of a server on a real database holding the archive: no answer may be
// 500, and every API answer is JSON, with "error" when it is not 200, also
// when the filtered selections scan the newest games. The
// seed corpus is testdata/fuzz/FuzzAPI (run by go test); go test -fuzz
// FuzzAPI -parallel 1 ./queries/explorer searches for more.
func FuzzAPI(f *testing.F) {
	pool := importArchive(f)
	s, err := New(pool, Options{DefaultVariant: "international"})
	if err != nil {
		f.Fatal(err)
	}
	// The same through the scan of the newest games (ep / 7 odd).
	scanning, err := New(pool, Options{DefaultVariant: "international"})
	if err != nil {
		f.Fatal(err)
	}
	scanning.scanMin, scanning.window = 1, 64
	handlers := []http.Handler{s.Handler(), scanning.Handler()}
	for i, q := range []string{
		"moves=32-28+19-23", "moves=32-22", "variant=russian&moves=c3-d4", "fen=W:W31-50:B1-20&moves=32-28",
		"moves=32-28&player=x&color=white&event=DAM&from=2000&to=2003.05.23", "cursor=AAAAAAA&limit=5",
		"name=Sven+Winkel", "prefix=s&limit=50", "", "variant=english&fen=B:W21-32:B1-12",
		"moves=32-28+19-23&source=match", "moves=32-28&source=all&format=csv", "source=nosuch&format=pdn",
	} {
		f.Add(uint8(i), "1", q)
	}
	// The player page, the search and the minimum rating.
	f.Add(uint8(4), "1", "name=Sven+Winkel&white_moves=32-28&black_moves=32-28+19-23&before=100&limit=3&variant=international")
	f.Add(uint8(5), "1", "search=winkel&limit=5")
	f.Add(uint8(1), "1", "moves=32-28&min_rating=1500")
	f.Add(uint8(2), "1", "min_rating=1&player=Sven+Winkel")
	f.Add(uint8(3), "99999999", "")
	f.Add(uint8(3), "-1", "x=1")
	f.Fuzz(func(t *testing.T, ep uint8, id, query string) {
		path := fuzzEndpoints[int(ep)%len(fuzzEndpoints)]
		h := handlers[int(ep)/len(fuzzEndpoints)%len(handlers)]
		if strings.HasSuffix(path, "/") {
			path += id
		}
		u := &url.URL{Path: path, RawQuery: query}
		req := (&http.Request{Method: http.MethodGet, URL: u, Header: http.Header{}, Host: "explorer.test",
			RequestURI: u.RequestURI(), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}).WithContext(context.Background())
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 && rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("GET %s: %d %s", u.RequestURI(), rec.Code, rec.Body.String())
		}
		if !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
			return // a redirect of the router (a path to clean) or the page
		}
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatalf("GET %s: %d, not a JSON object: %v: %s", u.RequestURI(), rec.Code, err, rec.Body.String())
		}
		if _, ok := body["error"]; (rec.Code != http.StatusOK) != ok {
			t.Fatalf("GET %s: %d %s", u.RequestURI(), rec.Code, rec.Body.String())
		}
	})
}
