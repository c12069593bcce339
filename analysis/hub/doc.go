// Package hub speaks the Hub protocol, the line-based text protocol of the
// Scan draughts engine and the Hub GUI (version 2): Serve is the engine
// side (used by `draughtsdb hub`), Client drives an external engine process
// (Scan, Kingsrow's hub build, or draughtsdb itself) for batch annotation.
//
// # The protocol
//
// Every line is `command name=value name="quoted value" flag ...`. The GUI
// starts with "hub"; the engine answers with its id, its parameters and
// "wait"; the GUI may send set-param lines and then "init", answered by
// "ready". A search is a position, a limit and a go:
//
//	pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww [moves="32-28 19-23"]
//	level depth=10 | level move-time=1.5 | level [moves=N] time=S [inc=S] | level infinite
//	go think | go analyze | go ponder
//	  info depth=10 score=0.12 nodes=812345 time=0.420 nps=1.93 pv="32-28 19-23 28x19x23 14x23x19"
//	  done move=32-28 ponder=19-23
//
// The position is the side to move (W or B) and one character per square
// in square order (w b men, W B kings, e empty): 50 squares on 10x10, 32 on
// 8x8, 72 on 12x12. Moves are numeric: "32-28" for a plain move, "from x to
// x captured x captured ..." for a capture ("28x19x23"); the captured
// squares may come in any order. Scores are in men from the side to move's
// view (two decimals). During a search only stop, ping (answered by pong),
// ponder-hit and quit are acted on at once; other commands wait for the
// search's done. A line longer than MaxLineBytes (1 MB) is answered with an
// error line (its length and its start) and otherwise ignored, like any
// other bad line; it is read in pieces and dropped, so it costs no memory.
//
// # Serve
//
//	err := hub.Serve(os.Stdin, os.Stdout, hub.Options{Variant: "russian", TTSizeMB: 64})
//
// Parameters: variant (enum: every variant rules plays by its name,
// rules.Variants, then Scan's names for those Scan plays under another:
// normal (International), bt (breakthrough), losing (antidraughts); Scan's
// killer and frisian are ours too. A GUI written for Scan sets them as it
// would; the position string must fit the variant's board, numbered as the
// variant numbers it) and tt-size (MB). Both may be set at any time
// outside a search. The moves of a pos line count for Frisian's limit on
// moving one king (search.Options.KingMoves). Engine name and version are
// search.Name and search.Version; the id line's eval is the fingerprint
// of the evaluation (evalid.Fingerprint), which stored evaluations add to
// the version. "go ponder" searches like "go analyze"
// (the protocol lets an engine stop at any time); "level infinite", or no
// level at all, searches until stop. A search at level depth=N is
// deterministic (see package search): the client below relies on it to
// compare engines and stored analyses. At the end of input (a pipe or a
// file) Serve answers what it read as on a terminal: a search with a limit
// runs to it and the lines after it are handled, a search without one ends
// with its best move, then Serve returns.
//
// # Client
//
//	c, err := hub.Start(hub.Config{Path: "/usr/bin/draughtsdb", Args: []string{"hub"}, Timeout: time.Minute})
//	a, err := hub.AnalyzeRetry(ctx, c, pos, 12, 0)   // depth 12; or 0, time.Second
//	a.Score, a.Mate, a.Depth, a.Best (a rules.Move), a.BestText, a.PV, a.Nodes, a.Time
//	c.Close()
//
// Start runs the process and does the handshake (Config.Params are sent
// as set-param before init). Analyze sends pos, level and "go analyze",
// reads info lines and "done", and resolves the move text against the legal
// moves (from, to and the captured set in any order). If the engine
// declares a "variant" parameter with its values (draughtsdb and Scan do),
// Analyze switches it to the position's variant under the first of its
// names (VariantNames: draughtsdb's, then Scan's) the engine declares, so
// Scan analyses International as "normal", antidraughts as "losing" and
// breakthrough as "bt"; a variant the engine declares under none of them
// is ErrVariant (its evaluations would be of another game). The engine's output is
// read like Serve's input: a line longer than MaxLineBytes is read in
// pieces, skipped and reported to Config.Notice (its length and its
// start), not taken for the engine's exit.
//
// Failures: a position gets Config.Timeout (plus the move time); if the
// engine does not finish by then (ErrTimeout) or its output ends
// (ErrEngineExited: crash, exit), the process is killed and restarted
// before Analyze returns, so the client is always ready for the next
// position. The retry policy is AnalyzeRetry: one more attempt of the same
// position after such a failure, then the position is reported failed
// (the error wraps ErrTimeout or ErrEngineExited; protocol errors and
// cancellation are not retried). Cancelling ctx sends "stop" and waits
// Config.StopTimeout (a second) for "done" before treating the engine as
// hung.
//
// Tests: the in-process tests run Serve over io.Pipe; the client tests run
// the test binary itself as the engine (TestMain serves Hub on stdin/stdout
// when DRAUGHTSDB_HUB_TEST_ENGINE is set) and check that Client returns
// exactly the score, best move, depth, PV and node count of calling
// search.Search at the same depth, across the variants; an engine that
// declares Scan's names gets them, and Serve starts under every variant's
// names. Fake engines
// that hang at "go", crash mid-search, or crash only once check the
// timeout, restart and retry paths. No test bounds the wall-clock time of
// anything: the timeouts they do not exercise are set far above any run.
package hub
