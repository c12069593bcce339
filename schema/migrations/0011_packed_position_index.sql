-- 0011: position_index packed 5 bytes an entry instead of 8, in a quarter
-- of the rows.
--
-- Before, each import batch wrote one row per 12-bit hash prefix, holding
-- bigint entries of 32 hash bits and the game id's low 32 bits: 8 bytes an
-- entry and about 70 bytes of row overhead for every game (4,096 rows per
-- batch of 5,000). Now a batch writes one row per bucket, the top 10 bits
-- of the hash, whose entries column is
--   header  the slot counts of groups 0..3, uint32 big-endian each; the
--           group of hash h is (h >> 52) & 3, the 2 bits below the bucket
--   keys    each slot's (h >> 20) & 0xFFFFFFFF, uint32 big-endian, group 0's
--           slots first, then 1's, 2's, 3's
--   deltas  each slot's id delta, one byte, in the same order
-- A group's slots are in game id order; a slot's game id is first_game plus
-- the sum of its group's deltas up to and including it. A delta is at most
-- 254: a longer step is bridged by filler slots of delta 255 (key 0), which
-- are not entries. 44 bits of the hash are checked, as before. The Go
-- encoder is codec.AppendPositionEntries (schema/codec/position.go).
--
-- The rows written before are converted here: a source's entries are
-- regrouped by game id in runs of 5,000 ids (a batch's worth), one row per
-- run and bucket. This reads and sorts the whole table once (about ten
-- seconds per 100,000 games).
CREATE TABLE position_index_packed (
    source_id  bigint NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
    first_game bigint NOT NULL,
    bucket     smallint NOT NULL,
    entries    bytea NOT NULL
);

INSERT INTO position_index_packed (source_id, first_game, bucket, entries)
WITH e AS (
    SELECT p.source_id, (p.prefix >> 2)::smallint AS bucket, (p.prefix & 3)::int AS grp,
           (x.e >> 32) & 4294967295 AS k, x.e & 4294967295 AS id, (x.e & 4294967295) / 5000 AS run
    FROM position_index p, unnest(p.entries) AS x(e)
), d AS (
    SELECT e.*, min(id) OVER w0 AS first_game,
           id - coalesce(lag(id) OVER w, min(id) OVER w0) AS delta
    FROM e
    WINDOW w AS (PARTITION BY source_id, bucket, run, grp ORDER BY id),
           w0 AS (PARTITION BY source_id, bucket, run)
)
SELECT source_id, min(first_game), bucket,
       int4send(coalesce(sum(1 + delta / 255) FILTER (WHERE grp = 0), 0)::int)
    || int4send(coalesce(sum(1 + delta / 255) FILTER (WHERE grp = 1), 0)::int)
    || int4send(coalesce(sum(1 + delta / 255) FILTER (WHERE grp = 2), 0)::int)
    || int4send(coalesce(sum(1 + delta / 255) FILTER (WHERE grp = 3), 0)::int)
    || string_agg(decode(repeat('00000000', (delta / 255)::int), 'hex') || substring(int8send(k) FROM 5 FOR 4),
                  ''::bytea ORDER BY grp, id)
    || string_agg(decode(repeat('ff', (delta / 255)::int), 'hex') || set_byte('\x00'::bytea, 0, (delta % 255)::int),
                  ''::bytea ORDER BY grp, id)
FROM d
GROUP BY source_id, bucket, run;

DROP TABLE position_index;
ALTER TABLE position_index_packed RENAME TO position_index;
ALTER TABLE position_index RENAME CONSTRAINT position_index_packed_source_id_fkey TO position_index_source_id_fkey;
CREATE INDEX position_index_bucket ON position_index (bucket);
CREATE INDEX position_index_source ON position_index (source_id);
ALTER TABLE position_index SET (parallel_workers = 0);
GRANT SELECT ON position_index TO draughtsdb_reader;

-- The entries of a row: each entry's group, key and game id, in the order
-- stored. For SQL users and tests; draughtsdb_games_at reads a row's keys
-- with position() and decodes only the rows that hold the key.
CREATE FUNCTION draughtsdb_position_entries(first_game bigint, entries bytea)
    RETURNS TABLE (grp integer, key bigint, game_id bigint)
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
DECLARE
    -- A copy, made once: get_byte on a TOASTed value (a compressed or
    -- out-of-line row) would decompress all of it at every call, and a
    -- plain assignment keeps the TOAST pointer.
    e  bytea := entries || '\x'::bytea;
    c0 int; c1 int; c2 int; c3 int;
    n  int;
BEGIN
    IF length(e) < 16 THEN
        RAISE EXCEPTION 'malformed position_index entries: % bytes', length(e);
    END IF;
    c0 := (get_byte(e, 0) << 24) | (get_byte(e, 1) << 16) | (get_byte(e, 2) << 8) | get_byte(e, 3);
    c1 := (get_byte(e, 4) << 24) | (get_byte(e, 5) << 16) | (get_byte(e, 6) << 8) | get_byte(e, 7);
    c2 := (get_byte(e, 8) << 24) | (get_byte(e, 9) << 16) | (get_byte(e, 10) << 8) | get_byte(e, 11);
    c3 := (get_byte(e, 12) << 24) | (get_byte(e, 13) << 16) | (get_byte(e, 14) << 8) | get_byte(e, 15);
    n := c0 + c1 + c2 + c3;
    IF length(e) <> 16 + 5 * n THEN
        RAISE EXCEPTION 'malformed position_index entries: % bytes for % slots', length(e), n;
    END IF;
    RETURN QUERY
        SELECT s.g, (get_byte(e, 16 + 4 * s.i)::bigint << 24) | (get_byte(e, 17 + 4 * s.i) << 16)
                    | (get_byte(e, 18 + 4 * s.i) << 8) | get_byte(e, 19 + 4 * s.i),
               first_game + s.cum
        FROM (SELECT i, g, get_byte(e, 16 + 4 * n + i) AS b,
                     sum(get_byte(e, 16 + 4 * n + i)) OVER (PARTITION BY g ORDER BY i) AS cum
              FROM (SELECT i, (i >= c0)::int + (i >= c0 + c1)::int + (i >= c0 + c1 + c2)::int AS g
                    FROM generate_series(0, n - 1) AS i) slots) s
        WHERE s.b <> 255
        ORDER BY s.i;
END
$$;

-- The ids of the stored games that reach the position with Zobrist hash h
-- (44 of its 64 bits checked: a false match needs 2^32 entries in one
-- group of a bucket; the explorer checks each game it shows).
CREATE OR REPLACE FUNCTION draughtsdb_games_at(h bigint) RETURNS SETOF bigint
    LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
    AS $$
DECLARE
    key bytea := substring(int8send(h >> 20) FROM 5 FOR 4);
    g   int := ((h >> 52) & 3)::int;
    r   record;
    e   bytea;
    c0  int; c1 int; c2 int; c3 int;
    n   int;   -- slots in group g
    ks  int;   -- offset of group g's first key
    ds  int;   -- offset of group g's first delta
BEGIN
    FOR r IN SELECT p.first_game, p.entries FROM position_index p WHERE p.bucket = (h >> 54)::smallint LOOP
        e := r.entries || '\x'::bytea;  -- a copy, once (see draughtsdb_position_entries)
        c0 := (get_byte(e, 0) << 24) | (get_byte(e, 1) << 16) | (get_byte(e, 2) << 8) | get_byte(e, 3);
        c1 := (get_byte(e, 4) << 24) | (get_byte(e, 5) << 16) | (get_byte(e, 6) << 8) | get_byte(e, 7);
        c2 := (get_byte(e, 8) << 24) | (get_byte(e, 9) << 16) | (get_byte(e, 10) << 8) | get_byte(e, 11);
        c3 := (get_byte(e, 12) << 24) | (get_byte(e, 13) << 16) | (get_byte(e, 14) << 8) | get_byte(e, 15);
        n := CASE g WHEN 0 THEN c0 WHEN 1 THEN c1 WHEN 2 THEN c2 ELSE c3 END;
        CONTINUE WHEN n = 0;
        ks := 16 + 4 * CASE g WHEN 0 THEN 0 WHEN 1 THEN c0 WHEN 2 THEN c0 + c1 ELSE c0 + c1 + c2 END;
        -- Most rows do not hold the key anywhere: one scan in C skips them.
        CONTINUE WHEN position(key IN substring(e FROM ks + 1 FOR 4 * n)) = 0;
        ds := 16 + 4 * (c0 + c1 + c2 + c3) + (ks - 16) / 4;
        -- A game's entries are all in one row (its batch's), so DISTINCT
        -- per row is DISTINCT overall.
        RETURN QUERY
            SELECT DISTINCT r.first_game + s.cum
            FROM (SELECT i, get_byte(e, ds + i) AS b, sum(get_byte(e, ds + i)) OVER (ORDER BY i) AS cum
                  FROM generate_series(0, n - 1) AS i) s
            WHERE s.b <> 255 AND substring(e FROM ks + 4 * s.i + 1 FOR 4) = key;
    END LOOP;
END
$$;
