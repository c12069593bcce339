-- 0009: Turkish draughts (GameType 30) in the SQL helper functions.
--
-- Turkish is played on all 64 squares (rules.Board8x8Turkish): numbered 1
-- (a8) to 64 (h1), left to right from Black's side, written
-- algebraically. The functions of 0008 knew only boards of dark squares
-- (half of them per row); they now read the new column all_squares.

ALTER TABLE draughtsdb_variants ADD COLUMN all_squares boolean NOT NULL DEFAULT false; -- every square is played on (Turkish)

INSERT INTO draughtsdb_variants (id, name, aliases, width, mirrored, reversed, first_to_move, notation, algebraic_from_black, point_scores, all_squares)
VALUES (30, 'turkish', '{}', 8, false, false, 'white', 'algebraic', false, false, true);

-- The algebraic name of square sq of a board: of its dark squares
-- (draughtsdb_square_name), or on a board of all squares numbered from a8
-- along the ranks. NULL off the board.
CREATE FUNCTION draughtsdb_board_square_name(width integer, all_squares boolean, mirrored boolean, reversed boolean, sq integer) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
        SELECT CASE WHEN NOT $2 THEN draughtsdb_square_name($1 / 2, $3, $4, $5)
                    WHEN $5 BETWEEN 1 AND $1 * $1 THEN chr(97 + ($5 - 1) % $1) || ($1 - ($5 - 1) / $1)::text
               END
    $$;

-- As in 0008, on every board.
CREATE OR REPLACE FUNCTION draughtsdb_square_text(variant integer, sq integer, algebraic boolean) RETURNS text
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    AS $$
        SELECT CASE WHEN NOT $3 THEN $2::text ELSE (
            SELECT draughtsdb_board_square_name(v.width, v.all_squares, v.mirrored, v.reversed,
                       CASE WHEN v.algebraic_from_black THEN v.width * v.width / 2 + 1 - $2 ELSE $2 END)
            FROM draughtsdb_variants v WHERE v.id = $1
        ) END
    $$;

-- As in 0008, on every board.
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
                                 THEN draughtsdb_board_square_name(v.width, v.all_squares, v.mirrored, v.reversed,
                                          CASE WHEN v.algebraic_from_black THEN v.width * v.width / 2 + 1 - g.sq ELSE g.sq END)
                                 ELSE g.sq::text END
                     FROM generate_series(1, CASE WHEN v.all_squares THEN v.width * v.width ELSE v.width * v.width / 2 END) AS g(sq)
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
