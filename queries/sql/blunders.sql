-- name: blunders
-- Moves that an engine analysis (draughtsdb analyze) classed as blunders
-- (or, with class=mistake or inaccuracy, at least that bad), the largest
-- loss first: the game, its players, the ply, who moved, the move in
-- numeric notation and its loss in hundredths of a man (the evaluation
-- before the move minus the evaluation after it, both from the mover's
-- view; see move_annotations in schema/migrations/0003_analysis.sql).
-- param: engine (default draughtsdb): engine name as stored in evaluations
-- param: setting (default ""): engine setting, e.g. depth=8 or movetime=500; empty for any
-- param: class (default blunder): the least severe class listed: blunder, mistake or inaccuracy
-- param: min_loss (default 0): only moves losing at least this much (hundredths of a man)
-- param: player (default ""): only moves played by this player (name as in the White and Black tags); empty for all
-- param: limit (default 50): how many moves
-- param: source (default archive): the games of these sources: archive (imported files), match (engine matches), all, or source ids or names, comma-separated
-- param: min_rating (default 0): only games in which both players are rated at least this (WhiteRating/WhiteElo, BlackRating/BlackElo); 0 for all, rated or not
\if :{?engine} \else \set engine 'draughtsdb' \endif
\if :{?setting} \else \set setting '' \endif
\if :{?class} \else \set class 'blunder' \endif
\if :{?min_loss} \else \set min_loss '0' \endif
\if :{?player} \else \set player '' \endif
\if :{?limit} \else \set limit '50' \endif
\if :{?source} \else \set source 'archive' \endif
\if :{?min_rating} \else \set min_rating '0' \endif
-- psql: each \if line above gives a parameter its default when no -v sets it;
-- draughtsdb skips them and binds the parameters itself.
WITH a AS (
    SELECT m.game_id, m.ply, m.setting, m.loss, m.class,
           g.variant, g.moves, g.white_id, g.black_id,
           -- the side to move at the start: the FEN's, else the variant's
           -- first mover (Black in English, Pool and Thai)
           CASE WHEN g.start_fen IS NOT NULL THEN upper(left(ltrim(g.start_fen, '"'), 1))
                WHEN v.first_to_move = 'black' THEN 'B' ELSE 'W' END AS first
    FROM move_annotations m
    JOIN games g ON g.id = m.game_id
    LEFT JOIN draughtsdb_variants v ON v.id = g.variant
    WHERE m.engine = :'engine'
      AND g.source_id = ANY ((SELECT draughtsdb_source_ids(:'source'))::bigint[])
      AND (:'min_rating'::int = 0 OR (g.white_rating >= :'min_rating'::int AND g.black_rating >= :'min_rating'::int))
      AND (:'setting' = '' OR m.setting = :'setting')
      AND m.class IN ('blunder', 'mistake', 'inaccuracy')
      AND CASE m.class WHEN 'blunder' THEN 3 WHEN 'mistake' THEN 2 ELSE 1 END
          >= CASE lower(:'class') WHEN 'blunder' THEN 3 WHEN 'mistake' THEN 2 WHEN 'inaccuracy' THEN 1 END
      AND m.loss >= :'min_loss'::int
), b AS (
    SELECT a.*,
           CASE WHEN a.ply % 2 = 1 THEN a.first WHEN a.first = 'W' THEN 'B' ELSE 'W' END AS mover
    FROM a
)
SELECT b.game_id,
       draughtsdb_variant_name(b.variant) AS variant,
       w.name AS white,
       bl.name AS black,
       b.ply,
       CASE b.mover WHEN 'W' THEN 'white' ELSE 'black' END AS mover,
       draughtsdb_move_text(b.moves, b.ply) AS move,
       b.loss,
       b.class,
       b.setting
FROM b
LEFT JOIN players w ON w.id = b.white_id
LEFT JOIN players bl ON bl.id = b.black_id
WHERE :'player' = '' OR (CASE b.mover WHEN 'W' THEN w.name ELSE bl.name END) = :'player'
ORDER BY b.loss DESC, b.game_id, b.ply
LIMIT :'limit'::int;
