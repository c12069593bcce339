-- name: events
-- Events with their number of games and the range of their known dates.
-- param: variant (default ""): variant name (any draughtsdb plays: import --help lists them); empty for all
-- param: limit (default 50): how many events, the largest first
-- param: source (default archive): the games of these sources: archive (imported files), match (engine matches), all, or source ids or names, comma-separated
\if :{?variant} \else \set variant '' \endif
\if :{?limit} \else \set limit '50' \endif
\if :{?source} \else \set source 'archive' \endif
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
GROUP BY event, variant
ORDER BY games DESC, event
LIMIT :'limit'::int;
