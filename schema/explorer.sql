-- The explorer's reads (package queries/explorer, `draughtsdb serve`):
-- what the command line has no query for. Every user value is a bound
-- parameter. The filters are the same in each selection: a player ($3,
-- as $4 white, black or either), an event ($5, a substring, case
-- folded), dates from $6 to $7 compared at the precision given (unknown
-- years left out, as `draughtsdb export` does), and, not 0, the minimum
-- rating of both players; an empty value turns its condition off.

-- name: filtered-games-at
-- The games of a variant ($2) that reach a position (the position index,
-- $1 its hash) and pass the filter, newest first, with ids below $9, at
-- most $8, their moves when $10, the minimum rating $11: the ids first,
-- sorted, then each game by its key until the page is full (as the named
-- query games_at_position reads them), so a page costs the position's ids
-- and the games up to it, not every game sorted.
SELECT g.id, g.start_fen, CASE WHEN $10::bool THEN g.moves END, g.result, w.name, b.name, g.event, g.date, g.ply_count
FROM (SELECT id FROM draughtsdb_games_at($1::bigint) AS f(id) WHERE id < $9::bigint ORDER BY id DESC) hits
CROSS JOIN LATERAL (SELECT * FROM games g WHERE g.id = hits.id AND g.variant = $2::smallint OFFSET 0) g
LEFT JOIN players w ON w.id = g.white_id
LEFT JOIN players b ON b.id = g.black_id
WHERE ($3::text = '' OR CASE $4::text WHEN 'white' THEN w.name = $3::text
                                      WHEN 'black' THEN b.name = $3::text
                                      ELSE w.name = $3::text OR b.name = $3::text END)
  AND ($5::text = '' OR strpos(lower(g.event), lower($5::text)) > 0)
  AND ($6::text = '' OR (g.date NOT LIKE '????%' AND left(g.date, length($6::text)) >= $6::text))
  AND ($7::text = '' OR (g.date NOT LIKE '????%' AND left(g.date, length($7::text)) <= $7::text))
  AND ($11::int = 0 OR (g.white_rating >= $11::int AND g.black_rating >= $11::int))
ORDER BY hits.id DESC
LIMIT $8::int;

-- name: filtered-player-games
-- The games of a player (as white, black or either) that pass the other
-- filters, newest first, through the indexes on white_id and black_id:
-- with a player, these are fewer than the position index's entries at any
-- popular position (draughtsdb_games_at of the initial position lists
-- every game). The parameters are filtered-games-at's, $1 unused (the
-- caller decodes the games to find the position). A game the player
-- played against themself is in both halves; the black half leaves it to
-- the white one, unless the white half is off (color=black).
WITH p AS (SELECT id FROM players WHERE name = $3::text)
SELECT g.id, g.start_fen, CASE WHEN $10::bool THEN g.moves END, g.result, w.name, b.name, g.event, g.date, g.ply_count
FROM (
    SELECT * FROM games WHERE white_id = (SELECT id FROM p) AND $4::text <> 'black'
    UNION ALL
    SELECT * FROM games WHERE black_id = (SELECT id FROM p) AND $4::text <> 'white'
                          AND ($4::text = 'black' OR white_id IS DISTINCT FROM black_id)
) g
LEFT JOIN players w ON w.id = g.white_id
LEFT JOIN players b ON b.id = g.black_id
WHERE g.id < $9::bigint AND g.variant = $2::smallint AND $1::bigint = $1::bigint
  AND ($5::text = '' OR strpos(lower(g.event), lower($5::text)) > 0)
  AND ($6::text = '' OR (g.date NOT LIKE '????%' AND left(g.date, length($6::text)) >= $6::text))
  AND ($7::text = '' OR (g.date NOT LIKE '????%' AND left(g.date, length($7::text)) <= $7::text))
  AND ($11::int = 0 OR (g.white_rating >= $11::int AND g.black_rating >= $11::int))
ORDER BY g.id DESC
LIMIT $8::int;

