package schema_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/draughtsdb/draughtsdb/schema"
)

func load(t *testing.T, files map[string]string) []schema.Migration {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, sql := range files {
		fsys["m/"+name] = &fstest.MapFile{Data: []byte(sql)}
	}
	ms, err := schema.LoadMigrations(fsys, "m")
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestChangedMigrationIsRefused: a migration whose file changed after it
// was applied stops Apply with a typed error naming it, and nothing after it
// is applied.
func TestChangedMigrationIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := newPool(t)
	v1 := load(t, map[string]string{"0001_a.sql": "CREATE TABLE a (x int)"})
	if _, err := schema.Apply(ctx, pool, v1); err != nil {
		t.Fatal(err)
	}
	var recorded string
	if err := pool.QueryRow(ctx, "SELECT checksum FROM draughtsdb_migrations WHERE version = 1").Scan(&recorded); err != nil {
		t.Fatal(err)
	}
	if recorded != sha("CREATE TABLE a (x int)") || recorded != v1[0].Checksum() {
		t.Fatalf("recorded checksum %q, want sha256 of the SQL", recorded)
	}
	// The same files again: nothing to do, no error.
	if again, err := schema.Apply(ctx, pool, v1); err != nil || len(again) != 0 {
		t.Fatalf("unchanged files: applied %d, err %v", len(again), err)
	}

	for name, files := range map[string]map[string]string{
		"edited":  {"0001_a.sql": "CREATE TABLE a (x bigint)", "0002_b.sql": "CREATE TABLE b (x int)"},
		"renamed": {"0001_first.sql": "CREATE TABLE a (x int)", "0002_b.sql": "CREATE TABLE b (x int)"},
	} {
		applied, err := schema.Apply(ctx, pool, load(t, files))
		var changed *schema.ChangedMigrationError
		if !errors.Is(err, schema.ErrMigrationChanged) || !errors.As(err, &changed) || changed.Version != 1 {
			t.Fatalf("%s: err %v, want a ChangedMigrationError for version 1", name, err)
		}
		if len(applied) != 0 || !strings.Contains(err.Error(), "0001_") {
			t.Fatalf("%s: applied %d, message %q", name, len(applied), err)
		}
		var b bool
		if err := pool.QueryRow(ctx, "SELECT to_regclass('b') IS NOT NULL").Scan(&b); err != nil || b {
			t.Fatalf("%s: 0002 applied after a changed 0001 (exists=%v, err %v)", name, b, err)
		}
	}
	if _, err := schema.Apply(ctx, pool, load(t, map[string]string{"0001_a.sql": "CREATE TABLE a (x bigint)"})); err == nil ||
		!strings.Contains(err.Error(), "migration 0001_a") {
		t.Fatalf("message does not name the migration: %v", err)
	}
}

// TestChecksumsBackfilledForOlderTable: a database migrated by a version
// before checksums has draughtsdb_migrations without the column; the first
// run adds it and records each applied file's checksum, and from then on a
// change is caught.
func TestChecksumsBackfilledForOlderTable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := newPool(t)
	// What the previous version created and recorded.
	if _, err := pool.Exec(ctx, `CREATE TABLE draughtsdb_migrations (
		version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
		CREATE TABLE a (x int);
		INSERT INTO draughtsdb_migrations (version, name) VALUES (1, 'a')`); err != nil {
		t.Fatal(err)
	}
	old, err := schema.AppliedMigrations(ctx, pool) // readable before the column exists
	if err != nil || len(old) != 1 || old[0].Checksum != "" {
		t.Fatalf("applied before the upgrade: %+v, %v", old, err)
	}
	files := map[string]string{"0001_a.sql": "CREATE TABLE a (x int)", "0002_b.sql": "CREATE TABLE b (x int)"}
	applied, err := schema.Apply(ctx, pool, load(t, files))
	if err != nil || len(applied) != 1 || applied[0].Version != 2 {
		t.Fatalf("upgrade run: applied %v, err %v", applied, err)
	}
	got, err := schema.AppliedMigrations(ctx, pool)
	if err != nil || len(got) != 2 {
		t.Fatalf("%+v, %v", got, err)
	}
	for _, a := range got {
		if want := sha(files[map[int]string{1: "0001_a.sql", 2: "0002_b.sql"}[a.Version]]); a.Checksum != want {
			t.Errorf("version %d: checksum %q, want %q", a.Version, a.Checksum, want)
		}
	}
	files["0001_a.sql"] = "CREATE TABLE a (x int, y int)"
	if _, err := schema.Apply(ctx, pool, load(t, files)); !errors.Is(err, schema.ErrMigrationChanged) {
		t.Fatalf("changed after the backfill: err %v", err)
	}
}

