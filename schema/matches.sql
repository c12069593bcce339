-- An engine match (draughtsdb match) keeps its games as one appended
-- source (see append.sql), its ordinals the rounds.

-- name: results
-- The results by round: the source's games, and for a game stored as a
-- duplicate of another (the same moves, players and date, as the import
-- decides) the other's result.
SELECT ordinal, result FROM games WHERE source_id = $1
UNION ALL
SELECT d.ordinal, g.result
FROM duplicates d JOIN games g ON g.source_id = d.of_source_id AND g.ordinal = d.of_ordinal
WHERE d.source_id = $1
ORDER BY 1;
