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
	var src int64
	if err := pool.QueryRow(ctx, `INSERT INTO sources (name, sha256) VALUES ('t', 't') RETURNING id`).Scan(&src); err != nil {
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