// TestEmbeddedMigrationsBackfill: the real migrations on a database whose
// table lost its checksums (as the previous version left it) are accepted
// and their checksums recorded.
func TestEmbeddedMigrationsBackfill(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	ctx := context.Background()
	pool := newPool(t)
	if _, err := schema.Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "ALTER TABLE draughtsdb_migrations DROP COLUMN checksum"); err != nil {
		t.Fatal(err)
	}
	if applied, err := schema.Migrate(ctx, pool); err != nil || len(applied) != 0 {
		t.Fatalf("applied %d, err %v", len(applied), err)
	}
	var missing int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM draughtsdb_migrations WHERE checksum IS NULL").Scan(&missing); err != nil || missing != 0 {
		t.Fatalf("%d rows without checksum (err %v)", missing, err)
	}
}

// TestNewerSchemaIsRefused: a database migrated by a newer draughtsdb
// (a version after the last file) was used anyway ("not ours to judge"):
// an older binary then failed halfway through an import. Apply refuses it
// with a *SchemaNewerError, before it applies or records anything.
func TestNewerSchemaIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := newPool(t)
	v3 := load(t, map[string]string{"0001_a.sql": "CREATE TABLE a (x int)", "0002_b.sql": "CREATE TABLE b (x int)",
		"0003_c.sql": "CREATE TABLE c (x int)"})
	if _, err := schema.Apply(ctx, pool, v3[:1]); err != nil {
		t.Fatal(err)
	}
	// A newer draughtsdb applied 2 and 3; this one knows 1 and 2, and 1's
	// checksum was never recorded (a row of a draughtsdb before checksums).
	if _, err := pool.Exec(ctx, `UPDATE draughtsdb_migrations SET checksum = NULL;
		CREATE TABLE c (x int);
		INSERT INTO draughtsdb_migrations (version, name, checksum) VALUES (3, 'c', 'x')`); err != nil {
		t.Fatal(err)
	}
	applied, err := schema.Apply(ctx, pool, v3[:2])
	var newer *schema.SchemaNewerError
	if !errors.Is(err, schema.ErrSchemaNewer) || !errors.As(err, &newer) || newer.Version != 3 || newer.Known != 2 || len(applied) != 0 {
		t.Fatalf("applied %v, err %v; want a SchemaNewerError at version 3 of 2", applied, err)
	}
	if want := "the database's schema is at version 3, newer than this draughtsdb knows (2): use a newer draughtsdb"; err.Error() != want {
		t.Fatalf("message %q, want %q", err, want)
	}
	var b, backfilled bool
	if err := pool.QueryRow(ctx, `SELECT to_regclass('b') IS NOT NULL,
		(SELECT checksum IS NOT NULL FROM draughtsdb_migrations WHERE version = 1)`).Scan(&b, &backfilled); err != nil || b || backfilled {
		t.Fatalf("changed a newer database: 0002 applied %v, checksum recorded %v (%v)", b, backfilled, err)
	}
	all, err := schema.AppliedMigrations(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.CheckNotNewer(all, v3[:2]); !errors.Is(err, schema.ErrSchemaNewer) {
		t.Fatalf("CheckNotNewer: %v", err)
	}
	if err := schema.CheckNotNewer(all, v3); err != nil {
		t.Fatalf("CheckNotNewer with every file: %v", err)
	}
}

// TestEmbeddedMigrationsRefuseNewerSchema: Migrate, which every command
// that opens the database runs, refuses one a newer draughtsdb migrated.
func TestEmbeddedMigrationsRefuseNewerSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := newPool(t)
	ms, err := schema.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schema.Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	next := ms[len(ms)-1].Version + 1
	if _, err := pool.Exec(ctx, "INSERT INTO draughtsdb_migrations (version, name, checksum) VALUES ($1, 'future', 'x')", next); err != nil {
		t.Fatal(err)
	}
	var newer *schema.SchemaNewerError
	if _, err := schema.Migrate(ctx, pool); !errors.As(err, &newer) || newer.Version != next || newer.Known != next-1 {
		t.Fatalf("Migrate: %v, want a SchemaNewerError at version %d", err, next)
	}
}
