package schema_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// importPDN imports each text as a file of its own, named by its key,
// and returns the files' paths (their sources' names) by key.
func importPDN(t *testing.T, pool *pgxpool.Pool, files map[string]string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	byName := map[string]string{}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		byName[name] = p
	}
	slices.Sort(paths)
	if _, err := ingest.Import(context.Background(), pool, paths, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	return byName
}

// exportEvents returns the events of the games f selects, in id order,
// and checks the two counts against them.
func exportEvents(t *testing.T, q schema.Querier, f *schema.ExportFilter) []string {
	t.Helper()
	ctx := context.Background()
	var events []string
	var positions int64
	last := int64(-1)
	err := schema.ForEachExportGame(ctx, q, f, func(g *schema.ExportGame) error {
		if g.ID <= last {
			t.Errorf("game %d after game %d: not in id order", g.ID, last)
		}
		last = g.ID
		ev := ""
		if g.Event != nil {
			ev = *g.Event
		}
		events = append(events, ev)
		positions += int64(g.Plies) + 1
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	n, err := schema.CountExportGames(ctx, q, f)
	if err != nil || n != int64(len(events)) {
		t.Errorf("%+v: CountExportGames %d, %v; ForEachExportGame gave %d", f, n, err, len(events))
	}
	p, err := schema.CountExportPositions(ctx, q, f)
	if err != nil || p != positions {
		t.Errorf("%+v: CountExportPositions %d, %v; the games have %d", f, p, err, positions)
	}
	return events
}

// TestExportFilterSelects: each field of ExportFilter keeps exactly the
// games the PDN files' tags and moves say it should, the fields combine
// with AND, and the games come in id order with the counts agreeing.
func TestExportFilterSelects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	paths := importPDN(t, pool, map[string]string{
		"a.pdn": `[Event "Open 1990"][Date "1990.05.17"][White "Anna"][Black "Bob"][WhiteRating "2100"][BlackRating "1900"][GameType "20"][Result "2-0"]
1. 32-28 19-23 2. 28x19 14x23 2-0

[Event "Open 1991"][Date "1991.??.??"][White "Carl"][Black "anna"][WhiteRating "2200"][BlackRating "2300"][GameType "20"][Result "1-1"]
1. 33-28 18-23 1-1

[Event "Cup"][Date "????.??.??"][White "Dora"][Black "Eve"][GameType "20"]
1. 32-28 *

[Event "Russian"][Date "1990.01.01"][White "Anna"][Black "Ivan"][GameType "25"][Result "1-0"]
1. c3-d4 f6-g5 1-0
`,
		"b.pdn": `[Event "Second file"][Date "2005.06.30"][White "Bob"][Black "Carl"][GameType "20"][Result "0-2"]
1. 32-28 17-21 0-2
`,
	})
	// The position after 32-28, as stored: the final position of "Cup".
	var after3228 int64
	if err := schema.ForEachExportGame(ctx, pool, &schema.ExportFilter{Events: []string{"Cup"}}, func(g *schema.ExportGame) error {
		after3228 = g.FinalHash
		return nil
	}); err != nil || after3228 == 0 {
		t.Fatalf("Cup's final hash %d, %v", after3228, err)
	}
	intl, russian := int16(20), int16(25)
	all := []string{"Open 1990", "Open 1991", "Cup", "Russian", "Second file"}
	for _, c := range []struct {
		name string
		f    schema.ExportFilter
		want []string
	}{
		{"none", schema.ExportFilter{}, all},
		{"archive", schema.ExportFilter{Sources: "archive"}, all},
		{"variant", schema.ExportFilter{Variant: &russian}, []string{"Russian"}},
		{"events", schema.ExportFilter{Events: []string{"open%", "cup"}}, []string{"Open 1990", "Open 1991", "Cup"}},
		{"event-one-char", schema.ExportFilter{Events: []string{"Open 199_"}}, []string{"Open 1990", "Open 1991"}},
		{"players", schema.ExportFilter{Players: []string{"ANNA"}}, []string{"Open 1990", "Open 1991", "Russian"}},
		{"from-year", schema.ExportFilter{From: "1991"}, []string{"Open 1991", "Second file"}},
		{"to-month", schema.ExportFilter{To: "1990.05"}, []string{"Open 1990", "Russian"}},
		{"to-day", schema.ExportFilter{To: "1990.05.16"}, []string{"Russian"}},
		// An unknown month sorts after every known one.
		{"unknown-month", schema.ExportFilter{From: "1991.12"}, []string{"Open 1991", "Second file"}},
		{"min-ply", schema.ExportFilter{MinPly: 3}, []string{"Open 1990"}},
		{"min-rating", schema.ExportFilter{MinRating: 2000}, []string{"Open 1991"}},
		{"min-rating-low", schema.ExportFilter{MinRating: 1900}, []string{"Open 1990", "Open 1991"}},
		{"source", schema.ExportFilter{Sources: paths["b.pdn"]}, []string{"Second file"}},
		{"no-match-source", schema.ExportFilter{Sources: "match"}, nil},
		{"position", schema.ExportFilter{Positions: []schema.ExportPosition{{Variant: intl, Hash: after3228}}}, []string{"Open 1990", "Cup", "Second file"}},
		// The position's variant counts, not only its hash.
		{"position-other-variant", schema.ExportFilter{Positions: []schema.ExportPosition{{Variant: russian, Hash: after3228}}}, nil},
		{"combined", schema.ExportFilter{Variant: &intl, Players: []string{"bob"}, From: "1990"}, []string{"Open 1990", "Second file"}},
	} {
		got := exportEvents(t, pool, &c.f)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	_, err := schema.CountExportGames(ctx, pool, &schema.ExportFilter{Sources: "no such source"})
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || !strings.Contains(pe.Message, "no such source") {
		t.Errorf("a selection naming no source: %v, want the database's explanation", err)
	}
}

// TestReadSnapshot: both transactions of a ReadSnapshot see the state of
// its start, whatever commits meanwhile, the second opened after the
// commit; the main one writes nothing; at the end, on success, failure or
// cancellation, no connection is held, no transaction is left open and the
// temporary table is gone.
func TestReadSnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	importPDN(t, pool, map[string]string{"a.pdn": "[GameType \"20\"]\n1. 32-28 *\n\n[GameType \"20\"]\n1. 33-28 *\n"})
	games := func(q schema.Querier) int64 {
		n, err := schema.CountExportGames(ctx, q, &schema.ExportFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	settled := func(when string) {
		t.Helper()
		if n := pool.Stat().AcquiredConns(); n != 0 {
			t.Errorf("%s: %d connections still held", when, n)
		}
		var open, temp int64
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND state LIKE 'idle in transaction%'`).Scan(&open); err != nil {
			t.Fatal(err)
		}
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM pg_class WHERE relname = 'export_positions'`).Scan(&temp); err != nil {
			t.Fatal(err)
		}
		if open != 0 || temp != 0 {
			t.Errorf("%s: %d transactions left open, %d temporary tables left", when, open, temp)
		}
	}

	err := schema.WithReadSnapshot(ctx, pool, func(s *schema.ReadSnapshot) error {
		if n := games(s.Main()); n != 2 {
			t.Errorf("main sees %d games, want 2", n)
		}
		importPDN(t, pool, map[string]string{"b.pdn": "[GameType \"20\"]\n1. 31-27 *\n"})
		if n := games(pool); n != 3 {
			t.Errorf("outside the snapshot, %d games after the import, want 3", n)
		}
		aux, err := s.Aux(ctx)
		if err != nil {
			return err
		}
		if again, err := s.Aux(ctx); err != nil || again != aux {
			t.Errorf("a second Aux: %v, %v; want the same transaction", again, err)
		}
		if n, m := games(s.Main()), games(aux); n != 2 || m != 2 {
			t.Errorf("after the import, main sees %d games and aux %d, want 2 and 2", n, m)
		}
		if _, err := s.Main().Exec(ctx, `DELETE FROM games`); err == nil {
			t.Error("the main transaction deleted games: it is not read only")
		}
		// The failed statement aborted main; aux goes on.
		d, err := schema.NewExportDistinct(ctx, aux)
		if err != nil {
			return err
		}
		return d.Add(ctx, 1, func(int) schema.ExportDistinctPosition {
			return schema.ExportDistinctPosition{Variant: 20, Hash: 1, FEN: "W:W31:B20"}
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	settled("after success")
	if n := games(pool); n != 3 {
		t.Errorf("%d games after the snapshot, want 3", n)
	}

	boom := errors.New("boom")
	if err := schema.WithReadSnapshot(ctx, pool, func(s *schema.ReadSnapshot) error {
		aux, err := s.Aux(ctx)
		if err != nil {
			return err
		}
		if _, err := schema.NewExportDistinct(ctx, aux); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("fn's error: got %v", err)
	}
	settled("after fn failed")

	cctx, cancel := context.WithCancel(ctx)
	err = schema.WithReadSnapshot(cctx, pool, func(s *schema.ReadSnapshot) error {
		aux, err := s.Aux(cctx)
		if err != nil {
			return err
		}
		if _, err := schema.NewExportDistinct(cctx, aux); err != nil {
			return err
		}
		cancel()
		_, err = schema.CountExportGames(cctx, aux, &schema.ExportFilter{})
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: got %v", err)
	}
	// A connection whose query was cancelled is closed by pgx, in the
	// background.
	deadline := time.Now().Add(30 * time.Second)
	for pool.Stat().AcquiredConns() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	settled("after cancellation")
}

// TestExportEvaluations: the evaluation chosen for a position is the
// deepest, then the latest, then the least engine and setting name, the
// same by PickExportEvaluations and by ExportDistinct's aggregate, among
// those of the engine and setting asked for; AllExportEvaluations gives
// every one of a position by engine and setting; the evaluations export
// filters by variant, engine and setting and counts what it gives.
func TestExportEvaluations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	day := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, e := range []struct {
		variant         int16
		hash            int64
		engine, setting string
		score, depth    int32
		at              time.Time
	}{
		// Position 1: the deepest wins, however old.
		{20, 1, "b", "depth=9", 10, 9, day},
		{20, 1, "a", "depth=5", 20, 5, day.Add(time.Hour)},
		// Position 2: equal depths, the latest wins.
		{20, 2, "a", "depth=5", 30, 5, day},
		{20, 2, "b", "depth=5", 40, 5, day.Add(time.Hour)},
		// Position 3: equal depths and times, the least engine, then setting.
		{20, 3, "b", "x", 50, 5, day},
		{20, 3, "a", "y", 60, 5, day},
		{20, 3, "a", "x", 70, 5, day},
		// The same hash in another variant is another position.
		{25, 1, "c", "depth=1", 80, 1, day},
	} {
		if _, err := pool.Exec(ctx, `INSERT INTO evaluations (variant, hash, engine, setting, score, mate, depth, best_move, pv, nodes, time_ms, engine_version, evaluated_at)
			VALUES ($1, $2, $3, $4, $5, false, $6, '32-28', '32-28 19-23', 100, 5, 'v1', $7)`,
			e.variant, e.hash, e.engine, e.setting, e.score, e.depth, e.at); err != nil {
			t.Fatal(err)
		}
	}
	str := func(s string) *string { return &s }
	keysV, keysH := []int16{20, 20, 20, 20, 25}, []int64{1, 2, 3, 4, 1}
	type key struct {
		v int16
		h int64
	}
	for _, c := range []struct {
		f    schema.ExportEvalFilter
		want map[key]int64 // the chosen evaluation's score
	}{
		{schema.ExportEvalFilter{}, map[key]int64{{20, 1}: 10, {20, 2}: 40, {20, 3}: 70, {25, 1}: 80}},
		{schema.ExportEvalFilter{Engine: str("a")}, map[key]int64{{20, 1}: 20, {20, 2}: 30, {20, 3}: 70}},
		{schema.ExportEvalFilter{Setting: str("y")}, map[key]int64{{20, 3}: 60}},
		{schema.ExportEvalFilter{Engine: str("b"), Setting: str("x")}, map[key]int64{{20, 3}: 50}},
		{schema.ExportEvalFilter{Engine: str("none")}, map[key]int64{}},
	} {
		has, err := schema.HasExportEvaluations(ctx, pool, c.f)
		if err != nil || has != (len(c.want) > 0) {
			t.Errorf("%+v: HasExportEvaluations %v, %v", c.f, has, err)
		}
		picked := map[key]int64{}
		if err := schema.PickExportEvaluations(ctx, pool, keysV, keysH, c.f, func(e *schema.ExportPick) error {
			picked[key{e.Variant, e.Hash}] = e.Score
			if e.BestMove == nil || *e.BestMove != "32-28" || e.Engine == "" || e.Setting == "" {
				t.Errorf("%+v: picked %+v", c.f, e)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if !mapsEqual(picked, c.want) {
			t.Errorf("%+v: PickExportEvaluations chose %v, want %v", c.f, picked, c.want)
		}
		// The distinct export chooses the same, from its own table.
		aggregated := map[key]int64{}
		err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			d, err := schema.NewExportDistinct(ctx, tx)
			if err != nil {
				return err
			}
			if err := d.Add(ctx, len(keysV), func(i int) schema.ExportDistinctPosition {
				return schema.ExportDistinctPosition{Variant: keysV[i], Hash: keysH[i], FEN: "W:W31:B20"}
			}); err != nil {
				return err
			}
			if err := d.Aggregate(ctx, c.f, func(r *schema.ExportDistinctRow) error {
				if r.HasEval {
					aggregated[key{r.Variant, r.Hash}] = r.Eval.Score
				}
				return nil
			}); err != nil {
				return err
			}
			return errors.New("roll back")
		})
		if err == nil || err.Error() != "roll back" {
			t.Fatal(err)
		}
		if !mapsEqual(aggregated, c.want) {
			t.Errorf("%+v: the distinct aggregate chose %v, want %v", c.f, aggregated, c.want)
		}
	}

	var all []string
	if err := schema.AllExportEvaluations(ctx, pool, []int16{20, 25}, []int64{3, 1}, schema.ExportEvalFilter{}, func(e *schema.ExportEval) error {
		if e.PV != "32-28 19-23" || e.Nodes != 100 || e.TimeMS != 5 || e.EngineVersion != "v1" || e.EvaluatedAt.IsZero() {
			t.Errorf("evaluation read back as %+v", e)
		}
		all = append(all, e.Engine+" "+e.Setting)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a x", "a y", "b x", "c depth=1"}; !slices.Equal(all, want) {
		t.Errorf("AllExportEvaluations: %q, want %q", all, want)
	}

	intl := int16(20)
	for _, c := range []struct {
		f    schema.ExportEvalFilter
		want []string
	}{
		{schema.ExportEvalFilter{}, []string{"20/1 a", "20/1 b", "20/2 a", "20/2 b", "20/3 a", "20/3 a", "20/3 b", "25/1 c"}},
		{schema.ExportEvalFilter{Variant: &intl, Engine: str("b")}, []string{"20/1 b", "20/2 b", "20/3 b"}},
		{schema.ExportEvalFilter{Setting: str("depth=5")}, []string{"20/1 a", "20/2 a", "20/2 b"}},
	} {
		var got []string
		if err := schema.ForEachExportEvaluation(ctx, pool, c.f, func(e *schema.ExportEval) error {
			got = append(got, strings.Join([]string{strconv.Itoa(int(e.Variant)) + "/" + strconv.FormatInt(e.Hash, 10), e.Engine}, " "))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		n, err := schema.CountExportEvaluations(ctx, pool, c.f)
		if !slices.Equal(got, c.want) || err != nil || n != int64(len(got)) {
			t.Errorf("%+v: %q (count %d, %v), want %q", c.f, got, n, err, c.want)
		}
	}
}

func mapsEqual[K comparable](a, b map[K]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestExportDistinctAggregates: positions added once per game aggregate
// into one row per (variant, position), most played first, then by
// variant and hash, with the games won, drawn, lost and unknown from the
// side to move's view, the earliest ply and the byte-wise least FEN.
func TestExportDistinctAggregates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	res := func(r int16) *int16 { return &r }
	adds := [][]schema.ExportDistinctPosition{
		{{Variant: 20, Hash: 7, FEN: "W:Wb:B1", Result: res(2), Ply: 4}, {Variant: 20, Hash: 5, FEN: "B:W2:B1", Result: res(0), Ply: 1}},
		{{Variant: 20, Hash: 7, FEN: "W:Wa:B1", Result: nil, Ply: 2}, {Variant: 25, Hash: 7, FEN: "W:W9:B1", Result: res(1), Ply: 0}},
		{{Variant: 20, Hash: 7, FEN: "W:Wc:B1", Result: res(1), Ply: 6}},
	}
	var got []schema.ExportDistinctRow
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		d, err := schema.NewExportDistinct(ctx, tx)
		if err != nil {
			return err
		}
		for _, batch := range adds {
			if err := d.Add(ctx, len(batch), func(i int) schema.ExportDistinctPosition { return batch[i] }); err != nil {
				return err
			}
		}
		return d.Aggregate(ctx, schema.ExportEvalFilter{}, func(r *schema.ExportDistinctRow) error {
			got = append(got, *r)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []schema.ExportDistinctRow{
		{Variant: 20, Hash: 7, FEN: "W:Wa:B1", Games: 3, Wins: 1, Draws: 1, Unknown: 1, MinPly: 2},
		{Variant: 20, Hash: 5, FEN: "B:W2:B1", Games: 1, Losses: 1, MinPly: 1},
		{Variant: 25, Hash: 7, FEN: "W:W9:B1", Games: 1, Draws: 1},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

// TestExportRejected: the rejected games come by id with their source and
// reason, and their bytes exactly as read, also through the raw scan.
func TestExportRejected(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	paths := importPDN(t, pool, map[string]string{"r.pdn": "[Event \"ok\"][GameType \"20\"]\n1. 32-28 *\n\n[Event \"caf\xe9\"][GameType \"20\"]\n1. 50-44 *\n\n[GameType \"20\"]\n1. 50-44 *\n"})
	var rows []schema.ExportRejected
	if err := schema.ForEachExportRejected(ctx, pool, func(r *schema.ExportRejected) error {
		rows = append(rows, *r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var raws [][]byte
	if err := schema.ForEachExportRejectedRaw(ctx, pool, func(raw []byte) error {
		raws = append(raws, slices.Clone(raw))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	n, err := schema.CountExportRejected(ctx, pool)
	if err != nil || n != 2 || len(rows) != 2 || len(raws) != 2 {
		t.Fatalf("count %d (%v), %d rows, %d raw", n, err, len(rows), len(raws))
	}
	for i, r := range rows {
		if i > 0 && r.ID <= rows[i-1].ID {
			t.Errorf("rejected game %d after %d: not in id order", r.ID, rows[i-1].ID)
		}
		if r.Source != paths["r.pdn"] || r.Reason == "" || r.Message == "" || r.Ordinal != int32(i+2) || string(r.Raw) != string(raws[i]) {
			t.Errorf("rejected game %d: %+v (raw scan %q)", i, r, raws[i])
		}
		if r.Ply == nil || *r.Ply != 1 || r.Move == nil || r.FEN == nil {
			t.Errorf("rejected game %d: ply %v, move %v, FEN %v; want the illegal first move", i, r.Ply, r.Move, r.FEN)
		}
	}
	if !strings.Contains(string(raws[0]), "caf\xe9") {
		t.Errorf("the first rejected game's bytes are not as read: %q", raws[0])
	}
}
