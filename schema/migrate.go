package schema

import (
	"context"
	"embed"
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

// Migration is one embedded SQL file.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Applied is a migration recorded in the database.
type Applied struct {
	Version   int
	Name      string
	AppliedAt time.Time
}

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

const createVersions = `CREATE TABLE IF NOT EXISTS draughtsdb_migrations (
	version    integer PRIMARY KEY,
	name       text NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now()
)`

// Migrate applies every embedded migration not yet applied and returns the
// ones it applied. It is safe to run concurrently from many processes.
func Migrate(ctx context.Context, pool *pgxpool.Pool) ([]Migration, error) {
	ms, err := Migrations()
	if err != nil {
		return nil, err
	}
	if err := CheckSequence(ms); err != nil {
		return nil, err
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", lockKey); err != nil {
		return nil, fmt.Errorf("migrate: take lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", lockKey) //nolint:errcheck
	if _, err := conn.Exec(ctx, createVersions); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	done, err := appliedVersions(ctx, conn.Conn())
	if err != nil {
		return nil, err
	}
	var applied []Migration
	for _, m := range ms {
		if done[m.Version] {
			continue
		}
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "INSERT INTO draughtsdb_migrations (version, name) VALUES ($1, $2)", m.Version, m.Name)
			return err
		})
		if err != nil {
			return applied, fmt.Errorf("migration %04d_%s: %w", m.Version, m.Name, err)
		}
		applied = append(applied, m)
	}
	return applied, nil
}

func appliedVersions(ctx context.Context, conn *pgx.Conn) (map[int]bool, error) {
	rows, err := conn.Query(ctx, "SELECT version FROM draughtsdb_migrations")
	if err != nil {
		return nil, err
	}
	vs, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		return nil, err
	}
	done := make(map[int]bool, len(vs))
	for _, v := range vs {
		done[v] = true
	}
	return done, nil
}

// AppliedMigrations lists the migrations recorded in the database (none when
// the versions table does not exist yet).
func AppliedMigrations(ctx context.Context, pool *pgxpool.Pool) ([]Applied, error) {
	var exists bool
	if err := pool.QueryRow(ctx, "SELECT to_regclass('draughtsdb_migrations') IS NOT NULL").Scan(&exists); err != nil {
		return nil, err
	}
	if !exists {
		return nil, nil
	}
	rows, err := pool.Query(ctx, "SELECT version, name, applied_at FROM draughtsdb_migrations ORDER BY version")
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[Applied])
}
