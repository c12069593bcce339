-- The pattern index (pattern_index, migration 0015): per source and
-- variant, rows of games' compact plies (schema/codec's pattern format)
-- that pattern searches scan instead of the games.

-- name: sources-to-rebuild
-- The sources whose rows do not hold all their games (imported, or begun,
-- before migration 0015), or every source when $1, with their games.
SELECT s.id, (SELECT count(*) FROM games g WHERE g.source_id = s.id)::int AS n
FROM sources s
WHERE $1 OR s.games_imported <> coalesce((SELECT sum(p.games) FROM pattern_index p WHERE p.source_id = s.id), 0)
ORDER BY s.id;

-- name: delete-source-rows
DELETE FROM pattern_index WHERE source_id = $1;

-- name: source-games
-- A source's games as stored, to index them again.
SELECT id, variant, coalesce(start_fen, ''), moves FROM games WHERE source_id = $1 ORDER BY id;

-- name: row-starts
-- The first game of each row of a variant, to split a scan between
-- workers.
SELECT first_game FROM pattern_index WHERE variant = $1 ORDER BY first_game;

-- name: unindexed
-- The games without rows in the sources holding games of a variant.
SELECT coalesce(sum(s.games_imported - coalesce(p.n, 0)), 0)::bigint
FROM sources s
LEFT JOIN (SELECT source_id, sum(games) AS n FROM pattern_index GROUP BY source_id) p ON p.source_id = s.id
WHERE s.games_imported > coalesce(p.n, 0)
  AND EXISTS (SELECT 1 FROM games g WHERE g.source_id = s.id AND g.variant = $1);

-- name: rows
-- A variant's rows whose first game is in [$2, $3).
SELECT first_game, entries FROM pattern_index
WHERE variant = $1 AND first_game >= $2 AND first_game < $3
ORDER BY first_game;

-- name: game-heads
-- The headers a search lists of the games found.
SELECT g.id, coalesce(w.name, ''), coalesce(b.name, ''), draughtsdb_result_text(g.variant, g.result),
       g.date, coalesce(g.event, '')
FROM games g
LEFT JOIN players w ON w.id = g.white_id
LEFT JOIN players b ON b.id = g.black_id
WHERE g.id = ANY($1);
