-- 0006: results of games whose variant starts with Black (English).
--
-- In PDN the first number of Result belongs to the side that moves first
-- in the variant (GameType's start colour). draughtsdb before this version
-- read it as White's in every variant, so every English game (GameType
-- 21, Black moves first) was stored with its winner inverted: games.result
-- 1 (white wins) where the file says Black won, and the opening statistics
-- with White's and Black's wins swapped. (Evidence: OCA's games that end
-- with Black to move and no legal move are written 0-1; CheckerBoard reads
-- 1-0 as a Black win when Black starts.)
--
-- This migration, run once like every migration:
--  * swaps white wins (1) and black wins (3) of every English game, except
--    the games whose result the old version completed from the final
--    position (no legal move; warning 'result "..." completed from the
--    final position'): those were decided by colour and are right;
--  * drops the warnings "result X contradicts the final position, where C
--    has no legal move" of decisive English results: the swap makes them
--    agree with the final position;
--  * deletes the English opening statistics and marks each source that
--    holds English games for repair: on its next start draughtsdb recounts
--    those sources' opening statistics from the stored games and re-checks
--    their results against their final positions (ingest.RepairSources),
--    one transaction per source, clearing the mark. Until then the English
--    opening tree is empty rather than wrong.
-- A database created by this version has no games yet: nothing changes.

ALTER TABLE sources ADD COLUMN repair boolean NOT NULL DEFAULT false;
COMMENT ON COLUMN sources.repair IS
    'set by a migration: draughtsdb recounts the opening statistics of the source and re-checks its results on its next start (ingest.RepairSources)';

UPDATE games
SET result = 4 - result,
    warnings = NULLIF(ARRAY(
        SELECT w FROM unnest(warnings) AS w
        WHERE w !~ '^result (1-0|0-1|2-0|0-2) contradicts the final position'
    ), '{}')
WHERE variant = 21
  AND result IN (1, 3)
  AND NOT EXISTS (
      SELECT 1 FROM unnest(coalesce(warnings, '{}')) AS w
      WHERE w ~ '^result ".*" completed from the final position'
  );

-- Games that name their players only in P1/P2 tags (PlayStrategy) were
-- stored without players; the repair names them (P1 is the first mover).
UPDATE sources s SET repair = true
WHERE EXISTS (SELECT 1 FROM games g WHERE g.source_id = s.id AND g.variant = 21)
   OR EXISTS (SELECT 1 FROM games g WHERE g.source_id = s.id
              AND g.white_id IS NULL AND g.black_id IS NULL AND g.tags ?| ARRAY['P1', 'P2']);

DELETE FROM opening_index WHERE variant = 21;

-- draughtsdb_result_text wrote White's score first in every variant; write
-- the first mover's first, as replay.Result.Format does (English, Pool and
-- Thai start with Black: an English Black win is 1-0).
CREATE OR REPLACE FUNCTION draughtsdb_result_text(variant smallint, result smallint) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
        SELECT CASE
            WHEN result IN (1, 3) THEN
                CASE WHEN (result = 1) = (variant NOT IN (21, 23, 31)) THEN
                         CASE WHEN variant = 20 THEN '2-0' ELSE '1-0' END
                     ELSE CASE WHEN variant = 20 THEN '0-2' ELSE '0-1' END
                END
            WHEN result = 2 THEN CASE WHEN variant = 20 THEN '1-1' ELSE '1/2-1/2' END
            WHEN result = 4 THEN '0-0'
            ELSE '*'
        END
    $$;
