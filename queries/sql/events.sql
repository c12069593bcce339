-- name: events
-- Events with their number of games and the range of their known dates.
-- param: variant (default ""): variant name (any draughtsdb plays: import --help lists them); empty for all
-- param: limit (default 50): how many events, the largest first
-- param: source (default archive): the games of these sources: archive (imported files), match (engine matches), all, or source ids or names, comma-separated
-- param: min_rating (default 0): only games in which both players are rated at least this (WhiteRating/WhiteElo, BlackRating/BlackElo); 0 for all, rated or not
\if :{?variant} \else \set variant '' \endif
\if :{?limit} \else \set limit '50' \endif
\if :{?source} \else \set source 'archive' \endif
\if :{?min_rating} \else \set min_rating '0' \endif
-- psql: each \if line above gives a parameter its default when no -v sets it;
-- draughtsdb skips them and binds the parameters itself.
SELECT coalesce(event, '(no event)') AS event,
       draughtsdb_variant_name(variant) AS variant,
       count(*) AS games,
       min(date) FILTER (WHERE date NOT LIKE '????%') AS first_date,
       max(date) FILTER (WHERE date NOT LIKE '????%') AS last_date
FROM games
WHERE (:'variant' = '' OR variant = draughtsdb_variant_id(:'variant'))
  AND source_id = ANY ((SELECT draughtsdb_source_ids(:'source'))::bigint[])
  AND (:'min_rating'::int = 0 OR (white_rating >= :'min_rating'::int AND black_rating >= :'min_rating'::int))
GROUP BY event, variant
ORDER BY games DESC, event
LIMIT :'limit'::int;
