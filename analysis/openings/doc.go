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
// variant and bucket (the top 10 bits of the position hash), one
// opening_index row whose entries column packs them (migration 0012; the
// packing is schema/codec's, codec.AppendOpeningEntries): a header of
// counts, then per group (the next 2 hash bits) the (position, move)s
// played by one game of the batch as 8-byte singles (32 more hash bits,
// the move code and the result), then the others as 16-byte keys with
// their counts of white wins, draws, black wins and other results.
// WriteRows is the one place that writes the rows, for the import and for
// Rebuild, which counts stored games again (db rebuild-openings: sources
// imported before the statistics, or another depth; CountSource is one
// source, also used by the repair after a migration). Rows belong to their
// source, so --force and deleting a source keep the statistics equal to a
// count over the stored games. At 250,000 synthetic International games
// the table takes about 332 bytes per game with its indexes (0004's rows
// of three arrays per 12-bit prefix took about 396): the entries
// themselves are now nearly all of it.
//
// # How it is read
//
// Tree reads through draughtsdb_opening_tree, which reads the rows of the
// position's bucket (about one per import batch), skips those without its
// hash bits, finds its entries in the others and sums them per move: about
// 0.1 ms for a rare position and 0.5 ms for the most played ones at
// 250,000 games. SQL users get the same from
// draughtsdb_opening_tree, and every entry of a row from
// draughtsdb_opening_entries. Move codes (codec.MoveCodeOf) name a move
// from its squares and path, so Tree matches them against the legal moves
// of the position to write them in the variant's notation. Walk goes
// through the tree breadth first. MostPlayedFirstMoves, for the import's
// summary, reads games directly.
//
// Opening names come from the ballot lists in testdata/ballots, loaded
// into opening_names by migration 0005, which go generate writes
// (internal/gennames).
package openings
