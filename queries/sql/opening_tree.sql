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
-- evaluations. The position is hash, else the position after moves played
-- from fen (or from the variant's initial position; psql computes its hash
-- with draughtsdb_hash_moves, which plays PDN move text by the variant's
-- rules and stops with an error at a move that is illegal or ambiguous).
-- param: hash (default ""): the position's 64-bit Zobrist hash (signed decimal); empty: the hash of fen
-- param: fen (default ""): the position as a PDN FEN (W:W31-50:B1-20), read when hash is empty; empty: the variant's initial position
-- param: moves (default ""): PDN move text played from fen ("1. 32-28 19-23 2. 28x19"), read when hash is empty; empty: the position of fen
-- param: variant (default russian): variant name
-- param: limit (default 50): moves to show, most played first
-- param: source (default archive): the games of these sources: archive (imported files), match (engine matches), all, or source ids or names, comma-separated
\if :{?hash} \else \set hash '' \endif
\if :{?fen} \else \set fen '' \endif
\if :{?moves} \else \set moves '' \endif
\if :{?variant} \else \set variant 'russian' \endif
\if :{?limit} \else \set limit '50' \endif
\if :{?source} \else \set source 'archive' \endif
-- psql: each \if line above gives a parameter its default when no -v sets it;
-- draughtsdb skips them and binds the parameters itself.
-- psql without -v hash or -v fen: the initial position of the variant.
SELECT draughtsdb_move_code_text(p.v, t.move_code, draughtsdb_algebraic(p.v)) AS move,
       draughtsdb_move_code_text(p.v, t.move_code, true) AS algebraic,
       t.games,
       t.white_wins,
       t.draws,
       t.black_wins,
       t.unfinished,
       round(100.0 * (t.white_wins + 0.5 * t.draws) / nullif(t.white_wins + t.draws + t.black_wins, 0), 1) AS score
FROM (SELECT draughtsdb_variant_id(:'variant') AS v,
             coalesce(nullif(:'hash', '')::bigint,
                      draughtsdb_hash_moves(:'variant', :'fen', :'moves')) AS h) p,
     draughtsdb_opening_tree(p.v, p.h, (SELECT draughtsdb_source_ids(:'source'))) t
ORDER BY t.games DESC, move
LIMIT :'limit'::int;
