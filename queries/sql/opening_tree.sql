-- name: opening_tree
-- The opening tree at a position: every next move played there, with its
-- games, White's wins, draws, Black's wins, unfinished games (no result: * or
-- a double forfeit) and White's score (percent of the
-- points in the games with a result). Position-based: the games that reached
-- the position by any move order count, each game once. Read from the opening
-- statistics the import keeps (the first import.opening_depth plies, 40 by
-- default), so it never scans games. Moves are start and end in the
-- variant's notation; `draughtsdb openings` prints the same tree with full
-- capture paths where two captures share start and end, opening names and
-- evaluations. The draughtsdb command accepts fen=... or moves=... (with
-- variant=...) for hash.
-- param: hash: the position's 64-bit Zobrist hash (signed decimal)
-- param: variant (default russian): variant name
-- param: limit (default 50): moves to show, most played first
-- param: source (default archive): the games of these sources: archive (imported files), match (engine matches), all, or source ids or names, comma-separated
\if :{?hash} \else \set hash '1184844359100618644' \endif
\if :{?variant} \else \set variant 'russian' \endif
\if :{?limit} \else \set limit '50' \endif
\if :{?source} \else \set source 'archive' \endif
-- psql: each \if line above gives a parameter its default when no -v sets it;
-- draughtsdb skips them and binds the parameters itself.
-- psql without -v hash: the initial position of Russian (and Brazilian) draughts.
SELECT draughtsdb_move_code_text(p.v, t.move_code, draughtsdb_algebraic(p.v)) AS move,
       draughtsdb_move_code_text(p.v, t.move_code, true) AS algebraic,
       t.games,
       t.white_wins,
       t.draws,
       t.black_wins,
       t.unfinished,
       round(100.0 * (t.white_wins + 0.5 * t.draws) / nullif(t.white_wins + t.draws + t.black_wins, 0), 1) AS score
FROM (SELECT draughtsdb_variant_id(:'variant') AS v) p,
     draughtsdb_opening_tree(p.v, :'hash'::bigint, (SELECT draughtsdb_source_ids(:'source'))) t
ORDER BY t.games DESC, move
LIMIT :'limit'::int;
