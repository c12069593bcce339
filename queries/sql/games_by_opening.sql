-- name: games_by_opening
-- The games that open with a move sequence, in that move order, from the
-- initial position: a page of them, the most recently imported first, with the name of
-- the opening the sequence reaches (if it is a named ballot). moves is
-- written as games.moves reads back: numeric with full capture paths
-- ("32-28 19-23 28x19 14x23"); the draughtsdb command takes the moves in
-- either notation (moves="c3-d4 f6-g5" too) and fills in hash, the position
-- after them, which makes the search an index lookup. Without hash (psql
-- with hash='') every game of the variant is read.
-- param: moves: the opening, numeric, full capture paths, one space apart
-- param: hash (default ""): Zobrist hash of the position after the moves; empty = scan the games
-- param: variant (default russian): variant name
-- param: limit (default 20): games per page
-- param: offset (default 0): games to skip (the page)
-- param: source (default archive): the games of these sources: archive (imported files), match (engine matches), all, or source ids or names, comma-separated
-- param: min_rating (default 0): only games in which both players are rated at least this (WhiteRating/WhiteElo, BlackRating/BlackElo); 0 for all, rated or not
\if :{?moves} \else \set moves '' \endif
\if :{?hash} \else \set hash '' \endif
\if :{?variant} \else \set variant 'russian' \endif
\if :{?limit} \else \set limit '20' \endif
\if :{?offset} \else \set offset '0' \endif
\if :{?source} \else \set source 'archive' \endif
\if :{?min_rating} \else \set min_rating '0' \endif
-- psql: each \if line above gives a parameter its default when no -v sets it;
-- draughtsdb skips them and binds the parameters itself.
-- psql without -v moves: no moves, i.e. every game of the variant from the initial position.
WITH o AS (
    SELECT draughtsdb_variant_id(:'variant') AS v,
           cardinality(string_to_array(:'moves', ' ')) AS n,
           draughtsdb_source_ids(:'source') AS ids
)
SELECT g.id,
       w.name AS white,
       b.name AS black,
       g.event,
       g.date,
       draughtsdb_result_text(g.variant, g.result) AS result,
       g.ply_count AS plies,
       draughtsdb_opening_name(g.variant, nullif(:'hash', '')::bigint) AS opening
FROM o,
     (SELECT id FROM draughtsdb_games_at(nullif(:'hash', '')::bigint) AS f(id)
      UNION ALL
      SELECT id FROM games WHERE :'hash' = '') hits
CROSS JOIN LATERAL (
    SELECT * FROM games g
    WHERE g.id = hits.id
      AND g.variant = o.v
      AND g.source_id = ANY (o.ids)
      AND (:'min_rating'::int = 0 OR (g.white_rating >= :'min_rating'::int AND g.black_rating >= :'min_rating'::int))
      AND g.start_fen IS NULL
      AND draughtsdb_moves_text(draughtsdb_moves_prefix(g.moves, o.n)) = :'moves'
    OFFSET 0
) g
LEFT JOIN players w ON w.id = g.white_id
LEFT JOIN players b ON b.id = g.black_id
ORDER BY hits.id DESC
LIMIT :'limit'::int OFFSET :'offset'::int;
