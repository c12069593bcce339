-- The sources an import reads (ingest.Import): each is identified by the
-- SHA-256 of its PDN text (sources.sha256), or, for a text that broke off,
-- by "prefix:<bytes>:<sha256 of those bytes>" (BrokenPrefix). A source is
-- 'importing' until its last batch is stored, then 'done' or 'failed';
-- games_read is its resume point.

-- name: find
SELECT id, status, games_read, games_imported, duplicates, rejected, finished_at, opening_depth
FROM sources WHERE sha256 = $1;

-- name: insert
INSERT INTO sources (name, size, sha256, opening_depth) VALUES ($1, $2, $3, $4) RETURNING id;

-- name: move-duplicates
-- The duplicates recorded of a source's games, to the source that
-- replaces it ($2 the old id, $1 the new).
UPDATE duplicates SET of_source_id = $1 WHERE of_source_id = $2;

-- name: broken
-- The unfinished sources whose text broke off.
SELECT id, name, sha256 FROM sources WHERE sha256 LIKE 'prefix:%' AND status <> 'done';

-- name: take-over
-- A source that broke off takes the identity and size of the text that
-- continues it; it resumes after the games it read.
UPDATE sources SET sha256 = $2, size = $3 WHERE id = $1 RETURNING games_read, opening_depth;

-- name: resume
UPDATE sources SET status = 'importing', name = $2, error = NULL, finished_at = NULL WHERE id = $1;

-- name: set-opening-depth
UPDATE sources SET opening_depth = $2 WHERE id = $1;

-- name: finish
-- After its last batch: 'done', or 'failed' with why ($3, NULL when done).
UPDATE sources SET status = $2, error = $3, finished_at = now() WHERE id = $1;
