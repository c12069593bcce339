-- 0002: helper functions for the named queries (queries/sql) and for
-- people writing their own SQL.

-- The PDN GameType number of a variant name (russian, international,
-- english, brazilian, canadian; "american" is english), or NULL.
CREATE FUNCTION draughtsdb_variant_id(name text) RETURNS smallint
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
        SELECT CASE lower(name)
            WHEN 'international' THEN 20 WHEN 'english' THEN 21 WHEN 'american' THEN 21
            WHEN 'russian' THEN 25 WHEN 'brazilian' THEN 26 WHEN 'canadian' THEN 27
        END::smallint
    $$;

-- The variant name of a GameType number.
CREATE FUNCTION draughtsdb_variant_name(id smallint) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
        SELECT CASE id
            WHEN 20 THEN 'international' WHEN 21 THEN 'english' WHEN 25 THEN 'russian'
            WHEN 26 THEN 'brazilian' WHEN 27 THEN 'canadian'
        END
    $$;

-- A game's result as written in PDN for its variant (International: 2-0,
-- 1-1, 0-2; the others 1-0, 1/2-1/2, 0-1).
CREATE FUNCTION draughtsdb_result_text(variant smallint, result smallint) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
        SELECT CASE
            WHEN result = 1 THEN CASE WHEN variant = 20 THEN '2-0' ELSE '1-0' END
            WHEN result = 2 THEN CASE WHEN variant = 20 THEN '1-1' ELSE '1/2-1/2' END
            WHEN result = 3 THEN CASE WHEN variant = 20 THEN '0-2' ELSE '0-1' END
            WHEN result = 4 THEN '0-0'
            ELSE '*'
        END
    $$;

-- The moves of a game in numeric notation with full capture paths
-- ("32-28 19-23 28x19 14x23"), decoded from games.moves.
CREATE FUNCTION draughtsdb_moves_text(moves bytea) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
    DECLARE
        out text := '';
        i int := 0;
        n int := length(moves);
        b int;
        capture boolean;
    BEGIN
        WHILE i < n LOOP
            b := get_byte(moves, i);
            capture := b >= 128;
            IF out <> '' THEN out := out || ' '; END IF;
            out := out || (b & 127)::text;
            i := i + 1;
            LOOP
                b := get_byte(moves, i);
                out := out || CASE WHEN capture THEN 'x' ELSE '-' END || (b & 127)::text;
                i := i + 1;
                EXIT WHEN b < 128 OR i >= n;
            END LOOP;
        END LOOP;
        RETURN out;
    END
    $$;
