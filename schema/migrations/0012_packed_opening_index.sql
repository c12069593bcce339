-- 0012: opening_index packed per 10-bit bucket in one bytea (issue #17).
--
-- The rows of 0004 (one per import batch, variant and 12-bit hash prefix,
-- with three bigint[] arrays) spent much of their bytes on row and array
-- headers: 4096 rows per batch of 5,000 games, each with a tuple header and
-- three array headers. A row now holds one import batch's entries of one
-- variant and one bucket, the top 10 bits of the position hash, in one
-- bytea (schema/codec/opening.go; the move code and result slots are
-- unchanged). 250,000 generated International games (go test -bench
-- Import ./ingest): opening_index and its indexes 396 -> 332 bytes per
-- game; the entries themselves (8 bytes a single) are now nearly all of it.
-- The format:
--
--   bucket   = h >> 54                    (signed, -512..511)
--   group    = (h >> 52) & 3              (the 2 hash bits below the bucket)
--   hash     = (h >> 20) & 4294967295     (the 32 bits below those)
--   entries  = header | singles | keys
--   header   = the single count of groups 0..3, then the key count of
--              groups 0..3                       (8 x uint32 big-endian)
--   singles  = group 0's, then 1's, 2's, 3's, 8 bytes each:
--              hash, move code << 2 | result slot         (uint32 BE each)
--   keys     = group 0's, then 1's, 2's, 3's, 16 bytes each:
--              hash, move code << 2                       (uint32 BE each)
--              white wins, draws, black wins, other       (uint16 BE each)
--
-- A single is a (position, move) of one game (slot 0 white wins, 1 draw,
-- 2 black wins, 3 other); a key the results of several, a count over 65535
-- split over several keys of the same position and move. Within a group
-- the entries are sorted by hash, then move code. 10 + 2 + 32 = 44 bits of
-- the hash are checked, as before.
--
-- The existing statistics are converted here: per source, variant and
-- bucket, the old rows' entries are summed per (position, move) and
-- written as one row (the import writes one per batch; the statistics are
-- the same, and the tree reads fewer rows). A count over 65535 is split as
-- the Go encoder splits it: key i holds min(65535, count - 65535 i) of each
-- result.

CREATE TABLE opening_index_packed (
    source_id bigint NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
    variant   smallint NOT NULL,
    bucket    smallint NOT NULL,
    entries   bytea NOT NULL
);

INSERT INTO opening_index_packed (source_id, variant, bucket, entries)
WITH old AS (
    -- Every entry of the old rows with its games by result slot.
    SELECT o.source_id, o.variant, o.prefix, (s >> 32) & 4294967295 AS hash, (s & 4294967295) >> 2 AS code,
           ((s & 3) = 0)::int AS w, ((s & 3) = 1)::int AS d, ((s & 3) = 2)::int AS b, ((s & 3) = 3)::int AS x
    FROM opening_index o, unnest(o.singles) AS s
    UNION ALL
    SELECT o.source_id, o.variant, o.prefix, (u.k >> 32) & 4294967295, (u.k & 4294967295) >> 2,
           ((u.c >> 48) & 65535)::int, ((u.c >> 32) & 65535)::int, ((u.c >> 16) & 65535)::int, (u.c & 65535)::int
    FROM opening_index o, unnest(o.keys, o.counts) AS u(k, c)
), stat AS (
    SELECT source_id, variant, prefix, hash, code, sum(w) AS w, sum(d) AS d, sum(b) AS b, sum(x) AS x
    FROM old
    GROUP BY source_id, variant, prefix, hash, code
), entry AS (
    -- A stat of one game is a single (kind 0), the others keys (kind 1).
    SELECT source_id, variant, prefix, hash, code, 0 AS kind, 0 AS part,
           substring(int8send(hash) FROM 5) || substring(int8send(code << 2 | CASE WHEN w = 1 THEN 0 WHEN d = 1 THEN 1 WHEN b = 1 THEN 2 ELSE 3 END) FROM 5) AS bytes
    FROM stat
    WHERE w + d + b + x = 1
    UNION ALL
    SELECT source_id, variant, prefix, hash, code, 1, p,
           substring(int8send(hash) FROM 5) || substring(int8send(code << 2) FROM 5)
           || substring(int4send(least(65535, greatest(0, w - 65535 * p))::int) FROM 3)
           || substring(int4send(least(65535, greatest(0, d - 65535 * p))::int) FROM 3)
           || substring(int4send(least(65535, greatest(0, b - 65535 * p))::int) FROM 3)
           || substring(int4send(least(65535, greatest(0, x - 65535 * p))::int) FROM 3)
    FROM stat, generate_series(0, (greatest(w, d, b, x) - 1) / 65535) AS p
    WHERE w + d + b + x > 1
), grp AS (
    SELECT source_id, variant, prefix >> 2 AS bucket, prefix & 3 AS g,
           count(*) FILTER (WHERE kind = 0) AS singles,
           count(*) FILTER (WHERE kind = 1) AS keys,
           coalesce(string_agg(bytes, '\x'::bytea ORDER BY hash, code, part) FILTER (WHERE kind = 0), '\x') AS s,
           coalesce(string_agg(bytes, '\x'::bytea ORDER BY hash, code, part) FILTER (WHERE kind = 1), '\x') AS k
    FROM entry
    GROUP BY source_id, variant, prefix
)
SELECT source_id, variant, bucket,
       int4send(coalesce(sum(singles) FILTER (WHERE g = 0), 0)::int)
       || int4send(coalesce(sum(singles) FILTER (WHERE g = 1), 0)::int)
       || int4send(coalesce(sum(singles) FILTER (WHERE g = 2), 0)::int)
       || int4send(coalesce(sum(singles) FILTER (WHERE g = 3), 0)::int)
       || int4send(coalesce(sum(keys) FILTER (WHERE g = 0), 0)::int)
       || int4send(coalesce(sum(keys) FILTER (WHERE g = 1), 0)::int)
       || int4send(coalesce(sum(keys) FILTER (WHERE g = 2), 0)::int)
       || int4send(coalesce(sum(keys) FILTER (WHERE g = 3), 0)::int)
       || string_agg(s, '\x'::bytea ORDER BY g)
       || string_agg(k, '\x'::bytea ORDER BY g)
FROM grp
GROUP BY source_id, variant, bucket;

DROP TABLE opening_index;
ALTER TABLE opening_index_packed RENAME TO opening_index;
CREATE INDEX opening_index_bucket ON opening_index (variant, bucket);
CREATE INDEX opening_index_source ON opening_index (source_id);
-- As 0010: a lookup reads one bucket through the btree, never in parallel.
ALTER TABLE opening_index SET (parallel_workers = 0);
-- As 0007: user SQL (draughtsdb_reader) reads the statistics.
GRANT SELECT ON opening_index TO draughtsdb_reader;

-- The entries of one opening_index row, for SQL users and tests: one row
-- per stored entry (a single has a 1 in its result's column), with the
-- position's group (the 2 hash bits below the bucket) and 32 hash bits
-- below those, so the 44 checked bits of a position are
-- (bucket << 2 | hash_group) << 32 | hash_bits. For example the games of
-- each move at position h of International draughts (variant 20):
--
--   SELECT e.move_code, sum(e.white_wins), sum(e.draws), sum(e.black_wins), sum(e.other)
--   FROM opening_index o, draughtsdb_opening_entries(o.entries) e
--   WHERE o.variant = 20 AND o.bucket = (h >> 54)::smallint
--     AND e.hash_group = (h >> 52) & 3 AND e.hash_bits = (h >> 20) & 4294967295
--   GROUP BY e.move_code
--
-- (draughtsdb_opening_tree does the same faster, skipping the rows without
-- the position). PL/pgSQL, so that the column is detoasted once, into e,
-- not at every get_byte.
CREATE FUNCTION draughtsdb_opening_entries(entries bytea)
    RETURNS TABLE (hash_group integer, hash_bits bigint, move_code integer,
                   white_wins integer, draws integer, black_wins integer, other integer)
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
    DECLARE
        e bytea := entries || '\x'::bytea;  -- a detoasted copy
        n bigint[] := '{}';
        size bigint := 32;
        seg integer := 32;                   -- 0-based offset of a segment
    BEGIN
        IF length(e) < 32 THEN
            RAISE EXCEPTION 'malformed opening_index entries: % bytes, shorter than the header', length(e);
        END IF;
        FOR i IN 0..7 LOOP
            n := n || ((get_byte(e, 4 * i)::bigint << 24) | (get_byte(e, 4 * i + 1) << 16)
                       | (get_byte(e, 4 * i + 2) << 8) | get_byte(e, 4 * i + 3));
            size := size + n[i + 1] * CASE WHEN i < 4 THEN 8 ELSE 16 END;
        END LOOP;
        IF size <> length(e) THEN
            RAISE EXCEPTION 'malformed opening_index entries: % bytes, the header counts % (% bytes)', length(e), n, size;
        END IF;
        FOR g IN 0..3 LOOP
            RETURN QUERY
                SELECT g, ((get_byte(e, p)::bigint << 24) | (get_byte(e, p + 1) << 16) | (get_byte(e, p + 2) << 8) | get_byte(e, p + 3)),
                       ((get_byte(e, p + 4) << 22) | (get_byte(e, p + 5) << 14) | (get_byte(e, p + 6) << 6) | (get_byte(e, p + 7) >> 2)),
                       (get_byte(e, p + 7) & 3 = 0)::integer, (get_byte(e, p + 7) & 3 = 1)::integer,
                       (get_byte(e, p + 7) & 3 = 2)::integer, (get_byte(e, p + 7) & 3 = 3)::integer
                FROM generate_series(seg, seg + 8 * (n[g + 1]::integer - 1), 8) AS p;
            seg := seg + 8 * n[g + 1]::integer;
        END LOOP;
        FOR g IN 0..3 LOOP
            RETURN QUERY
                SELECT g, ((get_byte(e, p)::bigint << 24) | (get_byte(e, p + 1) << 16) | (get_byte(e, p + 2) << 8) | get_byte(e, p + 3)),
                       ((get_byte(e, p + 4) << 22) | (get_byte(e, p + 5) << 14) | (get_byte(e, p + 6) << 6) | (get_byte(e, p + 7) >> 2)),
                       (get_byte(e, p + 8) << 8) | get_byte(e, p + 9), (get_byte(e, p + 10) << 8) | get_byte(e, p + 11),
                       (get_byte(e, p + 12) << 8) | get_byte(e, p + 13), (get_byte(e, p + 14) << 8) | get_byte(e, p + 15)
                FROM generate_series(seg, seg + 16 * (n[g + 5]::integer - 1), 16) AS p;
            seg := seg + 16 * n[g + 5]::integer;
        END LOOP;
    END
    $$;

-- The entries of position h of a variant in opening_index, one row per
-- stored entry. Only the rows of h's bucket that hold h's 32 hash bits
-- somewhere are read (position() in the scan: most rows for a rare
-- position are skipped there), each copied once into e (the column itself,
-- when TOASTed, would be fetched again at every get_byte). In a row, the
-- two segments of h's group (its singles and its keys) are searched with
-- position() again; entries are sorted by hash within a segment, so h's are
-- contiguous: the first is where position() found the bits when that is an
-- entry boundary (else a binary search from there), the last is found by
-- galloping from the first. The slices found are gathered and read by one
-- set-returning query each at the end: per-entry PL/pgSQL statements and a
-- query per row are slow (microseconds each), and a row converted by this
-- migration (one per source and bucket) can hold thousands of entries per
-- segment.
--
-- draughtsdb_opening_tree, 300 lookups on 250,000 imported International
-- games (rows of import batches of 5,000), medians of 7 alternating runs
-- against 0004's function on the same games: 300 positions of one game
-- 25 ms (0004: 73 ms); the 300 most played (639 to 250,858 games) 151 ms
-- (0004: 142 ms); on the rows this migration converted from 0004's, 40 ms
-- and 61 ms.
CREATE FUNCTION draughtsdb_opening_position_entries(variant integer, h bigint)
    RETURNS TABLE (move_code integer, white_wins integer, draws integer, black_wins integer, other integer)
    LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
    AS $$
    DECLARE
        hbits bytea := substring(int8send(h >> 20) FROM 5 FOR 4);
        g integer := ((h >> 52) & 3)::integer;
        e bytea;
        n integer[];            -- a row's header
        found_s bytea := '\x';  -- h's singles of every row
        found_k bytea := '\x';  -- h's keys
        base integer;           -- 0-based offset of a segment
        size integer;           -- of its entries: 8 singles, 16 keys
        cnt integer;            -- its entries
        p integer;
        first integer;
        lo integer;
        hi integer;
        mid integer;
        step integer;
    BEGIN
        FOR e IN SELECT o.entries || '\x'::bytea FROM opening_index o
                 WHERE o.variant = draughtsdb_opening_position_entries.variant AND o.bucket = (h >> 54)::smallint
                   AND position(hbits IN o.entries) > 0 LOOP
            n := ARRAY[(get_byte(e, 0) << 24) | (get_byte(e, 1) << 16) | (get_byte(e, 2) << 8) | get_byte(e, 3),
                       (get_byte(e, 4) << 24) | (get_byte(e, 5) << 16) | (get_byte(e, 6) << 8) | get_byte(e, 7),
                       (get_byte(e, 8) << 24) | (get_byte(e, 9) << 16) | (get_byte(e, 10) << 8) | get_byte(e, 11),
                       (get_byte(e, 12) << 24) | (get_byte(e, 13) << 16) | (get_byte(e, 14) << 8) | get_byte(e, 15),
                       (get_byte(e, 16) << 24) | (get_byte(e, 17) << 16) | (get_byte(e, 18) << 8) | get_byte(e, 19),
                       (get_byte(e, 20) << 24) | (get_byte(e, 21) << 16) | (get_byte(e, 22) << 8) | get_byte(e, 23),
                       (get_byte(e, 24) << 24) | (get_byte(e, 25) << 16) | (get_byte(e, 26) << 8) | get_byte(e, 27),
                       (get_byte(e, 28) << 24) | (get_byte(e, 29) << 16) | (get_byte(e, 30) << 8) | get_byte(e, 31)];
            FOR seg IN 0..1 LOOP
                size := 8 + 8 * seg;
                cnt := n[4 * seg + g + 1];
                CONTINUE WHEN cnt = 0;
                base := 32 + 8 * seg * (n[1] + n[2] + n[3] + n[4])
                        + size * CASE g WHEN 0 THEN 0 WHEN 1 THEN n[4 * seg + 1] WHEN 2 THEN n[4 * seg + 1] + n[4 * seg + 2]
                                        ELSE n[4 * seg + 1] + n[4 * seg + 2] + n[4 * seg + 3] END;
                p := position(hbits IN substring(e FROM base + 1 FOR size * cnt));
                CONTINUE WHEN p = 0;
                first := (p - 1) / size;
                IF (p - 1) % size <> 0 THEN
                    -- Found inside an entry: h's first is the first entry
                    -- after it whose hash is not below h's, if it is h's.
                    lo := first + 1; hi := cnt;
                    WHILE lo < hi LOOP
                        mid := (lo + hi) / 2;
                        IF substring(e FROM base + size * mid + 1 FOR 4) < hbits THEN lo := mid + 1; ELSE hi := mid; END IF;
                    END LOOP;
                    first := lo;
                    CONTINUE WHEN first = cnt OR substring(e FROM base + size * first + 1 FOR 4) <> hbits;
                END IF;
                -- Gallop: entries first .. lo - 1 are h's; lo + step - 1
                -- is the next to check.
                lo := first + 1; step := 1;
                WHILE lo + step - 1 < cnt AND substring(e FROM base + size * (lo + step - 1) + 1 FOR 4) = hbits LOOP
                    lo := lo + step; step := 2 * step;
                END LOOP;
                hi := least(lo + step - 1, cnt);
                WHILE lo < hi LOOP
                    mid := (lo + hi) / 2;
                    IF substring(e FROM base + size * mid + 1 FOR 4) = hbits THEN lo := mid + 1; ELSE hi := mid; END IF;
                END LOOP;
                IF seg = 0 THEN
                    found_s := found_s || substring(e FROM base + size * first + 1 FOR size * (lo - first));
                ELSE
                    found_k := found_k || substring(e FROM base + size * first + 1 FOR size * (lo - first));
                END IF;
            END LOOP;
        END LOOP;
        IF length(found_s) > 0 THEN
            RETURN QUERY
            SELECT ((get_byte(found_s, q + 4) << 22) | (get_byte(found_s, q + 5) << 14) | (get_byte(found_s, q + 6) << 6) | (get_byte(found_s, q + 7) >> 2)),
                   (get_byte(found_s, q + 7) & 3 = 0)::integer, (get_byte(found_s, q + 7) & 3 = 1)::integer,
                   (get_byte(found_s, q + 7) & 3 = 2)::integer, (get_byte(found_s, q + 7) & 3 = 3)::integer
            FROM generate_series(0, length(found_s) - 8, 8) AS q;
        END IF;
        IF length(found_k) > 0 THEN
            RETURN QUERY
            SELECT ((get_byte(found_k, q + 4) << 22) | (get_byte(found_k, q + 5) << 14) | (get_byte(found_k, q + 6) << 6) | (get_byte(found_k, q + 7) >> 2)),
                   (get_byte(found_k, q + 8) << 8) | get_byte(found_k, q + 9), (get_byte(found_k, q + 10) << 8) | get_byte(found_k, q + 11),
                   (get_byte(found_k, q + 12) << 8) | get_byte(found_k, q + 13), (get_byte(found_k, q + 14) << 8) | get_byte(found_k, q + 15)
            FROM generate_series(0, length(found_k) - 16, 16) AS q;
        END IF;
    END
    $$;

-- As in 0004: the next moves played from the position with hash h in games
-- of a variant, with their results, one row per move code; now from the
-- packed rows.
CREATE OR REPLACE FUNCTION draughtsdb_opening_tree(variant integer, h bigint)
    RETURNS TABLE (move_code integer, games bigint, white_wins bigint, draws bigint, black_wins bigint)
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    AS $$
        SELECT e.move_code,
               sum(e.white_wins + e.draws + e.black_wins + e.other)::bigint,
               sum(e.white_wins)::bigint, sum(e.draws)::bigint, sum(e.black_wins)::bigint
        FROM draughtsdb_opening_position_entries($1, $2) e
        GROUP BY e.move_code
    $$;
