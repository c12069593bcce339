package replay

import (
	"errors"
	"io"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
)

// Replay decides the variant from the first moves and checks the decision
// against every square it parses; this must always agree with
// ResolveVariant, which scans every move first.
func TestReplayVariantEqualsResolveVariant(t *testing.T) {
	srcs, errs := source.Expand([]string{"../ingest/pdn/testdata/shared", "testdata"})
	if len(errs) > 0 || len(srcs) < 80 {
		t.Fatalf("%d sources, errors %v", len(srcs), errs)
	}
	r := NewReplayer(Options{})
	var g Game
	games := 0
	for _, s := range srcs {
		rd, err := s.Open()
		if err != nil {
			t.Fatal(err)
		}
		pr := pdn.NewReader(rd, s.Name)
		for {
			pg, err := pr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				continue
			}
			games++
			want, wantBasis, werr := ResolveVariant(pg, nil)
			rerr := r.Replay(pg, nil, &g)
			if werr != nil {
				if !errors.Is(rerr, ErrUnsupportedVariant) {
					t.Errorf("%s game %d: ResolveVariant says %v, replay %v", s.Name, pg.Ordinal, werr, rerr)
				}
				continue
			}
			if g.Variant != want || g.Basis != wantBasis {
				t.Errorf("%s game %d: replay decided %v by %s, ResolveVariant %v by %s", s.Name, pg.Ordinal, g.Variant, g.Basis, want, wantBasis)
			}
		}
		rd.Close()
	}
	if games < 25000 {
		t.Fatalf("only %d games", games)
	}
}
