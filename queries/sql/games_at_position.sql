-- name: games_at_position
-- The games that reach a position, by any move order: a page of them, the
-- most recently imported first (ordering by id keeps the first page an index
-- lookup of a few games, however many reach the position), with the position's
-- opening name when it is a named ballot. The position is hash, else fen
-- in variant (its hash computed by draughtsdb_hash), else the variant's
-- initial position; the draughtsdb command also accepts moves=... from the
-- initial position.
-- param: hash (default ""): the position's 64-bit Zobrist hash (signed decimal); empty: the hash of fen
-- param: fen (default ""): the position as a PDN FEN (W:W31-50:B1-20) of variant, read when hash is empty; empty: the variant's initial position
-- param: variant (default ""): variant name; empty for every variant on the position's board
-- param: limit (default 20): games per page
-- param: offset (default 0): games to skip (the page)
-- param: source (default archive): the games of these sources: archive (imported files), match (engine matches), all, or source ids or names, comma-separated
-- param: min_rating (default 0): only games in which both players are rated at least this (WhiteRating/WhiteElo, BlackRating/BlackElo); 0 for all, rated or not
\if :{?hash} \else \set hash '' \endif
\if :{?fen} \else \set fen '' \endif
\if :{?variant} \else \set variant '' \endif
\if :{?limit} \else \set limit '20' \endif
\if :{?offset} \else \set offset '0' \endif
\if :{?source} \else \set source 'archive' \endif
\if :{?min_rating} \else \set min_rating '0' \endif
-- psql: each \if line above gives a parameter its default when no -v sets it;
-- draughtsdb skips them and binds the parameters itself.
-- psql without -v hash: the position of fen in variant (both needed then:
-- without a variant draughtsdb_start_fen says so).
WITH pos AS (
    SELECT coalesce(nullif(:'hash', '')::bigint,
                    draughtsdb_hash(:'variant', coalesce(nullif(:'fen', ''), draughtsdb_start_fen(:'variant')))) AS h
)
SELECT g.id,
       draughtsdb_variant_name(g.variant) AS variant,
       w.name AS white,
       b.name AS black,
       g.event,
       g.date,
       draughtsdb_result_text(g.variant, g.result) AS result,
       g.ply_count AS plies,
       draughtsdb_opening_name(g.variant, (SELECT h FROM pos)) AS opening
-- The ids first, newest first; then each game by its key (OFFSET 0 keeps
-- the planner from merging instead, which walks the whole games index when
-- a position has few games).
FROM (SELECT id FROM draughtsdb_games_at((SELECT h FROM pos)) AS f(id) ORDER BY id DESC) hits
CROSS JOIN LATERAL (
    SELECT * FROM games g
    WHERE g.id = hits.id
      AND (:'variant' = '' OR g.variant = draughtsdb_variant_id(:'variant'))
      AND g.source_id = ANY ((SELECT draughtsdb_source_ids(:'source'))::bigint[])
      AND (:'min_rating'::int = 0 OR (g.white_rating >= :'min_rating'::int AND g.black_rating >= :'min_rating'::int))
    OFFSET 0
) g
LEFT JOIN players w ON w.id = g.white_id
LEFT JOIN players b ON b.id = g.black_id
ORDER BY hits.id DESC
LIMIT :'limit'::int OFFSET :'offset'::int;
