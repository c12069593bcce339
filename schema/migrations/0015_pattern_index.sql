-- 0015: pattern_index, the stored plies that pattern, material and
-- manoeuvre searches replay (draughtsdb search, the explorer's pattern
-- page, draughtsdb_pattern_games).
--
-- A row holds one import batch's games of one variant: per game its id
-- (a delta), its start when that is not the variant's initial position,
-- and every ply as from, to and the squares it captured, so the games are
-- replayed as square sets without generating moves (schema/codec/pattern.go,
-- AppendPatternGame, has the byte layout). About 2.7 bytes a ply: a search
-- reads every row of a variant and tests each position of each game.
CREATE TABLE pattern_index (
    source_id  bigint NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
    variant    smallint NOT NULL,
    first_game bigint NOT NULL,
    games      integer NOT NULL,
    entries    bytea NOT NULL
);
-- Stored uncompressed: the rows are read whole by every search, and pglz
-- would cost more time to inflate than the bytes it saves.
ALTER TABLE pattern_index ALTER COLUMN entries SET STORAGE EXTERNAL;
CREATE INDEX pattern_index_variant ON pattern_index (variant, first_game);
CREATE INDEX pattern_index_source ON pattern_index (source_id);
GRANT SELECT ON pattern_index TO draughtsdb_reader;

