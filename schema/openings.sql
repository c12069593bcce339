-- The opening statistics (opening_index, migration 0012): per source,
-- variant and bucket (the top 10 bits of a position's hash), rows whose
-- entries pack the (position, move)s of the first plies of the source's
-- games with their results (schema/codec's opening format); with them the
-- named openings (opening_names) and the mean evaluations a tree shows.

-- name: coverage
-- How far a variant's ($1) statistics reach: the fewest plies any counted
-- source holding games of it was counted to, and the uncounted sources
-- holding games of it. A counted source holds games of the variant when
-- its statistics hold the variant's initial position, whose bucket is $2
-- (the (variant, bucket) index finds it in a few rows per source; looking
-- for the games reads every game of a large source holding none).
SELECT min(s.opening_depth), count(*) FILTER (WHERE s.opening_depth IS NULL)::int
FROM sources s
WHERE CASE WHEN s.opening_depth IS NULL
           THEN EXISTS (SELECT 1 FROM games g WHERE g.source_id = s.id AND g.variant = $1)
           ELSE EXISTS (SELECT 1 FROM opening_index o WHERE o.variant = $1 AND o.bucket = $2 AND o.source_id = s.id)
      END

-- name: filtered-games
-- The games of a variant ($2) and of the selected sources ($3) that reach
-- a position (the position index: 44 bits of its hash $1; the caller
-- decodes each game to check the rest) and whose players are both rated
-- at least $4.
SELECT g.start_fen, g.moves, g.result
FROM games g
WHERE g.id IN (SELECT draughtsdb_games_at($1::bigint))
  AND g.variant = $2::smallint
  AND g.source_id = ANY ((SELECT draughtsdb_source_ids($3::text))::bigint[])
  AND g.white_rating >= $4::int AND g.black_rating >= $4::int

-- name: first-moves
-- Per variant, the most played first move (two plain bytes of the
-- compact moves: a first move from the initial position is never a
-- capture) of the games from the initial position in the sources $1,
-- with those games' results (1 white wins, 2 draw, 3 black wins, 0 and 4
-- unfinished).
SELECT DISTINCT ON (variant) variant, get_byte(moves, 0), get_byte(moves, 1), count(*),
       count(*) FILTER (WHERE result = 1), count(*) FILTER (WHERE result = 2),
       count(*) FILTER (WHERE result = 3), count(*) FILTER (WHERE result IN (0, 4))
FROM games
WHERE source_id = ANY($1) AND start_fen IS NULL AND ply_count > 0
GROUP BY 1, 2, 3
ORDER BY variant, 4 DESC, 2, 3

-- name: sources-to-count
-- The sources to count again, with their games: every one when $1, else
-- those without statistics at the depth $2.
SELECT s.id, (SELECT count(*) FROM games g WHERE g.source_id = s.id)::int
FROM sources s WHERE $1 OR s.opening_depth IS DISTINCT FROM $2 ORDER BY s.id

-- name: delete-source-rows
DELETE FROM opening_index WHERE source_id = $1

-- name: source-games
-- A source's games as stored, with their results, to count them again.
SELECT variant, coalesce(start_fen, ''), moves, result FROM games WHERE source_id = $1 ORDER BY id

-- name: tree
-- The moves played at each of the positions $2 (by their ordinal) of the
-- variant $1 in the selected sources $3, with their games by result.
SELECT t.i, tr.move_code, tr.games, tr.white_wins, tr.draws, tr.black_wins, tr.unfinished
FROM (SELECT draughtsdb_source_ids($3) AS ids) s, unnest($2::bigint[]) WITH ORDINALITY AS t(h, i),
LATERAL draughtsdb_opening_tree($1, t.h, s.ids) AS tr

-- name: names
-- The opening names of the positions $2 of the variant $1, several names
-- of one position joined.
SELECT n.hash, string_agg(n.name, ' / ' ORDER BY n.list, n.name)
FROM opening_names n WHERE n.variant = $1 AND n.hash = ANY($2) GROUP BY n.hash

-- name: mean-evaluations
-- The mean score (side to move's view) of the stored evaluations of the
-- positions $2 of the variant $1, over every engine and setting, and
-- their number.
SELECT hash, avg(score)::float8, count(*) FROM evaluations
WHERE variant = $1 AND hash = ANY($2) GROUP BY hash
