-- 0004: opening statistics, kept by the import (see analysis/openings).
--
-- For every stored game, each of its first D plies (D = import setting
-- openings.depth, default 40) is counted once at the position it was played
-- from: (variant, position hash, move) -> white wins, draws, black wins,
-- other results. A game that reaches a position twice counts there once
-- (its first visit). Transpositions merge because the key is the position,
-- not the move order. The opening tree of a position is then a lookup of one
-- 12-bit prefix; it never reads games.
--
-- Like position_index, the rows are packed: each import batch writes, per
-- variant and 12-bit hash prefix, one row holding the batch's (position,
-- move) entries:
--   prefix    = h >> 52
--   key       = ((h >> 20) & 0xFFFFFFFF) << 32 | move code << 2
--   singles[i]= key | result slot      a (position, move) of one game in
--                                      the batch: slot 0 white wins, 1
--                                      draw, 2 black wins, 3 other
--   keys[i], counts[i]                 the others, with
--   counts[i] = white wins << 48 | draws << 32 | black wins << 16 | other
-- (each count < 65536; a larger batch count is split over several entries).
-- Most entries are singles (8 bytes): the deep plies of a game are mostly
-- its own. The move code is from << 22 | to << 15 | capture << 14 | path
-- hash (14 bits of the landing squares, 0 for a plain move); squares are
-- the variant's numbers. Rows belong to their source, so deleting a source
-- (--force) removes exactly what it added, and duplicates, which are not
-- stored, are not counted: the statistics always equal a count over games.

CREATE TABLE opening_index (
    source_id bigint NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
    variant   smallint NOT NULL,
    prefix    smallint NOT NULL,
    singles   bigint[] NOT NULL,
    keys      bigint[] NOT NULL,
    counts    bigint[] NOT NULL
);
CREATE INDEX opening_index_prefix ON opening_index (variant, prefix);
CREATE INDEX opening_index_source ON opening_index (source_id);

-- The plies each source's games were counted to (openings.depth at import).
ALTER TABLE sources ADD COLUMN opening_depth smallint;

-- Named openings (ballots): the position reached, by Zobrist hash. Loaded by
-- the next migration from the ballot lists (see analysis/openings/names).
CREATE TABLE opening_names (
    variant smallint NOT NULL,
    hash    bigint NOT NULL,
    name    text NOT NULL,
    list    text NOT NULL,   -- which ballot list the name comes from
    PRIMARY KEY (variant, hash, name)
);

-- The name(s) of a position, NULL when it has none.
CREATE FUNCTION draughtsdb_opening_name(variant integer, h bigint) RETURNS text
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    AS $$
        SELECT string_agg(name, ' / ' ORDER BY list, name)
        FROM opening_names n WHERE n.variant = $1 AND n.hash = $2
    $$;

-- The next moves played from the position with hash h in games of a
-- variant, with their results: one row per move code.
CREATE FUNCTION draughtsdb_opening_tree(variant integer, h bigint)
    RETURNS TABLE (move_code integer, games bigint, white_wins bigint, draws bigint, black_wins bigint)
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    AS $$
        WITH rows AS (
            SELECT o.singles, o.keys, o.counts
            FROM opening_index o
            WHERE o.variant = $1 AND o.prefix = ($2 >> 52)::smallint
        ), entries AS (
            SELECT u.k, u.c
            FROM rows r, unnest(r.keys, r.counts) AS u(k, c)
            WHERE ((u.k >> 32) & 4294967295) = (($2 >> 20) & 4294967295)
            UNION ALL
            SELECT s, 1::bigint << (48 - 16 * (s & 3))::integer
            FROM rows r, unnest(r.singles) AS s
            WHERE ((s >> 32) & 4294967295) = (($2 >> 20) & 4294967295)
        )
        SELECT ((k & 4294967295) >> 2)::integer,
               sum(((c >> 48) & 65535) + ((c >> 32) & 65535) + ((c >> 16) & 65535) + (c & 65535))::bigint,
               sum((c >> 48) & 65535)::bigint,
               sum((c >> 32) & 65535)::bigint,
               sum((c >> 16) & 65535)::bigint
        FROM entries
        GROUP BY 1
    $$;

-- A square of a variant's board by number, numerically ("32") or
-- algebraically ("c3"); English algebraic squares are named from Black's
-- side, as draughtsdb reads and writes them.
CREATE FUNCTION draughtsdb_square_text(variant integer, sq integer, algebraic boolean) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
        SELECT CASE WHEN NOT $3 THEN $2::text ELSE (
            SELECT chr(96 + 2 * ((s - 1) % half) + 1 + CASE WHEN (2 * half - (s - 1) / half) % 2 = 0 THEN 1 ELSE 0 END)
                   || (2 * half - (s - 1) / half)::text
            FROM (SELECT half, CASE WHEN $1 = 21 THEN 2 * half * half + 1 - $2 ELSE $2 END AS s
                  FROM (SELECT CASE $1 WHEN 20 THEN 5 WHEN 27 THEN 6 ELSE 4 END AS half) d) x
        ) END
    $$;

-- Whether a variant's players write moves algebraically (Russian,
-- Brazilian) rather than numerically.
CREATE FUNCTION draughtsdb_algebraic(variant integer) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT $1 IN (25, 26) $$;

-- A move code of opening_index as start and end ("32-28", "28x19",
-- "c3:e5"). Two captures with the same start and end (rare) read the same
-- here; draughtsdb openings writes their full paths.
CREATE FUNCTION draughtsdb_move_code_text(variant integer, code integer, algebraic boolean) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
        SELECT draughtsdb_square_text($1, ($2 >> 22) & 127, $3)
               || CASE WHEN ($2 >> 14) & 1 = 0 THEN '-' WHEN $3 THEN ':' ELSE 'x' END
               || draughtsdb_square_text($1, ($2 >> 15) & 127, $3)
    $$;

-- The first n plies of games.moves, or NULL when the game is shorter.
CREATE FUNCTION draughtsdb_moves_prefix(moves bytea, n integer) RETURNS bytea
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
    DECLARE
        i int := 0;
        k int := 0;
        len int := length(moves);
    BEGIN
        IF n <= 0 THEN RETURN '\x'::bytea; END IF;
        WHILE i < len LOOP
            i := i + 1;                      -- the start square
            LOOP                             -- the landing squares
                i := i + 1;
                EXIT WHEN i >= len OR get_byte(moves, i - 1) < 128;
            END LOOP;
            k := k + 1;
            IF k = n THEN RETURN substring(moves FROM 1 FOR i); END IF;
        END LOOP;
        RETURN NULL;
    END
    $$;

-- games.moves as text in a variant's own notation, with full capture paths
-- ("c3-d4 f6-g5", "32-28 19-23 28x19").
CREATE FUNCTION draughtsdb_moves_text(moves bytea, variant integer) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
    DECLARE
        out text := '';
        i int := 0;
        n int := length(moves);
        b int;
        capture boolean;
        alg boolean := draughtsdb_algebraic(variant);
    BEGIN
        WHILE i < n LOOP
            b := get_byte(moves, i);
            capture := b >= 128;
            IF out <> '' THEN out := out || ' '; END IF;
            out := out || draughtsdb_square_text(variant, b & 127, alg);
            i := i + 1;
            LOOP
                b := get_byte(moves, i);
                out := out || CASE WHEN NOT capture THEN '-' WHEN alg THEN ':' ELSE 'x' END
                           || draughtsdb_square_text(variant, b & 127, alg);
                i := i + 1;
                EXIT WHEN b < 128 OR i >= n;
            END LOOP;
        END LOOP;
        RETURN out;
    END
    $$;
