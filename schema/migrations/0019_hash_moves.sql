-- 0019: positions from moves in SQL.
--
-- draughtsdb_hash_moves(variant, moves) is the Zobrist hash of the position
-- reached by playing PDN move text from the variant's initial position, the
-- hash draughtsdb computes (0016's draughtsdb_hash of that position). To
-- play a move it needs the rules: a capture written with its start and end
-- only ("28x19", "c3:e5") names neither the pieces it takes nor, for a
-- flying king, its path, so the move is found among the legal moves of the
-- position, as the importer does (replay's resolve): the move whose full
-- path is the text, else the one legal move whose start and end are the
-- text's and whose landing squares include the text's intermediate squares
-- in order. A text no legal move fits, or that two different legal moves
-- fit (other pieces taken), is an error naming the ply and the move, never
-- a hash: we do not guess what the writer meant.
--
-- The rules are package rules' (replay/rules), as data: one row per
-- variant with its board (square names, ranks and the square one step away
-- in each direction) and its capture traits, generated from package rules
-- (a test checks the block against it), read by one generic generator
-- below. The generator follows the rules package's searches: a piece jumps
-- an opponent piece not taken before in this move to an empty square
-- beyond it; the pieces taken stay on the board and block until the move
-- ends (except where they leave at once: Thai, Turkish); a flying king
-- lands on any empty square beyond, or only on those from which the chain
-- goes on if there are some; the chain goes on as long as it can. The
-- variants' choices are then applied to the complete chains: kings first
-- (Czech), the most pieces or the best rank (International family,
-- Spanish, Italian, Frisian, Turkish). Frisian's limit on moving one king
-- three times in a row needs the players' history and is not checked here
-- (the importer checks it), as the rules package's own move lists do not.

-- Directions: 1 up-left, 2 up-right, 3 down-left, 4 down-right (up is
-- towards square 1, White's forward), 5 up, 6 down, 7 left, 8 right along
-- the columns and rows (the next square of the line: two files or ranks
-- away on boards of dark squares, one on Turkish's board). The direction
-- straight back from d is the (9 - d)th of 1..4 or its pair in 5..8.
CREATE TABLE draughtsdb_move_rules (
    variant            smallint PRIMARY KEY,
    height             smallint NOT NULL,
    squares            smallint NOT NULL,
    algebraic          boolean NOT NULL,    -- its players write algebraic squares (messages name squares so)
    names              text[] NOT NULL,     -- names[sq]: the algebraic name the move reader takes for sq
    ranks              smallint[] NOT NULL, -- ranks[sq]: 1 is White's side, height Black's
    next               smallint[] NOT NULL, -- next[8 (sq - 1) + d]: the square one step from sq in direction d; 0 off the board
    capture_dirs       smallint[] NOT NULL, -- the lines kings capture along
    king_dirs          smallint[] NOT NULL, -- the lines kings move along
    white_man_dirs     smallint[] NOT NULL, -- where a white man steps
    black_man_dirs     smallint[] NOT NULL,
    white_capture_dirs smallint[] NOT NULL, -- where a white man captures
    black_capture_dirs smallint[] NOT NULL,
    men_spare_kings    boolean NOT NULL,    -- a man may not jump a king (Italian)
    flying             boolean NOT NULL,    -- kings move and capture any distance
    majority           text NOT NULL CHECK (majority IN ('none', 'count', 'kings', 'italian', 'value')),
    king_precedence    boolean NOT NULL,    -- a king's capture, where there is one, must be made (Czech)
    killer             boolean NOT NULL,    -- a king's capture ending over a king stops right behind it (Killer)
    removed_at_once    boolean NOT NULL,    -- jumped pieces leave at once (Thai, Turkish)
    lands_behind       boolean NOT NULL,    -- a flying king lands right behind the piece it jumps (Thai)
    no_turn_back       boolean NOT NULL,    -- a chain may not turn straight back (Turkish)
    promotion          text NOT NULL CHECK (promotion IN ('end', 'continue', 'stop'))
        -- a man reaching the far row in a capture: goes on as a man and is crowned if the move ends
        -- there (end), is crowned and goes on as a king (continue, Russian), is crowned and stops (stop, English)
);
COMMENT ON TABLE draughtsdb_move_rules IS
    'the boards and capture rules of each variant, for draughtsdb_hash_moves (migration 0019; package rules is the source)';
GRANT SELECT ON draughtsdb_move_rules TO draughtsdb_reader;

-- BEGIN MOVE RULES (generated from package rules: go test ./schema -run TestMoveRulesUpToDate -update-move-rules)
INSERT INTO draughtsdb_move_rules (variant, height, squares, algebraic, names, ranks, next,
    capture_dirs, king_dirs, white_man_dirs, black_man_dirs, white_capture_dirs, black_capture_dirs,
    men_spare_kings, flying, majority, king_precedence, killer, removed_at_once, lands_behind, no_turn_back, promotion) VALUES
(25, 8, 32, true,
 '{"b8","d8","f8","h8","a7","c7","e7","g7","b6","d6","f6","h6","a5","c5","e5","g5","b4","d4","f4","h4","a3","c3","e3","g3","b2","d2","f2","h2","a1","c1","e1","g1"}',
 '{8,8,8,8,7,7,7,7,6,6,6,6,5,5,5,5,4,4,4,4,3,3,3,3,2,2,2,2,1,1,1,1}',
 '{0,0,5,6,0,9,0,2,0,0,6,7,0,10,1,3,0,0,7,8,0,11,2,4,0,0,8,0,0,12,3,0,0,1,0,9,0,13,0,6,1,2,9,10,0,14,5,7,2,3,10,11,0,15,6,8,3,4,11,12,0,16,7,0,5,6,13,14,1,17,0,10,6,7,14,15,2,18,9,11,7,8,15,16,3,19,10,12,8,0,16,0,4,20,11,0,0,9,0,17,5,21,0,14,9,10,17,18,6,22,13,15,10,11,18,19,7,23,14,16,11,12,19,20,8,24,15,0,13,14,21,22,9,25,0,18,14,15,22,23,10,26,17,19,15,16,23,24,11,27,18,20,16,0,24,0,12,28,19,0,0,17,0,25,13,29,0,22,17,18,25,26,14,30,21,23,18,19,26,27,15,31,22,24,19,20,27,28,16,32,23,0,21,22,29,30,17,0,0,26,22,23,30,31,18,0,25,27,23,24,31,32,19,0,26,28,24,0,32,0,20,0,27,0,0,25,0,0,21,0,0,30,25,26,0,0,22,0,29,31,26,27,0,0,23,0,30,32,27,28,0,0,24,0,31,0}',
 '{1,2,3,4}', '{1,2,3,4}', '{1,2}', '{3,4}', '{1,2,3,4}', '{1,2,3,4}',
 false, true, 'none', false, false, false, false, false, 'continue'),
(20, 10, 50, false,
 '{"b10","d10","f10","h10","j10","a9","c9","e9","g9","i9","b8","d8","f8","h8","j8","a7","c7","e7","g7","i7","b6","d6","f6","h6","j6","a5","c5","e5","g5","i5","b4","d4","f4","h4","j4","a3","c3","e3","g3","i3","b2","d2","f2","h2","j2","a1","c1","e1","g1","i1"}',
 '{10,10,10,10,10,9,9,9,9,9,8,8,8,8,8,7,7,7,7,7,6,6,6,6,6,5,5,5,5,5,4,4,4,4,4,3,3,3,3,3,2,2,2,2,2,1,1,1,1,1}',
 '{0,0,6,7,0,11,0,2,0,0,7,8,0,12,1,3,0,0,8,9,0,13,2,4,0,0,9,10,0,14,3,5,0,0,10,0,0,15,4,0,0,1,0,11,0,16,0,7,1,2,11,12,0,17,6,8,2,3,12,13,0,18,7,9,3,4,13,14,0,19,8,10,4,5,14,15,0,20,9,0,6,7,16,17,1,21,0,12,7,8,17,18,2,22,11,13,8,9,18,19,3,23,12,14,9,10,19,20,4,24,13,15,10,0,20,0,5,25,14,0,0,11,0,21,6,26,0,17,11,12,21,22,7,27,16,18,12,13,22,23,8,28,17,19,13,14,23,24,9,29,18,20,14,15,24,25,10,30,19,0,16,17,26,27,11,31,0,22,17,18,27,28,12,32,21,23,18,19,28,29,13,33,22,24,19,20,29,30,14,34,23,25,20,0,30,0,15,35,24,0,0,21,0,31,16,36,0,27,21,22,31,32,17,37,26,28,22,23,32,33,18,38,27,29,23,24,33,34,19,39,28,30,24,25,34,35,20,40,29,0,26,27,36,37,21,41,0,32,27,28,37,38,22,42,31,33,28,29,38,39,23,43,32,34,29,30,39,40,24,44,33,35,30,0,40,0,25,45,34,0,0,31,0,41,26,46,0,37,31,32,41,42,27,47,36,38,32,33,42,43,28,48,37,39,33,34,43,44,29,49,38,40,34,35,44,45,30,50,39,0,36,37,46,47,31,0,0,42,37,38,47,48,32,0,41,43,38,39,48,49,33,0,42,44,39,40,49,50,34,0,43,45,40,0,50,0,35,0,44,0,0,41,0,0,36,0,0,47,41,42,0,0,37,0,46,48,42,43,0,0,38,0,47,49,43,44,0,0,39,0,48,50,44,45,0,0,40,0,49,0}',
 '{1,2,3,4}', '{1,2,3,4}', '{1,2}', '{3,4}', '{1,2,3,4}', '{1,2,3,4}',
 false, true, 'count', false, false, false, false, false, 'end'),
(26, 8, 32, true,
 '{"b8","d8","f8","h8","a7","c7","e7","g7","b6","d6","f6","h6","a5","c5","e5","g5","b4","d4","f4","h4","a3","c3","e3","g3","b2","d2","f2","h2","a1","c1","e1","g1"}',
 '{8,8,8,8,7,7,7,7,6,6,6,6,5,5,5,5,4,4,4,4,3,3,3,3,2,2,2,2,1,1,1,1}',
 '{0,0,5,6,0,9,0,2,0,0,6,7,0,10,1,3,0,0,7,8,0,11,2,4,0,0,8,0,0,12,3,0,0,1,0,9,0,13,0,6,1,2,9,10,0,14,5,7,2,3,10,11,0,15,6,8,3,4,11,12,0,16,7,0,5,6,13,14,1,17,0,10,6,7,14,15,2,18,9,11,7,8,15,16,3,19,10,12,8,0,16,0,4,20,11,0,0,9,0,17,5,21,0,14,9,10,17,18,6,22,13,15,10,11,18,19,7,23,14,16,11,12,19,20,8,24,15,0,13,14,21,22,9,25,0,18,14,15,22,23,10,26,17,19,15,16,23,24,11,27,18,20,16,0,24,0,12,28,19,0,0,17,0,25,13,29,0,22,17,18,25,26,14,30,21,23,18,19,26,27,15,31,22,24,19,20,27,28,16,32,23,0,21,22,29,30,17,0,0,26,22,23,30,31,18,0,25,27,23,24,31,32,19,0,26,28,24,0,32,0,20,0,27,0,0,25,0,0,21,0,0,30,25,26,0,0,22,0,29,31,26,27,0,0,23,0,30,32,27,28,0,0,24,0,31,0}',
 '{1,2,3,4}', '{1,2,3,4}', '{1,2}', '{3,4}', '{1,2,3,4}', '{1,2,3,4}',
 false, true, 'count', false, false, false, false, false, 'end'),
(27, 12, 72, false,
 '{"b12","d12","f12","h12","j12","l12","a11","c11","e11","g11","i11","k11","b10","d10","f10","h10","j10","l10","a9","c9","e9","g9","i9","k9","b8","d8","f8","h8","j8","l8","a7","c7","e7","g7","i7","k7","b6","d6","f6","h6","j6","l6","a5","c5","e5","g5","i5","k5","b4","d4","f4","h4","j4","l4","a3","c3","e3","g3","i3","k3","b2","d2","f2","h2","j2","l2","a1","c1","e1","g1","i1","k1"}',
 '{12,12,12,12,12,12,11,11,11,11,11,11,10,10,10,10,10,10,9,9,9,9,9,9,8,8,8,8,8,8,7,7,7,7,7,7,6,6,6,6,6,6,5,5,5,5,5,5,4,4,4,4,4,4,3,3,3,3,3,3,2,2,2,2,2,2,1,1,1,1,1,1}',
 '{0,0,7,8,0,13,0,2,0,0,8,9,0,14,1,3,0,0,9,10,0,15,2,4,0,0,10,11,0,16,3,5,0,0,11,12,0,17,4,6,0,0,12,0,0,18,5,0,0,1,0,13,0,19,0,8,1,2,13,14,0,20,7,9,2,3,14,15,0,21,8,10,3,4,15,16,0,22,9,11,4,5,16,17,0,23,10,12,5,6,17,18,0,24,11,0,7,8,19,20,1,25,0,14,8,9,20,21,2,26,13,15,9,10,21,22,3,27,14,16,10,11,22,23,4,28,15,17,11,12,23,24,5,29,16,18,12,0,24,0,6,30,17,0,0,13,0,25,7,31,0,20,13,14,25,26,8,32,19,21,14,15,26,27,9,33,20,22,15,16,27,28,10,34,21,23,16,17,28,29,11,35,22,24,17,18,29,30,12,36,23,0,19,20,31,32,13,37,0,26,20,21,32,33,14,38,25,27,21,22,33,34,15,39,26,28,22,23,34,35,16,40,27,29,23,24,35,36,17,41,28,30,24,0,36,0,18,42,29,0,0,25,0,37,19,43,0,32,25,26,37,38,20,44,31,33,26,27,38,39,21,45,32,34,27,28,39,40,22,46,33,35,28,29,40,41,23,47,34,36,29,30,41,42,24,48,35,0,31,32,43,44,25,49,0,38,32,33,44,45,26,50,37,39,33,34,45,46,27,51,38,40,34,35,46,47,28,52,39,41,35,36,47,48,29,53,40,42,36,0,48,0,30,54,41,0,0,37,0,49,31,55,0,44,37,38,49,50,32,56,43,45,38,39,50,51,33,57,44,46,39,40,51,52,34,58,45,47,40,41,52,53,35,59,46,48,41,42,53,54,36,60,47,0,43,44,55,56,37,61,0,50,44,45,56,57,38,62,49,51,45,46,57,58,39,63,50,52,46,47,58,59,40,64,51,53,47,48,59,60,41,65,52,54,48,0,60,0,42,66,53,0,0,49,0,61,43,67,0,56,49,50,61,62,44,68,55,57,50,51,62,63,45,69,56,58,51,52,63,64,46,70,57,59,52,53,64,65,47,71,58,60,53,54,65,66,48,72,59,0,55,56,67,68,49,0,0,62,56,57,68,69,50,0,61,63,57,58,69,70,51,0,62,64,58,59,70,71,52,0,63,65,59,60,71,72,53,0,64,66,60,0,72,0,54,0,65,0,0,61,0,0,55,0,0,68,61,62,0,0,56,0,67,69,62,63,0,0,57,0,68,70,63,64,0,0,58,0,69,71,64,65,0,0,59,0,70,72,65,66,0,0,60,0,71,0}',
 '{1,2,3,4}', '{1,2,3,4}', '{1,2}', '{3,4}', '{1,2,3,4}', '{1,2,3,4}',
 false, true, 'count', false, false, false, false, false, 'end'),
(21, 8, 32, false,
 '{"g1","e1","c1","a1","h2","f2","d2","b2","g3","e3","c3","a3","h4","f4","d4","b4","g5","e5","c5","a5","h6","f6","d6","b6","g7","e7","c7","a7","h8","f8","d8","b8"}',
 '{8,8,8,8,7,7,7,7,6,6,6,6,5,5,5,5,4,4,4,4,3,3,3,3,2,2,2,2,1,1,1,1}',
 '{0,0,5,6,0,9,0,2,0,0,6,7,0,10,1,3,0,0,7,8,0,11,2,4,0,0,8,0,0,12,3,0,0,1,0,9,0,13,0,6,1,2,9,10,0,14,5,7,2,3,10,11,0,15,6,8,3,4,11,12,0,16,7,0,5,6,13,14,1,17,0,10,6,7,14,15,2,18,9,11,7,8,15,16,3,19,10,12,8,0,16,0,4,20,11,0,0,9,0,17,5,21,0,14,9,10,17,18,6,22,13,15,10,11,18,19,7,23,14,16,11,12,19,20,8,24,15,0,13,14,21,22,9,25,0,18,14,15,22,23,10,26,17,19,15,16,23,24,11,27,18,20,16,0,24,0,12,28,19,0,0,17,0,25,13,29,0,22,17,18,25,26,14,30,21,23,18,19,26,27,15,31,22,24,19,20,27,28,16,32,23,0,21,22,29,30,17,0,0,26,22,23,30,31,18,0,25,27,23,24,31,32,19,0,26,28,24,0,32,0,20,0,27,0,0,25,0,0,21,0,0,30,25,26,0,0,22,0,29,31,26,27,0,0,23,0,30,32,27,28,0,0,24,0,31,0}',
 '{1,2,3,4}', '{1,2,3,4}', '{1,2}', '{3,4}', '{1,2}', '{3,4}',
 false, false, 'none', false, false, false, false, false, 'stop'),
(23, 8, 32, false,
 '{"b8","d8","f8","h8","a7","c7","e7","g7","b6","d6","f6","h6","a5","c5","e5","g5","b4","d4","f4","h4","a3","c3","e3","g3","b2","d2","f2","h2","a1","c1","e1","g1"}',
 '{8,8,8,8,7,7,7,7,6,6,6,6,5,5,5,5,4,4,4,4,3,3,3,3,2,2,2,2,1,1,1,1}',
 '{0,0,5,6,0,9,0,2,0,0,6,7,0,10,1,3,0,0,7,8,0,11,2,4,0,0,8,0,0,12,3,0,0,1,0,9,0,13,0,6,1,2,9,10,0,14,5,7,2,3,10,11,0,15,6,8,3,4,11,12,0,16,7,0,5,6,13,14,1,17,0,10,6,7,14,15,2,18,9,11,7,8,15,16,3,19,10,12,8,0,16,0,4,20,11,0,0,9,0,17,5,21,0,14,9,10,17,18,6,22,13,15,10,11,18,19,7,23,14,16,11,12,19,20,8,24,15,0,13,14,21,22,9,25,0,18,14,15,22,23,10,26,17,19,15,16,23,24,11,27,18,20,16,0,24,0,12,28,19,0,0,17,0,25,13,29,0,22,17,18,25,26,14,30,21,23,18,19,26,27,15,31,22,24,19,20,27,28,16,32,23,0,21,22,29,30,17,0,0,26,22,23,30,31,18,0,25,27,23,24,31,32,19,0,26,28,24,0,32,0,20,0,27,0,0,25,0,0,21,0,0,30,25,26,0,0,22,0,29,31,26,27,0,0,23,0,30,32,27,28,0,0,24,0,31,0}',
 '{1,2,3,4}', '{1,2,3,4}', '{1,2}', '{3,4}', '{1,2,3,4}', '{1,2,3,4}',
 false, true, 'none', false, false, false, false, false, 'end'),
(29, 8, 32, true,
 '{"b8","d8","f8","h8","a7","c7","e7","g7","b6","d6","f6","h6","a5","c5","e5","g5","b4","d4","f4","h4","a3","c3","e3","g3","b2","d2","f2","h2","a1","c1","e1","g1"}',
 '{8,8,8,8,7,7,7,7,6,6,6,6,5,5,5,5,4,4,4,4,3,3,3,3,2,2,2,2,1,1,1,1}',
 '{0,0,5,6,0,9,0,2,0,0,6,7,0,10,1,3,0,0,7,8,0,11,2,4,0,0,8,0,0,12,3,0,0,1,0,9,0,13,0,6,1,2,9,10,0,14,5,7,2,3,10,11,0,15,6,8,3,4,11,12,0,16,7,0,5,6,13,14,1,17,0,10,6,7,14,15,2,18,9,11,7,8,15,16,3,19,10,12,8,0,16,0,4,20,11,0,0,9,0,17,5,21,0,14,9,10,17,18,6,22,13,15,10,11,18,19,7,23,14,16,11,12,19,20,8,24,15,0,13,14,21,22,9,25,0,18,14,15,22,23,10,26,17,19,15,16,23,24,11,27,18,20,16,0,24,0,12,28,19,0,0,17,0,25,13,29,0,22,17,18,25,26,14,30,21,23,18,19,26,27,15,31,22,24,19,20,27,28,16,32,23,0,21,22,29,30,17,0,0,26,22,23,30,31,18,0,25,27,23,24,31,32,19,0,26,28,24,0,32,0,20,0,27,0,0,25,0,0,21,0,0,30,25,26,0,0,22,0,29,31,26,27,0,0,23,0,30,32,27,28,0,0,24,0,31,0}',
 '{1,2,3,4}', '{1,2,3,4}', '{1,2}', '{3,4}', '{1,2}', '{3,4}',
 false, true, 'none', true, false, false, false, false, 'end'),
(24, 8, 32, false,
 '{"h1","f1","d1","b1","g2","e2","c2","a2","h3","f3","d3","b3","g4","e4","c4","a4","h5","f5","d5","b5","g6","e6","c6","a6","h7","f7","d7","b7","g8","e8","c8","a8"}',
 '{1,1,1,1,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,6,6,6,6,7,7,7,7,8,8,8,8}',
 '{5,0,0,0,9,0,2,0,6,5,0,0,10,0,3,1,7,6,0,0,11,0,4,2,8,7,0,0,12,0,0,3,10,9,2,1,13,0,6,0,11,10,3,2,14,0,7,5,12,11,4,3,15,0,8,6,0,12,0,4,16,0,0,7,13,0,5,0,17,1,10,0,14,13,6,5,18,2,11,9,15,14,7,6,19,3,12,10,16,15,8,7,20,4,0,11,18,17,10,9,21,5,14,0,19,18,11,10,22,6,15,13,20,19,12,11,23,7,16,14,0,20,0,12,24,8,0,15,21,0,13,0,25,9,18,0,22,21,14,13,26,10,19,17,23,22,15,14,27,11,20,18,24,23,16,15,28,12,0,19,26,25,18,17,29,13,22,0,27,26,19,18,30,14,23,21,28,27,20,19,31,15,24,22,0,28,0,20,32,16,0,23,29,0,21,0,0,17,26,0,30,29,22,21,0,18,27,25,31,30,23,22,0,19,28,26,32,31,24,23,0,20,0,27,0,0,26,25,0,21,30,0,0,0,27,26,0,22,31,29,0,0,28,27,0,23,32,30,0,0,0,28,0,24,0,31}',
 '{1,2,3,4}', '{1,2,3,4}', '{1,2}', '{3,4}', '{1,2}', '{3,4}',
 false, true, 'kings', false, false, false, false, false, 'end'),
(22, 8, 32, false,
 '{"a8","c8","e8","g8","b7","d7","f7","h7","a6","c6","e6","g6","b5","d5","f5","h5","a4","c4","e4","g4","b3","d3","f3","h3","a2","c2","e2","g2","b1","d1","f1","h1"}',
 '{8,8,8,8,7,7,7,7,6,6,6,6,5,5,5,5,4,4,4,4,3,3,3,3,2,2,2,2,1,1,1,1}',
 '{0,0,0,5,0,9,0,2,0,0,5,6,0,10,1,3,0,0,6,7,0,11,2,4,0,0,7,8,0,12,3,0,1,2,9,10,0,13,0,6,2,3,10,11,0,14,5,7,3,4,11,12,0,15,6,8,4,0,12,0,0,16,7,0,0,5,0,13,1,17,0,10,5,6,13,14,2,18,9,11,6,7,14,15,3,19,10,12,7,8,15,16,4,20,11,0,9,10,17,18,5,21,0,14,10,11,18,19,6,22,13,15,11,12,19,20,7,23,14,16,12,0,20,0,8,24,15,0,0,13,0,21,9,25,0,18,13,14,21,22,10,26,17,19,14,15,22,23,11,27,18,20,15,16,23,24,12,28,19,0,17,18,25,26,13,29,0,22,18,19,26,27,14,30,21,23,19,20,27,28,15,31,22,24,20,0,28,0,16,32,23,0,0,21,0,29,17,0,0,26,21,22,29,30,18,0,25,27,22,23,30,31,19,0,26,28,23,24,31,32,20,0,27,0,25,26,0,0,21,0,0,30,26,27,0,0,22,0,29,31,27,28,0,0,23,0,30,32,28,0,0,0,24,0,31,0}',
 '{1,2,3,4}', '{1,2,3,4}', '{1,2}', '{3,4}', '{1,2}', '{3,4}',
 true, false, 'italian', false, false, false, false, false, 'end'),
(31, 8, 32, false,
 '{"g1","e1","c1","a1","h2","f2","d2","b2","g3","e3","c3","a3","h4","f4","d4","b4","g5","e5","c5","a5","h6","f6","d6","b6","g7","e7","c7","a7","h8","f8","d8","b8"}',
 '{1,1,1,1,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,6,6,6,6,7,7,7,7,8,8,8,8}',
 '{6,5,0,0,9,0,2,0,7,6,0,0,10,0,3,1,8,7,0,0,11,0,4,2,0,8,0,0,12,0,0,3,9,0,1,0,13,0,6,0,10,9,2,1,14,0,7,5,11,10,3,2,15,0,8,6,12,11,4,3,16,0,0,7,14,13,6,5,17,1,10,0,15,14,7,6,18,2,11,9,16,15,8,7,19,3,12,10,0,16,0,8,20,4,0,11,17,0,9,0,21,5,14,0,18,17,10,9,22,6,15,13,19,18,11,10,23,7,16,14,20,19,12,11,24,8,0,15,22,21,14,13,25,9,18,0,23,22,15,14,26,10,19,17,24,23,16,15,27,11,20,18,0,24,0,16,28,12,0,19,25,0,17,0,29,13,22,0,26,25,18,17,30,14,23,21,27,26,19,18,31,15,24,22,28,27,20,19,32,16,0,23,30,29,22,21,0,17,26,0,31,30,23,22,0,18,27,25,32,31,24,23,0,19,28,26,0,32,0,24,0,20,0,27,0,0,25,0,0,21,30,0,0,0,26,25,0,22,31,29,0,0,27,26,0,23,32,30,0,0,28,27,0,24,0,31}',
 '{1,2,3,4}', '{1,2,3,4}', '{1,2}', '{3,4}', '{1,2}', '{3,4}',
 false, true, 'none', false, false, true, true, false, 'end'),
(0, 10, 50, false,
 '{"b10","d10","f10","h10","j10","a9","c9","e9","g9","i9","b8","d8","f8","h8","j8","a7","c7","e7","g7","i7","b6","d6","f6","h6","j6","a5","c5","e5","g5","i5","b4","d4","f4","h4","j4","a3","c3","e3","g3","i3","b2","d2","f2","h2","j2","a1","c1","e1","g1","i1"}',
 '{10,10,10,10,10,9,9,9,9,9,8,8,8,8,8,7,7,7,7,7,6,6,6,6,6,5,5,5,5,5,4,4,4,4,4,3,3,3,3,3,2,2,2,2,2,1,1,1,1,1}',
 '{0,0,6,7,0,11,0,2,0,0,7,8,0,12,1,3,0,0,8,9,0,13,2,4,0,0,9,10,0,14,3,5,0,0,10,0,0,15,4,0,0,1,0,11,0,16,0,7,1,2,11,12,0,17,6,8,2,3,12,13,0,18,7,9,3,4,13,14,0,19,8,10,4,5,14,15,0,20,9,0,6,7,16,17,1,21,0,12,7,8,17,18,2,22,11,13,8,9,18,19,3,23,12,14,9,10,19,20,4,24,13,15,10,0,20,0,5,25,14,0,0,11,0,21,6,26,0,17,11,12,21,22,7,27,16,18,12,13,22,23,8,28,17,19,13,14,23,24,9,29,18,20,14,15,24,25,10,30,19,0,16,17,26,27,11,31,0,22,17,18,27,28,12,32,21,23,18,19,28,29,13,33,22,24,19,20,29,30,14,34,23,25,20,0,30,0,15,35,24,0,0,21,0,31,16,36,0,27,21,22,31,32,17,37,26,28,22,23,32,33,18,38,27,29,23,24,33,34,19,39,28,30,24,25,34,35,20,40,29,0,26,27,36,37,21,41,0,32,27,28,37,38,22,42,31,33,28,29,38,39,23,43,32,34,29,30,39,40,24,44,33,35,30,0,40,0,25,45,34,0,0,31,0,41,26,46,0,37,31,32,41,42,27,47,36,38,32,33,42,43,28,48,37,39,33,34,43,44,29,49,38,40,34,35,44,45,30,50,39,0,36,37,46,47,31,0,0,42,37,38,47,48,32,0,41,43,38,39,48,49,33,0,42,44,39,40,49,50,34,0,43,45,40,0,50,0,35,0,44,0,0,41,0,0,36,0,0,47,41,42,0,0,37,0,46,48,42,43,0,0,38,0,47,49,43,44,0,0,39,0,48,50,44,45,0,0,40,0,49,0}',
 '{1,2,3,4}', '{1,2,3,4}', '{1,2}', '{3,4}', '{1,2,3,4}', '{1,2,3,4}',
 false, true, 'count', false, true, false, false, false, 'end'),
(98, 10, 50, false,
 '{"b10","d10","f10","h10","j10","a9","c9","e9","g9","i9","b8","d8","f8","h8","j8","a7","c7","e7","g7","i7","b6","d6","f6","h6","j6","a5","c5","e5","g5","i5","b4","d4","f4","h4","j4","a3","c3","e3","g3","i3","b2","d2","f2","h2","j2","a1","c1","e1","g1","i1"}',
 '{10,10,10,10,10,9,9,9,9,9,8,8,8,8,8,7,7,7,7,7,6,6,6,6,6,5,5,5,5,5,4,4,4,4,4,3,3,3,3,3,2,2,2,2,2,1,1,1,1,1}',
 '{0,0,6,7,0,11,0,2,0,0,7,8,0,12,1,3,0,0,8,9,0,13,2,4,0,0,9,10,0,14,3,5,0,0,10,0,0,15,4,0,0,1,0,11,0,16,0,7,1,2,11,12,0,17,6,8,2,3,12,13,0,18,7,9,3,4,13,14,0,19,8,10,4,5,14,15,0,20,9,0,6,7,16,17,1,21,0,12,7,8,17,18,2,22,11,13,8,9,18,19,3,23,12,14,9,10,19,20,4,24,13,15,10,0,20,0,5,25,14,0,0,11,0,21,6,26,0,17,11,12,21,22,7,27,16,18,12,13,22,23,8,28,17,19,13,14,23,24,9,29,18,20,14,15,24,25,10,30,19,0,16,17,26,27,11,31,0,22,17,18,27,28,12,32,21,23,18,19,28,29,13,33,22,24,19,20,29,30,14,34,23,25,20,0,30,0,15,35,24,0,0,21,0,31,16,36,0,27,21,22,31,32,17,37,26,28,22,23,32,33,18,38,27,29,23,24,33,34,19,39,28,30,24,25,34,35,20,40,29,0,26,27,36,37,21,41,0,32,27,28,37,38,22,42,31,33,28,29,38,39,23,43,32,34,29,30,39,40,24,44,33,35,30,0,40,0,25,45,34,0,0,31,0,41,26,46,0,37,31,32,41,42,27,47,36,38,32,33,42,43,28,48,37,39,33,34,43,44,29,49,38,40,34,35,44,45,30,50,39,0,36,37,46,47,31,0,0,42,37,38,47,48,32,0,41,43,38,39,48,49,33,0,42,44,39,40,49,50,34,0,43,45,40,0,50,0,35,0,44,0,0,41,0,0,36,0,0,47,41,42,0,0,37,0,46,48,42,43,0,0,38,0,47,49,43,44,0,0,39,0,48,50,44,45,0,0,40,0,49,0}',
 '{1,2,3,4}', '{1,2,3,4}', '{1,2}', '{3,4}', '{1,2,3,4}', '{1,2,3,4}',
 false, true, 'count', false, false, false, false, false, 'end'),
(96, 10, 50, false,
 '{"b10","d10","f10","h10","j10","a9","c9","e9","g9","i9","b8","d8","f8","h8","j8","a7","c7","e7","g7","i7","b6","d6","f6","h6","j6","a5","c5","e5","g5","i5","b4","d4","f4","h4","j4","a3","c3","e3","g3","i3","b2","d2","f2","h2","j2","a1","c1","e1","g1","i1"}',
 '{10,10,10,10,10,9,9,9,9,9,8,8,8,8,8,7,7,7,7,7,6,6,6,6,6,5,5,5,5,5,4,4,4,4,4,3,3,3,3,3,2,2,2,2,2,1,1,1,1,1}',
 '{0,0,6,7,0,11,0,2,0,0,7,8,0,12,1,3,0,0,8,9,0,13,2,4,0,0,9,10,0,14,3,5,0,0,10,0,0,15,4,0,0,1,0,11,0,16,0,7,1,2,11,12,0,17,6,8,2,3,12,13,0,18,7,9,3,4,13,14,0,19,8,10,4,5,14,15,0,20,9,0,6,7,16,17,1,21,0,12,7,8,17,18,2,22,11,13,8,9,18,19,3,23,12,14,9,10,19,20,4,24,13,15,10,0,20,0,5,25,14,0,0,11,0,21,6,26,0,17,11,12,21,22,7,27,16,18,12,13,22,23,8,28,17,19,13,14,23,24,9,29,18,20,14,15,24,25,10,30,19,0,16,17,26,27,11,31,0,22,17,18,27,28,12,32,21,23,18,19,28,29,13,33,22,24,19,20,29,30,14,34,23,25,20,0,30,0,15,35,24,0,0,21,0,31,16,36,0,27,21,22,31,32,17,37,26,28,22,23,32,33,18,38,27,29,23,24,33,34,19,39,28,30,24,25,34,35,20,40,29,0,26,27,36,37,21,41,0,32,27,28,37,38,22,42,31,33,28,29,38,39,23,43,32,34,29,30,39,40,24,44,33,35,30,0,40,0,25,45,34,0,0,31,0,41,26,46,0,37,31,32,41,42,27,47,36,38,32,33,42,43,28,48,37,39,33,34,43,44,29,49,38,40,34,35,44,45,30,50,39,0,36,37,46,47,31,0,0,42,37,38,47,48,32,0,41,43,38,39,48,49,33,0,42,44,39,40,49,50,34,0,43,45,40,0,50,0,35,0,44,0,0,41,0,0,36,0,0,47,41,42,0,0,37,0,46,48,42,43,0,0,38,0,47,49,43,44,0,0,39,0,48,50,44,45,0,0,40,0,49,0}',
 '{1,2,3,4}', '{1,2,3,4}', '{1,2}', '{3,4}', '{1,2,3,4}', '{1,2,3,4}',
 false, true, 'count', false, false, false, false, false, 'end'),
(40, 10, 50, false,
 '{"b10","d10","f10","h10","j10","a9","c9","e9","g9","i9","b8","d8","f8","h8","j8","a7","c7","e7","g7","i7","b6","d6","f6","h6","j6","a5","c5","e5","g5","i5","b4","d4","f4","h4","j4","a3","c3","e3","g3","i3","b2","d2","f2","h2","j2","a1","c1","e1","g1","i1"}',
 '{10,10,10,10,10,9,9,9,9,9,8,8,8,8,8,7,7,7,7,7,6,6,6,6,6,5,5,5,5,5,4,4,4,4,4,3,3,3,3,3,2,2,2,2,2,1,1,1,1,1}',
 '{0,0,6,7,0,11,0,2,0,0,7,8,0,12,1,3,0,0,8,9,0,13,2,4,0,0,9,10,0,14,3,5,0,0,10,0,0,15,4,0,0,1,0,11,0,16,0,7,1,2,11,12,0,17,6,8,2,3,12,13,0,18,7,9,3,4,13,14,0,19,8,10,4,5,14,15,0,20,9,0,6,7,16,17,1,21,0,12,7,8,17,18,2,22,11,13,8,9,18,19,3,23,12,14,9,10,19,20,4,24,13,15,10,0,20,0,5,25,14,0,0,11,0,21,6,26,0,17,11,12,21,22,7,27,16,18,12,13,22,23,8,28,17,19,13,14,23,24,9,29,18,20,14,15,24,25,10,30,19,0,16,17,26,27,11,31,0,22,17,18,27,28,12,32,21,23,18,19,28,29,13,33,22,24,19,20,29,30,14,34,23,25,20,0,30,0,15,35,24,0,0,21,0,31,16,36,0,27,21,22,31,32,17,37,26,28,22,23,32,33,18,38,27,29,23,24,33,34,19,39,28,30,24,25,34,35,20,40,29,0,26,27,36,37,21,41,0,32,27,28,37,38,22,42,31,33,28,29,38,39,23,43,32,34,29,30,39,40,24,44,33,35,30,0,40,0,25,45,34,0,0,31,0,41,26,46,0,37,31,32,41,42,27,47,36,38,32,33,42,43,28,48,37,39,33,34,43,44,29,49,38,40,34,35,44,45,30,50,39,0,36,37,46,47,31,0,0,42,37,38,47,48,32,0,41,43,38,39,48,49,33,0,42,44,39,40,49,50,34,0,43,45,40,0,50,0,35,0,44,0,0,41,0,0,36,0,0,47,41,42,0,0,37,0,46,48,42,43,0,0,38,0,47,49,43,44,0,0,39,0,48,50,44,45,0,0,40,0,49,0}',
 '{1,2,3,4,5,6,7,8}', '{1,2,3,4}', '{1,2}', '{3,4}', '{1,2,3,4,5,6,7,8}', '{1,2,3,4,5,6,7,8}',
 false, true, 'value', false, false, false, false, false, 'end'),
(97, 10, 50, false,
 '{"b10","d10","f10","h10","j10","a9","c9","e9","g9","i9","b8","d8","f8","h8","j8","a7","c7","e7","g7","i7","b6","d6","f6","h6","j6","a5","c5","e5","g5","i5","b4","d4","f4","h4","j4","a3","c3","e3","g3","i3","b2","d2","f2","h2","j2","a1","c1","e1","g1","i1"}',
 '{10,10,10,10,10,9,9,9,9,9,8,8,8,8,8,7,7,7,7,7,6,6,6,6,6,5,5,5,5,5,4,4,4,4,4,3,3,3,3,3,2,2,2,2,2,1,1,1,1,1}',
 '{0,0,6,7,0,11,0,2,0,0,7,8,0,12,1,3,0,0,8,9,0,13,2,4,0,0,9,10,0,14,3,5,0,0,10,0,0,15,4,0,0,1,0,11,0,16,0,7,1,2,11,12,0,17,6,8,2,3,12,13,0,18,7,9,3,4,13,14,0,19,8,10,4,5,14,15,0,20,9,0,6,7,16,17,1,21,0,12,7,8,17,18,2,22,11,13,8,9,18,19,3,23,12,14,9,10,19,20,4,24,13,15,10,0,20,0,5,25,14,0,0,11,0,21,6,26,0,17,11,12,21,22,7,27,16,18,12,13,22,23,8,28,17,19,13,14,23,24,9,29,18,20,14,15,24,25,10,30,19,0,16,17,26,27,11,31,0,22,17,18,27,28,12,32,21,23,18,19,28,29,13,33,22,24,19,20,29,30,14,34,23,25,20,0,30,0,15,35,24,0,0,21,0,31,16,36,0,27,21,22,31,32,17,37,26,28,22,23,32,33,18,38,27,29,23,24,33,34,19,39,28,30,24,25,34,35,20,40,29,0,26,27,36,37,21,41,0,32,27,28,37,38,22,42,31,33,28,29,38,39,23,43,32,34,29,30,39,40,24,44,33,35,30,0,40,0,25,45,34,0,0,31,0,41,26,46,0,37,31,32,41,42,27,47,36,38,32,33,42,43,28,48,37,39,33,34,43,44,29,49,38,40,34,35,44,45,30,50,39,0,36,37,46,47,31,0,0,42,37,38,47,48,32,0,41,43,38,39,48,49,33,0,42,44,39,40,49,50,34,0,43,45,40,0,50,0,35,0,44,0,0,41,0,0,36,0,0,47,41,42,0,0,37,0,46,48,42,43,0,0,38,0,47,49,43,44,0,0,39,0,48,50,44,45,0,0,40,0,49,0}',
 '{1,2,3,4,5,6,7,8}', '{1,2,3,4}', '{1,2}', '{3,4}', '{1,2,3,4,5,6,7,8}', '{1,2,3,4,5,6,7,8}',
 false, true, 'value', false, false, false, false, false, 'end'),
(30, 8, 64, true,
 '{"a8","b8","c8","d8","e8","f8","g8","h8","a7","b7","c7","d7","e7","f7","g7","h7","a6","b6","c6","d6","e6","f6","g6","h6","a5","b5","c5","d5","e5","f5","g5","h5","a4","b4","c4","d4","e4","f4","g4","h4","a3","b3","c3","d3","e3","f3","g3","h3","a2","b2","c2","d2","e2","f2","g2","h2","a1","b1","c1","d1","e1","f1","g1","h1"}',
 '{8,8,8,8,8,8,8,8,7,7,7,7,7,7,7,7,6,6,6,6,6,6,6,6,5,5,5,5,5,5,5,5,4,4,4,4,4,4,4,4,3,3,3,3,3,3,3,3,2,2,2,2,2,2,2,2,1,1,1,1,1,1,1,1}',
 '{0,0,0,10,0,9,0,2,0,0,9,11,0,10,1,3,0,0,10,12,0,11,2,4,0,0,11,13,0,12,3,5,0,0,12,14,0,13,4,6,0,0,13,15,0,14,5,7,0,0,14,16,0,15,6,8,0,0,15,0,0,16,7,0,0,2,0,18,1,17,0,10,1,3,17,19,2,18,9,11,2,4,18,20,3,19,10,12,3,5,19,21,4,20,11,13,4,6,20,22,5,21,12,14,5,7,21,23,6,22,13,15,6,8,22,24,7,23,14,16,7,0,23,0,8,24,15,0,0,10,0,26,9,25,0,18,9,11,25,27,10,26,17,19,10,12,26,28,11,27,18,20,11,13,27,29,12,28,19,21,12,14,28,30,13,29,20,22,13,15,29,31,14,30,21,23,14,16,30,32,15,31,22,24,15,0,31,0,16,32,23,0,0,18,0,34,17,33,0,26,17,19,33,35,18,34,25,27,18,20,34,36,19,35,26,28,19,21,35,37,20,36,27,29,20,22,36,38,21,37,28,30,21,23,37,39,22,38,29,31,22,24,38,40,23,39,30,32,23,0,39,0,24,40,31,0,0,26,0,42,25,41,0,34,25,27,41,43,26,42,33,35,26,28,42,44,27,43,34,36,27,29,43,45,28,44,35,37,28,30,44,46,29,45,36,38,29,31,45,47,30,46,37,39,30,32,46,48,31,47,38,40,31,0,47,0,32,48,39,0,0,34,0,50,33,49,0,42,33,35,49,51,34,50,41,43,34,36,50,52,35,51,42,44,35,37,51,53,36,52,43,45,36,38,52,54,37,53,44,46,37,39,53,55,38,54,45,47,38,40,54,56,39,55,46,48,39,0,55,0,40,56,47,0,0,42,0,58,41,57,0,50,41,43,57,59,42,58,49,51,42,44,58,60,43,59,50,52,43,45,59,61,44,60,51,53,44,46,60,62,45,61,52,54,45,47,61,63,46,62,53,55,46,48,62,64,47,63,54,56,47,0,63,0,48,64,55,0,0,50,0,0,49,0,0,58,49,51,0,0,50,0,57,59,50,52,0,0,51,0,58,60,51,53,0,0,52,0,59,61,52,54,0,0,53,0,60,62,53,55,0,0,54,0,61,63,54,56,0,0,55,0,62,64,55,0,0,0,56,0,63,0}',
 '{5,6,7,8}', '{5,6,7,8}', '{5,7,8}', '{6,7,8}', '{5,7,8}', '{6,7,8}',
 false, true, 'count', false, false, true, false, true, 'end');
-- END MOVE RULES

-- A move or a capture chain: its start and end, the squares it lands on in
-- order (the end last), the pieces it takes in order, whether the piece is
-- crowned, whether it is a king's move.
CREATE TYPE draughtsdb_chain AS (
    from_sq   integer,
    to_sq     integer,
    path      integer[],
    captured  integer[],
    promotes  boolean,
    with_king boolean
);

-- The complete capture chains of a king (or of a man crowned on the way,
-- promoted) of side (0 White, 1 Black) that started on from_sq, stands on
-- cur, arrived in direction last (0 at the start), has landed on path and
-- taken caps. Board b: b[sq] is 0 empty, 1 white man, 2 white king, 3
-- black man, 4 black king, as before the move (the mover still on from_sq,
-- which counts as empty).
CREATE FUNCTION draughtsdb_king_chains(r draughtsdb_move_rules, b smallint[], side integer, from_sq integer,
                                       cur integer, last integer, path integer[], caps integer[], promoted boolean)
    RETURNS draughtsdb_chain[]
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    AS $$
    DECLARE
        back constant integer[] := '{4,3,2,1,6,5,8,7}';
        chains draughtsdb_chain[] := '{}';
        sub draughtsdb_chain[];
        king boolean := b[from_sq] IN (2, 4);
        d integer;
        t integer;
        l integer;
        s integer;
        cont boolean;
    BEGIN
        FOREACH d IN ARRAY r.capture_dirs LOOP
            CONTINUE WHEN r.no_turn_back AND last > 0 AND d = back[last];
            t := r.next[8 * (cur - 1) + d];
            IF r.flying THEN
                WHILE t > 0 AND (t = from_sq OR b[t] = 0 OR (r.removed_at_once AND t = ANY (caps))) LOOP
                    t := r.next[8 * (t - 1) + d];
                END LOOP;
            END IF;
            -- The piece to jump: the opponent's, not taken before (a taken
            -- piece still on the board blocks the line).
            CONTINUE WHEN t = 0 OR t = from_sq OR b[t] = 0 OR (b[t] - 1) / 2 = side OR t = ANY (caps);
            l := r.next[8 * (t - 1) + d];
            CONTINUE WHEN l = 0 OR NOT (l = from_sq OR b[l] = 0 OR (r.removed_at_once AND l = ANY (caps)));
            IF NOT r.flying OR r.lands_behind THEN
                sub := draughtsdb_king_chains(r, b, side, from_sq, l, d, path || l, caps || t, promoted);
                IF cardinality(sub) = 0 THEN
                    chains := chains || ROW(from_sq, l, path || l, caps || t, promoted, king)::draughtsdb_chain;
                ELSE
                    chains := chains || sub;
                END IF;
                CONTINUE;
            END IF;
            -- Where some landing square lets the chain go on, the king
            -- lands on one of those; otherwise on any of them.
            cont := false;
            s := l;
            WHILE s > 0 AND (s = from_sq OR b[s] = 0 OR (r.removed_at_once AND s = ANY (caps || t))) LOOP
                sub := draughtsdb_king_chains(r, b, side, from_sq, s, d, path || s, caps || t, promoted);
                IF cardinality(sub) > 0 THEN
                    cont := true;
                    chains := chains || sub;
                END IF;
                s := r.next[8 * (s - 1) + d];
            END LOOP;
            CONTINUE WHEN cont;
            IF r.killer AND b[t] IN (2, 4) THEN
                chains := chains || ROW(from_sq, l, path || l, caps || t, promoted, king)::draughtsdb_chain;
                CONTINUE;
            END IF;
            s := l;
            WHILE s > 0 AND (s = from_sq OR b[s] = 0 OR (r.removed_at_once AND s = ANY (caps || t))) LOOP
                chains := chains || ROW(from_sq, s, path || s, caps || t, promoted, king)::draughtsdb_chain;
                s := r.next[8 * (s - 1) + d];
            END LOOP;
        END LOOP;
        RETURN chains;
    END
    $$;

-- The complete capture chains of a man of side that started on from_sq
-- and stands on cur (as draughtsdb_king_chains).
CREATE FUNCTION draughtsdb_man_chains(r draughtsdb_move_rules, b smallint[], side integer, from_sq integer,
                                      cur integer, last integer, path integer[], caps integer[])
    RETURNS draughtsdb_chain[]
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    AS $$
    DECLARE
        back constant integer[] := '{4,3,2,1,6,5,8,7}';
        chains draughtsdb_chain[] := '{}';
        sub draughtsdb_chain[];
        d integer;
        t integer;
        l integer;
        crowned boolean;
    BEGIN
        FOREACH d IN ARRAY CASE side WHEN 0 THEN r.white_capture_dirs ELSE r.black_capture_dirs END LOOP
            CONTINUE WHEN r.no_turn_back AND last > 0 AND d = back[last];
            t := r.next[8 * (cur - 1) + d];
            CONTINUE WHEN t = 0 OR t = from_sq OR b[t] = 0 OR (b[t] - 1) / 2 = side OR t = ANY (caps)
                          OR (r.men_spare_kings AND b[t] IN (2, 4));
            l := r.next[8 * (t - 1) + d];
            CONTINUE WHEN l = 0 OR NOT (l = from_sq OR b[l] = 0 OR (r.removed_at_once AND l = ANY (caps)));
            crowned := r.ranks[l] = CASE side WHEN 0 THEN r.height ELSE 1 END;
            IF crowned AND r.promotion = 'continue' THEN
                sub := draughtsdb_king_chains(r, b, side, from_sq, l, d, path || l, caps || t, true);
            ELSIF crowned AND r.promotion = 'stop' THEN
                sub := '{}';
            ELSE
                sub := draughtsdb_man_chains(r, b, side, from_sq, l, d, path || l, caps || t);
            END IF;
            IF cardinality(sub) = 0 THEN
                chains := chains || ROW(from_sq, l, path || l, caps || t, crowned, false)::draughtsdb_chain;
            ELSE
                chains := chains || sub;
            END IF;
        END LOOP;
        RETURN chains;
    END
    $$;

-- The legal moves of side in position b: the captures that the variant
-- allows (compulsory; kings first where Czech; the best by its majority
-- rule), else the plain moves.
CREATE FUNCTION draughtsdb_legal_moves(r draughtsdb_move_rules, b smallint[], side integer)
    RETURNS draughtsdb_chain[]
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    AS $$
    DECLARE
        chains draughtsdb_chain[] := '{}';
        sq integer;
        d integer;
        t integer;
    BEGIN
        FOR sq IN 1 .. r.squares LOOP
            CONTINUE WHEN b[sq] = 0 OR (b[sq] - 1) / 2 <> side;
            IF b[sq] IN (2, 4) THEN
                chains := chains || draughtsdb_king_chains(r, b, side, sq, sq, 0, '{}', '{}', false);
            ELSE
                chains := chains || draughtsdb_man_chains(r, b, side, sq, sq, 0, '{}', '{}');
            END IF;
        END LOOP;
        IF cardinality(chains) > 0 THEN
            IF r.king_precedence AND EXISTS (SELECT FROM unnest(chains) c WHERE c.with_king) THEN
                chains := ARRAY(SELECT c FROM unnest(chains) c WHERE c.with_king);
            END IF;
            IF r.majority <> 'none' THEN
                -- The rank of a chain, as the rules package orders them:
                -- the pieces taken, then (kings) the kings taken; (italian)
                -- the pieces, a king's capture, the kings, how early the
                -- kings come; (value) pieces plus kings, less a little per
                -- king, then a king's capture.
                chains := ARRAY(
                    WITH c AS (
                        SELECT c, cardinality(c.captured)::numeric AS n,
                               (SELECT count(*) FROM unnest(c.captured) x WHERE b[x] IN (2, 4))::numeric AS k,
                               c.with_king::integer::numeric AS w,
                               (SELECT coalesce(sum(2::numeric ^ (31 - ((i - 1) % 32))), 0)
                                FROM unnest(c.captured) WITH ORDINALITY AS u(x, i) WHERE b[x] IN (2, 4)) AS ord
                        FROM unnest(chains) c),
                    ranked AS (
                        SELECT c, CASE r.majority
                                      WHEN 'kings' THEN n * 256 + k
                                      WHEN 'italian' THEN n * 2::numeric ^ 56 + w * 2::numeric ^ 55 + k * 2::numeric ^ 48 + ord
                                      WHEN 'value' THEN ((n + k) * 64 - k) * 2 + w
                                      ELSE n END AS rank
                        FROM c)
                    SELECT c FROM ranked WHERE rank = (SELECT max(rank) FROM ranked));
            END IF;
            RETURN chains;
        END IF;
        FOR sq IN 1 .. r.squares LOOP
            CONTINUE WHEN b[sq] = 0 OR (b[sq] - 1) / 2 <> side;
            IF b[sq] IN (2, 4) THEN
                FOREACH d IN ARRAY r.king_dirs LOOP
                    t := r.next[8 * (sq - 1) + d];
                    WHILE t > 0 AND b[t] = 0 LOOP
                        chains := chains || ROW(sq, t, ARRAY[t], '{}'::integer[], false, true)::draughtsdb_chain;
                        EXIT WHEN NOT r.flying;
                        t := r.next[8 * (t - 1) + d];
                    END LOOP;
                END LOOP;
            ELSE
                FOREACH d IN ARRAY CASE side WHEN 0 THEN r.white_man_dirs ELSE r.black_man_dirs END LOOP
                    t := r.next[8 * (sq - 1) + d];
                    CONTINUE WHEN t = 0 OR b[t] <> 0;
                    chains := chains || ROW(sq, t, ARRAY[t], '{}'::integer[],
                                            r.ranks[t] = CASE side WHEN 0 THEN r.height ELSE 1 END, false)::draughtsdb_chain;
                END LOOP;
            END IF;
        END LOOP;
        RETURN chains;
    END
    $$;

-- A move as its variant's players write it, with its full path.
CREATE FUNCTION draughtsdb_chain_text(r draughtsdb_move_rules, c draughtsdb_chain) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT CASE WHEN r.algebraic THEN r.names[c.from_sq] ELSE c.from_sq::text END
           || string_agg(CASE WHEN cardinality(c.captured) = 0 THEN '-' WHEN r.algebraic THEN ':' ELSE 'x' END
                         || CASE WHEN r.algebraic THEN r.names[s] ELSE s::text END, '' ORDER BY i)
    FROM unnest(c.path) WITH ORDINALITY AS u(s, i)
    $$;

-- The board of a FEN (b[sq] as draughtsdb_king_chains) and its side to
-- move (0 White, 1 Black); the FEN is first read by draughtsdb_hash, so
-- one that it refuses is refused here with its reason.
CREATE FUNCTION draughtsdb_fen_board(variant text, fen text, OUT side integer, OUT board smallint[])
    LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
    AS $$
    DECLARE
        r draughtsdb_move_rules;
        v draughtsdb_variants;
        names text[];    -- the squares' names as a FEN writes them (draughtsdb_hash's)
        s text;
        f text;
        tok text;
        lo text;
        hi text;
        white boolean;
        king boolean;
        a integer;
        e integer;
        i integer;
    BEGIN
        PERFORM draughtsdb_hash(variant, fen);
        SELECT * INTO r FROM draughtsdb_move_rules m WHERE m.variant = draughtsdb_variant_id($1);
        SELECT * INTO v FROM draughtsdb_variants d WHERE d.id = r.variant;
        names := ARRAY(SELECT draughtsdb_board_square_name(v.width, v.all_squares, v.mirrored, v.reversed, n)
                       FROM generate_series(1, r.squares) AS n ORDER BY n);
        board := array_fill(0::smallint, ARRAY[r.squares]);
        s := rtrim(btrim(btrim(btrim(fen), '"'''), ' '), '. ' || chr(9));
        side := CASE WHEN upper(btrim(split_part(s, ':', 1))) = 'B' THEN 1 ELSE 0 END;
        FOR i IN 2 .. coalesce(array_length(string_to_array(s, ':'), 1), 1) LOOP
            f := btrim(split_part(s, ':', i));
            CONTINUE WHEN f = '' OR upper(left(f, 1)) NOT IN ('W', 'B');
            white := upper(left(f, 1)) = 'W';
            FOREACH tok IN ARRAY string_to_array(substr(f, 2), ',') LOOP
                tok := btrim(rtrim(btrim(tok), '.'));
                CONTINUE WHEN tok = '';
                king := left(tok, 1) = 'K' OR (left(tok, 1) = 'k' AND (r.height < 11 OR tok !~ '^k[0-9]'));
                IF king THEN tok := btrim(substr(tok, 2)); END IF;
                lo := tok; hi := tok;
                IF strpos(tok, '-') > 1 THEN
                    lo := btrim(split_part(tok, '-', 1));
                    hi := btrim(substr(tok, strpos(tok, '-') + 1));
                    IF left(hi, 1) = 'K' OR (left(hi, 1) = 'k' AND (r.height < 11 OR hi !~ '^k[0-9]')) THEN hi := substr(hi, 2); END IF;
                END IF;
                a := CASE WHEN lo ~ '^[0-9]+$' THEN lo::integer ELSE array_position(names, lower(lo)) END;
                e := CASE WHEN hi ~ '^[0-9]+$' THEN hi::integer ELSE array_position(names, lower(hi)) END;
                FOR sq IN a .. e LOOP
                    board[sq] := CASE WHEN white THEN 1 ELSE 3 END + king::integer;
                END LOOP;
            END LOOP;
        END LOOP;
    END
    $$;

-- The squares of one move text as the importer reads it (replay's
-- parseMoveText): numbers or algebraic names joined by -, x, X or :
-- ("32-28", "28x19x10", "c3:e5", "01-07"), algebraic squares glued
-- ("c3d4"), or the Russian short form "cd4" (only the start's file, in
-- short_file). sqs is NULL when the text is none of these.
CREATE FUNCTION draughtsdb_move_squares(r draughtsdb_move_rules, tok text, OUT sqs integer[], OUT short_file text)
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
    DECLARE
        parts text[];
        p text;
        sq integer;
    BEGIN
        IF tok ~* '^[a-l][a-l][0-9]{1,2}$' THEN
            sq := array_position(r.names, lower(substr(tok, 2)));
            IF sq IS NOT NULL THEN
                sqs := ARRAY[sq];
                short_file := lower(left(tok, 1));
            END IF;
            RETURN;
        END IF;
        IF tok ~* '^([a-l][0-9]{1,2}){2,}$' THEN
            parts := ARRAY(SELECT m[1] FROM regexp_matches(tok, '([a-lA-L][0-9]{1,2})', 'g') AS m);
        ELSE
            parts := regexp_split_to_array(tok, '[-xX:]');
        END IF;
        IF cardinality(parts) < 2 THEN
            RETURN;
        END IF;
        sqs := '{}';
        FOREACH p IN ARRAY parts LOOP
            IF p ~ '^[0-9]{1,3}$' THEN
                sq := p::integer;
                IF sq < 1 OR sq > r.squares THEN sq := NULL; END IF;
            ELSE
                sq := array_position(r.names, lower(p));
            END IF;
            IF sq IS NULL THEN
                sqs := NULL;
                RETURN;
            END IF;
            sqs := sqs || sq;
        END LOOP;
    END
    $$;

-- The position after each move of PDN move text played from fen (''
-- for the variant's initial position): ply 0 (move NULL) is fen's, then
-- one row per move with its text and the hash after it. Move numbers
-- ("1.", "12..."), commas, comments in braces, marks (!, ?, +, *) and a
-- result (which ends the text) are skipped. An unknown variant, a FEN
-- draughtsdb_hash refuses, a text that is no move, a move that no legal
-- move fits or that several legal moves fit is an error naming the ply
-- and the move; so is a move after the side to move has none.
CREATE FUNCTION draughtsdb_hash_line(variant text, fen text, moves text)
    RETURNS TABLE (ply integer, move text, hash bigint)
    LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
    AS $$
    DECLARE
        r draughtsdb_move_rules;
        z draughtsdb_zobrist_variants;
        keys bigint[];   -- [1] Black to move, [1 + 4 (sq - 1) + piece] a piece
        b smallint[];
        side integer;
        h bigint;
        s text;
        raw text;
        tok text;
        mt record;
        legal draughtsdb_chain[];
        fitting draughtsdb_chain[];
        seen text[];
        c draughtsdb_chain;
        m draughtsdb_chain;
        exact boolean;
        n integer;
        i integer;
        j integer;
        k text;
        x integer;
        pc smallint;
        where_ text;
    BEGIN
        SELECT * INTO r FROM draughtsdb_move_rules mr WHERE mr.variant = draughtsdb_variant_id($1);
        IF NOT FOUND THEN
            RAISE EXCEPTION 'draughtsdb_hash_moves: variant %: not a variant draughtsdb plays (SELECT name FROM draughtsdb_variants lists them)', quote_literal($1);
        END IF;
        SELECT * INTO z FROM draughtsdb_zobrist_variants zv WHERE zv.variant = r.variant;
        keys := ARRAY(SELECT zk.key FROM draughtsdb_zobrist_keys zk WHERE zk.width = r.height AND zk.squares = r.squares
                      ORDER BY zk.square, zk.piece);
        IF btrim($2) = '' THEN
            fen := z.start_fen;
        END IF;
        SELECT f.side, f.board INTO side, b FROM draughtsdb_fen_board($1, fen) f;
        h := draughtsdb_hash($1, fen);
        ply := 0; move := NULL; hash := h;
        RETURN NEXT;
        s := replace(regexp_replace(moves, '\{[^}]*\}', ' ', 'g'), ',', ' ');
        FOREACH raw IN ARRAY regexp_split_to_array(btrim(s), '\s+') LOOP
            tok := regexp_replace(regexp_replace(raw, '^[0-9]+\.+', ''), '[!?+#*]+$', '');
            CONTINUE WHEN tok = '';
            EXIT WHEN tok IN ('1-0', '0-1', '2-0', '0-2', '1-1', '0-0', '1/2-1/2', '½-½');
            ply := ply + 1;
            where_ := format('moves %s: ply %s (%s to move), %s', quote_literal(moves), ply,
                             CASE side WHEN 0 THEN 'White' ELSE 'Black' END, quote_literal(tok));
            SELECT * INTO mt FROM draughtsdb_move_squares(r, tok);
            IF mt.sqs IS NULL THEN
                RAISE EXCEPTION 'draughtsdb_hash_moves: %: not a move (squares 1..% or their names, joined by - or x)', where_, r.squares;
            END IF;
            legal := draughtsdb_legal_moves(r, b, side);
            IF cardinality(legal) = 0 THEN
                RAISE EXCEPTION 'draughtsdb_hash_moves: %: the side to move has no legal move (the game is over)', where_;
            END IF;
            n := cardinality(mt.sqs);
            fitting := '{}';
            seen := '{}';
            exact := false;
            FOREACH c IN ARRAY legal LOOP
                IF mt.short_file IS NOT NULL THEN
                    CONTINUE WHEN c.to_sq <> mt.sqs[1] OR left(r.names[c.from_sq], 1) <> mt.short_file;
                ELSE
                    CONTINUE WHEN c.from_sq <> mt.sqs[1] OR c.to_sq <> mt.sqs[n];
                    -- The text's full path wins over longer captures that
                    -- share its start and end.
                    IF cardinality(c.path) = n - 1 AND c.path = mt.sqs[2:n] THEN
                        m := c;
                        exact := true;
                        EXIT;
                    END IF;
                    -- Else its intermediate squares are among the landing
                    -- squares, in order.
                    j := 2;
                    FOR i IN 1 .. cardinality(c.path) - 1 LOOP
                        IF j < n AND c.path[i] = mt.sqs[j] THEN
                            j := j + 1;
                        END IF;
                    END LOOP;
                    CONTINUE WHEN j <> n;
                END IF;
                -- Paths that take the same pieces are one move.
                k := concat_ws('/', c.from_sq, c.to_sq, c.promotes, (SELECT string_agg(y::text, ',' ORDER BY y) FROM unnest(c.captured) y));
                CONTINUE WHEN k = ANY (seen);
                seen := seen || k;
                fitting := fitting || c;
            END LOOP;
            IF NOT exact THEN
                IF cardinality(fitting) = 0 THEN
                    RAISE EXCEPTION 'draughtsdb_hash_moves: %: not a legal move here (legal: %)', where_,
                        (SELECT string_agg(draughtsdb_chain_text(r, l), ', ') FROM (SELECT l FROM unnest(legal) l LIMIT 40) q);
                ELSIF cardinality(fitting) > 1 THEN
                    RAISE EXCEPTION 'draughtsdb_hash_moves: %: ambiguous, % legal moves fit it (%); write the capture''s full path',
                        where_, cardinality(fitting), (SELECT string_agg(draughtsdb_chain_text(r, f), ', ') FROM unnest(fitting) f);
                END IF;
                m := fitting[1];
            END IF;
            pc := b[m.from_sq];
            h := h # keys[1 + 4 * (m.from_sq - 1) + pc];
            b[m.from_sq] := 0;
            FOREACH x IN ARRAY m.captured LOOP
                h := h # keys[1 + 4 * (x - 1) + b[x]];
                b[x] := 0;
            END LOOP;
            IF m.promotes AND pc IN (1, 3) THEN
                pc := pc + 1;
            END IF;
            b[m.to_sq] := pc;
            h := h # keys[1 + 4 * (m.to_sq - 1) + pc] # keys[1];
            side := 1 - side;
            move := tok; hash := h;
            RETURN NEXT;
        END LOOP;
    END
    $$;

-- The hash after the moves, from the variant's initial position or from
-- fen; the errors are draughtsdb_hash_line's.
CREATE FUNCTION draughtsdb_hash_moves(variant text, moves text) RETURNS bigint
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    AS $$ SELECT l.hash FROM draughtsdb_hash_line($1, '', $2) l ORDER BY l.ply DESC LIMIT 1 $$;
CREATE FUNCTION draughtsdb_hash_moves(variant text, fen text, moves text) RETURNS bigint
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    AS $$ SELECT l.hash FROM draughtsdb_hash_line($1, $2, $3) l ORDER BY l.ply DESC LIMIT 1 $$;

-- Games ending at a position: the games of the given sources (NULL:
-- every source) of a variant whose final position has hash h, counted
-- through games.final_hash's index. The opening tree counts the games
-- that played a move at a position; these are the ones that stopped
-- there (finished or not), which the tree never shows.
CREATE INDEX games_final_hash ON games (final_hash);
CREATE FUNCTION draughtsdb_games_ending(variant integer, h bigint, sources bigint[]) RETURNS bigint
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
    SELECT count(*) FROM games g
    WHERE g.final_hash = $2 AND g.variant = $1 AND ($3 IS NULL OR g.source_id = ANY ($3))
    $$;
