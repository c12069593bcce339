-- name: opening_stats
-- Opening statistics by the first n moves (plies: "32-28 19-23" is 2): each
-- sequence the games from the initial position open with, with its games,
-- White's wins, draws, Black's wins, unfinished games (no result: * or a
-- double forfeit) and White's score (percent of the points
-- in the games with a result). By move order, so transpositions are separate
-- rows here (opening_tree merges them). Reads every game of the variant.
-- param: variant (default russian): variant name
-- param: n (default 2): how many first moves make the opening (1 or more)
-- param: limit (default 50): openings to show, most played first
-- param: source (default archive): the games of these sources: archive (imported files), match (engine matches), all, or source ids or names, comma-separated
-- param: min_rating (default 0): only games in which both players are rated at least this (WhiteRating/WhiteElo, BlackRating/BlackElo); 0 for all, rated or not
\if :{?variant} \else \set variant 'russian' \endif
\if :{?n} \else \set n '2' \endif
\if :{?limit} \else \set limit '50' \endif
\if :{?source} \else \set source 'archive' \endif
\if :{?min_rating} \else \set min_rating '0' \endif
-- psql: each \if line above gives a parameter its default when no -v sets it;
-- draughtsdb skips them and binds the parameters itself.
SELECT draughtsdb_moves_text(o.line, o.variant) AS moves,
       count(*) AS games,
       count(*) FILTER (WHERE o.result = 1) AS white_wins,
       count(*) FILTER (WHERE o.result = 2) AS draws,
       count(*) FILTER (WHERE o.result = 3) AS black_wins,
       count(*) FILTER (WHERE o.result NOT IN (1, 2, 3)) AS unfinished,
       round(100.0 * (count(*) FILTER (WHERE o.result = 1) + 0.5 * count(*) FILTER (WHERE o.result = 2))
             / nullif(count(*) FILTER (WHERE o.result IN (1, 2, 3)), 0), 1) AS score
FROM (SELECT draughtsdb_moves_prefix(g.moves, :'n'::int) AS line, g.result, g.variant
      FROM games g
      WHERE g.variant = draughtsdb_variant_id(:'variant') AND g.start_fen IS NULL
        AND g.source_id = ANY ((SELECT draughtsdb_source_ids(:'source'))::bigint[])
        AND (:'min_rating'::int = 0 OR (g.white_rating >= :'min_rating'::int AND g.black_rating >= :'min_rating'::int))) o
WHERE o.line IS NOT NULL
GROUP BY o.line, o.variant
ORDER BY games DESC, moves
LIMIT :'limit'::int;
