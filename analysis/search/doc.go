// Package search is draughtsdb's game-tree search: it evaluates a position
// of any variant package rules plays (rules.Variants: the classic ones,
// Pool, Czech, Spanish, Italian, Thai, Turkish, Killer, Frisian, Frysk,
// antidraughts, breakthrough, ...) and finds the best move, for batch
// annotation and for the `draughtsdb hub` engine. It builds on replay/rules (LegalMoves, copy-make
// Play, Zobrist Hash) and is pure Go without I/O.
//
// # Using it
//
//	r := search.Search(pos, search.Options{Depth: 10}, nil)      // fresh engine
//	e := search.NewEngine(64)                                      // keep the 64 MB table
//	r := e.Search(ctx, pos, search.Options{MoveTime: time.Second}, func(it search.Result) {
//		// called after every completed iteration
//	})
//	r.Score, r.Depth, r.Best, r.PV, r.Nodes, r.Time, r.Mate, r.PliesToEnd()
//
// Options.Depth is the nominal depth in plies. Options.MoveTime stops the
// search when it runs out, and the search uses all of it: a new iteration
// starts whenever time is left. The last completed iteration is returned,
// with the move the stopped one found best if it got as far as one root
// move searched to its depth (its PV and score; Depth stays the completed
// one's), as Moby Dam and Scan play; the first iteration always
// completes. Neither set: DefaultDepth. Cancelling ctx stops the search
// the same way (if that happens during the first iteration, Best is the
// first legal move, Depth 0). Options.History gives
// the hashes of the game's earlier positions for repetition detection (a
// repeated position inside the search scores 0). Both are also checked
// between iterations. Options.Now replaces the clock (time.Now) of
// MoveTime and Result.Time: the tests drive the time control with a fake
// clock.
//
// Determinism: at a fixed depth without MoveTime nothing depends on the
// clock, and every search starts from an empty transposition table (each
// search has its own table generation, so a reused Engine behaves like a
// fresh one), empty killers and history. The same position, depth and
// History always give the same Score, Best, PV and Nodes.
//
// Options.Continue is the exception, for analysing a game: the positions
// of a game searched in order share much of their trees, so a search with
// Continue keeps the transposition table of the engine's earlier searches
// (entries of earlier searches give way first when the table is full),
// and at a fixed depth starts iterative deepening after the depth of the
// table's entry for the position (the previous position's search left it
// there at one ply less when the game followed its principal variation).
// Its result then depends on the searches since the last one without
// Continue; the same sequence of searches gives the same results. In game
// order analyze searches a quarter to two fifths fewer nodes than
// independent searches (BENCHMARKS.md). The result may differ from an
// independent search's where the table holds deeper results or another
// move first, as happens within one search: see "Game order" below.
//
// # Scores
//
// Scores are in hundredths of a man (a man = 100) from the side to move's
// view. A line ends where the variant's Win rule (rules.Variant.Win, as
// rules.Position.Outcome applies it) ends the game: a side to move without
// a legal move has lost, or won in antidraughts (WinWhenNoMove); in
// breakthrough (FirstKingWins) the side that made a king has won. The
// loser scores -(Win - ply) with Win = 30000 and ply counted from the
// root, so +29995 means the game is won 5 plies from now. |Score| >=
// MateThreshold (29000) marks a forced result; Result.Mate and PliesToEnd
// report it. The search stops early once the end of the game lies inside
// the horizon. A root position that is already decided returns its score
// and no move.
//
// Frisian's limit on moving one king (Variant.KingMoveLimit), which
// rules.Position.LegalMoves does not apply because it depends on the
// moves before, is applied along every line from Options.KingMoves (the
// game's rules.KingMoveCounter before the root; nil: a fresh one), so the
// best move and the PV never move a king a fourth time in a row; a side
// whose every move it forbids has no move and has lost (lidraughts' rule). The
// transposition table does not key on it: a position reached with another
// count may reuse a score (an approximation, like most of a search).
//
// The king-move draw rule (Variant.DrawKingPlies: Russian 30 plies of king
// moves without a capture or a man move, International 50) is counted
// the same way from Options.KingPlies (the game's rules.DrawCounter
// before the root): a line that reaches the limit is drawn, unless its
// side to move has no move. Endgame tables (Options.Endgame), built from
// the move rules alone, score a win or loss only where the count of the
// line cannot reach the limit before the end (endgame.Value.Exact);
// elsewhere the search goes on.
//
// # Algorithm
//
// Iterative deepening over a fail-soft principal variation search (PVS):
// the first move gets the full window, the others a null window and a
// re-search when they beat alpha. No null move (zugzwang is everyday in
// draughts). At a fixed depth the search is exhaustive to its nominal
// depth apart from alpha-beta cut-offs; a search on a clock, or with
// Options.Selective, is selective. Late-move reductions, as Scan's: from
// the fourth move of a PV node and the second of a null-window node on,
// at depth 2 or more, a plain move that neither promotes nor offers a
// capture (a sacrifice, an exchange: the tactics a reduction would miss)
// is searched one ply shallower, two from the fifth move of a null-window
// node, and again to the full depth if it beats alpha. Aspiration
// windows, as Scan's: from depth 4 an iteration searches the root with a
// window of 0.1 man either side of the score of the iteration before,
// doubles the side that failed until the window reaches 5 men, then (and
// for a win or loss score) searches the full window. ProbCut, as Moby
// Dam's (International, Russian, Brazilian and English, where it was
// measured): at a null-window node of depth 4 or more with fewer than 4/5
// of the starting pieces on the board (32 on 10x10, 19 on 8x8), a
// search of half the depth with a null window at beta + 0.9 man that
// reaches it returns beta without searching the node in full. Singular
// extensions (a search of half the depth without the table move that
// fails low against its stored score less 0.02 man per ply gives that
// move a ply more) are written but off: they cost about a ply in the same
// time and measured no gain.
//
//   - Transposition table: Zobrist-keyed (rules.Position.Hash), fixed size
//     (Options.TTSizeMB, power-of-two buckets of two 16-byte entries), the
//     first slot depth-preferred, the second always replaced. Entries keep
//     score, bound, depth and the best move as its index in LegalMoves
//     order; win scores are stored relative to the node.
//   - Move ordering: the table move, then (captures are compulsory, so a
//     node has only captures or only plain moves) more captured pieces
//     and promotions first, or two killer moves per ply, promotions and a
//     history table for plain moves. Captures are scored only when the
//     table move did not cut off; plain moves before it (its subtree
//     changes the history). Each move is picked by a selection that swaps
//     it into place, so moves with equal keys keep their generation
//     order, which a golden test pins (equal keys decide between tied
//     moves, so a change of that order changes stored best moves).
//   - Forced moves: a node with a single legal move does not use up depth.
//   - Quiescence: at the horizon, while the side to move must capture, all
//     captures are searched (no standing pat: capture is compulsory); a
//     quiet position is evaluated. If the side to move has no capture but
//     the opponent threatens one, the horizon node is searched one ply
//     deeper (once per path) so that a shot just beyond the horizon is not
//     mistaken for a quiet position.
//   - The horizon without move generation: beside each position of its
//     path the searcher keeps the pieces as bit sets in a layout of its own
//     and the piece-square part of the evaluation as a running sum (fast.go;
//     8x8 and 10x10 boards, except Thai's and Frisian's captures). Whether
//     the side to move must capture, can move at all, or is threatened by a
//     capture is then a few shifts, so a quiet node beyond the horizon is
//     evaluated without generating its moves or the opponent's, and a
//     node beyond the horizon reached by an irreversible move gets its
//     rules.Position made only if it needs it. The decisions, scores and
//     node counts are those of the generic path (a test checks the
//     answers on random positions of every variant that has the layout).
//
// # Evaluation
//
// International, Russian, Brazilian and English evaluate with learned
// weights (learned.go), each variant its own table: a linear
// function of pattern features (every 4x4 block of the board, its men in
// base 3, from both sides' view), men, kings, advancement and a few
// mobility terms, each weight with a middlegame and an endgame value mixed
// by the number of pieces, fitted to self-play results by `draughtsdb
// train` (package analysis/train) and embedded from weights/VARIANT.bin.
// It is computed on the fast layout's bit sets at every evaluated node, in
// integers, so a fixed depth stays deterministic; the two views' weights of
// a block are subtracted into one table when the weights are loaded, so a
// node looks up one entry per block (the lookups were most of the
// evaluation's time). Learned(v) names the
// weights (variant and checksum) for whoever stores evaluations.
//
// The other variants (those without a weights file), and any search with
// Options.HandSet, use hand-set
// weights: data (type Weights, DefaultWeights(v), derived from the variant's
// rules so that a new variant gets sensible ones), in hundredths
// of a man: material (man 100; flying king 300 on 10x10 and 12x12, 280 on
// 8x8; kings that step one square: English 150, Italian 200, where men may
// not take them; Thai and Frisian kings 250), advancement per row (tempo;
// larger in the endgame, when men run for promotion), centre squares,
// kings on the long diagonals, men still guarding the back rank
// (middlegame), and a cheap mobility term (men with an empty square ahead,
// empty squares next to kings). Antidraughts inverts every term (losing
// pieces is good); breakthrough weighs advance and the back-rank guard
// (a king ends the game, so its value does not matter). The five first
// variants keep the hand-set weights their stored evaluations were made
// with (those with learned weights searched with Options.HandSet).
// Evaluate(pos) exposes the default evaluation, EvaluateHandSet(pos) the
// hand-set one.
//
// # Game order
//
// In analyze's game order (Continue) a best move that differs from an
// independent search's with the same score is a tie, and counts as the
// same best move: the two searches broke the tie differently, and neither
// choice is the better one (searched deeper, and by two other engines,
// each is preferred about as often; BENCHMARKS.md has the counts). A
// lower score at the same depth than the independent search gave comes
// from what the table carried from the game's earlier positions: a move
// it ordered first that cut the better one off, or a bound; package
// annotate's game-order test lists each such position with its cause.
//
// # Tests
//
// go test ./analysis/search checks shots (sacrifices that force captures
// and win material, composed by a tool and re-verified on every run by an
// exhaustive reference minimax: the key move is the only one that gains
// material at the stated depth, and the engine must play it), forced wins
// whose distance equals the engine's score (both full width and
// selective), determinism, the time control
// on a fake clock and cancellation at chosen iterations and nodes,
// repetition, every variant's ending rules (antidraughts, breakthrough,
// Frisian's king limit) along random games, the fast layout against the
// generic path, game order's determinism, the learned evaluation's colour
// symmetry and its combined table against the plain lookups, and a golden file of best moves, scores and node counts at
// depth 8 that fails when the order of moves with equal keys changes.
// DRAUGHTSDB_DEEP_SEARCH=1 adds the depth-12 checks of the positions where
// game order and an independent search differ. Measured speed and the
// comparisons with earlier engines: BENCHMARKS.md.
package search
