-- 0017: the user's decisions about players' names.
--
-- draughtsdb joins the spellings of a name into one player by surname and
-- initials when it is asked (package queries/players); these rows are what
-- the user decided beyond that, by name as written, so that they survive
-- a re-import (which may give the names new players ids): target NULL
-- keeps name a player of its own (split), otherwise name is target's
-- player (alias).
CREATE TABLE player_links (
    name       text PRIMARY KEY,
    target     text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK (target IS NULL OR target <> name)
);
GRANT SELECT ON player_links TO draughtsdb_reader;
