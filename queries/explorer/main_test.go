package explorer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

func TestMain(m *testing.M) {
	pgtest.Main(m)
}

const shared = "../../ingest/pdn/testdata/shared"

// archive is what the tests import: the shared International archive,
// whose games name no players and share one date, two International
// tournaments of the shared test suite, whose games name players, events
// and other dates, and lidraughts' International games (some only
// headers, some without a date).
var archive = []string{
	filepath.Join(shared, "international"),
	filepath.Join(shared, "testsuite", "succeed", "nk2003-amsterdam.pdn.gz"),
	filepath.Join(shared, "testsuite", "succeed", "wk2003.pdn.gz"),
	filepath.Join(shared, "online", "standard.pdn.gz"),
}

// replayed is an archive game as the tests see it, read and replayed
// without the database (ingest/pdn and replay).
type replayed struct {
	variant      *rules.Variant
	event, date  string
	white, black string
	result       replay.Result
	start        rules.Position
	moves        []rules.Move
	hashes       []uint64 // the start and after every ply
}

var (
	replayOnce  sync.Once
	replayGames []replayed
	replayErr   error
)

// cleanName is the importer's cleaning of a player tag: spaces collapsed,
// "?" and "-" meaning nobody.
func cleanName(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "?" || s == "-" {
		return ""
	}
	return s
}

// replayArchive reads and replays the archive in Go, dropping what the
// import drops as duplicates (same variant, start, moves, players and
// date).
func replayArchive(t testing.TB) []replayed {
	t.Helper()
	replayOnce.Do(func() { replayGames, replayErr = replayFiles(archive) })
	if replayErr != nil {
		t.Fatal(replayErr)
	}
	return replayGames
}

// replayFiles reads and replays files in Go, dropping what the import
// drops as duplicates (same variant, start, moves, players and date).
func replayFiles(files []string) ([]replayed, error) {
	var out []replayed
	srcs, errs := source.Expand(files)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// Duplicates: same variant, start, moves, players, date and
	// result, and Event, Site and Round the same wherever both give one.
	type header struct {
		result             replay.Result
		event, site, round string
	}
	agree := func(a, b string) bool {
		a, b = strings.TrimSpace(a), strings.TrimSpace(b)
		return a == "" || a == "?" || a == "-" || b == "" || b == "?" || b == "-" || strings.EqualFold(a, b)
	}
	seen := map[string][]header{}
	r := replay.NewReplayer(replay.Options{})
	for _, s := range srcs {
		rd, err := s.Open()
		if err != nil {
			return nil, err
		}
		pr := pdn.NewReader(rd, s.Name)
		for {
			pg, err := pr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			var g replay.Game
			if err := r.Replay(pg, err, &g); err != nil {
				continue
			}
			rg := replayed{variant: g.Variant, event: pg.Tag("Event"), date: g.Date,
				white: cleanName(g.White), black: cleanName(g.Black), result: g.Result, start: g.Start,
				moves: append([]rules.Move(nil), g.Moves...), hashes: append([]uint64{g.Start.Hash()}, g.Hashes...)}
			key := []string{g.Variant.Name, g.StartFEN, rg.white, rg.black, rg.date}
			for i := range g.Moves {
				key = append(key, rules.FormatMove(g.Variant, &g.Moves[i], rules.Numeric, true))
			}
			k, h := strings.Join(key, "|"), header{g.Result, pg.Tag("Event"), pg.Tag("Site"), pg.Tag("Round")}
			dup := false
			for _, o := range seen[k] {
				dup = dup || o.result == h.result && agree(o.event, h.event) && agree(o.site, h.site) && agree(o.round, h.round)
			}
			if !dup {
				seen[k] = append(seen[k], h)
				out = append(out, rg)
			}
		}
		rd.Close()
	}
	return out, nil
}

// importArchive returns a new database holding the archive: a copy of
// the one database per test binary it is imported into.
func importArchive(t testing.TB) *pgxpool.Pool {
	t.Helper()
	want := len(replayArchive(t))
	return pgtest.NewDBFrom(t, "explorer archive", func(ctx context.Context, pool *pgxpool.Pool) error {
		sum, err := ingest.Import(ctx, pool, archive, ingest.Options{BatchSize: 500, Workers: 2})
		if err != nil {
			return err
		}
		if sum.Imported != want {
			return fmt.Errorf("import: %+v; replay found %d distinct games", sum, want)
		}
		return nil
	})
}

// testServer serves the archive's database.
func testServer(t testing.TB, pool *pgxpool.Pool, opt Options) *httptest.Server {
	t.Helper()
	if opt.DefaultVariant == "" {
		opt.DefaultVariant = "international"
	}
	s, err := New(pool, opt)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return ts
}

// get fetches path with the query params and decodes the JSON answer into
// out (when the status is 200); it returns the status and the body.
func get(t testing.TB, ts *httptest.Server, path string, params url.Values, out any) (int, string) {
	t.Helper()
	u := ts.URL + path
	if len(params) > 0 {
		u += "?" + params.Encode()
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); strings.HasPrefix(path, "/api/") && !strings.HasPrefix(ct, "application/json") {
		t.Errorf("GET %s: Content-Type %q", u, ct)
	}
	if resp.StatusCode == http.StatusOK && out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			t.Fatalf("GET %s: %v in %s", u, err, body)
		}
	}
	return resp.StatusCode, string(body)
}
