-- 0008: every variant in the SQL helper functions.
--
-- The functions of 0002, 0004 and 0006 knew the five first variants by
-- number (board half-width by GameType 20/27, English's algebraic squares
-- named from Black's side, Black-first results for 21, 23 and 31) and wrote
-- anything else as if it were Russian: an Italian, Spanish or Thai square
-- got the name of another square (their boards are mirrored or numbered
-- from the other end), Frisian's and Killer's squares were named on 8x8,
-- and draughtsdb_variant_name/draughtsdb_variant_id knew five names.
--
-- Now one table describes each variant as package rules does (the test
-- TestSQLVariantsAgreeWithGo in queries compares every row with
-- rules.Variants() and fails for a variant that has none), and the
-- functions read it. A variant added to rules later needs only a migration
-- that inserts its row.

-- One row per variant, keyed by the number games.variant stores (the PDN
-- GameType; 0 for Killer, which has none: codec.VariantID).
CREATE TABLE draughtsdb_variants (
    id            smallint PRIMARY KEY,
    name          text NOT NULL UNIQUE,             -- rules.Variant.Name, as the CLI takes it
    aliases       text[] NOT NULL DEFAULT '{}',     -- other names rules.VariantByName reads (lower case)
    width         smallint NOT NULL,                -- board width = height
    mirrored      boolean NOT NULL,                 -- a1 is light (PDN invert flag 1): Italian, Spanish
    reversed      boolean NOT NULL,                 -- numbered from White's bottom right: Spanish, Thai
    first_to_move text NOT NULL CHECK (first_to_move IN ('white', 'black')),
    notation      text NOT NULL CHECK (notation IN ('numeric', 'algebraic')), -- how its players write moves
    algebraic_from_black boolean NOT NULL,          -- algebraic squares named from Black's side (English)
    point_scores  boolean NOT NULL                  -- results written 2-0 / 1-1 / 0-2 (International)
);
COMMENT ON TABLE draughtsdb_variants IS
    'the variants draughtsdb plays, keyed by games.variant (migration 0008; package rules is the source)';

INSERT INTO draughtsdb_variants (id, name, aliases, width, mirrored, reversed, first_to_move, notation, algebraic_from_black, point_scores) VALUES
    (25, 'russian',       '{}',                              8,  false, false, 'white', 'algebraic', false, false),
    (20, 'international', '{standard}',                      10, false, false, 'white', 'numeric',   false, true),
    (26, 'brazilian',     '{}',                              8,  false, false, 'white', 'algebraic', false, false),
    (27, 'canadian',      '{}',                              12, false, false, 'white', 'numeric',   false, false),
    (21, 'english',       '{american,checkers}',             8,  false, false, 'black', 'numeric',   true,  false),
    (23, 'pool',          '{"american pool","pool checkers"}', 8, false, false, 'black', 'numeric',  false, false),
    (29, 'czech',         '{}',                              8,  false, false, 'white', 'algebraic', false, false),
    (24, 'spanish',       '{}',                              8,  true,  true,  'white', 'numeric',   false, false),
    (22, 'italian',       '{}',                              8,  true,  false, 'white', 'numeric',   false, false),
    (31, 'thai',          '{}',                              8,  false, true,  'black', 'numeric',   false, false),
    (0,  'killer',        '{}',                              10, false, false, 'white', 'numeric',   false, false),
    (98, 'antidraughts',  '{}',                              10, false, false, 'white', 'numeric',   false, false),
    (96, 'breakthrough',  '{}',                              10, false, false, 'white', 'numeric',   false, false),
    (40, 'frisian',       '{}',                              10, false, false, 'white', 'numeric',   false, false),
    (97, 'frysk',         '{frysk!}',                        10, false, false, 'white', 'numeric',   false, false);

-- User SQL (named queries, analyze --where) runs as draughtsdb_reader and
-- calls the functions below, which read the table with its rights.
GRANT SELECT ON draughtsdb_variants TO draughtsdb_reader;

-- The algebraic name of square sq of a board with half dark squares per
-- row, as rules.Board.Algebraic: numbered from the far row, left to right
-- seen from White, unless reversed (from White's bottom right, right to
-- left) or mirrored (a1 light). NULL off the board.
CREATE FUNCTION draughtsdb_square_name(half integer, mirrored boolean, reversed boolean, sq integer) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
        SELECT chr(96 + CASE WHEN $2 THEN 2 * $1 + 1 - f ELSE f END) || r::text
        FROM (SELECT r, 2 * (k % $1) + 1 + CASE WHEN r % 2 = 0 THEN 1 ELSE 0 END AS f
              FROM (SELECT k, 2 * $1 - k / $1 AS r
                    FROM (SELECT CASE WHEN $2 THEN k0 / $1 * $1 + $1 - 1 - k0 % $1 ELSE k0 END AS k
                          FROM (SELECT CASE WHEN $3 THEN 2 * $1 * $1 - $4 ELSE $4 - 1 END AS k0) a) b) c) d
        WHERE $4 BETWEEN 1 AND 2 * $1 * $1
    $$;

-- The functions below read draughtsdb_variants, so they are STABLE (they
-- were IMMUTABLE when they computed from the number alone).

-- The number of a variant name (or an alias: american, standard, ...), or
-- NULL.
CREATE OR REPLACE FUNCTION draughtsdb_variant_id(name text) RETURNS smallint
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    AS $$
        SELECT v.id FROM draughtsdb_variants v
        WHERE v.name = lower(btrim($1)) OR lower(btrim($1)) = ANY (v.aliases)
    $$;

-- The name of a variant number, or NULL.
CREATE OR REPLACE FUNCTION draughtsdb_variant_name(id smallint) RETURNS text
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    AS $$ SELECT v.name FROM draughtsdb_variants v WHERE v.id = $1 $$;

-- A result code as PDN writes it in the variant, the first mover's score
-- first (replay.Result.Format): an English, Pool or Thai Black win is 1-0;
-- International writes 2-0, 1-1, 0-2. An unknown number: White first, 1-0.
CREATE OR REPLACE FUNCTION draughtsdb_result_text(variant smallint, result smallint) RETURNS text
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    AS $$
        SELECT CASE
            WHEN $2 IN (1, 3) THEN
                CASE WHEN ($2 = 1) = (NOT black_first) THEN CASE WHEN points THEN '2-0' ELSE '1-0' END
                     ELSE CASE WHEN points THEN '0-2' ELSE '0-1' END
                END
            WHEN $2 = 2 THEN CASE WHEN points THEN '1-1' ELSE '1/2-1/2' END
            WHEN $2 = 4 THEN '0-0'
            ELSE '*'
        END
        FROM (SELECT coalesce(bool_or(v.first_to_move = 'black'), false) AS black_first,
                     coalesce(bool_or(v.point_scores), false) AS points
              FROM draughtsdb_variants v WHERE v.id = $1) x
    $$;

-- A square of a variant's board by number, numerically ("32") or
-- algebraically ("c3", English's named from Black's side as draughtsdb
-- reads and writes them); NULL for an algebraic square of an unknown
-- variant or off its board.
CREATE OR REPLACE FUNCTION draughtsdb_square_text(variant integer, sq integer, algebraic boolean) RETURNS text
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    AS $$
        SELECT CASE WHEN NOT $3 THEN $2::text ELSE (
            SELECT draughtsdb_square_name(v.width / 2, v.mirrored, v.reversed,
                       CASE WHEN v.algebraic_from_black THEN v.width * v.width / 2 + 1 - $2 ELSE $2 END)
            FROM draughtsdb_variants v WHERE v.id = $1
        ) END
    $$;

-- Whether a variant's players write moves algebraically (Russian,
-- Brazilian, Czech) rather than numerically.
CREATE OR REPLACE FUNCTION draughtsdb_algebraic(variant integer) RETURNS boolean
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    AS $$ SELECT coalesce((SELECT v.notation = 'algebraic' FROM draughtsdb_variants v WHERE v.id = $1), false) $$;

