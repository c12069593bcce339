-- 0014: the result the final position proves, beside the written one.
--
-- games.result is the result as the game gives it (its Result tag or
-- result token, in the variant's sense; completed from the final position
-- only where the game gives none). games.result_proven is what the final
-- position proves whatever was written, in the same codes: 1 white wins
-- or 3 black wins where the side to move has no move the game allows
-- (no piece left, or every piece blocked; the variant's Win rule), 0
-- where the position proves nothing (a draw, a resignation, an unfinished
-- game). So "games whose written result contradicts the board" is
--   result_proven <> 0 AND result <> result_proven
-- NULL for games imported before this migration (not checked): re-import
-- the source with --force to fill it in.

ALTER TABLE games ADD COLUMN result_proven smallint;
COMMENT ON COLUMN games.result_proven IS
    'result the final position proves: 0 none, 1 white wins, 3 black wins; NULL: imported before migration 0014';
