package explorer

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestPageIsSelfContained: the page loads nothing from the network (no
// CDN): every URL in web/ is relative, but the SVG namespace.
func TestPageIsSelfContained(t *testing.T) {
	t.Parallel()
	url := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`)
	n := 0
	err := fs.WalkDir(webFiles, "web", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		b, err := fs.ReadFile(webFiles, path)
		if err != nil {
			return err
		}
		for _, m := range url.FindAllString(string(b), -1) {
			if m != "http://www.w3.org" {
				t.Errorf("%s refers to %s", path, m)
			}
		}
		return nil
	})
	if err != nil || n < 3 {
		t.Fatalf("%d files: %v", n, err)
	}
}

// TestPageServed: the page, its script and style come from the binary,
// with a Content-Security-Policy that allows nothing else.
func TestPageServed(t *testing.T) {
	t.Parallel()
	s, err := New(nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	for path, want := range map[string]string{"/": `<script src="app.js">`, "/app.js": "function drawBoard", "/style.css": ".bar .w"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s: %d, CSP %q", path, resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
		}
	}
	resp, err := http.Post(ts.URL+"/", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d", resp.StatusCode)
	}
}

// TestPageCache: pages are kept for the TTL and no longer, not at all
// with a TTL <= 0, and a full cache starts again.
func TestPageCache(t *testing.T) {
	t.Parallel()
	now := time.Unix(1000, 0)
	c := &pageCache[[]GameRow]{ttl: 30 * time.Second, maxEntries: 2, now: func() time.Time { return now }}
	rows := []GameRow{{ID: 7}}
	if _, ok := c.get("a"); ok {
		t.Fatal("empty cache answered")
	}
	c.put("a", rows)
	if got, ok := c.get("a"); !ok || got[0].ID != 7 {
		t.Fatalf("a: %v %v", got, ok)
	}
	now = now.Add(29 * time.Second)
	if _, ok := c.get("a"); !ok {
		t.Error("a expired before its TTL")
	}
	now = now.Add(time.Second)
	if _, ok := c.get("a"); ok {
		t.Error("a kept past its TTL")
	}
	c.put("a", rows)
	c.put("b", rows)
	c.put("c", rows) // full: starts again
	if _, ok := c.get("a"); ok {
		t.Error("a kept after the cache filled")
	}
	if _, ok := c.get("c"); !ok {
		t.Error("c lost")
	}
	off := &pageCache[[]GameRow]{ttl: -1, maxEntries: 2, now: time.Now}
	off.put("a", rows)
	if _, ok := off.get("a"); ok {
		t.Error("a cache with TTL -1 answered")
	}
}
