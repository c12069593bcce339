-- name: games_at_position
-- The games that reach a position, by any move order: a page of them, the
-- most recently imported first (ordering by id keeps the first page an index
-- lookup of a few games, however many reach the position), with the position's
-- opening name when it is a named ballot. The draughtsdb command accepts
-- fen=... (or moves=... from the start) with variant=... and computes the
-- hash for you.
-- param: hash: the position's 64-bit Zobrist hash (signed decimal)
-- param: variant (default ""): variant name; empty for every variant on the position's board
-- param: limit (default 20): games per page
-- param: offset (default 0): games to skip (the page)
-- param: source (default archive): the games of these sources: archive (imported files), match (engine matches), all, or source ids or names, comma-separated
\if :{?hash} \else \set hash '1184844359100618644' \endif
\if :{?variant} \else \set variant '' \endif
\if :{?limit} \else \set limit '20' \endif
\if :{?offset} \else \set offset '0' \endif
\if :{?source} \else \set source 'archive' \endif
-- psql: each \if line above gives a parameter its default when no -v sets it;
-- draughtsdb skips them and binds the parameters itself.
-- psql without -v hash: the initial position of Russian (and Brazilian) draughts.
SELECT g.id,
       draughtsdb_variant_name(g.variant) AS variant,
       w.name AS white,
       b.name AS black,
       g.event,
       g.date,
       draughtsdb_result_text(g.variant, g.result) AS result,
       g.ply_count AS plies,
       draughtsdb_opening_name(g.variant, :'hash'::bigint) AS opening
-- The ids first, newest first; then each game by its key (OFFSET 0 keeps
-- the planner from merging instead, which walks the whole games index when
-- a position has few games).
FROM (SELECT id FROM draughtsdb_games_at(:'hash'::bigint) AS f(id) ORDER BY id DESC) hits
CROSS JOIN LATERAL (
    SELECT * FROM games g
    WHERE g.id = hits.id
      AND (:'variant' = '' OR g.variant = draughtsdb_variant_id(:'variant'))
      AND g.source_id = ANY ((SELECT draughtsdb_source_ids(:'source'))::bigint[])
    OFFSET 0
) g
LEFT JOIN players w ON w.id = g.white_id
LEFT JOIN players b ON b.id = g.black_id
ORDER BY hits.id DESC
LIMIT :'limit'::int OFFSET :'offset'::int;
