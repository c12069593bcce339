// Package dxp speaks DXP (DamExchange), the TCP protocol by which
// International draughts programs play each other (default port 27531):
// Serve puts one of draughtsdb's engines (package engine: builtin or
// hub:PATH) behind a listener, as `draughtsdb dxp` does, and Player drives
// an external DXP engine (Moby Dam, Kingsrow, Scan's dxp build, or
// draughtsdb dxp) as one side of a game that the caller referees.
//
// # The protocol
//
// Messages are ASCII strings of 1..127 bytes, each ended by a NUL byte;
// the first byte is the type, the fields have fixed widths (numbers are
// zero padded, names blank padded to 32 bytes, colours 'W' white and 'Z'
// black):
//
//	R 01 name(32) followercolour(W|Z) minutes(3) moves(3) A            GAMEREQ, normal start
//	R 01 name(32) followercolour minutes moves B tomove(W|Z) 50 squares  GAMEREQ, set position (w z men, W Z kings, e empty)
//	A name(32) code                                                     GAMEACC: 0 accepted, 1 version, 2 not this game, 3 no games
//	M seconds(4) from(2) to(2) ncaptured(2) captured(2 each, any order)  MOVE
//	E reason stop                                                       GAMEEND: reason 0 none, 1 I lose, 2 draw, 3 I win; stop 1 = no more games
//	C text                                                              CHAT
//	B movenumber(3) colour                                              BACKREQ: back to where colour is to move at that move
//	K code                                                              BACKACC: 0 accepted, 1 not supported, 2 refused
//
// The Initiator sends GAMEREQ; the Follower answers GAMEACC; then MOVEs
// alternate strictly (forced moves too) until the side to move sends
// GAMEEND instead of a move, which the other side acknowledges with a
// GAMEEND of reason 0 and the same stop code. CHAT may come at any time.
// Which side connects over TCP is independent of who initiates: Moby Dam
// (main/dxp.c) only ever follows, whether it listens or connects (-c).
// These widths and codes are Moby Dam's and the public description's
// (mesander.nl/damexchange); every move received is checked against the
// legal moves of replay/rules (International): from, to and the captured
// squares as a set (a capture sent without its captured squares is taken
// when exactly one legal move has that from and to).
//
// # Messages
//
//	m, err := dxp.Parse([]byte("M0012061100"))  // dxp.Move{Seconds: 12, From: 6, To: 11}
//	b, err := dxp.Marshal(dxp.GameEnd{Reason: dxp.EndDraw})  // "E20"
//
// Chat, GameReq, GameAcc, Move, GameEnd, BackReq and BackAcc are the
// messages (values). Parse checks every field's width and range and gives
// a *MessageError (errors.Is ErrMalformed) naming the message and the
// field; whatever it accepts, Marshal writes back byte for byte
// (FuzzParse, corpus in testdata/fuzz). Move.Resolve finds a MOVE among a
// position's legal moves (*IllegalMoveError, ErrIllegal); MoveOf writes a
// rules.Move as a MOVE.
//
// Conn frames messages over a net.Conn: Send and Receive take a context
// (its deadline and cancellation reach the socket as deadlines; without
// a deadline, ReadTimeout and WriteTimeout apply). A peer that closes or
// resets gives ErrDisconnected; a deadline that passes, ErrTimeout; a
// message longer than MaxMessageBytes is skipped to its NUL and reported as
// a *MessageError.
//
// # Player: an external engine as one side of a game
//
//	p, err := dxp.Dial(ctx, "127.0.0.1:27531", dxp.ClientOptions{Name: "draughtsdb", Notice: logf})
//	// or p := dxp.NewPlayer(acceptedConn, opts) when the engine connects to us
//	err = p.Start(ctx, dxp.Game{Engine: rules.Black, Minutes: 5})  // GAMEREQ; *RefusedError if refused
//	m, err := p.Move(ctx, pos, &last)  // sends last (nil: none), returns the engine's legal move in pos
//	err = p.End(ctx, dxp.EndDraw)      // GAMEEND from our side (reason from the sender's view), waits for the ack
//	p.Close()
//
// The Player is the Initiator; the engine follows and plays Game.Engine.
// Move's pos is the position with the engine to move; last is the move the
// caller's side just played to reach it (nil when the engine makes the
// game's first move). The Player keeps its own copy of the game and
// checks that last is legal and leads to pos (ErrDesync otherwise), then
// sends it with the seconds since the engine's previous move, waits for
// the engine's MOVE and checks it (an illegal one ends the game: the
// Player sends GAMEEND and returns *IllegalMoveError). If the engine sends
// GAMEEND instead of a move, the Player acknowledges it and Move returns
// *GameEndError (errors.Is ErrGameEnded) with the engine's reason. CHAT
// goes to ClientOptions.Notice; a BACKREQ from the engine is answered
// "not supported". TakeBack and Chat send BACKREQ and CHAT. Each wait for
// the engine is bounded by ctx and ClientOptions.Timeout (default: the
// game's thinking time plus a minute): ErrTimeout names what did not come,
// and the connection stays (End can still end the game). A dropped
// connection is ErrDisconnected, every later call too.
//
// Moby Dam sends no GAMEACC at all for a GAMEREQ of 0 minutes (its
// rcv_gamereq returns before answering), so Start then waits until its
// timeout: give such engines Game.Minutes of at least 1.
//
// # Serve: our engine behind a listener
//
//	pool := engine.NewPool(first, func() (engine.Engine, error) { return engine.OpenSpec(ctx, spec, eo) }, 1)
//	err = dxp.Serve(ctx, ln, pool, dxp.ServerOptions{Limit: engine.Limit{Depth: 8}, Notice: logf, Log: logGame})
//
// Serve accepts connections until ctx ends (then it closes the listener
// and every connection, waits for their goroutines and closes the pool)
// and plays on each connection, one game at a time, with an engine from
// the pool: taken when the connection's first game begins, given back when
// it closes (the pool keeps one idle engine and closes the others, so
// engines do not outlive their connections). At most
// ServerOptions.MaxConnections are served at once (one more is told so in
// a CHAT and closed); a connection silent outside a game for IdleTimeout
// (a new one before its first message too) is closed; a GAMEREQ's
// thinking time is capped at MaxMinutes (said in a CHAT). The engine
// searches the whole game (engine.Game: start position and moves), so it
// sees repetitions. Per connection the server follows: a GAMEREQ of another
// version is refused with code 1; one whose position is not playable
// (no legal move, a man on its promotion row, no piece of a side) or that
// comes while a game is going on, with code 2. Otherwise it accepts, and
// when it is to move asks the engine (its move, checked against the legal
// moves) and sends the MOVE. When it is to move in a
// position without a legal move it sends GAMEEND reason 1; after a
// threefold repetition or the 25-move king rule (rules.DrawCounter) reason 2;
// after the GAMEREQ's number of moves reason 0. An illegal or malformed
// move ends the game with a CHAT naming it and GAMEEND reason 0; GAMEEND
// from the other side is acknowledged (reason 0, the same stop code; stop
// 1 closes the connection); BACKREQ to an earlier point of the game is
// accepted (the moves are taken back and, if the engine is then to move,
// it moves), otherwise refused with code 2 (ServerOptions.NoTakeBack: code
// 1); CHAT goes to Notice. A malformed message outside a game is answered
// with a CHAT naming the error. A connection that drops or stays silent
// past its timeout ends its game; Serve goes on with the others.
//
// Search limit per move: ServerOptions.Limit if set (a depth or a move
// time), else derived from the GAMEREQ like Moby Dam: the time left
// divided by the moves still to play plus two (moves left: the GAMEREQ's
// number less the moves made, or when it has none an estimate of
// max(15, 60 + n*n/196 - n) at move n), at least MinMoveTime; a GAMEREQ of
// 0 minutes gives DefaultMoveTime per move.
//
// ServerOptions.Initiate makes the server the Initiator on every
// connection it accepts: it sends that GAMEREQ (Game) itself, ServerOptions.Games
// times, alternating colours. That is how an engine that connects and then
// waits to follow (Moby Dam's -c) plays `draughtsdb dxp --initiate`.
//
// Every game ended is passed to ServerOptions.Log as a GameRecord: peer,
// opponent name, our colour, start position, moves, how it ended.
package dxp
