package openings_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestFilteredTreeAgreesWithTheStatistics: a tree with a minimum rating,
// counted from the games, is the statistics' tree of exactly the games
// that pass. Two sources of synthetic games are imported; the games of one
// are given ratings of 2000 and more, those of the other one below 2000;
// then at every position of the first plies the filtered tree over
// all sources at 2000 is the statistics' tree of the first source, and at 1
// (every game is rated) that of both. A player without a rating leaves
// the game out.
func TestFilteredTreeAgreesWithTheStatistics(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	dir := t.TempDir()
	var paths []string
	for i, seed := range []uint64{11, 12} {
		p := filepath.Join(dir, fmt.Sprintf("s%d.pdn", i))
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := synth.Write(f, synth.Options{Variant: rules.International, Games: 300, Seed: seed}); err != nil {
			t.Fatal(err)
		}
		f.Close()
		paths = append(paths, p)
	}
	if _, err := ingest.Import(ctx, pool, paths, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	var strong, weak string
	if err := pool.QueryRow(ctx, `SELECT min(id)::text, max(id)::text FROM sources`).Scan(&strong, &weak); err != nil {
		t.Fatal(err)
	}
	// The strong source: 2000-2499 both; the weak: one player below 2000.
	if _, err := pool.Exec(ctx, `UPDATE games SET white_rating = 2000 + id % 500, black_rating = 2000 + (id * 7) % 500 WHERE source_id = $1`, strong); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `UPDATE games SET white_rating = 2100 + id % 300, black_rating = 1500 + id % 499
		WHERE source_id = $1`, weak); err != nil {
		t.Fatal(err)
	}
	compare := func(pos *rules.Position, ply int) {
		t.Helper()
		for _, c := range []struct {
			min     int
			sources string
		}{{2000, strong}, {1, strong + "," + weak}} {
			got, err := openings.FilteredTreeFrom(ctx, pool, pos, "all", openings.Filter{MinRating: c.min})
			if err != nil {
				t.Fatal(err)
			}
			want, err := openings.TreeFrom(ctx, pool, pos, c.sources)
			if err != nil {
				t.Fatal(err)
			}
			if got.Games != want.Games || got.Unfinished != want.Unfinished || len(got.Branch) != len(want.Branch) {
				t.Fatalf("ply %d %s, min %d: %d games (%d unfinished) in %d moves, the statistics of %s %d (%d) in %d",
					ply, pos.FEN(), c.min, got.Games, got.Unfinished, len(got.Branch), c.sources, want.Games, want.Unfinished, len(want.Branch))
			}
			for i := range want.Branch {
				g, w := got.Branch[i], want.Branch[i]
				if g.Text != w.Text || g.Games != w.Games || g.WhiteWins != w.WhiteWins || g.Draws != w.Draws || g.BlackWins != w.BlackWins {
					t.Fatalf("ply %d %s, min %d: move %+v, the statistics %+v", ply, pos.FEN(), c.min, g, w)
				}
			}
			if got.Filter.MinRating != c.min {
				t.Fatalf("the node does not say its filter: %+v", got.Filter)
			}
		}
	}
	// The initial position and every position the strong source's most
	// played lines reach in 4 plies.
	pos := rules.International.StartPosition()
	checked := 0
	var walk func(p *rules.Position, ply int)
	walk = func(p *rules.Position, ply int) {
		compare(p, ply)
		checked++
		if ply == 4 {
			return
		}
		node, err := openings.TreeFrom(ctx, pool, p, strong)
		if err != nil {
			t.Fatal(err)
		}
		for i, b := range node.Branch {
			if i == 2 {
				break
			}
			child := *p
			child.Play(&b.Move)
			walk(&child, ply+1)
		}
	}
	walk(&pos, 0)
	if checked < 15 {
		t.Fatalf("%d positions compared", checked)
	}
	n, err := openings.FilteredTreeFrom(ctx, pool, &pos, "all", openings.Filter{MinRating: 2000})
	if err != nil || n.Games < 200 {
		t.Fatalf("the strong source's tree: %v, %+v", err, n)
	}
	tag, err := pool.Exec(ctx, `UPDATE games SET black_rating = NULL WHERE source_id = $1 AND id % 10 = 0 AND ply_count > 0`, strong)
	if err != nil || tag.RowsAffected() == 0 {
		t.Fatal(err, tag)
	}
	if m, err := openings.FilteredTreeFrom(ctx, pool, &pos, "all", openings.Filter{MinRating: 2000}); err != nil || m.Games != n.Games-tag.RowsAffected() {
		t.Fatalf("with %d Black players unrated: %v, %d games, want %d", tag.RowsAffected(), err, m.Games, n.Games-tag.RowsAffected())
	}
	if _, err := openings.FilteredTreeFrom(ctx, pool, &pos, "all", openings.Filter{MinRating: -1}); err == nil {
		t.Fatal("a negative minimum rating is accepted")
	}
}
