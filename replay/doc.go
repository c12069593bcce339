// Package replay turns parsed PDN games into verified, normalised games.
//
// Every move as written is resolved to exactly one legal move of the rules
// engine (package replay/rules), or the game is rejected with a
// *RejectError that names the ply, the move text, the position (FEN), the
// legal moves there and a short reason. It never guesses and never
// "repairs" a move into another one.
//
//	r := replay.NewReplayer(replay.Options{})   // one per goroutine
//	var g replay.Game                           // reused between games
//	for pg, err := range games {
//		if err := r.Replay(pg, err, &g); err != nil {
//			fmt.Println(replay.Reason(err), err) // "illegal move", "ply 7 \"28-22\": ..."
//			continue
//		}
//		use(g.Variant, g.Moves, g.Hashes, g.Result, g.Date)
//	}
//
// # Variant
//
// ResolveVariant decides each game's variant and records the basis: a
// forced variant (--variant); else the GameType tag, its number in the
// short or the full form (20, 20,W,10,10,N2,0), looked up in rules, with
// Portuguese (28) read as Spanish and lidraughts' From Position (99) as
// International; else the Variant tag of online sites (PlayStrategy's
// "American/English", "International", "BRKTHRU", "Frysk!"...;
// lidraughts' "Standard", "Frisian"...); else the Italian tag names
// (Bianco, Nero, Risultato: Italian); else the written squares: algebraic
// moves are Russian (8x8 site notation); numeric squares above 50 are
// Canadian, above 32 International, up to 32 English, except that a game
// opening from squares 31-35 (White's front row on 10x10, as in 32-28) is
// International; else Russian, the default. A GameType, Variant tag or
// Italian tags naming a variant that rules does not play (yet) is
// ErrUnsupportedVariant, naming the variant ("GameType 41
// (spantsiretti)"); a Variant tag that names no variant ("From Position")
// leaves the decision to the squares. Italian files also name the players
// Bianco and Nero and write Risultato for Result; both are read.
//
// A game with no such evidence (no GameType, no Variant tag naming a
// variant, no Italian tags, nothing forced) that the variant of its
// squares rejects with an illegal, ambiguous or unreadable move gets a
// second look: it is replayed under the other variants of the same board
// size and notation (rules.Variant.DefaultNotation; algebraic 8x8:
// Brazilian, Czech; numeric 8x8: Pool, Spanish, Italian, Thai; numeric
// 10x10: Frisian, Frysk, Antidraughts, Breakthrough, Killer, as rules has
// them). If exactly one accepts the whole game it is stored under that
// variant with BasisReplay and a warning ("variant decided by replay:
// czech: ... russian (by notation) rejects ply 14 "h6xf4": illegal move,
// and of the other 8x8 algebraic variants only czech accepts every
// move"); otherwise it is rejected with the first variant's reason (which
// names the variants that accept it, if several do). Numbers up to 32 are
// squares of the 10x10 board too: a numeric 8x8 game that no 8x8 variant
// accepts is tried as International (a problem set up on 10x10's upper
// half, Cat.D1.pdn game 16). Only a rejection starts the second look, so a
// game that replays under the variant of its squares costs nothing more.
// A game rejected under a variant guessed from its squares says so in its
// reason ("[read as english by its notation: no GameType or Variant tag;
// --variant sets one]"): the legal moves it lists are that variant's.
//
// One game alone cannot tell a quiet Czech game from a Russian one, but
// its file can. The import (ingest/infer.go) looks at each source's first
// 1,024 games: when some of those that name no variant replay only as one
// variant X (BasisReplay), none only as another, and X accepts every one
// of them that the variant of their squares accepts, the source's other
// games without variant tags on that board and notation are replayed as X
// (UntoldVariant, ReplayAs) and, when X accepts them, stored as X with
// BasisSource and the warning "variant decided by its source: czech: ...
// The source reads as czech: of its first 102 8x8 algebraic games without
// GameType, Variant or Italian tags, 84 replay only as czech (the first is
// game 1, line 1) and czech accepts all 18 that russian (by notation)
// accepts". A game X rejects keeps its own variant, with the warning "the
// variant of its source rejects it". The Czech federation's files (mrcd*,
// mrdrcd* in the PDN test suite) are so read: 250 of their 298 games are
// Czech by replay, the other 48 (Russian accepts 47 of them; Brazilian and
// Czech both accept mrdrcd07 game 6) by their source. The rule reads only
// the source's text, so it decides the same way every time, a resumed
// import included; a source mixing variants (some game that the variant
// of its squares accepts and X rejects) is left as each game decides.
// File names and Event tags are not read: the Czech files' Events ("m-CR-q",
// "MR Ceska Dama Druzstev") name the Czech federation's events, not always
// its game, and a name is no evidence a replay can check.
//
// # Move text
//
// Numeric or algebraic squares, any separator (- x X :), "x" for a plain
// move and "-" for a capture, only start and end, a partial or full path of
// landing squares, leading zeros, the Russian short form "cd4" (start file
// and end square), glued algebraic squares "c3d4", a separator and square
// split over two tokens ("1- 6" in column-aligned files), and multi-captures
// written hop by hop as separate moves ("e5xc3 7. c3xa1", playstrategy),
// joined hop after hop until they are one legal move by the rules below
// (so a flying king's hop may land on any square the rules allow, not
// only on the one of the engine's path). English games in algebraic
// notation name squares from Black's side, as the sites that write them do
// (rules.FormatMove writes them the same way: Variant.AlgebraicFromBlack), in the FEN tag and /FEN/ setups
// as in the moves.
//
// A text that is exactly a legal move's full path (start and every landing
// square) is that move, even when a longer capture between the same squares
// also fits it: h4:f6:h8 is not h4:f6:d8:a5:c3:h8, and a single jump
// written start-end (d6:b8) is its own full path. The engine lists one path
// per move, but a flying king may land on any empty square beyond the piece
// it takes, provided the chain goes on from there where some square lets it:
// so a text of three or more squares that is no listed path is also read hop
// by hop on the board (one line the variant captures along: a diagonal;
// in Frisian also a row or column, whose next dark square is two files or
// ranks away; in Turkish a rank or file; exactly one opponent piece
// jumped, none twice, empty landing squares, the king's or man's reach,
// men forwards (and sideways, Turkish) where they do not capture
// backwards, no straight turn back in Turkish, a Thai king directly behind
// the piece, taken pieces gone at once in Thai and Turkish, promotion on
// the way), and a complete chain is the legal move with its start, end
// and captured pieces (International a1:d4:g7 and a1:e5:g7 are a1:c3:g7;
// Frisian a1:e1:h4:j6 is a1:e1:g3:j6), with the same precedence as an
// exact path. Turkish's keep list already holds every landing path (kish
// counts each), so there a written path is its own move. Otherwise a text matches a legal
// move when start and end agree and its intermediate squares are landing
// squares of the move, in order; capture orders of one move (same start,
// end and captured pieces) count as one. No match: ErrIllegalMove, with an
// explanation (no piece there, a capture is compulsory, the majority rule,
// men capture only forwards, a capture that does not stop there...); for a
// path, what is wrong with it as written ("no piece to capture between 32
// and 28", "46 to 23 lands on an occupied square", a king that must land
// where the capture goes on). Several different moves match:
// ErrAmbiguousMove, listing them; so start and end alone stay ambiguous
// when captures between them take different pieces, unless the rest of
// the game tells them apart: each candidate is played and the moves
// written after it replayed (a bounded look ahead, lookahead.go); when
// exactly one candidate lets them all replay it is the move, and the game
// keeps the warning "ambiguous move resolved by the rest of the game"
// naming the other candidates and the later move each one makes illegal
// (schildpad.pdn game 7: 4x24 is 4x31x42x24, because after 4x22x33x24 the
// next move 28-32 is illegal). An ambiguous last move with a decisive
// result is resolved by the result when exactly one reading leaves the
// winner strictly best off: a position the rules decide, else the
// material (man 1, king 3) after the captures then forced (warning
// "ambiguous last move resolved by the game's result": Campionato Assoluto
// 2005 game 46, 0-1, ends with 3x26, where Italian rules let Black take
// either three men; after 3x10x17x26 White's forced 30x21 leaves Black a
// man down, after 3x10x19x26 the material is even, so Black won after the
// latter). A drawn or unknown result, a tie, or antidraughts and
// breakthrough (where material does not mean winning) leave it rejected,
// and so does a move after which the game replays under several readings.
//
// Frisian's limit on moving one king (rules.KingMoveCounter: not a 4th
// plain move in a row of the same king while its side has men) is a rule
// of the game, which the replay keeps: such a move is illegal, and a side
// whose every legal move it forbids has no move and has lost, as
// lidraughts plays it.
//
// # Normalisation
//
// A Game holds the moves (rules.Move: start, end, path, captured set) and
// the Zobrist hash after every ply; rules.FormatMove writes them in canonical
// algebraic (c3:e5:g7) or numeric (28x19x10) notation. The result is the
// Result tag (Risultato in Italian files, or the token) in the variant's
// standard form (Result.Format); a missing result is completed, a tag
// that differs from the token yields to the token when the position proves
// the token, and a contradicting result is kept with a warning, when the
// final position decides
// the game by the variant's Win rule (rules.Outcome: no legal move loses,
// or wins in antidraughts; the first king wins in breakthrough). Dates
// become YYYY.MM.DD with ?? for unknown parts (CleanDate).
//
// # Warnings
//
// Game.Warnings are Warning values: a Kind (WarnResultCompleted,
// WarnVariantByReplay, WarnNUL for the PDN reader's pdn.WarnNUL, ...), the
// Text stored with the game and shown, and for the kinds that say which
// variant decided the game, that Variant. Code reads the kind, never the
// text: validate counts warnings by Kind.String(), and the import's source
// inference finds games decided by replay with DecidedByReplay. The texts
// are those stored before warnings had kinds, byte for byte.
package replay
