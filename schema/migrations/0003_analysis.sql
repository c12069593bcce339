-- 0003: engine analysis (`draughtsdb analyze`): evaluations of distinct
-- positions, the shared work queue, and per-move annotations.
--
-- A position is (variant, hash): the Zobrist hash of rules.Position.Hash,
-- as in position_index and games.final_hash. It is evaluated once per
-- engine (the engine's name, e.g. "draughtsdb") and setting ("depth=8",
-- "movetime=500"); the engine's version is recorded, not part of the key.

CREATE TABLE evaluations (
    variant        smallint NOT NULL,
    hash           bigint NOT NULL,
    engine         text NOT NULL,
    setting        text NOT NULL,
    score          integer NOT NULL,   -- hundredths of a man, from the side to move's view
    mate           boolean NOT NULL,   -- a forced win or loss (draughtsdb: |score| >= 29000)
    depth          integer NOT NULL,   -- depth of the last completed iteration
    best_move      text,               -- Hub notation (32-28, 28x19x23); NULL when there is no legal move
    pv             text NOT NULL,      -- principal variation, Hub notation, space separated
    nodes          bigint NOT NULL,
    time_ms        integer NOT NULL,
    engine_version text NOT NULL,
    evaluated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (variant, hash, engine, setting)
);

-- Positions waiting for an evaluation. A worker claims a batch with
-- FOR UPDATE SKIP LOCKED, setting lease_owner (host:pid:worker) and
-- lease_until; the row is deleted when the evaluation is stored. A row whose
-- lease has expired (its worker died) is claimable again. failed: the engine
-- failed on it twice (or it was claimed too many times); such rows are left
-- for inspection and retried by the next run that selects the position.
CREATE TABLE analysis_queue (
    variant     smallint NOT NULL,
    hash        bigint NOT NULL,
    engine      text NOT NULL,
    setting     text NOT NULL,
    fen         text NOT NULL,
    lease_owner text,
    lease_until timestamptz,
    attempts    integer NOT NULL DEFAULT 0,   -- claims so far
    failed      boolean NOT NULL DEFAULT false,
    error       text,
    PRIMARY KEY (variant, hash, engine, setting)
);
CREATE INDEX analysis_queue_claimable ON analysis_queue (engine, setting, lease_until) WHERE NOT failed;

-- The loss of each move (see analysis/annotate): with s_before the score of
-- the position before the move (the mover is to move there) and s_after the
-- score of the position after it (the opponent is to move), both clamped
-- to +-3000 (30 men, so forced wins compare as large but finite),
--   loss = greatest(0, s_before + s_after)
-- i.e. the evaluation before the move from the mover's view minus the
-- evaluation after it from the mover's view (-s_after), never negative.
-- class: 'blunder', 'mistake', 'inaccuracy' by the thresholds
-- analysis.blunder / mistake / inaccuracy, else 'ok'. ply is 1-based.
CREATE TABLE move_annotations (
    game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply     integer NOT NULL,
    engine  text NOT NULL,
    setting text NOT NULL,
    loss    integer NOT NULL,
    class   text NOT NULL CHECK (class IN ('ok', 'inaccuracy', 'mistake', 'blunder')),
    PRIMARY KEY (game_id, ply, engine, setting)
);
CREATE INDEX move_annotations_class ON move_annotations (engine, setting, class) WHERE class <> 'ok';

-- The move of one ply (1-based) of games.moves in numeric notation with its
-- full capture path, like one word of draughtsdb_moves_text; NULL when the
-- game has fewer plies.
CREATE FUNCTION draughtsdb_move_text(moves bytea, ply int) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
    DECLARE
        out text;
        i int := 0;
        k int := 1;
        n int := length(moves);
        b int;
        capture boolean;
    BEGIN
        WHILE i < n LOOP
            b := get_byte(moves, i);
            capture := b >= 128;
            IF k = ply THEN out := (b & 127)::text; END IF;
            i := i + 1;
            LOOP
                b := get_byte(moves, i);
                IF k = ply THEN
                    out := out || CASE WHEN capture THEN 'x' ELSE '-' END || (b & 127)::text;
                END IF;
                i := i + 1;
                EXIT WHEN b < 128 OR i >= n;
            END LOOP;
            IF k = ply THEN RETURN out; END IF;
            k := k + 1;
        END LOOP;
        RETURN NULL;
    END
    $$;
