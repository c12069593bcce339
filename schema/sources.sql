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