-- The initial position of each variant as bit strings (bit 0, the
-- leftmost, is square 1) of White's pieces, Black's and the kings, and
-- whether White moves first: what a game without a setup starts from.
-- Package rules is the source (schema's TestPatternStarts checks them).
CREATE TABLE draughtsdb_pattern_starts (
    variant     smallint PRIMARY KEY,
    squares     smallint NOT NULL,
    white       bit varying NOT NULL,
    black       bit varying NOT NULL,
    kings       bit varying NOT NULL,
    white_first boolean NOT NULL
);
INSERT INTO draughtsdb_pattern_starts (variant, squares, white, black, kings, white_first) VALUES
    (25, 32, B'00000000000000000000111111111111', B'11111111111100000000000000000000', B'00000000000000000000000000000000', true),
    (20, 50, B'00000000000000000000000000000011111111111111111111', B'11111111111111111111000000000000000000000000000000', B'00000000000000000000000000000000000000000000000000', true),
    (26, 32, B'00000000000000000000111111111111', B'11111111111100000000000000000000', B'00000000000000000000000000000000', true),
    (27, 72, B'000000000000000000000000000000000000000000111111111111111111111111111111', B'111111111111111111111111111111000000000000000000000000000000000000000000', B'000000000000000000000000000000000000000000000000000000000000000000000000', true),
    (21, 32, B'00000000000000000000111111111111', B'11111111111100000000000000000000', B'00000000000000000000000000000000', false),
    (23, 32, B'00000000000000000000111111111111', B'11111111111100000000000000000000', B'00000000000000000000000000000000', false),
    (29, 32, B'00000000000000000000111111111111', B'11111111111100000000000000000000', B'00000000000000000000000000000000', true),
    (24, 32, B'11111111111100000000000000000000', B'00000000000000000000111111111111', B'00000000000000000000000000000000', true),
    (22, 32, B'00000000000000000000111111111111', B'11111111111100000000000000000000', B'00000000000000000000000000000000', true),
    (31, 32, B'11111111000000000000000000000000', B'00000000000000000000000011111111', B'00000000000000000000000000000000', false),
    (0, 50, B'00000000000000000000000000000011111111111111111111', B'11111111111111111111000000000000000000000000000000', B'00000000000000000000000000000000000000000000000000', true),
    (98, 50, B'00000000000000000000000000000011111111111111111111', B'11111111111111111111000000000000000000000000000000', B'00000000000000000000000000000000000000000000000000', true),
    (96, 50, B'00000000000000000000000000000011111111111111111111', B'11111111111111111111000000000000000000000000000000', B'00000000000000000000000000000000000000000000000000', true),
    (40, 50, B'00000000000000000000000000000011111111111111111111', B'11111111111111111111000000000000000000000000000000', B'00000000000000000000000000000000000000000000000000', true),
    (97, 50, B'00000000000000000000000000000000000000000000011111', B'11111000000000000000000000000000000000000000000000', B'00000000000000000000000000000000000000000000000000', true),
    (30, 64, B'0000000000000000000000000000000000000000111111111111111100000000', B'0000000011111111111111110000000000000000000000000000000000000000', B'0000000000000000000000000000000000000000000000000000000000000000', true);
GRANT SELECT ON draughtsdb_pattern_starts TO draughtsdb_reader;

-- Every position of the games of one pattern_index row: the game, the ply
-- (0 the start), the side to move, the squares of White's pieces, Black's
-- and the kings as bit strings (bit 0 is square 1), and the move played
-- from it (null at the last position): from, to and the pieces it
-- captured. For research queries of your own, for example the games where
-- White has a man on 28 with Black to move, in International draughts:
--
--   SELECT DISTINCT x.game_id
--   FROM pattern_index p, draughtsdb_pattern_positions(p.variant, p.first_game, p.entries) x
--   WHERE p.variant = 20 AND NOT x.white_to_move AND get_bit(x.white & ~x.kings, 27) = 1
--
-- PL/pgSQL gives tens of thousands of positions a second: fine for
-- thousands of games; draughtsdb search reads the same rows in Go for
-- millions.
CREATE FUNCTION draughtsdb_pattern_positions(variant integer, first_game bigint, entries bytea)
    RETURNS TABLE (game_id bigint, ply integer, white_to_move boolean, white bit varying, black bit varying,
                   kings bit varying, move_from integer, move_to integer, move_captures integer)
    LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
    AS $$
DECLARE
    e     bytea := entries || '\x'::bytea;  -- detoasted once
    n     int := length(e);
    i     int := 0;
    id    bigint := first_game;
    st    draughtsdb_pattern_starts%ROWTYPE;
    v     bigint;
    sh    int;
    x     int;
    plies int;
    cnt   int;
    w     bit varying;
    b     bit varying;
    k     bit varying;
    wtm   boolean;
    f     int;
    t     int;
    c     int;
    king  boolean;
BEGIN
    SELECT * INTO st FROM draughtsdb_pattern_starts s WHERE s.variant = draughtsdb_pattern_positions.variant;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'draughtsdb_pattern_positions: unknown variant %', variant;
    END IF;
    WHILE i < n LOOP
        -- uvarint: the id delta, then plies << 1 | setup
        v := 0; sh := 0;
        LOOP
            x := get_byte(e, i); i := i + 1;
            v := v | ((x & 127)::bigint << sh);
            EXIT WHEN x < 128;
            sh := sh + 7;
        END LOOP;
        id := id + v;
        v := 0; sh := 0;
        LOOP
            x := get_byte(e, i); i := i + 1;
            v := v | ((x & 127)::bigint << sh);
            EXIT WHEN x < 128;
            sh := sh + 7;
        END LOOP;
        plies := (v >> 1)::int;
        IF v & 1 = 1 THEN
            wtm := get_byte(e, i) = 0; i := i + 1;
            cnt := 0; sh := 0;
            LOOP
                x := get_byte(e, i); i := i + 1;
                cnt := cnt | ((x & 127) << sh);
                EXIT WHEN x < 128;
                sh := sh + 7;
            END LOOP;
            k := st.kings & ~st.kings; w := k; b := k;  -- an empty board
            FOR j IN 1..cnt LOOP
                f := get_byte(e, i); x := get_byte(e, i + 1); i := i + 2;
                IF x <= 2 THEN w := set_bit(w, f - 1, 1); ELSE b := set_bit(b, f - 1, 1); END IF;
                IF x = 2 OR x = 4 THEN k := set_bit(k, f - 1, 1); END IF;
            END LOOP;
        ELSE
            w := st.white; b := st.black; k := st.kings; wtm := st.white_first;
        END IF;
        FOR p IN 0..plies LOOP
            IF p = plies THEN
                RETURN QUERY SELECT id, p, wtm, w, b, k, NULL::int, NULL::int, NULL::int;
                EXIT;
            END IF;
            f := get_byte(e, i); t := get_byte(e, i + 1); i := i + 2;
            c := 0;
            IF f >= 128 THEN
                c := get_byte(e, i); i := i + 1;
            END IF;
            RETURN QUERY SELECT id, p, wtm, w, b, k, f & 127, t & 127, c;
            FOR j IN 1..c LOOP
                x := get_byte(e, i) - 1; i := i + 1;
                w := set_bit(w, x, 0); b := set_bit(b, x, 0); k := set_bit(k, x, 0);
            END LOOP;
            king := get_bit(k, (f & 127) - 1) = 1 OR t >= 128;
            k := set_bit(k, (f & 127) - 1, 0);
            IF wtm THEN
                w := set_bit(set_bit(w, (f & 127) - 1, 0), (t & 127) - 1, 1);
            ELSE
                b := set_bit(set_bit(b, (f & 127) - 1, 0), (t & 127) - 1, 1);
            END IF;
            IF king THEN k := set_bit(k, (t & 127) - 1, 1); END IF;
            wtm := NOT wtm;
        END LOOP;
    END LOOP;
END
$$;

-- The masks of a partial position "W:W28,32,K46:B19,23:E24" of a variant
-- (numeric squares and ranges A-B; K marks a king; E the squares that must
-- be empty; a leading side field, as in a FEN, is ignored), as draughtsdb
-- search reads it: the squares that must hold White's pieces, Black's,
-- kings, men, and be empty. reversed gives the pattern with colours
-- swapped and the board turned (square s becomes n + 1 - s).
CREATE FUNCTION draughtsdb_pattern_masks(variant integer, pattern text, reversed boolean DEFAULT false,
    OUT white bit varying, OUT black bit varying, OUT kings bit varying, OUT men bit varying,
    OUT empty bit varying)
    LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
    AS $$
DECLARE
    nsq    int;
    fields text[];
    f      text;
    col    text;
    item   text;
    king   boolean;
    lo     int;
    hi     int;
    sq     int;
    zero   bit varying;
BEGIN
    SELECT s.squares, s.kings INTO nsq, zero FROM draughtsdb_pattern_starts s WHERE s.variant = draughtsdb_pattern_masks.variant;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'draughtsdb_pattern_masks: unknown variant %', variant;
    END IF;
    zero := zero & ~zero;
    white := zero; black := zero; kings := zero; men := zero; empty := zero;
    fields := string_to_array(rtrim(btrim(pattern), '.'), ':');
    FOR fi IN 1..coalesce(array_length(fields, 1), 0) LOOP
        f := upper(btrim(fields[fi]));
        CONTINUE WHEN f = '';
        CONTINUE WHEN fi = 1 AND f IN ('W', 'B') AND array_length(fields, 1) > 1;
        col := left(f, 1);
        IF col NOT IN ('W', 'B', 'E') THEN
            RAISE EXCEPTION 'pattern %: field %: want W, B or E and its squares', pattern, fields[fi];
        END IF;
        IF reversed AND col <> 'E' THEN
            col := CASE col WHEN 'W' THEN 'B' ELSE 'W' END;
        END IF;
        FOREACH item IN ARRAY string_to_array(substr(f, 2), ',') LOOP
            item := btrim(item);
            CONTINUE WHEN item = '';
            king := left(item, 1) = 'K';
            IF king THEN item := substr(item, 2); END IF;
            IF item !~ '^[0-9]+(-[0-9]+)?$' THEN
                RAISE EXCEPTION 'pattern %: square %: want a number or a range A-B', pattern, item;
            END IF;
            lo := split_part(item, '-', 1)::int;
            hi := coalesce(nullif(split_part(item, '-', 2), ''), split_part(item, '-', 1))::int;
            IF lo < 1 OR hi > nsq OR lo > hi THEN
                RAISE EXCEPTION 'pattern %: square %: out of range 1-%', pattern, item, nsq;
            END IF;
            FOR s IN lo..hi LOOP
                sq := CASE WHEN reversed THEN nsq - s ELSE s - 1 END;
                IF col = 'E' THEN
                    empty := set_bit(empty, sq, 1);
                    CONTINUE;
                END IF;
                IF col = 'W' THEN white := set_bit(white, sq, 1); ELSE black := set_bit(black, sq, 1); END IF;
                IF king THEN kings := set_bit(kings, sq, 1); ELSE men := set_bit(men, sq, 1); END IF;
            END LOOP;
        END LOOP;
    END LOOP;
END
$$;

-- The games of a variant that reach a partial position (see
-- draughtsdb_pattern_masks; with reversed, also its colour-reversed form),
-- with side_to_move 'white' or 'black' only positions with that side to
-- move ('' any), each with the first ply that matches and how many of its
-- positions do, as draughtsdb search --pattern finds them:
--
--   SELECT g.id, g.event, m.ply FROM draughtsdb_pattern_games(20, 'W:W28,K46:B19,23') m
--   JOIN games g ON g.id = m.game_id ORDER BY g.id;
CREATE FUNCTION draughtsdb_pattern_games(variant integer, pattern text, reversed boolean DEFAULT false,
                                         side_to_move text DEFAULT '')
    RETURNS TABLE (game_id bigint, ply integer, positions bigint)
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    AS $$
    WITH m AS (
        SELECT k.*, $4 AS side FROM draughtsdb_pattern_masks($1, $2, false) k
        UNION ALL
        SELECT k.*, CASE $4 WHEN 'white' THEN 'black' WHEN 'black' THEN 'white' ELSE '' END
        FROM draughtsdb_pattern_masks($1, $2, true) k WHERE $3
    )
    SELECT x.game_id, min(x.ply), count(DISTINCT x.ply)
    FROM pattern_index p, draughtsdb_pattern_positions(p.variant, p.first_game, p.entries) x
    WHERE p.variant = $1 AND EXISTS (
        SELECT 1 FROM m
        WHERE (x.white & m.white) = m.white AND (x.black & m.black) = m.black
          AND (x.kings & m.kings) = m.kings AND (x.kings & m.men) = (m.men & ~m.men)
          AND ((x.white | x.black) & m.empty) = (m.empty & ~m.empty)
          AND (m.side = '' OR (m.side = 'white') = x.white_to_move))
    GROUP BY x.game_id
    $$;
