-- The evaluation queue (analysis_queue) and what draughtsdb analyze
-- keeps: the positions of a selection wait in the queue, one row per
-- position, engine and setting; a worker leases rows (lease_owner,
-- lease_until), evaluates them, and stores their evaluations while
-- deleting the rows in one statement. A worker that dies leaves its lease
-- to expire; a row claimed MaxAttempts times without an answer is marked
-- failed. Then the selection's moves are annotated (move_annotations).

-- name: select-games
-- The games an analysis selects. The line "TRUE -- the filter" stands for
-- the user's filter (analyze --where), which replaces it: it sits on lines
-- of its own so that a trailing "--" comment cannot swallow the rest, and
-- the extended protocol refuses a second statement. $1: a variant's
-- number, or -1 for every variant (0 is a variant: Killer's); $2: the most
-- games, or -1 for all.
SELECT id, variant, coalesce(start_fen, ''), moves FROM games
WHERE (
TRUE -- the filter
) AND ($1::int < 0 OR variant = $1::int)
ORDER BY id
LIMIT CASE WHEN $2::bigint < 0 THEN NULL ELSE $2::bigint END

-- name: count-evaluated
-- How many of the positions ($1, $2) are evaluated by the engine $3 and
-- setting $4 (with $5, by that engine version only).
SELECT count(*) FROM unnest($1::smallint[], $2::bigint[]) AS c(variant, hash)
WHERE EXISTS (SELECT 1 FROM evaluations e
              WHERE e.variant = c.variant AND e.hash = c.hash AND e.engine = $3 AND e.setting = $4
                AND ($5::text IS NULL OR e.engine_version = $5))

-- name: enqueue
-- The positions not evaluated yet enter the queue; a failed row of one
-- is made claimable again.
INSERT INTO analysis_queue (variant, hash, engine, setting, fen)
SELECT c.variant, c.hash, $4, $5, c.fen
FROM unnest($1::smallint[], $2::bigint[], $3::text[]) AS c(variant, hash, fen)
WHERE NOT EXISTS (SELECT 1 FROM evaluations e
                  WHERE e.variant = c.variant AND e.hash = c.hash AND e.engine = $4 AND e.setting = $5
                    AND ($6::text IS NULL OR e.engine_version = $6))
ON CONFLICT (variant, hash, engine, setting) DO UPDATE
    SET failed = false, attempts = 0, error = NULL, lease_owner = NULL, lease_until = NULL
    WHERE analysis_queue.failed

-- name: queued
-- The rows of an engine and setting that are not failed.
SELECT count(*) FROM analysis_queue WHERE engine = $1 AND setting = $2 AND NOT failed

-- name: annotate
-- The annotations of plies (game $1, ply $2, variant $3, the positions
-- before $4 and after $5) whose positions are both evaluated: the loss
-- with both scores capped at $11, and its class by the thresholds
-- inaccuracy $8, mistake $9, blunder $10.
INSERT INTO move_annotations AS m (game_id, ply, engine, setting, loss, class)
SELECT t.g, t.p, $6, $7, l.loss,
       CASE WHEN l.loss >= $10 THEN 'blunder' WHEN l.loss >= $9 THEN 'mistake'
            WHEN l.loss >= $8 THEN 'inaccuracy' ELSE 'ok' END
FROM unnest($1::bigint[], $2::int[], $3::smallint[], $4::bigint[], $5::bigint[]) AS t(g, p, v, hb, ha)
JOIN evaluations b ON b.variant = t.v AND b.hash = t.hb AND b.engine = $6 AND b.setting = $7
JOIN evaluations a ON a.variant = t.v AND a.hash = t.ha AND a.engine = $6 AND a.setting = $7
CROSS JOIN LATERAL (SELECT greatest(0, least(greatest(b.score, -$11::int), $11::int)
                                     + least(greatest(a.score, -$11::int), $11::int)) AS loss) l
ON CONFLICT (game_id, ply, engine, setting) DO UPDATE SET loss = EXCLUDED.loss, class = EXCLUDED.class
RETURNING class

-- name: status-queues
-- The queue per engine and setting: rows not failed, of those under a
-- lease that has not expired, and failed rows.
SELECT engine, setting, count(*) FILTER (WHERE NOT failed),
       count(*) FILTER (WHERE NOT failed AND lease_until > now()), count(*) FILTER (WHERE failed)
FROM analysis_queue GROUP BY engine, setting ORDER BY engine, setting

-- name: status-leases
-- The leases held, per owner, engine and setting.
SELECT lease_owner, engine, setting, count(*), max(lease_until), max(lease_until) < now()
FROM analysis_queue WHERE lease_owner IS NOT NULL AND NOT failed
GROUP BY lease_owner, engine, setting ORDER BY engine, setting, lease_owner

-- name: fail-exhausted-of
-- Of the positions ($3, $4), the rows claimed $5 times or more whose
-- lease expired: their workers kept dying, so they are marked failed.
UPDATE analysis_queue q SET failed = true, error = 'claimed '||attempts||' times without a result', lease_owner = NULL, lease_until = NULL
FROM unnest($3::smallint[], $4::bigint[]) AS k(variant, hash)
WHERE q.variant = k.variant AND q.hash = k.hash AND q.engine = $1 AND q.setting = $2
  AND NOT q.failed AND q.attempts >= $5 AND q.lease_until < now()

-- name: still-queued
-- Which of the positions ($3, $4) are still queued and not failed, by
-- their ordinal in the arrays; whether a worker of the process $5 (its
-- owners are $5:N) holds each, and the milliseconds its lease has left.
SELECT k.ord, coalesce(left(q.lease_owner, length($5) + 1) = $5 || ':', false),
       coalesce(extract(epoch FROM q.lease_until - now()) * 1000, 0)
FROM analysis_queue q
JOIN unnest($3::smallint[], $4::bigint[]) WITH ORDINALITY AS k(variant, hash, ord)
  ON q.variant = k.variant AND q.hash = k.hash
WHERE q.engine = $1 AND q.setting = $2 AND NOT q.failed
ORDER BY k.ord

-- name: release
-- A stopping worker's leases given back: the claims were not the
-- positions' fault, so they do not count as attempts.
UPDATE analysis_queue SET lease_owner = NULL, lease_until = NULL, attempts = greatest(attempts - 1, 0)
WHERE lease_owner = $1

-- name: claim-run
-- Leases the claimable rows of the positions ($3, $4) in their order, at
-- most $7: not failed, claimed fewer than $8 times, lease absent or
-- expired. The candidates are a MATERIALIZED CTE: as a plain subquery in
-- UPDATE ... FROM the planner may rescan it (a nested loop), and each
-- rescan with SKIP LOCKED and LIMIT returns other rows. Each row comes
-- back with its ordinal and whether it is evaluated already ($9: by that
-- engine version only).
WITH c AS MATERIALIZED (
      SELECT q.variant, q.hash, r.ord FROM analysis_queue q
      JOIN unnest($3::smallint[], $4::bigint[]) WITH ORDINALITY AS r(variant, hash, ord)
        ON q.variant = r.variant AND q.hash = r.hash
      WHERE q.engine = $1 AND q.setting = $2 AND NOT q.failed AND q.attempts < $8
        AND (q.lease_until IS NULL OR q.lease_until < now())
      ORDER BY r.ord
      LIMIT $7
      FOR UPDATE OF q SKIP LOCKED)
UPDATE analysis_queue q
SET lease_owner = $5, lease_until = now() + $6 * interval '1 millisecond', attempts = q.attempts + 1
FROM c
WHERE q.variant = c.variant AND q.hash = c.hash AND q.engine = $1 AND q.setting = $2
RETURNING c.ord, q.variant, q.hash, q.fen,
          EXISTS (SELECT 1 FROM evaluations e WHERE e.variant = q.variant AND e.hash = q.hash
                  AND e.engine = $1 AND e.setting = $2 AND ($9::text IS NULL OR e.engine_version = $9))

-- name: fail-exhausted
-- The rows of an engine and setting claimed $3 times or more whose lease
-- expired: marked failed.
UPDATE analysis_queue SET failed = true, error = 'claimed '||attempts||' times without a result', lease_owner = NULL, lease_until = NULL
WHERE engine = $1 AND setting = $2 AND NOT failed AND attempts >= $3 AND lease_until < now()

-- name: claim
-- Leases up to $5 claimable rows of an engine and setting in no
-- particular order (without ORDER BY the scan stops at the first $5
-- unlocked rows instead of sorting the whole queue); MATERIALIZED as in
-- claim-run. Each row comes back with whether it is evaluated already.
WITH c AS MATERIALIZED (
      SELECT variant, hash FROM analysis_queue
      WHERE engine = $1 AND setting = $2 AND NOT failed
        AND (lease_until IS NULL OR lease_until < now())
      LIMIT $5
      FOR UPDATE SKIP LOCKED)
UPDATE analysis_queue q
SET lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond', attempts = q.attempts + 1
FROM c
WHERE q.variant = c.variant AND q.hash = c.hash AND q.engine = $1 AND q.setting = $2
RETURNING q.variant, q.hash, q.fen,
          EXISTS (SELECT 1 FROM evaluations e WHERE e.variant = q.variant AND e.hash = q.hash
                  AND e.engine = $1 AND e.setting = $2 AND ($6::text IS NULL OR e.engine_version = $6))

-- name: dequeue
-- The rows of the positions ($1, $2) of an engine and setting, evaluated
-- already, leave the queue.
DELETE FROM analysis_queue q USING unnest($1::smallint[], $2::bigint[]) AS d(variant, hash)
WHERE q.variant = d.variant AND q.hash = d.hash AND q.engine = $3 AND q.setting = $4

-- name: others
-- The unfailed rows of an engine and setting, those of them the process
-- $3 holds (owners $3:N), and the milliseconds until the first lease
-- expires.
SELECT count(*), count(*) FILTER (WHERE left(lease_owner, length($3) + 1) = $3 || ':'),
       coalesce(extract(epoch FROM min(lease_until) - now()) * 1000, 0)
FROM analysis_queue WHERE engine = $1 AND setting = $2 AND NOT failed

-- name: renew
-- A worker's leases renewed for $2 milliseconds.
UPDATE analysis_queue SET lease_until = now() + $2 * interval '1 millisecond'
WHERE lease_owner = $1

-- name: store
-- One statement, so one round trip and its own transaction: the
-- evaluations stored (replacing another engine version's when $17), the
-- queue rows they answer deleted, and the positions the engine failed on
-- ($13, $14, their errors $15) marked failed in the leases of $16. Its
-- parts see one snapshot and touch different rows. It returns how many
-- evaluations were written.
WITH ins AS (
      INSERT INTO evaluations (variant, hash, engine, setting, score, mate, depth, best_move, pv, nodes, time_ms, engine_version)
      SELECT v, h, $3, $4, s, m, d, b, p, n, t, $12
      FROM unnest($1::smallint[], $2::bigint[], $5::int[], $6::bool[], $7::int[], $8::text[], $9::text[], $10::bigint[], $11::int[])
           AS x(v, h, s, m, d, b, p, n, t)
      ON CONFLICT (variant, hash, engine, setting) DO UPDATE
          SET score = EXCLUDED.score, mate = EXCLUDED.mate, depth = EXCLUDED.depth, best_move = EXCLUDED.best_move,
              pv = EXCLUDED.pv, nodes = EXCLUDED.nodes, time_ms = EXCLUDED.time_ms,
              engine_version = EXCLUDED.engine_version, evaluated_at = now()
          WHERE $17 AND evaluations.engine_version <> EXCLUDED.engine_version
      RETURNING 1),
     answered AS (
      DELETE FROM analysis_queue q USING unnest($1::smallint[], $2::bigint[]) AS d(variant, hash)
      WHERE q.variant = d.variant AND q.hash = d.hash AND q.engine = $3 AND q.setting = $4),
     failed AS (
      UPDATE analysis_queue q SET failed = true, error = d.err, lease_owner = NULL, lease_until = NULL
      FROM unnest($13::smallint[], $14::bigint[], $15::text[]) AS d(variant, hash, err)
      WHERE q.variant = d.variant AND q.hash = d.hash AND q.engine = $3 AND q.setting = $4 AND q.lease_owner = $16)
SELECT count(*) FROM ins
