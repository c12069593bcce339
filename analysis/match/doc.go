// Package match plays engine matches: two engines, each opening twice with
// colours swapped, refereed by replay/rules, each game handed to a Store
// as soon as it ends (`draughtsdb match` stores them in the database as a
// source of their own through ingest.Append), with the standing from engine
// A's view: wins, draws, losses, the score with its 95% interval and the
// Elo difference with its error.
//
// # Engines
//
// OpenPlayer makes a Player from a specification (engine.ParseSpec's
// forms; NewPlayer wraps an engine.Engine already open):
//
//	builtin        package search in this process, given the game's history
//	               (Options.History for repetitions, KingMoves for Frisian)
//	hub:PATH       a Hub-protocol program (hub.Client): the position of each
//	               move, searched to the Limit; one process, restarted after
//	               a failure
//	dxp:HOST:PORT  a DXP engine listening there (dxp.Player): we initiate one
//	               DXP game per game with its start position and colour and
//	               send it the opponent's moves; International only
//
// A DXP engine takes no depth or move time: it keeps its own clock, and
// the GAMEREQ gives it EngineOptions.DXPMinutes for the game, by default
// 75 moves at the move time, at a fixed depth 75 moves at
// dxp.DefaultMoveTime: 2 minutes (DXPMinutesFor). Never 0 minutes, which
// Moby Dam does not answer. Each of its moves is bounded like any
// engine's: the move time plus EngineOptions.Timeout.
//
// The Hub client is called without hub.AnalyzeRetry: in a match a timeout
// or a crash loses the game at once (the client has restarted the engine
// by then), where analyze would try the position again.
//
// # A match
//
//	sum, err := match.Run(ctx, match.Options{Variant: v, Openings: ops, Games: 158,
//		A: a, B: b, Event: "...", Key: match.Key(...), Store: store, Progress: printLine})
//
// Round r (1-based) plays opening (r-1)/2 (from the first again after the
// last), engine A White in odd rounds. Run asks the Store which rounds are
// stored (Results) and plays on from the next: after Ctrl-C (the game in
// play is abandoned, not stored) or kill -9, the same settings resume the
// match. Key makes the match's identity from its settings (variant, both
// engines with their arguments, the limit, the move limit, the event, the
// DXP time control, the openings); the number of games is not part of it,
// so a larger Games extends a match.
//
// # Openings
//
// ReadOpenings reads a file of FENs (Moby Dam's "W:W..:B.." ballot files),
// move lines ("32-28 19-23") or PDN games. Ballots gives a variant's
// built-in ballots: Moby Dam's International 2-move ballots (79: the 81
// positions after one move each but 31-27 16-21 and 32-27 16-21, where
// White wins a man), the ACF 3-move ballots of English checkers (157,
// pydraughts' "standard" list), the 150 ballots of Russian and Brazilian
// draughts (pydraughts), and for the other variants every position after
// BallotPlies plies. The lists are embedded copies (ballots/). An opening
// whose moves from the initial position are known (a move line, a ballot
// whose name spells its moves, or a FEN that LineTo reaches in at most 4
// plies) is stored with those moves from the initial position, so the
// opening tree and position search see the games whole; otherwise the
// games start from the FEN (a FEN tag).
//
// # Adjudication
//
// Before each move, in this order (Game.adjudicate):
//
//  1. the variant's Win rule (rules.Position.Outcome): the side to move
//     without a legal move loses (wins in antidraughts); in breakthrough
//     the first king wins. Reason "no legal move" or "first king".
//  2. threefold repetition: the position (side to move included) on the
//     board for the third time (rules.Repetitions). "threefold repetition".
//  3. the king-move rule (rules.DrawCounter, Variant.DrawKingPlies): 25
//     moves of each side with kings only and no capture in International,
//     15 in Russian. "25-move rule", "15-move rule".
//  4. International's endgame rules (FMJD rules of the game, art. 6.3 and
//     6.4): three pieces, one of them at least a king, against a lone king
//     are drawn after 16 moves of each side ("16-move rule"); two kings, a
//     king and a man, or a king against a lone king after 5 moves each
//     ("5-move rule"); each count starts when the material takes that
//     form, and a capture during the 16 moves starts the 5 but does not
//     lift the 16 (rules.EndingCounter).
//  5. the move limit: Options.MaxPlies plies played by the engines
//     (DefaultMaxPlies, 300) is a draw. "move limit".
//
// An engine that cannot move loses by forfeit: no move within its timeout
// (EngineOptions.Timeout beyond the move time; "time forfeit"), its
// process ended or its connection dropped ("engine crash"), a move that is
// not legal or that Frisian's king-move limit forbids ("illegal move"),
// any other error, a refused DXP game included ("engine error"). The
// engine is then Reset (restarted, reconnected) before the next game; if
// that fails, Run stops with ErrEngineLost after storing the game. A DXP
// engine that gives up loses ("resignation"); one that ends the game as a
// draw gets the draw ("draw claimed"). The reason is the game's
// Termination tag; a forfeit's error is its Forfeit tag.
//
// # Results and statistics
//
// Results are stored by the variant's first-mover convention (replay.Result
// Format: 2-0 / 1-1 / 0-2 in International). Stats counts engine A's wins
// W, draws D and losses L over n = W + D + L games:
//
//	score          s = (W + D/2) / n
//	variance       v = [W (1-s)^2 + D (1/2-s)^2 + L s^2] / n   (one game, trinomial)
//	std. error     se = sqrt(v / n)
//	95% interval   s +- 1.959964 se   (normal approximation, clipped to [0,1])
//	Elo            D(s) = -400 log10(1/s - 1)   (logistic: s = 1/(1+10^(-D/400)))
//	Elo error      (D(s + 1.959964 se) - D(s - 1.959964 se)) / 2
//
// the definitions of cutechess-cli's elo.cpp; a test checks them against
// match results it printed. The Elo error is infinite
// when the interval reaches a score of 0 or 1 (for instance 3-0): the
// games then bound the difference on one side only.
//
// # Tests
//
// The package tests referee scripted players (draw rules, forfeits,
// resets, the schedule, PDN that reads back), the built-in player, a DXP
// engine served by dxp.Serve on loopback, ballots against their names,
// and the statistics against cutechess-cli and a hand computation. The
// database side (a 10-game match stored and queried, hung and crashing Hub
// engines, resuming after a cancel and after SIGKILL) is tested in
// cmd/draughtsdb against PostgreSQL.
package match
