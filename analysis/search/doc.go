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
// search when it runs out; the last completed iteration is returned (the
// first iteration always completes). Neither set: DefaultDepth. Cancelling
// ctx stops the search the same way (if that happens during the first
// iteration, Best is the first legal move, Depth 0). Options.History gives
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
// Continue; the same sequence of searches gives the same results
// (TestContinue). On the analyze positions of 60 OCA games at depth 8,
// analyze in game order (1 MB table) takes 41% fewer nodes than
// independent searches with a 16 MB table (29,428 per position instead of
// 49,701), on 12 International games 24% (140,620 instead of 186,143).
// The result may differ from an independent search's where the table
// holds deeper results or another move first, as happens within one
// search: see "Same results as f6de099" below.
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
// # Algorithm
//
// Iterative deepening over a fail-soft principal variation search (PVS):
// the first move gets the full window, the others a null window and a
// re-search when they beat alpha. No null move (zugzwang is everyday in
// draughts) and no late-move reductions, so the search is exhaustive to its
// nominal depth apart from alpha-beta cut-offs.
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
//     it into place, so moves with equal keys are searched in exactly
//     f6de099's order (TestOrderGolden).
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
//     node counts are those of the generic path (TestFastBoardAgrees
//     checks the answers on random positions).
//
// # Evaluation
//
// International evaluates with learned weights (learned.go): a linear
// function of pattern features (every 4x4 block of the board, its men in
// base 3, from both sides' view), men, kings, advancement and a few
// mobility terms, each weight with a middlegame and an endgame value mixed
// by the number of pieces, fitted to self-play results by `draughtsdb
// train` (package analysis/train) and embedded from weights/VARIANT.bin.
// It is computed on the fast layout's bit sets at every evaluated node, in
// integers, so a fixed depth stays deterministic. Learned(v) names the
// weights (variant and checksum) for whoever stores evaluations.
//
// The other variants, and any search with Options.HandSet, use hand-set
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
// with (International's searched with Options.HandSet).
// Evaluate(pos) exposes the default evaluation, EvaluateHandSet(pos) the
// hand-set one.
//
// # Tests and figures
//
// go test ./analysis/search runs in under a second:
//
//   - TestShots: 8 International and 8 Russian shots (a sacrifice that
//     forces captures and wins two to four men) composed by the tool
//     TestComposeShots (compose_test.go, built with -tags tools) and
//     re-verified on every run by an exhaustive
//     reference minimax (ref_test.go: no pruning, material only, captures
//     searched to the end): the key move is the only one that gains
//     material at the stated depth, and is not yet singled out two plies
//     less; the engine must play it at that depth.
//   - TestMateScores: forced wins (composed by the tool TestComposeWins) whose
//     distance from the reference equals the engine's Win - score.
//   - TestDeterministic, TestAllVariants (PV legal move by move, symmetric
//     start scores 0), TestMoveTime and TestCancel (a fake clock and
//     cancellations at chosen iterations and nodes: nothing depends on the
//     machine's speed), TestRepetition, TestNoLegalMove.
//   - variants_test.go: TestDecidedAgreesWithOutcome (the search ends lines
//     where rules.Position.Outcome does, on random games of every
//     variant), TestAntidraughts (the side without pieces wins; the engine
//     gives its last man away), TestBreakthrough (the first king wins),
//     TestKingMoveLimit (Frisian: no fourth king move in a row, where
//     without the limit the engine would play one), TestWeightsPerVariant.
//   - TestFastBoardAgrees (the fast layout answers as the generic path on
//     random positions and games of every variant that has one),
//     TestContinue (game order: deterministic, fewer nodes, a search
//     without Continue afterwards is a fresh one's), TestTableEntrySize.
//   - TestLearnedEvaluation (a position and its colour-reversed image
//     score the same; HandSet searches with the hand-set weights), and
//     analysis/train's TestTinyTraining (a few hundred games through the
//     trainer, its weights file evaluating as the fitted weights).
//   - TestOrderGolden: 15 OCA and International positions at depth 8
//     (International with HandSet) give f6de099's best move, score and
//     node count
//     (testdata/order_golden.tsv, written by TestGenerateOrderGolden run
//     in a checkout of f6de099). It fails when the order of moves with
//     equal keys changes (536d631's sort of the rest: all 15 differ, 10
//     in the best move).
//
// Same results as f6de099 (issue #17): searched independently (analyze
// --independent, 16 MB table) at depth 8, the 3,535 analyze positions of
// the first 60 English games (OCA) and 12 International games (shared
// archive) give f6de099's best move, score and node count, every one
// (compared in two analyze databases, ff10c65 against f6de099's binary).
// In analyze's default game order (Continue, 1 MB table) the best move
// differs from f6de099's independent search in 130 of them (English 78
// of 2,393, International 52 of 1,142; 31 more keep the move with
// another score): the game-order score is equal in 118 (a tie broken
// otherwise), higher in 6 (English 5, International 1) and lower in 6
// (4 and 2). Searched independently at depth 12, neither choice is the
// better one: of the 130, the game-order move scores higher in 36,
// f6de099's in 35, both the same in 59. Of the 118 ties, 31, 28 and 59;
// of the 6 lower, the game-order move in 3 (English, by 11, 22 and 207)
// and f6de099's in 3 (by 3, 2 and 2); of the 6 higher, 2 and 4. Every
// one of the 130, in game order, with both scores at depth 12:
// testdata/gameorder_diffs.tsv (TestGameOrderDiffsIndependent searches
// each of them on its own and checks the list's f6de099 move and score;
// with DRAUGHTSDB_DEEP_SEARCH=1 the depth-12 scores too). Until Dec 1 a search that continued a game started
// iterative deepening after the depth of the table's entry for the
// position, not at one less: the same nodes in total (70.4M and 160.6M
// against 70.6M and 159.7M), and 217 best moves that differed (English
// 112, International 105; 35 more with another score), 200 of them ties,
// 9 higher, 8 lower. Both lists were measured against the evaluations of
// the f6de099 binary (Dec 1), which with --independent --tt-size 16 this
// engine gives byte for byte on all 3,535 positions (International's
// with Options.HandSet: its default evaluation is now the learned one).
//
// Two engines nobody here wrote, asked the same question on the 130
// (testdata/gameorder_diffs_external.tsv: each searched the position after
// either move), side with neither engine: simplech on the 78 english
// positions prefers the game-order move in 25, f6de099's in 22, neither in
// 31 (by more than a tenth of a man 11 and 6; the game-order move in all 4
// where our search scored it lower at depth 8, as our depth 12 does);
// Moby Dam on the 52 international positions prefers the game-order move
// in 25, f6de099's in 26, neither in 1 (by more than a tenth of a man 2
// and 7; f6de099's in the 2 scored lower). simplech is CheckerBoard's
// engine (alpha-beta, 4 s a search, compared at depth 9-16), Moby Dam
// Harm Jetten's (10 s a search, depth 16-30); both built from their
// published sources and run outside this repository, how is in the
// file's header. TestGameOrderDiffsExternal keeps the file in step with
// gameorder_diffs.tsv and with these counts.
//
// The order of tied moves costs 0-6% CPU against 536d631's sort of tied moves (ratios of
// the minimum CPU time of 8-15 alternating runs each, on the loaded
// machine: International, 120-200 positions in game order 1.00-1.04, 60
// independently 1.03-1.06; English, 700 in game order 0.99-1.03, 300
// independently 1.00), part of it in nodes (200 International positions
// in game order: 2.9% more; 700 English: 1.9% fewer). Scoring the plain moves lazily, when
// the first history change below the table move or its end comes,
// measured slower (the pending nodes above are scored at nearly every
// such change, even where their table move then cuts off).
//
// Benchmarks (go test -bench Search -cpu 1 ./analysis/search) report
// nodes/s, a node being every alphaBeta and quiescence call; bench_test.go
// only uses what f6de099's engine had, so the same file runs on both.
// Side by side in one run on the shared 2-core EPYC, quiet: International
// start depth 10 8.9M nodes/s (f6de099 2.8M), the International
// middlegame depth 11 7.6M (2.9M), English start depth 12 8.8M (3.4M), an
// English middlegame depth 12 7.7M (3.5M), Russian start depth 12 8.6M
// (3.3M). BenchmarkLine* search 40 positions of a game at depth 8 in
// order, with and without Continue. Where the time goes now (pprof,
// analyze's positions in game order): package rules about 35% (move
// generation 16%, Position.Play 9%), the table 11-13%, the rest the
// search and the fast layout.
package search
