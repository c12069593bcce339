package ingest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// TestImportStoresEvalComments imports a game with evaluation comments and
// finds them in table evaluations, keyed by the right positions.
func TestImportStoresEvalComments(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewDB(t)
	const game = `[Event "evals"]
[GameType "20"]
[Result "*"]
{[%eval 0.10][%depth 4][%engine e][%setting depth=4][%at 2026-01-02T03:04:05.000006Z]} 1. 32-28 {[%eval 0.20][%depth 5][%engine e][%setting depth=4][%best 19-23][%pv 19-23 28x19]} {plain text} 19-23 {[%eval -0.30][%mate][%depth 6]} *
`
	path := filepath.Join(t.TempDir(), "evals.pdn")
	if err := os.WriteFile(path, []byte(game), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := Import(ctx, pool, []string{path}, Options{}); err != nil {
		t.Fatal(err)
	}
	v := rules.International
	start := v.StartPosition()
	p1, _ := replay.PositionAfter(v, "", []string{"32-28"})
	p2, _ := replay.PositionAfter(v, "", []string{"32-28", "19-23"})
	type row struct {
		hash             int64
		engine, setting  string
		score, depth     int32
		mate             bool
		best             *string
		pv               string
		at               time.Time
		recentWhenNotSet bool
	}
	rows, err := pool.Query(ctx, `SELECT hash, engine, setting, score, depth, mate, best_move, pv, evaluated_at, evaluated_at > now() - interval '1 hour'
		FROM evaluations WHERE variant = 20 ORDER BY depth`)
	if err != nil {
		t.Fatal(err)
	}
	var got []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.hash, &r.engine, &r.setting, &r.score, &r.depth, &r.mate, &r.best, &r.pv, &r.at, &r.recentWhenNotSet); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d evaluations, want 3: %+v", len(got), got)
	}
	if r := got[0]; r.hash != int64(start.Hash()) || r.score != 10 || r.engine != "e" || r.setting != "depth=4" ||
		!r.at.Equal(time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)) || r.best != nil {
		t.Errorf("start position: %+v", r)
	}
	// After 32-28 Black is to move: White's +0.20 is the side to move's -20.
	if r := got[1]; r.hash != int64(p1.Hash()) || r.score != -20 || r.best == nil || *r.best != "19-23" || r.pv != "19-23 28x19" || !r.recentWhenNotSet {
		t.Errorf("after 32-28: %+v", r)
	}
	if r := got[2]; r.hash != int64(p2.Hash()) || r.score != -30 || !r.mate || r.engine != "pdn" || r.setting != "" {
		t.Errorf("after 19-23: %+v", r)
	}
}
