package patternsearch

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay/pattern"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestEveryVariant: for generated games of every variant (Turkish's 64
// squares and Canadian's 72 included), a position of a game, taken from
// export --what positions as a pattern of all its pieces, finds that game
// at that ply or earlier; the same pattern turned and with colours
// swapped finds it colour-reversed; and the counts equal a scan of the
// export.
func TestEveryVariant(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	dir := t.TempDir()
	var paths []string
	for i, v := range rules.Variants() {
		path := filepath.Join(dir, v.Name+".pdn")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := synth.Write(f, synth.Options{Variant: v, Games: 20, Seed: uint64(7 + i)}); err != nil {
			t.Fatal(err)
		}
		f.Close()
		paths = append(paths, path)
	}
	if _, err := ingest.Import(ctx, pool, paths, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, v := range rules.Variants() {
		rows := exportPositions(t, pool, v)
		// The position 11 plies into the first game that has one.
		var at exported
		for _, r := range rows {
			if r.Ply == 11 {
				at = r
				break
			}
		}
		if at.FEN == "" {
			t.Fatalf("%s: no game of 11 plies", v.Name)
		}
		p, err := rules.ParseFEN(v, at.FEN)
		if err != nil {
			t.Fatal(err)
		}
		b := pattern.FromPosition(&p)
		pat := pattern.Pattern{}
		for _, sq := range b.White.Squares(nil) {
			if b.Kings.Has(sq) {
				pat.WhiteKings.Add(sq)
			} else {
				pat.WhiteMen.Add(sq)
			}
		}
		for _, sq := range b.Black.Squares(nil) {
			if b.Kings.Has(sq) {
				pat.BlackKings.Add(sq)
			} else {
				pat.BlackMen.Add(sq)
			}
		}
		// Every square of the board is fixed: a position matches when it
		// has exactly these pieces.
		for sq := 1; sq <= v.Board.Squares(); sq++ {
			if p.Piece(sq) == rules.Empty {
				pat.Empty.Add(sq)
			}
		}
		exact := map[int64]int{}
		positions := 0
		for _, r := range rows {
			q, err := rules.ParseFEN(v, r.FEN)
			if err != nil {
				t.Fatal(err)
			}
			same := true
			for sq := 1; sq <= v.Board.Squares(); sq++ {
				if q.Piece(sq) != p.Piece(sq) {
					same = false
					break
				}
			}
			if same {
				positions++
				if _, ok := exact[r.GameID]; !ok {
					exact[r.GameID] = r.Ply
				}
			}
		}
		res, err := Search(ctx, pool, Options{Variant: v, Limit: 1000,
			Query: pattern.Query{Patterns: []pattern.Pattern{pat}, MinPly: -1, MaxPly: -1}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Games != len(exact) || int(res.Positions) != positions || exact[at.GameID] > 11 {
			t.Errorf("%s: %d games, %d positions; the export has %d, %d", v.Name, res.Games, res.Positions, len(exact), positions)
		}
		for _, m := range res.Matches {
			if ply, ok := exact[m.GameID]; !ok || ply != m.Ply || m.FEN[1:] != at.FEN[1:] {
				t.Errorf("%s: game %d at ply %d (%s); the export: ply %d (%s)", v.Name, m.GameID, m.Ply, m.FEN, ply, at.FEN)
			}
		}
		// Colour-reversed: the turned pattern, found only reversed.
		rev := pat.Reverse(v)
		res, err = Search(ctx, pool, Options{Variant: v, Limit: 1000,
			Query: pattern.Query{Patterns: []pattern.Pattern{rev}, MinPly: -1, MaxPly: -1, Reversed: true}})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, m := range res.Matches {
			if m.GameID == at.GameID && m.Ply <= 11 {
				found = found || m.Reversed || m.Ply < 11
			}
		}
		if !found {
			t.Errorf("%s: the turned pattern does not find game %d colour-reversed", v.Name, at.GameID)
		}
	}
}
