-- Who played (package queries/players): the written names (players), the
-- user's aliases and splits (player_links) and what a record needs of the
-- games. Identity is computed from these when asked, never stored.

-- name: spellings
-- Every written name with its games (a game against oneself once).
SELECT p.id, p.name, (coalesce(w.n, 0) + coalesce(b.n, 0) - coalesce(o.n, 0))::int AS games
FROM players p
LEFT JOIN (SELECT white_id AS id, count(*) AS n FROM games GROUP BY white_id) w ON w.id = p.id
LEFT JOIN (SELECT black_id AS id, count(*) AS n FROM games GROUP BY black_id) b ON b.id = p.id
LEFT JOIN (SELECT white_id AS id, count(*) AS n FROM games WHERE white_id = black_id GROUP BY white_id) o ON o.id = p.id;

-- name: names
-- Every written name, without counts: for finding one player quickly.
SELECT id, name, 0 FROM players;

-- name: counts
-- The games of some spellings ($1), each once.
SELECT p.id, (SELECT count(*) FROM games g WHERE g.white_id = p.id OR g.black_id = p.id)::int
FROM players p WHERE p.id = ANY($1);

-- name: links
SELECT name, coalesce(target, '') FROM player_links;

-- name: pairings
-- The games by pairing and result, with their first and last known years:
-- enough to make any group of spellings' record without a row per game.
SELECT white_id, black_id, result, count(*)::int,
       min(left(date, 4)) FILTER (WHERE left(date, 4) ~ '^[0-9]{4}$'),
       max(left(date, 4)) FILTER (WHERE left(date, 4) ~ '^[0-9]{4}$')
FROM games
WHERE white_id IS NOT NULL OR black_id IS NOT NULL
GROUP BY white_id, black_id, result;

-- name: games-of
-- A player's games (their spellings' ids in $1): the facts a record needs.
SELECT g.id, g.white_id = ANY($1) AS as_white, g.black_id = ANY($1) AS as_black,
       g.result, left(g.date, 4) AS year,
       CASE WHEN g.white_id = ANY($1) THEN bw.name ELSE ww.name END AS opponent,
       coalesce(draughtsdb_moves_text(draughtsdb_moves_prefix(g.moves, 2), g.variant::int), '') AS opening,
       draughtsdb_variant_name(g.variant) AS variant,
       g.date, CASE WHEN g.white_id = ANY($1) THEN g.white_rating ELSE g.black_rating END AS rating
FROM games g
LEFT JOIN players ww ON ww.id = g.white_id
LEFT JOIN players bw ON bw.id = g.black_id
WHERE g.white_id = ANY($1) OR g.black_id = ANY($1)
ORDER BY g.date, g.id;

-- name: latest-ratings
-- Each spelling's latest rated game: its rating there, by game date (a
-- known year first; unknown months and days after known ones, as in
-- export), then game id. Ratings are numbers since migration 0018.
SELECT DISTINCT ON (pid) pid, rating, date, id
FROM (SELECT white_id AS pid, white_rating AS rating, date, id FROM games WHERE white_rating IS NOT NULL AND white_id IS NOT NULL
      UNION ALL
      SELECT black_id, black_rating, date, id FROM games WHERE black_rating IS NOT NULL AND black_id IS NOT NULL) r
ORDER BY pid, left(date, 4) ~ '^[0-9]{4}$' DESC, date COLLATE "C" DESC, id DESC;

-- name: set-link
-- An alias ($2 the target's name) or, $2 empty, a split; the newest
-- decision about a name replaces the one before.
INSERT INTO player_links (name, target) VALUES ($1, nullif($2, ''))
ON CONFLICT (name) DO UPDATE SET target = excluded.target, created_at = now();

-- name: remove-link
DELETE FROM player_links WHERE name = $1;

-- name: prefix
-- The explorer's completion: the spellings ($2 at most, by name) that
-- start with $1, case folded, each with its games; a game a player played
-- against themself (the same name as White and Black) is one game, the
-- black half leaves it out.
SELECT p.name,
       (SELECT count(*) FROM games g WHERE g.white_id = p.id)
       + (SELECT count(*) FROM games g WHERE g.black_id = p.id AND g.white_id IS DISTINCT FROM p.id)
FROM (SELECT id, name FROM players WHERE starts_with(lower(name), lower($1::text)) ORDER BY name LIMIT $2::int) p
ORDER BY p.name;
