// Package codec is the one place that knows the byte formats draughtsdb
// stores: the compact moves of games.moves and their moves_hash, the result
// codes of games.result, and the packed entries of position_index and
// opening_index. It is pure (no SQL, no I/O): the importer (package ingest)
// encodes with it, and everything that reads stored games back (analyze,
// export, the opening statistics and their rebuild, the repair after a
// migration) decodes with it.
//
// Databases keep what was written in these formats, and SQL functions of
// the migrations read them too, so none of them may ever change: the
// constants that define them say so, and the golden tests
// (testdata/formats.golden.json) fail on any change. A new format is a new
// column or table and a migration, never a new meaning of old bytes.
//
// # games.moves
//
// One ply after another, squares in the variant's own numbers (1..72, so 7
// bits each):
//
//	plain move:  from, to                              (two bytes)
//	capture:     from|0x80, land1|0x80, ..., landN      (1 + N bytes)
//
// Bit 7 of a ply's first byte says that it is a capture; bit 7 of a
// capture's landing square says that another landing square follows. The
// captured pieces are not stored: the path identifies the capture among
// the legal moves. So
//
//	AppendMoves(nil, moves)          // encode (the import)
//	DecodeMoves(v, start, b)         // decode, checking every ply is legal
//	Decode(v, startFEN, b)           // decode from the stored columns, with every position
//
// DecodeMoves replays the game and matches each stored (from, path) with
// exactly one legal move; what does not match is a *DecodeError naming the
// ply. SQL reads the bytes too: draughtsdb_moves_text (migrations 0002 and
// 0004), draughtsdb_move_text (0003), draughtsdb_moves_prefix (0004).
//
// # games.moves_hash
//
// MovesHash: the first 8 bytes, big endian, of
//
//	SHA-256(GameType as 2 bytes big endian || start FEN || 0x00 || moves)
//
// with the start FEN "" for the variant's initial position. Equal hashes
// mean the same game; the import finds duplicates by them.
//
// # games.result
//
//	0 unknown (*)   1 white wins   2 draw   3 black wins   4 double forfeit (0-0)
//
// By colour, never as written: English "1-0" is a Black win (see
// replay.ParseResult). ResultCode and ResultOf convert.
//
// # games.annotations
//
// What the author wrote besides tags and moves (migration 0013), NULL for
// a game without any:
//
//	AppendAnnotations(nil, AnnotationsOf(g))   // encode (the import; g from replay's AnnotatedPDN)
//	DecodeAnnotations(b, plies)                // decode, checking every byte
//	a.Attach(moves)                            // onto a game laid out as PDN (export, explorer)
//
// A version byte (1), the comments before the first move, then per
// annotated ply its distance from the previous one and a note: a flags
// byte and the parts it names (strength mark, NAGs, comments,
// variations). A variation is a flags byte (unverified: kept as written),
// its leading comments and its moves, each a text, its number and a note
// of its own (nested variations, a setup). Counts and lengths are
// uvarints, texts UTF-8; AppendAnnotations documents the layout. Every
// value has one encoding: DecodeAnnotations refuses what
// AppendAnnotations would not write (FuzzDecodeAnnotations checks it),
// and testdata/annotations.golden.json holds the bytes of the games of
// testdata/annotations.pdn.
//
// # games.result_proven
//
// The result the final position proves (migration 0014), in the codes of
// games.result: 1 or 3 where the side to move has no move the game allows,
// 0 where the position proves nothing; NULL for games stored before 0014.
//
// # position_index
//
// Every position of every stored game (the start and after each ply), by
// its 64-bit Zobrist hash h. Since migration 0011, a row per import batch
// and bucket (position.go):
//
//	bucket  = h >> 54                       PositionBucket (-512..511)
//	group   = (h >> 52) & 3                 PositionGroup
//	key     = (h >> 20) & 0xFFFFFFFF        PositionKey
//	entries = 4 slot counts (uint32 BE), the slots' keys (uint32 BE) group by
//	          group, then one id delta byte per slot      AppendPositionEntries
//
// A slot's game id is the row's first_game plus its group's deltas up to
// it; a delta of 255 is a filler (a longer gap), not an entry. That is 5
// bytes an entry (8 before) in a quarter of the rows, with the same 44 hash
// bits checked. draughtsdb_games_at finds the games of a position and
// draughtsdb_position_entries lists a row's entries (migration 0011).
//
// Before 0011 a row held a batch's entries of one 12-bit prefix:
//
//	prefix = h >> 52                                 PositionPrefix (-2048..2047)
//	entry  = ((h >> 20) & 0xFFFFFFFF) << 32 | id & 0xFFFFFFFF   PositionEntry
//
// and 0011 converts those rows (bucket = prefix >> 2, group = prefix & 3);
// the golden tests keep that format so the conversion stays checked.
//
// # opening_index
//
// Since migration 0012, a row per import batch, variant and bucket (as
// position_index's: h >> 54, with 4 groups of the next 2 bits), holding
// the (position, move) entries of the first plies of the batch's games
// (package analysis/openings counts them; opening.go packs them):
//
//	header  = single counts of groups 0..3, key counts of groups 0..3   (uint32 BE)
//	single  = (h >> 20) & 0xFFFFFFFF, move code << 2 | result slot      (8 bytes)
//	key     = (h >> 20) & 0xFFFFFFFF, move code << 2, then the counts   (16 bytes)
//	          white wins, draws, black wins, other                    (uint16 BE each)
//	move code = from << 22 | to << 15 | capture << 14 | 14-bit path hash    MoveCodeOf
//
// AppendOpeningEntries and DecodeOpeningEntries write and read a row;
// draughtsdb_opening_tree, draughtsdb_opening_entries and
// draughtsdb_move_code_text read them in SQL. Result slots are 0 white
// wins, 1 draw, 2 black wins, 3 other (unknown, double forfeit),
// ResultSlot. The path hash is FNV-1a over the landing squares, folded to
// 14 bits: two captures with the same start and end but different routes
// get different codes.
//
// # pattern_index
//
// Since migration 0015, a row per import batch and variant holding its
// games one after another (pattern.go), for searches that replay them as
// square sets without generating moves:
//
//	game  = uvarint id delta, uvarint plies << 1 | setup, [setup], plies
//	setup = side to move (0 White, 1 Black), uvarint n, n (square, piece)
//	ply   = from | 0x80 if a capture, to | 0x80 if it promotes,
//	        [n, the n captured squares ascending]     (captures only)
//
// AppendPatternEntry and AppendPatternGame write a game, PatternReader
// reads a row; draughtsdb_pattern_positions reads it in SQL.
//
// Before 0012 (migration 0004), a row per variant and 12-bit prefix held
// three bigint arrays, which 0012 converts:
//
//	key       = ((h >> 20) & 0xFFFFFFFF) << 32 | move code << 2             OpeningKey
//	single    = key | result slot          (an entry of one game)           SingleEntry
//	counts    = white << 48 | draws << 32 | black << 16 | other             Counts.Pack
package codec
