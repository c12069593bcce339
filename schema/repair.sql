-- The repairs a migration marks in sources.repair and that SQL alone
-- cannot do (ingest.RepairSources).

-- name: count-marked
SELECT count(*) FROM sources WHERE repair;

-- name: marked
-- The marked sources with their opening depth and games, oldest first.
SELECT s.id, s.opening_depth, (SELECT count(*) FROM games g WHERE g.source_id = s.id)::int
FROM sources s
WHERE s.repair
ORDER BY s.id;

-- name: clear-mark
UPDATE sources SET repair = false WHERE id = $1;

-- name: games
-- A source's games as the repair re-checks them: moves and result, the
-- warnings, and the P1/P2 tags of games without players.
SELECT id, variant, coalesce(start_fen, ''), moves, result, coalesce(warnings, '{}'),
       white_id IS NULL AND black_id IS NULL, tags->>'P1', tags->>'P2'
FROM games
WHERE source_id = $1
ORDER BY id;

-- name: set-warnings
UPDATE games SET warnings = $2 WHERE id = $1;

-- name: add-players
INSERT INTO players (name) SELECT n FROM unnest($1::text[]) AS n WHERE n <> '' ON CONFLICT (name) DO NOTHING;

-- name: set-players
UPDATE games SET white_id = (SELECT id FROM players WHERE name = $2),
                 black_id = (SELECT id FROM players WHERE name = $3)
WHERE id = $1;
