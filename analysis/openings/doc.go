// Package openings keeps and reads the opening statistics: for every
// position of the first plies of every stored game, which moves were
// played there and how those games ended.
//
// # What is counted
//
// For each stored game, each of its first D plies (the import setting
// import.opening_depth, 40 by default) is one entry: the position it was
// played from (its Zobrist hash), the move, and the game's result. A game
// that comes back to a position counts there once, at its first visit.
// Because the key is the position, not the move order, transpositions
// merge: the tree at a position counts every game that reached it.
//
// # How it is stored
//
// The import aggregates each batch's entries (Batch) and writes, per
// variant and 12-bit hash prefix, one opening_index row of packed arrays
// (see schema/migrations/0004_openings.sql; the packing is schema/codec's):
// a (position, move) played by one game of the batch is one int64 in
// singles, with its result in the low bits; the others are a key and
// packed counts of white wins, draws, black wins and other results.
// WriteRows is the one place that writes the rows, for the import and for
// Rebuild, which counts stored games again (db rebuild-openings: sources
// imported before the statistics, or another depth; CountSource is one
// source, also used by the repair after a migration). Rows belong to their
// source, so --force and deleting a source keep the statistics equal to a
// count over the stored games. At 1,000,000 synthetic International games
// the table takes about 400 bytes per game.
//
// # How it is read
//
// Tree reads one prefix's rows (about one per import batch), keeps the
// entries of the position and sums them per move: a few milliseconds at any
// collection size. SQL users get the same from draughtsdb_opening_tree.
// Move codes (codec.MoveCodeOf) name a move from its squares and path, so
// Tree matches them against the legal moves of the position to write them
// in the variant's notation. Walk goes through the tree breadth first.
// MostPlayedFirstMoves, for the import's summary, reads games directly.
//
// Opening names come from the ballot lists in testdata/ballots, loaded
// into opening_names by migration 0005, which go generate writes
// (internal/gennames).
package openings
