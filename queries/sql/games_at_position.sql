-- name: games_at_position
-- The games that reach a position, by any move order: a page of them, the
-- most recent first. The draughtsdb command accepts fen=... (or moves=...
-- from the start) with variant=... and computes the hash for you.
-- param: hash: the position's 64-bit Zobrist hash (signed decimal)
-- param: variant (default ""): variant name; empty for every variant on the position's board
-- param: limit (default 20): games per page
-- param: offset (default 0): games to skip (the page)
SELECT g.id,
       draughtsdb_variant_name(g.variant) AS variant,
       w.name AS white,
       b.name AS black,
       g.event,
       g.date,
       draughtsdb_result_text(g.variant, g.result) AS result,
       g.ply_count AS plies
FROM games g
LEFT JOIN players w ON w.id = g.white_id
LEFT JOIN players b ON b.id = g.black_id
WHERE g.id IN (SELECT draughtsdb_games_at(:'hash'::bigint))
  AND (:'variant' = '' OR g.variant = draughtsdb_variant_id(:'variant'))
ORDER BY g.date DESC, g.id
LIMIT :'limit'::int OFFSET :'offset'::int;
