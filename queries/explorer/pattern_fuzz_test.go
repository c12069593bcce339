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

// FuzzPatternAPI sends arbitrary query strings to /api/pattern on a real
// database holding the archive: no answer may be 500, every answer is a
// JSON object, with "error" exactly when it is not 200. go test -fuzz
// FuzzPatternAPI -parallel 1 ./queries/explorer searches for more.
func FuzzPatternAPI(f *testing.F) {
	pool := importArchive(f)
	s, err := New(pool, Options{DefaultVariant: "international"})
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	for _, q := range []string{
		"pattern=W:W28,32:B19,23", "pattern=W:WK46:B:E1-5&reversed=1&side=black", "variant=russian&pattern=W:Wc3:Bf6",
		"material=wm=1-3,bk=0&plies=40-", "move=white+king+*x*&pattern=W:W28", "move=black+19-24&exclude=W:W23",
		"pattern=W:W51", "pattern=W:W28&or=B:B19&limit=501", "variant=turkish&pattern=W:W64", "variant=canadian&pattern=W:W72:BK1",
		"", "pattern=W:W28,28", "plies=9-3&pattern=W:W1", "move=x&material=w=0-",
	} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, query string) {
		u := &url.URL{Path: "/api/pattern", RawQuery: query}
		req := (&http.Request{Method: http.MethodGet, URL: u, Header: http.Header{}, Host: "explorer.test",
			RequestURI: u.RequestURI(), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}).WithContext(context.Background())
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 && rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("GET %s: %d %s", u.RequestURI(), rec.Code, rec.Body.String())
		}
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatalf("GET %s: %d, not a JSON object: %v: %s", u.RequestURI(), rec.Code, err, rec.Body.String())
		}
		if _, ok := body["error"]; (rec.Code != http.StatusOK) != ok {
			t.Fatalf("GET %s: %d %s", u.RequestURI(), rec.Code, rec.Body.String())
		}
		if rec.Code == http.StatusOK && !strings.Contains(rec.Body.String(), `"games_scanned"`) {
			t.Fatalf("GET %s: 200 without games_scanned: %s", u.RequestURI(), rec.Body.String())
		}
	})
}
