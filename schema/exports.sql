-- The reads of draughtsdb export (queries/export), all in one snapshot
-- (Snapshot). "/* filter */" is where an ExportFilter's WHERE clause goes.

-- name: games
-- The selected games, in id order, with what an export writes of them.
SELECT g.id, g.variant, g.variant_basis, s.name, g.ordinal, g.event, g.site, g.date, g.round,
       w.name, b.name, g.result, g.ply_count, g.start_fen, g.moves, g.final_hash, g.moves_hash, g.tags::text, g.warnings,
       g.result_proven, g.annotations
FROM games g
JOIN sources s ON s.id = g.source_id
LEFT JOIN players w ON w.id = g.white_id
LEFT JOIN players b ON b.id = g.black_id
/* filter */
ORDER BY g.id;

-- name: count-games
SELECT count(*)
FROM games g
JOIN sources s ON s.id = g.source_id
LEFT JOIN players w ON w.id = g.white_id
LEFT JOIN players b ON b.id = g.black_id
/* filter */;

-- name: count-positions
-- The positions of the selected games: the start and one after each ply.
SELECT coalesce(sum(g.ply_count + 1), 0)
FROM games g
JOIN sources s ON s.id = g.source_id
LEFT JOIN players w ON w.id = g.white_id
LEFT JOIN players b ON b.id = g.black_id
/* filter */;

-- name: has-evaluations
-- Whether some evaluation passes the engine ($1) and setting ($2)
-- filters (NULL: any).
SELECT EXISTS (SELECT 1 FROM evaluations
               WHERE ($1::text IS NULL OR engine = $1) AND ($2::text IS NULL OR setting = $2));

-- name: pick-evaluations
-- The chosen evaluation of each position (variants $1, hashes $2) that
-- has one passing the engine ($3) and setting ($4) filters: the deepest,
-- then the latest, then by engine and setting, so that the choice is
-- deterministic; distinct-positions chooses in the same order. One index
-- probe per key (LATERAL): the plan stays a nested loop over the primary
-- key whatever the table's size and statistics.
SELECT k.v, k.h, e.score, e.mate, e.depth, e.best_move, e.engine, e.setting
FROM unnest($1::smallint[], $2::bigint[]) AS k(v, h)
CROSS JOIN LATERAL (SELECT score, mate, depth, best_move, engine, setting FROM evaluations e
                    WHERE e.variant = k.v AND e.hash = k.h
                      AND ($3::text IS NULL OR e.engine = $3) AND ($4::text IS NULL OR e.setting = $4)
                    ORDER BY depth DESC, evaluated_at DESC, engine, setting LIMIT 1) e;

-- name: all-evaluations
-- Every evaluation of each position (variants $1, hashes $2) passing the
-- engine ($3) and setting ($4) filters, by engine and setting.
SELECT k.v, k.h, e.engine, e.setting, e.score, e.mate, e.depth, e.best_move, e.pv, e.nodes, e.time_ms, e.engine_version, e.evaluated_at
FROM unnest($1::smallint[], $2::bigint[]) AS k(v, h)
CROSS JOIN LATERAL (SELECT * FROM evaluations e
                    WHERE e.variant = k.v AND e.hash = k.h
                      AND ($3::text IS NULL OR e.engine = $3) AND ($4::text IS NULL OR e.setting = $4)
                    ORDER BY e.engine, e.setting) e;

-- name: count-evaluations
-- The evaluations of a variant ($1), engine ($2) and setting ($3); NULL:
-- any.
SELECT count(*) FROM evaluations
WHERE ($1::smallint IS NULL OR variant = $1) AND ($2::text IS NULL OR engine = $2) AND ($3::text IS NULL OR setting = $3);

-- name: evaluations
-- The evaluations count-evaluations counts, by position, engine and
-- setting.
SELECT variant, hash, engine, setting, score, mate, depth, best_move, pv, nodes, time_ms, engine_version, evaluated_at
FROM evaluations
WHERE ($1::smallint IS NULL OR variant = $1) AND ($2::text IS NULL OR engine = $2) AND ($3::text IS NULL OR setting = $3)
ORDER BY variant, hash, engine, setting;

-- name: count-rejected
SELECT count(*) FROM rejected_games;

-- name: rejected
-- Every rejected game, by id, with its source's name.
SELECT r.id, s.name, r.ordinal, r.byte_offset, r.line, r.reason, r.ply, r.move, r.fen, r.message, r.raw
FROM rejected_games r JOIN sources s ON s.id = r.source_id
ORDER BY r.id;

-- name: rejected-raw
-- Every rejected game's bytes as read, by id.
SELECT raw FROM rejected_games ORDER BY id;

-- name: create-distinct
-- The positions of the selected games, once per game, for
-- distinct-positions to aggregate; it lives as long as its transaction
-- (rolled back at the end). result is the game's from the side to move's
-- view, doubled (2 win, 1 draw, 0 loss, NULL unknown).
CREATE TEMP TABLE export_positions (
    variant smallint, hash bigint, fen text, result smallint, ply smallint);

-- name: distinct-positions
-- One row per (variant, position) of export_positions, most played first,
-- with the evaluation chosen as pick-evaluations chooses (engine $1,
-- setting $2; NULL: any).
SELECT p.variant, p.hash, p.fen, p.games, p.wins, p.draws, p.losses, p.unknown, p.min_ply,
       e.score, e.mate, e.depth, e.best_move, e.engine, e.setting
FROM (SELECT variant, hash, min(fen COLLATE "C") AS fen, count(*) AS games,
             count(*) FILTER (WHERE result = 2) AS wins, count(*) FILTER (WHERE result = 1) AS draws,
             count(*) FILTER (WHERE result = 0) AS losses, count(*) FILTER (WHERE result IS NULL) AS unknown,
             min(ply) AS min_ply
      FROM export_positions GROUP BY variant, hash) p
LEFT JOIN LATERAL (
      SELECT score, mate, depth, best_move, engine, setting FROM evaluations e
      WHERE e.variant = p.variant AND e.hash = p.hash
        AND ($1::text IS NULL OR e.engine = $1) AND ($2::text IS NULL OR e.setting = $2)
      ORDER BY depth DESC, evaluated_at DESC, engine, setting LIMIT 1) e ON true
ORDER BY p.games DESC, p.variant, p.hash;

-- name: export-snapshot
SELECT pg_export_snapshot();

-- name: set-snapshot
-- The command takes no parameter: the snapshot's id goes in place of the
-- mark, as a quoted literal.
SET TRANSACTION SNAPSHOT /* snapshot */;
