-- The import's game batches (ingest's writer): each batch of a source's
-- games is stored in one transaction together with the source's running
-- totals and resume point, so that a batch is in the database whole or not
-- at all. The writer holds ImportLock, so no other writer draws game ids or
-- adds games meanwhile.

-- name: players
-- The ids of the names $1, creating the players missing (in name order:
-- the ids new players get do not depend on the order of the batch).
WITH new AS (
    INSERT INTO players (name) SELECT unnest($1::text[]) ORDER BY 1 ON CONFLICT (name) DO NOTHING RETURNING id, name)
SELECT id, name FROM new UNION ALL SELECT id, name FROM players WHERE name = ANY($1);

-- name: duplicate-candidates
-- The stored games a batch's games may be duplicates of: those with one of
-- their moves hashes, with what duplicate detection compares.
SELECT source_id, ordinal, variant, moves_hash, coalesce(white_id, 0), coalesce(black_id, 0), date,
       result, coalesce(event, ''), coalesce(site, ''), coalesce(round, '')
FROM games WHERE moves_hash = ANY($1);

-- name: no-games
SELECT NOT EXISTS (SELECT 1 FROM games);

-- name: reserve-game-ids
-- Draws a block of $1 game ids in one round trip and returns the last.
SELECT setval(s, nextval(s) + $1 - 1) FROM pg_get_serial_sequence('games', 'id') AS s;

-- name: copy-games
-- The batch's new games, encoded by ingest in this column order (the
-- writer's columns first, then those its replay workers encode).
COPY games (id, source_id, ordinal, byte_offset, white_id, black_id,
            variant, variant_basis, event, site, date, round, result, ply_count, start_fen, moves, final_hash, moves_hash, tags, warnings,
            result_proven, annotations, white_rating, black_rating, white_fmjd_id, black_fmjd_id)
FROM STDIN (FORMAT binary);

-- name: copy-position-index
COPY position_index (source_id, first_game, bucket, entries) FROM STDIN (FORMAT binary);

-- name: evaluations
-- The evaluation comments of a batch's games; a key already present is
-- kept (an evaluation belongs to a position, the first one stored stays).
INSERT INTO evaluations (variant, hash, engine, setting, score, mate, depth, best_move, pv, nodes, time_ms, engine_version, evaluated_at)
SELECT v, h, e, s, sc, m, d, b, p, n, t, ver, coalesce(at, now())
FROM unnest($1::smallint[], $2::bigint[], $3::text[], $4::text[], $5::int[], $6::bool[], $7::int[],
            $8::text[], $9::text[], $10::bigint[], $11::int[], $12::text[], $13::timestamptz[])
     AS x(v, h, e, s, sc, m, d, b, p, n, t, ver, at)
ON CONFLICT (variant, hash, engine, setting) DO NOTHING;

-- name: source-totals
-- The source's resume point (its last game read) and running totals after
-- a batch, in the batch's transaction.
UPDATE sources SET games_read = $2, games_imported = games_imported + $3,
    duplicates = duplicates + $4, rejected = rejected + $5 WHERE id = $1;
