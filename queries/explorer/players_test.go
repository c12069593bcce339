package explorer

import (
	"context"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/queries/players"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestPlayerBySpelling: the PDN standard's example files write Ton
// Sijbrands "Sijbrands,T." and "T. Sijbrands"; /api/player by either
// spelling is one player with both, and the record `draughtsdb players`
// lists for them.
func TestPlayerBySpelling(t *testing.T) {
	pool := pgtest.NewDB(t)
	ctx := context.Background()
	var files []string
	for _, f := range []string{"wk2003.pdn.gz", "nk ronde 01.pdn.gz", "PROF2.pdn.gz"} {
		files = append(files, filepath.Join(shared, "testsuite", "succeed", f))
	}
	if _, err := ingest.Import(ctx, pool, files, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	list, err := players.List(ctx, pool, "sijbrands")
	if err != nil || len(list) != 1 {
		t.Fatalf("players.List: %v %+v", err, list)
	}
	ts := testServer(t, pool, Options{})
	for _, name := range []string{"Sijbrands,T.", "T. Sijbrands", "t. sijbrands", "Ton Sijbrands"} {
		var p PlayerAnswer
		if st, body := get(t, ts, "/api/player", url.Values{"name": {name}}, &p); st != 200 {
			t.Fatalf("%s: %d %s", name, st, body)
		}
		spellings := append([]string{p.Name}, p.Aliases...)
		slices.Sort(spellings)
		if !slices.Equal(spellings, []string{"Sijbrands,T.", "T. Sijbrands"}) || len(p.Record) < 3 ||
			p.Record[0].Games != int64(list[0].Games) || p.Record[0].Wins != int64(list[0].Wins) || p.Record[0].Losses != int64(list[0].Losses) {
			t.Errorf("%s: %+v; players lists %+v", name, p, list[0].Record)
		}
	}
	if st, body := get(t, ts, "/api/player", url.Values{"name": {"Sijbrans"}}, nil); st != 404 || !strings.Contains(body, "closest: Sijbrands,T.") {
		t.Errorf("unknown name: %d %s", st, body)
	}
}
