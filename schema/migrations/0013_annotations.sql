-- 0013: what the author of a game wrote besides its tags and moves.
--
-- games.annotations holds the comments before the first move and, per
-- main-line ply, the strength mark (! ? !! ?? !? ?!), the NAGs ($n), the
-- comments (PDN commands such as [%clk] or [%eval] inside them kept
-- verbatim) and the variations, nested, each replayed from where it
-- branches and written with full capture paths; a variation with an
-- illegal move is kept as written and flagged unverified. The format is
-- schema/codec's (AppendAnnotations, DecodeAnnotations). NULL for a game
-- without annotations, so such a game costs nothing; also NULL for every
-- game imported before this migration, which did not keep them:
-- re-importing its source with --force fills them in.
--
-- Evaluations that analyze computes are in evaluations and
-- move_annotations, apart from what the author wrote.

ALTER TABLE games ADD COLUMN annotations bytea;
COMMENT ON COLUMN games.annotations IS
    'comments, NAGs, move strengths and variations as the author wrote them (schema/codec AppendAnnotations); NULL: none, or imported before migration 0013';
