package schema_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5"
)

// TestGameCopyColumnsAreTheTable: the games COPY, whose column order
// ingest's encoder follows, names every column of games once (a column a
// migration adds must be written by the import, or deliberately left to
// its default here), and the position index COPY names columns of
// position_index.
func TestGameCopyColumnsAreTheTable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	columns := func(table string) []string {
		rows, err := pool.Query(ctx, `SELECT column_name::text FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = $1 ORDER BY column_name`, table)
		if err != nil {
			t.Fatal(err)
		}
		cols, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil || len(cols) == 0 {
			t.Fatalf("columns of %s: %q, %v", table, cols, err)
		}
		return cols
	}
	got := schema.GameCopyColumns()
	if len(got) < 20 || got[0] != "id" || got[5] != "black_id" {
		t.Fatalf("games COPY columns %q: the writer's six columns lead", got)
	}
	sorted := slices.Sorted(slices.Values(got))
	if want := columns("games"); !slices.Equal(sorted, want) {
		t.Fatalf("games COPY columns %q, the table's %q", sorted, want)
	}
	pos := columns("position_index")
	for _, c := range schema.PositionIndexColumns() {
		if !slices.Contains(pos, c) {
			t.Errorf("position_index COPY column %q: the table has %q", c, pos)
		}
	}
	if n := len(schema.PositionIndexColumns()); n != 4 {
		t.Errorf("position_index COPY: %d columns, want 4", n)
	}
}

// TestImportSourceLifecycle: a source is registered, found by its
// identity, finished, replaced (its duplicates following it to the new
// id), and a source that broke off is listed with its parsed identity
// (a malformed one left out) until it is taken over and finished.
func TestImportSourceLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	if _, ok, err := schema.FindImportSource(ctx, pool, "nothing"); ok || err != nil {
		t.Fatalf("find of nothing: %v, %v", ok, err)
	}
	size := int64(123)
	a, err := schema.InsertImportSource(ctx, pool, schema.NewImportSource{Name: "a.pdn", Size: &size, SHA: "sha-a", OpeningDepth: 12})
	if err != nil {
		t.Fatal(err)
	}
	s, ok, err := schema.FindImportSource(ctx, pool, "sha-a")
	if !ok || err != nil || s.ID != a || s.Status != "importing" || s.FinishedAt != nil || s.OpeningDepth == nil || *s.OpeningDepth != 12 {
		t.Fatalf("found %+v, %v, %v", s, ok, err)
	}
	if err := schema.AddBatchTotals(ctx, pool, a, 7, 4, 2, 1); err != nil {
		t.Fatal(err)
	}
	if err := schema.FinishImportSource(ctx, pool, a, nil); err != nil {
		t.Fatal(err)
	}
	s, _, err = schema.FindImportSource(ctx, pool, "sha-a")
	if err != nil || s.Status != "done" || s.FinishedAt == nil || s.GamesRead != 7 || s.GamesImported != 4 || s.Duplicates != 2 || s.Rejected != 1 {
		t.Fatalf("after a batch and the end: %+v, %v", s, err)
	}

	// Another source's game recorded as a duplicate of a's follows a to
	// its new id when a is replaced.
	b, err := schema.InsertImportSource(ctx, pool, schema.NewImportSource{Name: "b.pdn", SHA: "sha-b", OpeningDepth: 12})
	if err != nil {
		t.Fatal(err)
	}
	err = schema.WithTx(ctx, pool, func(tx pgx.Tx) error {
		return schema.CopyDuplicates(ctx, tx, []schema.Duplicate{{SourceID: b, Ordinal: 1, Offset: 0, OfSourceID: a, OfOrdinal: 3}})
	})
	if err != nil {
		t.Fatal(err)
	}
	a2, err := schema.ReplaceImportSource(ctx, pool, a, schema.NewImportSource{Name: "a.pdn", SHA: "sha-a", OpeningDepth: 12})
	if err != nil || a2 == a {
		t.Fatalf("replace: %d, %v", a2, err)
	}
	var of int64
	if err := pool.QueryRow(ctx, `SELECT of_source_id FROM duplicates WHERE source_id = $1`, b).Scan(&of); err != nil || of != a2 {
		t.Fatalf("duplicate of %d after the replace, want %d (%v)", of, a2, err)
	}
	if s, ok, err := schema.FindImportSource(ctx, pool, "sha-a"); !ok || err != nil || s.ID != a2 || s.Status != "importing" || s.GamesRead != 0 {
		t.Fatalf("replaced: %+v, %v, %v", s, ok, err)
	}

	// Sources that broke off.
	c, err := schema.InsertImportSource(ctx, pool, schema.NewImportSource{Name: "c.pdn.gz", SHA: schema.BrokenPrefix + "500:abc", OpeningDepth: 8})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schema.InsertImportSource(ctx, pool, schema.NewImportSource{Name: "bad", SHA: schema.BrokenPrefix + "x:abc", OpeningDepth: 8}); err != nil {
		t.Fatal(err)
	}
	if err := schema.AddBatchTotals(ctx, pool, c, 5, 5, 0, 0); err != nil {
		t.Fatal(err)
	}
	broken, err := schema.BrokenSources(ctx, pool)
	if err != nil || len(broken) != 1 || broken[0] != (schema.BrokenSource{ID: c, Name: "c.pdn.gz", Length: 500, SHA: "abc"}) {
		t.Fatalf("broken sources %+v, %v", broken, err)
	}
	read, depth, err := schema.TakeOverSource(ctx, pool, c, "sha-c", &size)
	if err != nil || read != 5 || depth == nil || *depth != 8 {
		t.Fatalf("take over: %d %v %v", read, depth, err)
	}
	if err := schema.ResumeImportSource(ctx, pool, c, "c.pdn"); err != nil {
		t.Fatal(err)
	}
	if err := schema.SetOpeningDepth(ctx, pool, c, 10); err != nil {
		t.Fatal(err)
	}
	failure := "it broke"
	if err := schema.FinishImportSource(ctx, pool, c, &failure); err != nil {
		t.Fatal(err)
	}
	var name, status, text string
	var sz int64
	var d int16
	if err := pool.QueryRow(ctx, `SELECT name, status, error, size, opening_depth FROM sources WHERE sha256 = 'sha-c'`).Scan(&name, &status, &text, &sz, &d); err != nil ||
		name != "c.pdn" || status != "failed" || text != failure || sz != size || d != 10 {
		t.Fatalf("taken over: %q %q %q %d %d, %v", name, status, text, sz, d, err)
	}
	if broken, err := schema.BrokenSources(ctx, pool); err != nil || len(broken) != 0 {
		t.Fatalf("broken sources after the take-over: %+v, %v", broken, err)
	}
}

