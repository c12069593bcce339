-- name: list
-- Every source with its games, rejected games and duplicates as stored
-- (counted, not read from the import's running totals), oldest first.
SELECT s.id, s.name, s.kind,
       (SELECT count(*) FROM games g WHERE g.source_id = s.id) AS games,
       (SELECT count(*) FROM rejected_games r WHERE r.source_id = s.id) AS rejected,
       (SELECT count(*) FROM duplicates d WHERE d.source_id = s.id) AS duplicates,
       s.started_at AS imported_at
FROM sources s
ORDER BY s.id;

-- name: orphans
-- The duplicates recorded in other sources of a source's games: they
-- leave the statistics with it (see Removed).
SELECT count(*) FROM duplicates WHERE of_source_id = $1 AND source_id <> $1;

-- name: delete
-- A source with everything that names it (ON DELETE CASCADE: games,
-- their index rows and annotations, rejected games, duplicates, opening
-- statistics).
DELETE FROM sources WHERE id = $1;

-- name: rename
UPDATE sources SET name = $2 WHERE id = $1;

-- name: resolve
-- The ids a source selection names (draughtsdb_source_ids, migration 0016).
SELECT draughtsdb_source_ids($1);
