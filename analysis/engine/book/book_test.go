package book

import (
	"context"
	"math"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestBuild: from the opening statistics of the bundled English sample
// (200 OCA games), every book position's move was played by at least MinGames games
// and scores best there for the side to move, at least MinScore; stricter
// options give a smaller book; an engine with the book plays its move in
// the start position without searching, and searches outside the book.
func TestBuild(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	sum, err := ingest.Import(ctx, pool, []string{"../../../ingest/sample/oca-english-200.pdn"}, ingest.Options{})
	if err != nil || sum.Imported == 0 {
		t.Fatalf("import: %+v, %v", sum, err)
	}
	v := rules.English
	o := Options{MinGames: 2, MinScore: 40}
	b, err := Build(ctx, pool, v, o)
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() == 0 {
		t.Fatal("an empty book")
	}
	t.Logf("%d book positions", b.Len())
	// Check every entry against the tree of its position.
	start := v.StartPosition()
	checked := 0
	err = openings.Walk(ctx, pool, &start, o.MinGames, 0, func(ply int, n *openings.Node) error {
		m, ok := b.moves[n.Hash]
		if !ok {
			return nil
		}
		checked++
		side := func(s float64) float64 {
			if n.Side == rules.Black {
				return 100 - s
			}
			return s
		}
		var chosen *openings.Branch
		best := -1.0
		for i := range n.Branch {
			br := &n.Branch[i]
			if br.Games >= o.MinGames && !math.IsNaN(br.Score) {
				best = max(best, side(br.Score))
			}
			if br.Move.SameAs(&m) {
				chosen = br
			}
		}
		if chosen == nil || chosen.Games < o.MinGames || side(chosen.Score) != best || best < o.MinScore {
			t.Errorf("%s: book move %v: branch %+v, best score %.1f", n.FEN, m, chosen, best)
		}
		return nil
	})
	if err != nil || checked != b.Len() {
		t.Fatalf("walk: %v; %d of %d entries seen", err, checked, b.Len())
	}
	strict, err := Build(ctx, pool, v, Options{MinGames: 5, MinScore: 60})
	if err != nil || strict.Len() >= b.Len() {
		t.Errorf("stricter book: %d entries (%v), the first %d", strict.Len(), err, b.Len())
	}
	if _, err := Build(ctx, pool, v, Options{MinGames: 0}); err == nil {
		t.Error("MinGames 0 accepted")
	}
	if _, err := Build(ctx, pool, v, Options{MinGames: 1, MinScore: 101}); err == nil {
		t.Error("MinScore 101 accepted")
	}
	if _, ok := b.Move(ptr(rules.Russian.StartPosition())); ok {
		t.Error("a move for another variant's position")
	}

	// The start position: the book answers (no search: depth 0, no score).
	want, ok := b.Move(&start)
	if !ok {
		t.Fatal("no book move at the start")
	}
	e, err := engine.WithBook(engine.NewBuiltin(1), b)
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Search(ctx, engine.Game{Start: start}, engine.Limit{Depth: 4})
	if err != nil || !r.Move.SameAs(&want) || r.HasScore || r.Depth != 0 || r.Nodes != 0 {
		t.Errorf("start with the book: %+v %v, want %v unsearched", r, err, want)
	}
	// Out of the book: searched.
	out, err := rules.ParseFEN(v, "W:WK14,K15:BK1")
	if err != nil {
		t.Fatal(err)
	}
	if r, err := e.Search(ctx, engine.Game{Start: out}, engine.Limit{Depth: 2}); err != nil || !r.HasScore || r.Depth != 2 {
		t.Errorf("out of the book: %+v %v, want a search", r, err)
	}
	if !engine.IsBuiltin(e) {
		t.Error("IsBuiltin under a book")
	}
}

func ptr(p rules.Position) *rules.Position { return &p }
