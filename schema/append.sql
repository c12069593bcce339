-- The sources that grow by appending (ingest.Append): an engine match's
-- games, stored as each ends. Such a source is identified by its sha256
-- column holding "append:" and the caller's key instead of a file's hash.

-- name: appended-source
-- The source of an identity, with its resume point (the games read so far).
SELECT id, games_read FROM sources WHERE sha256 = $1;
