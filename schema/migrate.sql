-- The migration runner's bookkeeping (migrate.go): the table
-- draughtsdb_migrations records each applied migration with the SHA-256
-- of its file.

-- name: create-versions
-- The checksum column came later, so a table made by an older draughtsdb
-- gets it here.
CREATE TABLE IF NOT EXISTS draughtsdb_migrations (
	version    integer PRIMARY KEY,
	name       text NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now(),
	checksum   text
);
ALTER TABLE draughtsdb_migrations ADD COLUMN IF NOT EXISTS checksum text;

-- name: record
INSERT INTO draughtsdb_migrations (version, name, checksum) VALUES ($1, $2, $3);

-- name: applied
SELECT version, name, applied_at, coalesce(checksum, '') FROM draughtsdb_migrations ORDER BY version;

-- name: fill-checksum
-- A row recorded by a draughtsdb before checksums gets its file's.
UPDATE draughtsdb_migrations SET checksum = $2 WHERE version = $1 AND checksum IS NULL;

-- name: versions-exist
SELECT to_regclass('draughtsdb_migrations') IS NOT NULL;

-- name: applied-any-version
-- As applied, on a table of any draughtsdb: before Migrate runs, one of an
-- older version has no checksum column, and to_jsonb reads the column only
-- when it exists.
SELECT version, name, applied_at, coalesce(to_jsonb(m) ->> 'checksum', '')
FROM draughtsdb_migrations m
ORDER BY version;
