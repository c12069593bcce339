-- 0018: the players' ratings and FMJD ids of every game, as numbers and
-- ids beside the tags they come from.
--
-- The tags stay in games.tags as written; these columns are what the
-- minimum-rating filters and a player's rating over time read, so that
-- they need not parse jsonb per row. The importer fills them with the same
-- rule as draughtsdb_rating below (ingest/ratings.go; a test runs both on
-- the same values).

-- The rating a tag value gives, NULL for none: an unknown value ("?",
-- "-", ""), 0 (lidraughts and kurnik write "0000" for an unrated player)
-- and anything that is not a plain number of at most four digits (no
-- draughts rating reaches 10000; a longer number is some other figure).
CREATE FUNCTION draughtsdb_rating(value text) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
        SELECT CASE WHEN btrim(value, E' \t\r\n') ~ '^[0-9]{1,4}$' AND btrim(value, E' \t\r\n')::integer > 0
                    THEN btrim(value, E' \t\r\n')::integer END
    $$;

-- An FMJD (or FIDE-style national) id a tag value gives, NULL for none:
-- the value trimmed, unless it is empty, unknown ("?", "-"), zero or longer
-- than 32 characters (FMJD ids have five or six digits; a long value is a
-- note, not an id).
CREATE FUNCTION draughtsdb_player_id(value text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
        SELECT CASE WHEN btrim(value, E' \t\r\n') IN ('', '?', '-') OR btrim(value, E' \t\r\n') ~ '^0+$'
                         OR length(btrim(value, E' \t\r\n')) > 32
                    THEN NULL ELSE btrim(value, E' \t\r\n') END
    $$;

ALTER TABLE games
    ADD COLUMN white_rating  integer,
    ADD COLUMN black_rating  integer,
    ADD COLUMN white_fmjd_id text,
    ADD COLUMN black_fmjd_id text;
COMMENT ON COLUMN games.white_rating IS
    'from the WhiteRating tag (PDN 2.0, the FMJD rating) or else WhiteElo, any case; NULL when absent, unknown, 0 or not a number';
COMMENT ON COLUMN games.white_fmjd_id IS
    'from the WhiteFmjdId tag (PDN 3.0) or else WhiteFideId, any case; NULL when absent or unknown';

-- Databases imported before this migration: the same columns from the
-- stored tags. A tag name is matched in any case; of several tags for one
-- column, the first in the order above that gives a value wins, as in the
-- importer.
UPDATE games g SET
    white_rating = r.white_rating, black_rating = r.black_rating,
    white_fmjd_id = r.white_fmjd_id, black_fmjd_id = r.black_fmjd_id
FROM (
    SELECT id,
        (SELECT draughtsdb_rating(t.value) FROM jsonb_each_text(tags) t
          WHERE lower(t.key) IN ('whiterating', 'whiteelo') AND draughtsdb_rating(t.value) IS NOT NULL
          ORDER BY lower(t.key) = 'whiterating' DESC, t.key COLLATE "C" LIMIT 1) AS white_rating,
        (SELECT draughtsdb_rating(t.value) FROM jsonb_each_text(tags) t
          WHERE lower(t.key) IN ('blackrating', 'blackelo') AND draughtsdb_rating(t.value) IS NOT NULL
          ORDER BY lower(t.key) = 'blackrating' DESC, t.key COLLATE "C" LIMIT 1) AS black_rating,
        (SELECT draughtsdb_player_id(t.value) FROM jsonb_each_text(tags) t
          WHERE lower(t.key) IN ('whitefmjdid', 'whitefideid') AND draughtsdb_player_id(t.value) IS NOT NULL
          ORDER BY lower(t.key) = 'whitefmjdid' DESC, t.key COLLATE "C" LIMIT 1) AS white_fmjd_id,
        (SELECT draughtsdb_player_id(t.value) FROM jsonb_each_text(tags) t
          WHERE lower(t.key) IN ('blackfmjdid', 'blackfideid') AND draughtsdb_player_id(t.value) IS NOT NULL
          ORDER BY lower(t.key) = 'blackfmjdid' DESC, t.key COLLATE "C" LIMIT 1) AS black_fmjd_id
    FROM games
    WHERE tags IS NOT NULL AND jsonb_typeof(tags) = 'object'
      AND EXISTS (SELECT 1 FROM jsonb_object_keys(tags) k
                   WHERE lower(k) IN ('whiterating', 'whiteelo', 'blackrating', 'blackelo',
                                      'whitefmjdid', 'whitefideid', 'blackfmjdid', 'blackfideid'))
) r
WHERE g.id = r.id;

GRANT EXECUTE ON FUNCTION draughtsdb_rating(text), draughtsdb_player_id(text) TO draughtsdb_reader;
