package schema

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// lockKey is the advisory lock that serialises migrators ("draughts" in hex-ish).
const lockKey int64 = 0x6472617567687473

// ErrBadMigrationName is returned for a migration file not named NNNN_name.sql.
var ErrBadMigrationName = errors.New("migration file name must be NNNN_name.sql")

// ErrMigrationChanged is matched by a *ChangedMigrationError.
var ErrMigrationChanged = errors.New("an applied migration has changed")

// ErrSchemaNewer is matched by a *SchemaNewerError.
var ErrSchemaNewer = errors.New("the database's schema is newer than this draughtsdb")

// SchemaNewerError says that the database holds migrations this draughtsdb
// does not have: a newer draughtsdb migrated it. Its tables may have
// changed in ways this version does not know (an older draughtsdb failed
// halfway through an import and left a half-made source behind), so
// Migrate, and with it every command that opens the database, refuses it.
type SchemaNewerError struct {
	Version int // the newest migration applied
	Known   int // the newest migration this draughtsdb has
}

func (e *SchemaNewerError) Error() string {
	return fmt.Sprintf("the database's schema is at version %d, newer than this draughtsdb knows (%d): use a newer draughtsdb",
		e.Version, e.Known)
}

func (e *SchemaNewerError) Unwrap() error { return ErrSchemaNewer }

// CheckNotNewer returns a *SchemaNewerError when applied holds a migration
// after the last of ms (ms as CheckSequence accepts them), else nil.
func CheckNotNewer(applied []Applied, ms []Migration) error {
	known := 0
	if len(ms) > 0 {
		known = ms[len(ms)-1].Version
	}
	newest := 0
	for _, a := range applied {
		newest = max(newest, a.Version)
	}
	if newest > known {
		return &SchemaNewerError{Version: newest, Known: known}
	}
	return nil
}

// Migration is one embedded SQL file.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Checksum is the hex SHA-256 of the migration's SQL, recorded when it is
// applied.
func (m Migration) Checksum() string {
	sum := sha256.Sum256([]byte(m.SQL))
	return hex.EncodeToString(sum[:])
}

// Applied is a migration recorded in the database. Checksum is empty for a
// row recorded by a version before checksums until Migrate fills it.
type Applied struct {
	Version   int
	Name      string
	AppliedAt time.Time
	Checksum  string
}

// ChangedMigrationError says that a migration recorded as applied no longer
// matches its file: the file was edited (or renamed) after it ran, so the
// database does not hold what the file describes. Migrate then applies
// nothing; the fix is to restore the file and put the change in a new one.
type ChangedMigrationError struct {
	Version            int
	Name               string // of the file now
	AppliedName        string // as recorded
	Recorded, Checksum string // SHA-256 recorded and of the file now
}

func (e *ChangedMigrationError) Error() string {
	if e.AppliedName != e.Name {
		return fmt.Sprintf("migration %04d: applied as %04d_%s, but the file is now %04d_%s: %v (restore it; put changes in a new migration)",
			e.Version, e.Version, e.AppliedName, e.Version, e.Name, ErrMigrationChanged)
	}
	return fmt.Sprintf("migration %04d_%s: the file changed after it was applied (sha256 %.12s when applied, %.12s now): %v "+
		"(restore it; put changes in a new migration)", e.Version, e.Name, e.Recorded, e.Checksum, ErrMigrationChanged)
}

func (e *ChangedMigrationError) Unwrap() error { return ErrMigrationChanged }

// Migrations returns the embedded migrations in version order.
func Migrations() ([]Migration, error) { return LoadMigrations(migrationFS, "migrations") }

