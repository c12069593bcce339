-- name: player
-- A player's record: games, wins, draws, losses and score (percent of the
-- points in finished games), in all, by colour and by year.
-- param: player: the player's name as in the White and Black tags
\if :{?player} \else \set player '' \endif
-- psql: each \if line above gives a parameter its default when no -v sets it;
-- draughtsdb skips them and binds the parameters itself.
-- psql without -v player: no player (every count 0).
WITH p AS (
    SELECT id FROM players WHERE name = :'player'
), g AS (
    SELECT 'white' AS colour, left(date, 4) AS year,
           CASE result WHEN 1 THEN 'win' WHEN 2 THEN 'draw' WHEN 3 THEN 'loss' ELSE 'other' END AS outcome
    FROM games WHERE white_id = (SELECT id FROM p)
    UNION ALL
    SELECT 'black', left(date, 4),
           CASE result WHEN 3 THEN 'win' WHEN 2 THEN 'draw' WHEN 1 THEN 'loss' ELSE 'other' END
    FROM games WHERE black_id = (SELECT id FROM p)
)
SELECT CASE
           WHEN grouping(colour) = 1 AND grouping(year) = 1 THEN 'all games'
           WHEN grouping(year) = 1 THEN 'as ' || colour
           ELSE 'in ' || year
       END AS scope,
       count(*) AS games,
       count(*) FILTER (WHERE outcome = 'win') AS wins,
       count(*) FILTER (WHERE outcome = 'draw') AS draws,
       count(*) FILTER (WHERE outcome = 'loss') AS losses,
       round(100.0 * (count(*) FILTER (WHERE outcome = 'win') + 0.5 * count(*) FILTER (WHERE outcome = 'draw'))
             / nullif(count(*) FILTER (WHERE outcome <> 'other'), 0), 1) AS score
FROM g
GROUP BY GROUPING SETS ((), (colour), (year))
ORDER BY grouping(colour) DESC, grouping(year) DESC, colour DESC, year;