// TestBatchStatements: players are created once and found again; game ids
// come in consecutive blocks; stored games are found by moves hash with
// what duplicate detection compares; an evaluation already stored is kept.
func TestBatchStatements(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	p1, err := schema.BatchPlayers(ctx, pool, []string{"Sijbrands", "Baljakin"})
	if err != nil || len(p1) != 2 || p1["Sijbrands"] == p1["Baljakin"] {
		t.Fatalf("players %v, %v", p1, err)
	}
	p2, err := schema.BatchPlayers(ctx, pool, []string{"Baljakin", "Schwarzman"})
	if err != nil || len(p2) != 2 || p2["Baljakin"] != p1["Baljakin"] || p2["Schwarzman"] == 0 {
		t.Fatalf("players again %v (first %v), %v", p2, p1, err)
	}
	if empty, err := schema.NoGames(ctx, pool); !empty || err != nil {
		t.Fatalf("no games: %v, %v", empty, err)
	}
	first, err := schema.ReserveGameIDs(ctx, pool, 5)
	if err != nil {
		t.Fatal(err)
	}
	next, err := schema.ReserveGameIDs(ctx, pool, 1)
	if err != nil || next != first+5 {
		t.Fatalf("ids from %d, then %d (%v): want %d", first, next, err, first+5)
	}
	src, err := schema.InsertImportSource(ctx, pool, schema.NewImportSource{Name: "t", SHA: "t", OpeningDepth: 8})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO games (id, variant, variant_basis, source_id, ordinal, byte_offset, event, date, white_id, result, ply_count, moves, final_hash, moves_hash)
		VALUES ($1, 20, 'GameType', $2, 3, 0, 'Open', '2004.??.??', $3, 2, 0, '', 0, 77)`, first, src, p1["Sijbrands"]); err != nil {
		t.Fatal(err)
	}
	if empty, err := schema.NoGames(ctx, pool); empty || err != nil {
		t.Fatalf("no games after one: %v, %v", empty, err)
	}
	var found []schema.DuplicateCandidate
	if err := schema.ForEachDuplicateCandidate(ctx, pool, []int64{76, 77}, func(g *schema.DuplicateCandidate) { found = append(found, *g) }); err != nil {
		t.Fatal(err)
	}
	want := schema.DuplicateCandidate{SourceID: src, Ordinal: 3, Variant: 20, MovesHash: 77, White: p1["Sijbrands"], Date: "2004.??.??", Result: 2, Event: "Open"}
	if len(found) != 1 || found[0] != want {
		t.Fatalf("candidates %+v, want %+v", found, want)
	}

	at := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	var rows schema.EvaluationRows
	rows.Add(&schema.EvaluationRow{Variant: 20, Hash: 9, Engine: "scan", Setting: "d10", Score: 50, Depth: 10, PV: "32-28", EvaluatedAt: at})
	if err := schema.InsertEvaluations(ctx, pool, &rows); err != nil {
		t.Fatal(err)
	}
	var again schema.EvaluationRows
	again.Add(&schema.EvaluationRow{Variant: 20, Hash: 9, Engine: "scan", Setting: "d10", Score: -70, Depth: 12})
	again.Add(&schema.EvaluationRow{Variant: 20, Hash: 10, Engine: "scan", Setting: "d10", Score: 5, Depth: 12})
	if err := schema.InsertEvaluations(ctx, pool, &again); err != nil {
		t.Fatal(err)
	}
	var score, n int
	var when time.Time
	if err := pool.QueryRow(ctx, `SELECT score, evaluated_at, (SELECT count(*) FROM evaluations) FROM evaluations WHERE hash = 9`).Scan(&score, &when, &n); err != nil ||
		score != 50 || !when.Equal(at) || n != 2 {
		t.Fatalf("evaluation kept: score %d at %v of %d rows (%v)", score, when, n, err)
	}
	if err := schema.InsertEvaluations(ctx, pool, &schema.EvaluationRows{}); err != nil {
		t.Fatalf("no evaluations: %v", err)
	}
}
