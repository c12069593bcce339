-- name: rejected
-- Rejected games by reason, with their number and the first example
-- (source:line).
-- param: source (default all): only these sources: all, archive, match, or source ids or names, comma-separated
\if :{?source} \else \set source 'all' \endif
-- psql: each \if line above gives a parameter its default when no -v sets it;
-- draughtsdb skips them and binds the parameters itself.
SELECT r.reason,
       count(*) AS games,
       min(s.name || ':' || r.line) AS example
FROM rejected_games r
JOIN sources s ON s.id = r.source_id
WHERE r.source_id = ANY ((SELECT draughtsdb_source_ids(:'source'))::bigint[])
GROUP BY r.reason
ORDER BY games DESC, r.reason;
