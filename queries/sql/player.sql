-- name: player
-- A player's record: games, wins, draws, losses and score (percent of the
-- points in finished games), in all, by colour and by year. A game the
-- player played against themself (the same name as White and Black) is one
-- game in all and in its year, and one as white and one as black: drawn,
-- it is a draw; won by either side, it is neither a win nor a loss there
-- (the player scored half its points), but a win as one colour and a loss
-- as the other.
-- param: player: the player's name as in the White and Black tags
-- param: source (default archive): the games of these sources: archive (imported files), match (engine matches), all, or source ids or names, comma-separated
-- param: min_rating (default 0): only games in which both players are rated at least this (WhiteRating/WhiteElo, BlackRating/BlackElo); 0 for all, rated or not
\if :{?player} \else \set player '' \endif
\if :{?source} \else \set source 'archive' \endif
\if :{?min_rating} \else \set min_rating '0' \endif
-- psql: each \if line above gives a parameter its default when no -v sets it;
-- draughtsdb skips them and binds the parameters itself.
-- psql without -v player: no player (every count 0).
WITH p AS (
    SELECT id FROM players WHERE name = :'player'
), g AS (
    -- One row per game and colour the player had: a game against themself
    -- is here twice.
    SELECT id, 'white' AS colour, left(date, 4) AS year,
           CASE result WHEN 1 THEN 'win' WHEN 2 THEN 'draw' WHEN 3 THEN 'loss' ELSE 'other' END AS outcome
    FROM games WHERE white_id = (SELECT id FROM p) AND source_id = ANY ((SELECT draughtsdb_source_ids(:'source'))::bigint[])
          AND (:'min_rating'::int = 0 OR (white_rating >= :'min_rating'::int AND black_rating >= :'min_rating'::int))
    UNION ALL
    SELECT id, 'black', left(date, 4),
           CASE result WHEN 3 THEN 'win' WHEN 2 THEN 'draw' WHEN 1 THEN 'loss' ELSE 'other' END
    FROM games WHERE black_id = (SELECT id FROM p) AND source_id = ANY ((SELECT draughtsdb_source_ids(:'source'))::bigint[])
          AND (:'min_rating'::int = 0 OR (white_rating >= :'min_rating'::int AND black_rating >= :'min_rating'::int))
), d AS (
    -- One row per game, for all games and the years (counting g there
    -- counted a game against themself twice): its two rows agree on a
    -- draw or an unfinished game; a win and a loss make 'half'.
    SELECT year, CASE WHEN min(outcome) = max(outcome) THEN min(outcome) ELSE 'half' END AS outcome
    FROM g
    GROUP BY id, year
), r AS (
    SELECT CASE WHEN grouping(year) = 1 THEN 'all games' ELSE 'in ' || year END AS scope,
           0 AS part, year AS sort,
           count(*) AS games,
           count(*) FILTER (WHERE outcome = 'win') AS wins,
           count(*) FILTER (WHERE outcome = 'draw') AS draws,
           count(*) FILTER (WHERE outcome = 'loss') AS losses,
           count(*) FILTER (WHERE outcome = 'half') AS halves,
           count(*) FILTER (WHERE outcome <> 'other') AS finished
    FROM d
    GROUP BY GROUPING SETS ((), (year))
    UNION ALL
    SELECT 'as ' || colour, 1, colour,
           count(*),
           count(*) FILTER (WHERE outcome = 'win'),
           count(*) FILTER (WHERE outcome = 'draw'),
           count(*) FILTER (WHERE outcome = 'loss'),
           0,
           count(*) FILTER (WHERE outcome <> 'other')
    FROM g
    GROUP BY colour
)
SELECT scope, games, wins, draws, losses,
       round(100.0 * (wins + 0.5 * (draws + halves)) / nullif(finished, 0), 1) AS score
FROM r
-- all games, the years, as white, as black
ORDER BY part, sort IS NOT NULL, CASE WHEN part = 1 THEN sort END DESC, sort;