-- As in 0004; STABLE now that draughtsdb_square_text is.
CREATE OR REPLACE FUNCTION draughtsdb_move_code_text(variant integer, code integer, algebraic boolean) RETURNS text
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    AS $$
        SELECT draughtsdb_square_text($1, ($2 >> 22) & 127, $3)
               || CASE WHEN ($2 >> 14) & 1 = 0 THEN '-' WHEN $3 THEN ':' ELSE 'x' END
               || draughtsdb_square_text($1, ($2 >> 15) & 127, $3)
    $$;

-- games.moves as text in a variant's own notation, with full capture paths
-- ("c3-d4 f6-g5", "32-28 19-23 28x19"); an unknown variant numerically.
-- The square names are looked up once per call.
CREATE OR REPLACE FUNCTION draughtsdb_moves_text(moves bytea, variant integer) RETURNS text
    LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
    AS $$
    DECLARE
        out text := '';
        i int := 0;
        n int := length(moves);
        b int;
        capture boolean;
        alg boolean := false;
        names text[];
    BEGIN
        SELECT v.notation = 'algebraic',
               array(SELECT CASE WHEN v.notation = 'algebraic'
                                 THEN draughtsdb_square_name(v.width / 2, v.mirrored, v.reversed,
                                          CASE WHEN v.algebraic_from_black THEN v.width * v.width / 2 + 1 - g.sq ELSE g.sq END)
                                 ELSE g.sq::text END
                     FROM generate_series(1, v.width * v.width / 2) AS g(sq)
                     ORDER BY g.sq)     -- the number, not the text (the output column would be named sq)
        INTO alg, names
        FROM draughtsdb_variants v WHERE v.id = $2;
        alg := coalesce(alg, false);
        WHILE i < n LOOP
            b := get_byte(moves, i);
            capture := b >= 128;
            IF out <> '' THEN out := out || ' '; END IF;
            out := out || coalesce(names[b & 127], (b & 127)::text);
            i := i + 1;
            LOOP
                b := get_byte(moves, i);
                out := out || CASE WHEN NOT capture THEN '-' WHEN alg THEN ':' ELSE 'x' END
                           || coalesce(names[b & 127], (b & 127)::text);
                i := i + 1;
                EXIT WHEN b < 128 OR i >= n;
            END LOOP;
        END LOOP;
        RETURN out;
    END
    $$;
