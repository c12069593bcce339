package ingest

import (
	"context"
	"slices"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// repairDir holds the files of TestMigration0006RepairsOldDatabases and
// before0006.sql.gz, the database that a draughtsdb from before migration
// 0006 (results by the first mover) built from them; its README says how.
//
// english.pdn is 200 OCA games plus two OCA games that end with Black unable
// to move, one written "*" (the old version completed it from the final
// position, by colour, rightly) and one written "1-0" (a Black win: it
// contradicts the final position, which the old version could not see);
// american.pdn is PlayStrategy's (P1/P2 players); international.pdn is
// untouched by the repair.
const repairDir = "testdata/repair0006"

// gameFacts lists what a database says about each game: its result,
// warnings and players, by source text and ordinal, and, with openings,
// the opening statistics (as migration 0012 stores them).
func gameFacts(t *testing.T, pool *pgxpool.Pool, openings bool) []string {
	t.Helper()
	q := `
		SELECT s.sha256 || ' ' || g.ordinal || ' v' || g.variant || ' result ' || g.result
		       || ' white ' || coalesce(w.name, '-') || ' black ' || coalesce(b.name, '-')
		       || ' warnings ' || coalesce(array_to_string(g.warnings, ' | '), '-') || ' moves ' || g.moves_hash
		FROM games g JOIN sources s ON s.id = g.source_id
		LEFT JOIN players w ON w.id = g.white_id LEFT JOIN players b ON b.id = g.black_id
		UNION ALL
		SELECT 'source ' || sha256 || ' ' || status || ' ' || coalesce(opening_depth::text, '-') FROM sources`
	if openings {
		q += `
		UNION ALL
		SELECT 'opening ' || o.variant || ' ' || (o.bucket * 4 + e.hash_group) || ' ' || e.hash_bits || ' ' || e.move_code || ' '
		       || sum(e.white_wins) || ' ' || sum(e.draws) || ' ' || sum(e.black_wins) || ' ' || sum(e.other)
		FROM opening_index o, draughtsdb_opening_entries(o.entries) e
		GROUP BY o.variant, o.bucket, e.hash_group, e.hash_bits, e.move_code`
	}
	rows, err := pool.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// restoreOld loads the dump from before 0006 into a new database without
// migrations and returns a pool on it.
func restoreOld(t *testing.T) *pgxpool.Pool {
	t.Helper()
	ctx := context.Background()
	dump := readGz(t, repairDir+"/before0006.sql.gz")
	url := pgtest.NewEmptyDBURL(t)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	// The dump empties search_path for its session: a connection of its own.
	if _, err := conn.Exec(ctx, string(dump)); err != nil {
		t.Fatalf("restore the dump from before 0006: %v", err)
	}
	conn.Close(ctx)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// TestMigration0006RepairsOldDatabases: a database imported by the
// previous version (English results inverted, P1/P2 games without
// players), migrated and repaired, equals a database imported by this one:
// every game's result, warnings and players, and the opening statistics.
// Repairing again changes nothing.
func TestMigration0006RepairsOldDatabases(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	fresh := pgtest.NewDB(t)
	if _, err := Import(ctx, fresh, []string{repairDir}, Options{}); err != nil {
		t.Fatal(err)
	}
	want := gameFacts(t, fresh, true)

	old := restoreOld(t)
	// The import no longer takes games that differ in result, Event, Site
	// or Round for duplicates (sameGame): the fresh database holds games
	// the old one recorded as duplicates, which no repair can bring back
	// (their text is not stored). Without them, both must agree.
	dups, err := old.Query(ctx, `SELECT s.sha256, d.ordinal FROM duplicates d JOIN sources s ON s.id = d.source_id`)
	if err != nil {
		t.Fatal(err)
	}
	type place struct {
		Sha     string
		Ordinal int
	}
	olddups, err := pgx.CollectRows(dups, pgx.RowToStructByPos[place])
	if err != nil {
		t.Fatal(err)
	}
	stored := 0
	for _, d := range olddups {
		tag, err := fresh.Exec(ctx, `DELETE FROM games g USING sources s WHERE s.id = g.source_id AND s.sha256 = $1 AND g.ordinal = $2`, d.Sha, d.Ordinal)
		if err != nil {
			t.Fatal(err)
		}
		stored += int(tag.RowsAffected())
	}
	if stored == 0 {
		t.Fatalf("none of the old database's %d duplicates is a game now: the deletion above is not needed", len(olddups))
	}
	t.Logf("%d of the old database's %d duplicates are games now", stored, len(olddups))
	if _, err := fresh.Exec(ctx, `DELETE FROM opening_index; UPDATE sources SET opening_depth = NULL`); err != nil {
		t.Fatal(err)
	}
	if _, err := openings.Rebuild(ctx, fresh, openings.RebuildOptions{}); err != nil {
		t.Fatal(err)
	}
	want = gameFacts(t, fresh, true)

	// Before 0012 the opening statistics are in another format: the games.
	if slices.Equal(gameFacts(t, old, false), gameFacts(t, fresh, false)) {
		t.Fatal("the old database already equals a fresh import: the test checks nothing")
	}
	var inverted int
	if err := old.QueryRow(ctx, `SELECT count(*) FROM games WHERE variant = 21 AND result IN (1, 3)`).Scan(&inverted); err != nil || inverted < 50 {
		t.Fatalf("old database: %d decisive English games (%v)", inverted, err)
	}
	applied, err := schema.Migrate(ctx, old)
	if err != nil {
		t.Fatal(err)
	}
	if len(applied) == 0 || applied[0].Version != 6 {
		t.Fatalf("applied %+v, want 0006 first", applied)
	}
	sum, err := RepairSources(ctx, old, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("repair: %+v", sum)
	p1 := count(t, fresh, `SELECT count(*) FROM games WHERE tags ? 'P1'`)
	if sum.Sources != 2 || sum.Warned != 1 || sum.Named != p1 || p1 == 0 {
		t.Errorf("repair summary %+v: want 2 sources (english, american), 1 game warned (the 1-0 written for a Black loss), %d named (the stored P1/P2 games)", sum, p1)
	}
	got := gameFacts(t, old, true)
	if !slices.Equal(got, want) {
		for _, s := range diff(got, want) {
			t.Error(s)
		}
		t.Fatal("the repaired database differs from a fresh import")
	}

	// Exactly once: repairing again, or migrating again, changes nothing.
	if sum, err := RepairSources(ctx, old, nil); err != nil || sum.Sources != 0 {
		t.Fatalf("second repair: %+v %v", sum, err)
	}
	if applied, err := schema.Migrate(ctx, old); err != nil || len(applied) != 0 {
		t.Fatalf("second migrate: %+v %v", applied, err)
	}
	if again := gameFacts(t, old, true); !slices.Equal(again, want) {
		t.Fatal("a second run changed the database")
	}
	// A database created by this version has nothing to repair.
	if sum, err := RepairSources(ctx, fresh, nil); err != nil || sum.Sources != 0 {
		t.Fatalf("repair of a fresh database: %+v %v", sum, err)
	}
}

// diff lists the lines only in a and only in b (both sorted).
func diff(a, b []string) []string {
	var out []string
	for _, s := range a {
		if _, ok := slices.BinarySearch(b, s); !ok {
			out = append(out, "repaired only: "+s)
		}
	}
	for _, s := range b {
		if _, ok := slices.BinarySearch(a, s); !ok {
			out = append(out, "fresh only:    "+s)
		}
	}
	if len(out) > 20 {
		out = append(out[:20], "...")
	}
	return out
}