-- name: filtered-games-window
-- A window of a variant's games, newest first, that pass the filter (the
-- parameters of filtered-games-at but the position, which the caller
-- checks by decoding; $1 unused): ids in [$8, $9), the minimum rating
-- $10.
SELECT g.id, g.start_fen, g.moves, g.result, w.name, b.name, g.event, g.date, g.ply_count
FROM games g
LEFT JOIN players w ON w.id = g.white_id
LEFT JOIN players b ON b.id = g.black_id
WHERE g.id >= $8::bigint AND g.id < $9::bigint AND g.variant = $2::smallint AND $1::bigint = $1::bigint
  AND ($3::text = '' OR CASE $4::text WHEN 'white' THEN w.name = $3::text
                                      WHEN 'black' THEN b.name = $3::text
                                      ELSE w.name = $3::text OR b.name = $3::text END)
  AND ($5::text = '' OR strpos(lower(g.event), lower($5::text)) > 0)
  AND ($6::text = '' OR (g.date NOT LIKE '????%' AND left(g.date, length($6::text)) >= $6::text))
  AND ($7::text = '' OR (g.date NOT LIKE '????%' AND left(g.date, length($7::text)) <= $7::text))
  AND ($10::int = 0 OR (g.white_rating >= $10::int AND g.black_rating >= $10::int))
ORDER BY g.id DESC;

-- name: id-range
-- The lowest and highest game id, of any variant: the span a scan of the
-- newest games walks (NULLs when there are no games).
SELECT min(id), max(id) FROM games;

-- name: game
-- A game as the viewer shows it, with its source's name.
SELECT g.variant, g.event, g.site, g.date, g.round, w.name, b.name, g.result, g.ply_count,
       g.start_fen, g.moves, g.tags::text, g.warnings, s.name, g.ordinal, g.result_proven, g.annotations
FROM games g JOIN sources s ON s.id = g.source_id
LEFT JOIN players w ON w.id = g.white_id LEFT JOIN players b ON b.id = g.black_id
WHERE g.id = $1;

-- name: move-classes
-- The engines' classes of a game's moves, by ply.
SELECT ply, engine, setting, loss, class FROM move_annotations
WHERE game_id = $1 ORDER BY ply, engine, setting;

-- name: position-notes
-- For positions of one variant ($1) by hash ($2): the ballot name
-- (draughtsdb_opening_name, as the tree writes it), the mean of the
-- evaluations (side to move's view) and their number.
SELECT h, draughtsdb_opening_name($1, h),
       (SELECT avg(score)::float8 FROM evaluations e WHERE e.variant = $1 AND e.hash = h),
       (SELECT count(*)::int FROM evaluations e WHERE e.variant = $1 AND e.hash = h)
FROM unnest($2::bigint[]) AS h;

-- name: player-variants
-- The variants of a player's games (their spellings' ids in $1), most
-- games first.
SELECT variant, count(*) FROM games WHERE white_id = ANY($1::int[]) OR black_id = ANY($1::int[])
GROUP BY variant ORDER BY count(*) DESC, variant;

-- name: player-tree-games
-- A player's games of a variant ($2) as one colour ($3: white or black),
-- newest first, at most $4: through the indexes on white_id and
-- black_id.
SELECT g.id, coalesce(g.start_fen, ''), g.moves, g.result
FROM games g
WHERE g.variant = $2::smallint
  AND CASE WHEN $3::text = 'white' THEN g.white_id = ANY($1::int[]) ELSE g.black_id = ANY($1::int[]) END
ORDER BY g.id DESC
LIMIT $4::int;

-- name: player-games-page
-- A page of a player's games of every variant, newest first, with ids
-- below $2, at most $3.
SELECT g.id, g.variant, w.name, b.name, g.event, g.date, g.result, g.ply_count
FROM (SELECT id FROM games WHERE white_id = ANY($1::int[]) AND id < $2::bigint
      UNION
      SELECT id FROM games WHERE black_id = ANY($1::int[]) AND id < $2::bigint
      ORDER BY id DESC LIMIT $3::int) h
JOIN games g ON g.id = h.id
LEFT JOIN players w ON w.id = g.white_id
LEFT JOIN players b ON b.id = g.black_id
ORDER BY g.id DESC;
