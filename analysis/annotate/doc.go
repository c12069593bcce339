// Package annotate is the database side of `draughtsdb analyze`: it
// evaluates the distinct positions of stored games with an engine, shares
// that work between any number of processes through a queue table, and
// derives per-move annotations from the evaluations. Tables: evaluations,
// analysis_queue, move_annotations (schema/migrations/0003_analysis.sql).
//
// # A run
//
//	lim := annotate.Limit{Depth: 8}
//	eng, err := annotate.OpenEngine(ctx, "builtin", nil, annotate.EngineOptions{Limit: lim}) // or "hub:/usr/bin/scan", []string{"hub"}
//	sum, err := annotate.Run(ctx, pool, annotate.Options{
//		Engine: eng.Name, EngineVersion: eng.Version, NewEvaluator: eng.New, First: eng.First,
//		Setting: lim.Setting(), Workers: 2, Where: "event LIKE 'World%'", Limit: 200, MaxPly: 60,
//		Thresholds: annotate.Thresholds{Inaccuracy: 30, Mistake: 80, Blunder: 200},
//	})
//
// Run checks its options first (an engine, a setting, an evaluator
// factory, counts and durations not negative, at most MaxWorkers workers,
// Thresholds.Check; zero values take the defaults) and returns an error
// before it touches the database.
//
//  1. Select: through schema.ReadOnly (a READ ONLY transaction, rolled
//     back, with statement_timeout WhereTimeout, as the role
//     draughtsdb_reader), SELECT id, variant, start_fen, moves FROM games
//     WHERE (Where) [AND variant] ORDER BY id [LIMIT]. Where is the user's
//     text and runs nowhere else: the extended protocol refuses a second
//     statement, the transaction refuses any write (also from functions),
//     the role may only read the data tables (no large objects, server
//     files, signals to sessions, settings: schema.ErrRefused), and the text
//     sits on lines of its own so a trailing "--" comment cannot hide the
//     rest of the query. The rows read are then only data to the
//     privileged steps below.
//  2. Replay: each game's compact moves are decoded (codec.Decode) up
//     to MaxPly; the distinct (variant, Zobrist hash) positions, with their
//     FEN, are collected.
//  3. Enqueue, in chunks of 5,000, one transaction each: positions without
//     an evaluation for (Engine, Setting) are inserted into analysis_queue
//     (ON CONFLICT DO NOTHING, except that a row marked failed is made
//     claimable again); the others are counted as skipped. A run is
//     therefore incremental and resumable: only what is missing is done.
//     Options.Preparing follows the reading, replaying and queueing; then
//     Options.Plan gets what the run is about to do: the positions
//     selected, evaluated already, to evaluate, and the other unfailed
//     rows of this engine and setting in the queue (other runs' work).
//  4. Evaluate: Workers goroutines, each with its own Evaluator, claim
//     Batch rows at a time in one statement (UPDATE ... FROM (SELECT ...
//     FOR UPDATE SKIP LOCKED LIMIT Batch)) among rows of this engine and
//     setting that are not failed and whose lease is absent or expired,
//     setting lease_owner = host:pid:worker, lease_until = now() + Lease and
//     attempts + 1. While a batch is evaluated the worker renews its lease
//     every Lease/2. The evaluations are inserted (ON CONFLICT DO NOTHING:
//     the primary key makes a position evaluated at most once whatever
//     races happen; with Options.Reevaluate a stored row of another
//     engine_version is replaced, and only such rows count as not
//     evaluated), the queue rows deleted and the positions the engine
//     failed on marked failed with their error, in one statement (so one
//     transaction and one round trip). A
//     claimed row that is already evaluated (enqueued again by a run that
//     raced with its evaluation) is just deleted. A row claimed MaxAttempts
//     times without a result (its workers kept dying) is marked failed.
//     Game order: with a LineEvaluator (the built-in engine) and without
//     Options.Independent, the workers first take runs: each selected
//     game's own positions (those no earlier selected game reached), in
//     the order of its plies, cut into runs of at most RunLength, handed
//     out the longest first (the last runs, which leave the other workers
//     idle until they are done, are short ones). A worker claims a run's
//     rows at once in one statement (the same lease rules, among rows
//     claimed fewer than MaxAttempts times; rows another worker holds are
//     skipped), evaluates them in run order as one line, its
//     engine keeping the transposition table from one to the next. Only
//     when every run is finished do the workers claim the rows left over
//     (step 5). The runs depend only on the selection and on what was
//     already evaluated, so at a fixed depth the evaluations are the same
//     whatever the number of workers or the batch size (a test checks it).
//     Without a LineEvaluator (or with Independent) the workers take the
//     selection's positions in pieces of Batch, in order, the same way.
//     A run claims only its own selection's rows: what other runs left in
//     the queue is theirs, unless Options.ResumeQueued.
//  5. End: after the runs, the selection's positions that no run claimed
//     and that are still queued, not failed, are claimed again (a row
//     claimed MaxAttempts times whose lease expired is marked failed).
//     While rows remain that other workers hold, a worker waits (polling
//     every 50-500 ms): a live worker finishes them, and a dead one's
//     lease expires and they are claimed here. When Run returns, every
//     position it selected is evaluated or failed. With ResumeQueued the
//     workers then claim rows of this engine and setting in any order as
//     above, until no unfailed row remains. A worker that stops on an
//     error or an interruption gives back the leases it holds (without
//     counting the attempt), so the next run claims them at once.
//  6. Annotate: for every ply of the selected games whose positions before
//     and after are both evaluated, move_annotations gets (upserted) the
//     loss and class below.
//
// # Loss and classes
//
// Scores are from the side to move's view in hundredths of a man. For the
// move of ply i (1-based) from position P(i-1), where the mover is to
// move, to P(i), where the opponent is to move:
//
//	loss = max(0, c(score(P(i-1))) + c(score(P(i))))
//
// with c clamping to +-ScoreCap (3000, thirty men). It is the evaluation
// before the move from the mover's view minus the evaluation after it from
// the mover's view (-score(P(i))), never negative; the clamp makes a
// thrown-away forced win a loss of 3000 + the evaluation after it, and a
// slower forced win no loss at all. class is "blunder" if loss >=
// Thresholds.Blunder, else "mistake" if >= Mistake, else "inaccuracy" if
// >= Inaccuracy, else "ok" (config analysis.blunder / mistake / inaccuracy,
// 200 / 80 / 30 by default). Positions are evaluated without the game's
// history, so a repetition inside a game does not change an evaluation.
//
// # Engines
//
// OpenEngine turns a specification (engine.ParseSpec, the one parser of
// engine specifications; analyze takes "builtin", or "hub:PATH" with the
// program's arguments) into an Engine (name, version, one evaluator per
// worker); it checks the Limit (Limit.Check: a depth of
// 1..search.MaxDepth or a move time) and wraps ErrEngineSpec or ErrLimit.
// The analyze command passes --engine and --engine-arg. Evaluators wrap
// an engine.Engine (NewEvaluator): Builtin (package search at a fixed depth or move time;
// deterministic at a fixed depth; a LineEvaluator) and Hub (an external
// Hub-protocol engine through hub.Client, one process per worker;
// hub.AnalyzeRetry tries a position twice, then it is failed). A position
// without a legal move is not sent to the engine: it is stored as lost
// (score -search.Win, mate, depth 0) for every engine. A built-in
// evaluation in game order may differ from the same position searched on
// its own (Options.Independent, as a Hub engine searches) where the table
// carried from the game's earlier positions holds deeper results, or
// orders tied moves otherwise (at depth 8, 130 best moves of 3,535, 118
// of them ties: the search package's doc lists them). Moves
// (best_move, pv) are stored in Hub notation (hub.FormatMove: 32-28,
// 28x19x23), the same for both, so the tests can check that `draughtsdb
// hub` driven over the protocol stores exactly what the built-in engine
// stores with Independent. The engine column is the engine's reported name
// (draughtsdb for both), the version is recorded beside it.
package annotate
