package queries_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestBlundersMover: the blunders query names the side that made each
// move, and its player filter that side's player, for every variant: the
// side to move before the ply in the game's own replay (codec.Decode).
// Only English was taken for a Black-first variant, so every Pool and Thai
// move was put on the wrong side.
func TestBlundersMover(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	dir := t.TempDir()
	var paths []string
	for _, v := range rules.Variants() {
		var b bytes.Buffer
		if err := synth.Write(&b, synth.Options{Variant: v, Games: 2, Seed: 5}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, v.Name+".pdn")
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	if _, err := ingest.Import(ctx, pool, paths, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	// Every one of the first 6 plies of every game a blunder.
	if _, err := pool.Exec(ctx, `INSERT INTO move_annotations (game_id, ply, engine, setting, loss, class)
		SELECT g.id, p, 'draughtsdb', 'depth=1', 500, 'blunder' FROM games g, generate_series(1, least(6, g.ply_count)) p`); err != nil {
		t.Fatal(err)
	}
	rows, err := pool.Query(ctx, `SELECT id, variant, coalesce(start_fen, ''), moves FROM games`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{} // game id/ply -> white or black
	for rows.Next() {
		var id int64
		var variant int16
		var fen string
		var moves []byte
		if err := rows.Scan(&id, &variant, &fen, &moves); err != nil {
			t.Fatal(err)
		}
		v, err := codec.VariantByID(variant)
		if err != nil {
			t.Fatal(err)
		}
		g, err := codec.Decode(v, fen, moves)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 1; ply <= min(6, len(g.Moves)); ply++ {
			want[strconv.FormatInt(id, 10)+"/"+strconv.Itoa(ply)] = map[rules.Color]string{rules.White: "white", rules.Black: "black"}[g.Positions[ply-1].SideToMove()]
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	res := run(t, pool, "blunders", map[string]string{"limit": "100000"})
	if len(res.Rows) != len(want) || len(want) < 100 {
		t.Fatalf("%d rows, %d annotated moves", len(res.Rows), len(want))
	}
	id, ply, mover, white, black := col(t, res, "game_id"), col(t, res, "ply"), col(t, res, "mover"), col(t, res, "white"), col(t, res, "black")
	wrong := map[string]int{}
	byPlayer := map[string]int{}
	for _, r := range res.Rows {
		if w := want[r[id]+"/"+r[ply]]; r[mover] != w {
			wrong[r[col(t, res, "variant")]]++
		}
		if r[mover] == "white" {
			byPlayer[r[white]]++
		} else {
			byPlayer[r[black]]++
		}
	}
	if len(wrong) > 0 {
		t.Errorf("moves put on the wrong side, by variant: %v", wrong)
	}
	// The player filter lists exactly the moves of that player's side.
	for name, n := range byPlayer {
		if got := len(run(t, pool, "blunders", map[string]string{"limit": "100000", "player": name}).Rows); got != n {
			t.Errorf("player %q: %d moves listed, %d made", name, got, n)
		}
	}
}
