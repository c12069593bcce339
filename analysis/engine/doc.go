// Package engine is draughtsdb's one interface to the engines it can run,
// after Stockfish's src/engine.h: Open reads a specification (ParseSpec,
// the only parser of engine specifications in the tree) and starts the
// engine; an Engine has a Name and Version, Search and Close.
//
//	e, err := engine.Open(ctx, "hub:/usr/local/bin/scan", []string{"hub"}, engine.Options{Timeout: time.Minute})
//	r, err := e.Search(ctx, engine.Game{Start: start, Moves: moves}, engine.Limit{MoveTime: time.Second})
//	r.Move, r.PV, r.Score, r.Depth, r.Nodes
//	e.Close()
//
// The specifications:
//
//	builtin         draughtsdb's own search (package search) in this process
//	hub:PATH        a Hub-protocol program (Scan with ["hub"], draughtsdb hub)
//	dxp:HOST:PORT   a DXP engine listening there (Moby Dam, draughtsdb dxp);
//	                International only
//
// Search takes the game, not only its position: the start position, the
// moves played since, the hashes of the positions before the start and
// Frisian's king-move counter at the start (Game). The built-in engine
// searches with the game's history, so a move back into a position the game
// has had scores as a repetition, and with the king-move limit along every
// line. A Hub engine is told the position only (the protocol has no
// history). A DXP engine plays whole games with its own clock: it is a
// GamePlayer (NewGame before a game, EndGame after it) and each Search
// sends it the game's last move and returns its answer, without a score.
//
// Options.Timeout bounds one search beyond its move time for every kind
// that can hang (a Hub process, a DXP peer); the caller bounds the
// built-in engine with ctx, which stops it with its best move so far.
//
// Package dxp provides the dxp: engine (it registers its opener with
// RegisterDXP, as dxp's server builds on this package); every program that
// links package dxp or match can open one. Pool lends engines to
// connections that come and go, as the DXP server's.
package engine