// LoadMigrations reads NNNN_name.sql files from dir in fsys.
func LoadMigrations(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var ms []Migration
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		num, name, ok := strings.Cut(strings.TrimSuffix(e.Name(), ".sql"), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || len(num) != 4 || name == "" {
			return nil, fmt.Errorf("%s: %w", e.Name(), ErrBadMigrationName)
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		ms = append(ms, Migration{Version: v, Name: name, SQL: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	return ms, nil
}

// CheckSequence verifies that versions run 1, 2, 3, ... with no gap or repeat.
func CheckSequence(ms []Migration) error {
	for i, m := range ms {
		if m.Version != i+1 {
			return fmt.Errorf("migration %04d_%s: expected version %04d (versions must be contiguous and unique from 0001)", m.Version, m.Name, i+1)
		}
	}
	return nil
}

//go:embed migrate.sql
var migrateText string

var (
	migrateSQL           = storeSQL("migrate.sql", migrateText)
	sqlCreateVersions    = migrateSQL.get("create-versions")
	sqlRecordMigration   = migrateSQL.get("record")
	sqlAppliedMigrations = migrateSQL.get("applied")
	sqlFillChecksum      = migrateSQL.get("fill-checksum")
	sqlVersionsExist     = migrateSQL.get("versions-exist")
	sqlAppliedAnyVersion = migrateSQL.get("applied-any-version")
)

// Migrate applies every embedded migration not yet applied and returns the
// ones it applied. It is safe to run concurrently from many processes.
func Migrate(ctx context.Context, pool *pgxpool.Pool) ([]Migration, error) {
	ms, err := Migrations()
	if err != nil {
		return nil, err
	}
	return Apply(ctx, pool, ms)
}

// Apply is Migrate with the given migrations (LoadMigrations reads them from
// any fs.FS). First it compares every applied migration with its file:
// rows recorded without a checksum (by a draughtsdb before checksums) get
// the file's; a recorded checksum or name that differs from the file's
// stops everything with a *ChangedMigrationError, and a migration after the
// last file (applied by a newer draughtsdb) with a *SchemaNewerError, before
// anything is applied or changed.
func Apply(ctx context.Context, pool *pgxpool.Pool, ms []Migration) ([]Migration, error) {
	if err := CheckSequence(ms); err != nil {
		return nil, err
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	unlock, err := Lock(ctx, conn, lockKey)
	if err != nil {
		return nil, fmt.Errorf("migrate: take lock: %w", err)
	}
	defer unlock()
	if _, err := conn.Exec(ctx, sqlCreateVersions); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	done, err := verifyApplied(ctx, conn.Conn(), ms)
	if err != nil {
		return nil, err
	}
	var applied []Migration
	for _, m := range ms {
		if done[m.Version] {
			continue
		}
		err := WithTx(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, sqlRecordMigration, m.Version, m.Name, m.Checksum())
			return err
		})
		if err != nil {
			return applied, fmt.Errorf("migration %04d_%s: %w", m.Version, m.Name, err)
		}
		applied = append(applied, m)
	}
	return applied, nil
}

// verifyApplied returns the applied versions after checking each against
// its file (see Apply), filling missing checksums. It runs under the
// migration lock.
func verifyApplied(ctx context.Context, conn *pgx.Conn, ms []Migration) (map[int]bool, error) {
	rows, err := conn.Query(ctx, sqlAppliedMigrations)
	if err != nil {
		return nil, err
	}
	applied, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Applied])
	if err != nil {
		return nil, err
	}
	if err := CheckNotNewer(applied, ms); err != nil {
		return nil, err
	}
	files := make(map[int]Migration, len(ms))
	for _, m := range ms {
		files[m.Version] = m
	}
	done := make(map[int]bool, len(applied))
	var backfill []Migration
	for _, a := range applied {
		done[a.Version] = true
		m, ok := files[a.Version]
		if !ok {
			// Not after the last file (CheckNotNewer): version 0 or less,
			// which no draughtsdb writes.
			return nil, fmt.Errorf("draughtsdb_migrations records version %d (%s), which no migration has", a.Version, a.Name)
		}
		switch {
		case a.Name != m.Name || a.Checksum != "" && a.Checksum != m.Checksum():
			return nil, &ChangedMigrationError{Version: a.Version, Name: m.Name, AppliedName: a.Name,
				Recorded: a.Checksum, Checksum: m.Checksum()}
		case a.Checksum == "":
			backfill = append(backfill, m)
		}
	}
	for _, m := range backfill {
		if _, err := conn.Exec(ctx, sqlFillChecksum, m.Version, m.Checksum()); err != nil {
			return nil, fmt.Errorf("migration %04d_%s: record checksum: %w", m.Version, m.Name, err)
		}
	}
	return done, nil
}

// AppliedMigrations lists the migrations recorded in the database (none when
// the versions table does not exist yet).
func AppliedMigrations(ctx context.Context, pool *pgxpool.Pool) ([]Applied, error) {
	var exists bool
	if err := pool.QueryRow(ctx, sqlVersionsExist).Scan(&exists); err != nil {
		return nil, err
	}
	if !exists {
		return nil, nil
	}
	rows, err := pool.Query(ctx, sqlAppliedAnyVersion)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[Applied])
}
