-- The sources that grow by appending (ingest.Append): an engine match's
-- games, stored as each ends. Such a source is identified by its sha256
-- column holding "append:" and the caller's key instead of a file's hash.

-- name: find
-- An appended source with its resume point and the opening depth its
-- statistics were counted at (NULL before any were).
SELECT id, games_read, opening_depth FROM sources WHERE sha256 = $1;

-- name: create
INSERT INTO sources (name, sha256, opening_depth, kind) VALUES ($1, $2, $3, $4) RETURNING id;

-- name: finish
-- After each append the source is whole again: done, with the name given.
UPDATE sources SET status = 'done', name = $2, error = NULL, finished_at = now() WHERE id = $1;
