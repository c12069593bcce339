// Package rules is the draughts rules engine of draughtsdb: boards and
// square numbering, variants, positions, legal move generation, Zobrist
// hashing, FEN, move notation, game-end helpers and perft. It is pure Go
// with no I/O, configuration or database access.
//
// # Boards and squares
//
// Board8x8, Board10x10 and Board12x12 number their dark squares as PDN
// does: square 1 is the first dark square of the far row seen from White
// (b8, b10, b12), numbering runs left to right and row by row towards White;
// a1 is dark. 8x8: b8=1, h8=4, a7=5, a1=29, g1=32. 10x10: b10=1, j10=5,
// a9=6, a1=46, i1=50 (32-28 is d4-e5). 12x12: 1..72.
//
//	b.Squares() int                 number of squares
//	b.Algebraic(sq int) string      "d4"
//	b.ParseSquare(s string) (int, error)   "32", "08" or "d4"
//	b.Coords(sq) (file, rank); b.SquareAt(file, rank) int
//
// White always sits at the bottom: on these boards its men start on the
// high numbers (21-32 on 8x8, 31-50 on 10x10, 43-72 on 12x12) and move
// towards square 1; Black's start on 1-12 / 1-20 / 1-30. In English
// checkers this is still so, but Black moves first (OCA games open 9-14,
// 11-15 by Black).
//
// The other boards number as their variants' PDN GameType says (see
// Variants): Board8x8Mirrored (Italian, a1 light, a8 = 1, left to right
// from the top), Board8x8MirroredReversed (Spanish, h1 = 1, right to left
// from White's side, so White's men start on 1-12), Board8x8Reversed (Thai,
// g1 = 1) and Board8x8Turkish (all 64 squares, a8 = 1, h1 = 64). The
// mirrored and reversed boards share Board8x8's bit layout and generator:
// only their numbering and names differ. Boards() lists them all.
//
// # Variants
//
// A *Variant is data: Name, GameType, Board, FirstToMove, InitialRows,
// MenCaptureBackward, MenCannotCaptureKings, FlyingKings, MajorityCapture
// with its Precedence, KingPrecedence, KingHaltsBehindKing,
// CapturesRemovedAtOnce, KingLandsBehind, OrthogonalCaptures, Promotion
// (PromoteAtEnd, PromoteAndContinue, PromoteEndsMove), DefaultNotation
// (Numeric or Algebraic), DrawKingPlies, KingMoveLimit and Win.
// VariantByName("russian") and VariantByGameType(25) look them up;
// Variants() lists them, Default (Russian) first. VariantByTag reads a
// PDN Variant tag (TagNames too); the identity fields (Aliases, TagNames,
// OtherGameTypes, HubNames) are the one list of every other name and
// number of a variant.
//
// Rules shared by all: capture is compulsory; a piece is jumped at most once
// per chain; jumped pieces leave the board only when the chain ends and
// block until then (except Thai); a flying king may land on any empty
// square beyond the jumped piece, but where some landing square lets the
// chain go on it must land on one of those. Majority capture counts pieces
// (a king is one) unless Precedence says more.
//
// The variants, their rules and where we took them from (dctl is
// github.com/rhalbersma/dctl @21869018, whose perft counts in perft.json
// every generator reproduces):
//
//   - Russian (GT 25, 8x8, White first): men capture backwards, flying
//     kings, free choice of capture, a man reaching the far row in a
//     capture is crowned at once and goes on as a king. Algebraic.
//   - International (20, 10x10), Brazilian (26, 8x8), Canadian (27,
//     12x12): men capture backwards, flying kings, the most pieces must be
//     taken, a man is crowned only if the move ends on the far row.
//     International and Canadian numeric, Brazilian algebraic.
//   - English (21, 8x8, Black first): men capture forwards only, kings move
//     one step, free choice, crowning ends the move. Numeric.
//   - Pool, American pool checkers (23, 8x8, Black first as PDN's
//     "23,B,8,8,N1,0" and dctl's pool.hpp, after the APCA tournament
//     rules): men capture backwards, flying kings, free choice of capture
//     (rule 20), a man that reaches the far row in a capture goes on as a
//     man if it can and is crowned only if the move ends there (rules 16,
//     22, 23). Numbered as English (N1 seen from Black: 1 = b8). Its perft
//     from the start equals Russian's up to depth 7 and differs from depth
//     8, where the crowning rule first matters.
//   - Czech (29, 8x8, White first; Czech federation rules as in dctl's
//     czech.hpp, www.damweb.cz/pravidla/cdfull.html): men move and capture
//     forwards only, flying kings, free choice of capture except that when
//     a king can capture, a capture with a king must be made (rule 4.14:
//     the men's captures are then not legal, however many pieces they
//     take). A man reaching the far row is crowned and stops. Algebraic,
//     as the Czech championship files (mrcd*.pdn) write.
//   - Spanish (24, Board8x8MirroredReversed, White first; dctl's
//     spanish.hpp after the Portuguese federation's rules, which are the
//     same game): the bottom-left corner is light and squares are numbered
//     from White's bottom-right corner (h1 = 1, right to left, rows away
//     from White: PDN "24,W,8,8,N1,1"; Spanish sources number so, White's
//     men on 1-12). Men move and capture forwards only, flying kings, the
//     most pieces must be taken and among those the most kings. Numeric.
//   - Italian (22, Board8x8Mirrored, White first; FID technical rules
//     2008, art. 2-6, as dctl's italian.hpp): the bottom-left corner is
//     light and squares are numbered from the top left (a8 = 1, left to
//     right towards White: PDN "22,W,8,8,N2,1", as the Italian championship
//     files write, White opening 21-17 or 23-19). Men move and capture
//     forwards only and may not capture kings (5.3b); kings move and
//     capture one step. Precedence (6.6-6.9): the most pieces; then a
//     capture with a king over one with a man; then the most kings; then
//     the capture that meets a king first. Equal captures are free
//     (6.10). Numeric. The tests check dctl's 16 positions for these
//     articles exactly and replay the 53 games of the 2005 Italian
//     championship and the 186 Czech championship games.
//   - Thai (31, Board8x8Reversed, Black first; dctl's thai.hpp: 2 rows of
//     8 men, flying kings, men capture forwards only, is_land_behind_piece,
//     is_passing_capture): a jumped piece leaves the board at once, so a
//     king may cross its square again and even turn straight back; a
//     flying king lands on the square directly behind the piece it jumps;
//     free choice of capture; a man reaching the far row is crowned and
//     stops. Numbered as PDN's "31,B,8,8,N2,0" reads (square 1 at the top
//     left seen from Black, who moves first: 1 = g1, so White's men start
//     on 1-8). Numeric. dctl's Thai perft starts from initial(2), which is
//     2 empty rows between the sides, i.e. 12 men each, not the 8 of a real
//     game: the perft test uses that start (see perftStartOverride).
//   - Killer (no PDN GameType; mindsports.nl's killer draughts rules, dctl's
//     killer.hpp is_halt_behind_king): International, except that a king
//     whose capture ends by jumping a king must stop on the square directly
//     behind it. Where some landing square beyond the king lets the chain
//     go on, the usual rule applies (it must land on one of those). dctl's
//     perft of Fabien Letouzey's positions (Random178, Woldouby) and the
//     initial position are exact; International's counts differ from
//     depth 4 of Random178. Numeric.
//   - Antidraughts (lidraughts, GameType 98) and Breakthrough (96):
//     International's moves and captures with another Win: in antidraughts
//     a side to move without a legal move (no pieces or all blocked) wins;
//     in breakthrough the first side to make a king wins (and a side
//     without a move still loses). p.Outcome() applies Variant.Win;
//     IsLost only says that the side to move has no legal move. The
//     lidraughts games of testdata/games replay and every game the rules
//     decide carries that result.
//   - Frisian (40, 10x10, White first; KNDB/FRL rules as in dctl's
//     frisian.hpp, www.friesdammen.nl): men and kings capture along
//     diagonals and also along rows and columns, where the next dark square
//     is two files or two ranks away (f4 over h4 to j4, f4 over f6 to f8);
//     men capture backwards; kings fly (they capture from afar in all eight
//     directions) but move only diagonally. The capture of the highest
//     value must be made, a king counting almost two men (dctl's
//     (pieces + kings) * M - kings: two men beat one king, a king and a man
//     beat two men, equal totals prefer fewer kings); at equal value a
//     capture with a king comes first. A man is crowned only if the move
//     ends on the far row. KingMoveLimit 3: a side with kings and men may
//     not move the same king more than three times in a row without
//     capturing; this needs the game's history, so LegalMoves and Perft
//     ignore it (as dctl's perft does) and KingMoveCounter applies it.
//     Numeric. Rendered as its own generator (movegen_ten_frisian.go).
//   - Frysk (lidraughts' Frysk!, GameType 97): Frisian from five men each on
//     the back row (W:W46-50:B1-5). No perft table: hand-checked positions
//     and the lidraughts games (which never move a king a fourth time in a
//     row, and do three times) check it.
//   - Turkish (30, Board8x8Turkish, White first; the FMJD and Turkish
//     federation rules as kish's RULES.md, github.com/Sanavesa/kish): all
//     64 squares, men on the second and third rows (StartFEN), everything
//     along ranks and files: men step forwards or sideways and capture the
//     same ways over an adjacent piece; kings fly; a jumped piece leaves
//     the board at once, so a chain may cross its square and even end on
//     it; a chain may not turn straight back; the most pieces must be
//     taken (a king counts one); a man that reaches the far row in a
//     capture goes on as a man and is crowned only if the move ends there.
//     Algebraic (a8 is square 1, h1 square 64). Its generator is written
//     by hand (turkish.go): the template's diagonal layout does not fit.
//     kish's perft counts every capture path, a king's landing squares
//     included: that is Turkish's keep mode (drop merges moves with the
//     same start, end and captures as everywhere). kish also counts a
//     position without moves as one leaf; from the start that never occurs
//     within the table's depths we check.
//
// # Positions and moves
//
//	v.StartPosition() Position; NewPosition(v, side) Position
//	ParseFEN(v, s) (Position, error); p.FEN() string; p.FENRanges() string
//	p.Variant(), p.Board(), p.SideToMove(), p.SetSideToMove(c)
//	p.Piece(sq) Piece; p.SetPiece(sq, pc); p.Count(c) (men, kings)
//	p.LegalMoves(buf []Move) []Move          duplicates dropped
//	p.AppendMoves(buf []Move, keep bool) []Move
//	p.Play(m *Move)                           copy-make: q := p; q.Play(&m)
//	p.Hash() uint64 (incremental); p.ComputeHash() uint64 (from scratch)
//	p.IsLost() bool                           the side to move has no legal move
//	p.Outcome() Outcome                       Undecided, WhiteWins, BlackWins by Variant.Win
//
// Position is a ~80-byte value; copy it to keep the previous position
// (copy-make is cheaper than unmake for positions this small).
// Move is a 64-byte value without pointers:
//
//	m.From(), m.To() int; m.Path(dst []int) []int   landing squares in order
//	m.Captured(dst []int) []int                      ascending squares
//	m.CaptureCount() int; m.IsCapture(), m.Promotes() bool
//	m.SameAs(o *Move) bool
//
// Moves with the same start, end and captured set are one move ("drop").
// With keep=true every capture order is a separate move ("keep"): like
// dctl, whose perft counts we reproduce, a king's choice between landing
// squares that lead on to the same captures does not make a new move.
//
// # Notation
//
//	FormatMove(v, m, Numeric|Algebraic, full bool) string   32-28, 28x19x10, c3:e5:g7
//	v.SquareName(sq, n) string            "22", "c3" (English: "f6")
//	MoveText(v, legal []Move, m, n) string   shortest unambiguous: start and end,
//	                                      the full path only when another legal
//	                                      move shares start and end
//	Ambiguous(legal, m) bool
//	ParseMoveText(b, s) (squares []int, capture bool, err error)
//
// Square names are a variant's, not a board's: English and Pool share
// Board8x8, but English players who write algebraic squares sit on
// Black's side (Variant.AlgebraicFromBlack), so FormatMove takes the
// variant. ParseMoveText reads a board's own names; replay, which reads
// the games, names squares as FormatMove writes them.
//
// Resolving move text against a position belongs to package replay: match
// ParseMoveText's squares against From, To and Path (and Captured) of
// p.LegalMoves.
//
// # FEN
//
// ParseFEN reads `W:W31-50:B1-20`: side to move, then each side's squares,
// K marking a king, ranges, numeric or algebraic squares. It tolerates a
// trailing '.', unordered squares, an empty side (`B:W:B1`), lidraughts'
// `:H0:F1` suffix, spaces and surrounding quotes. Errors are *FENError
// wrapping ErrFENSyntax, ErrFENColor, ErrFENSquare, ErrFENDuplicate or
// ErrFENPromotionRow. FEN writes the canonical numeric form without ranges,
// squares ascending, White's list first (`W:W31,32,...:BK1,2`); FENRanges
// writes runs of three or more consecutive same-kind squares as ranges.
//
// # Generated code
//
// The move generators are rendered from one template,
// internal/movegen/movegen.go.tmpl (text/template, then go/format), by
// go generate ./replay/rules, once per bit layout and capture style
// (movegen.Generators): movegen_eight.go (every 8x8 board: Russian,
// Brazilian, English, Pool, Czech, Spanish, Italian), movegen_ten.go
// (International, Killer, Antidraughts, Breakthrough), movegen_twelve.go
// (Canadian), movegen_eight_thai.go (Thai: the template's Thai blocks) and
// movegen_ten_frisian.go (Frisian, Frysk: its Ortho blocks, eight
// directions); Turkish's generator, turkish.go, is written by hand. Each
// generated file starts with a "Code generated ... DO NOT EDIT."
// header. A test renders the template with the same function
// (movegen.Render) and compares. Variant.gen picks the generator
// (its board's, unless Thai or orthogonal captures). The other traits are
// read at run time, packed where the capture search reads them (genRules,
// one 8-byte copy per search): precedence, king precedence, men not taking
// kings, the killer rule. The per-position checks for the rare ones
// (Variant.special) live only in the Special bodies of genMoves,
// countMoves and perft, rendered from the same template text a second
// time, and Perft picks the classic or the Special bodies once per call:
// the original five variants pay about 0.5% more instructions than before
// the later variants (callgrind, International perft(9) +0.5%, Russian
// perft(10) +0.4%, Canadian perft(7) +0.9%).
//
// # Zobrist hashing
//
// Hashes are stored in databases and must never change: see zobrist.go.
// Keys come from splitmix64 seeded with ZobristSeed ^ board width
// (ZobristSeed = 0x6472617567687473, "draughts"), drawn per square 1..N as
// white man, white king, black man, black king, then the Black-to-move key.
// One key space per board size. The variant enters as one more XORed key:
// 0 for the five original variants (Russian, International, Brazilian,
// Canadian, English), so their stored hashes never change, and a key from
// the variant's name for every later one, so equal boards of two variants
// never share a hash (Russian and Brazilian still do, as stored).
// A golden test pins hashes per variant.
//
// # Game state
//
// p.IsLost(), p.Outcome(); Repetitions(history []uint64) int counts
// earlier occurrences of the last hash; DrawCounter tracks the king-move
// draw rules (Russian: 15 moves = 30 plies of king moves without capture;
// International: 25 moves each = 50 plies). These are for result checks
// only. KingMoveCounter applies Frisian's limit on moving the same king
// (Filter, Allowed, Update), which LegalMoves cannot see.
//
// # Perft
//
//	Perft(v, pos, depth, PerftOptions{Keep, NoBulk}) uint64
//	Divide(v, pos, depth, opts) []DivideEntry{Move, Nodes}
//
// Bulk counting (the default) counts the legal moves at the last ply without
// playing them: plain moves and single jumps of men that cannot go on are
// counted with population counts, other captures are searched. Divide
// writes root moves with MoveText in v.DefaultNotation (numeric for
// International, Canadian and English; algebraic for Russian and Brazilian).
// Perft allocates only its per-ply move buffers and a per-ply position stack
// (about a dozen allocations per call), never per node. Inside perft moves
// are played without the Zobrist hash (playTo*, into the position stack):
// perft never reads a hash, and Play keeps hashing for everyone else.
//
// Measured leaves per second for every variant, instruction counts per
// leaf, and the optimisations tried and dropped are in BENCHMARKS.md,
// with the commands that reproduce them.
//
// Frisian is slower per leaf than International because its tree is
// denser in captures (orthogonal jumps) and each test looks in eight
// directions: from the start, 56% of the positions at the last ply but
// one have a man's capture and 27% need a search of men's captures
// (chains of two or more) against International's 11%, and they lead to
// 5.5 leaves each against 6.3.
//
// Bulk counting counts men's captures without building moves (countMen*,
// where the majority rule holds and men go on capturing as men): a table
// of each square's neighbours along the lines a man captures along
// (menNb*), so a chain's end is one lookup, no Move, path or fingerprint,
// and in drop mode a record of up to menCountRecs chains of the highest
// rank (past it the full search counts).
//
// Frisian's bulk perft (Frisian and Frysk: frisianFastRules) is written by
// hand around the generated generator, in perft_frisian.go. From depth 2
// it recurses on bit sets (perftFrisianBits): where the side to move has
// only men, the children are made from the parent's bit sets, without a
// Move or playTo: plain moves and single jumps straight from the jump
// sets, longer captures (and jumps ranked by the kings they take) from
// frisianMenKids, the men's capture search keeping start, end and
// captured pieces. At the last ply but one, where both sides have only
// men and the opponent has no threat, the plain moves after which the
// opponent cannot capture are counted in bulk (frisianQuiet2: the
// opponent's steps in the parent, corrected for the square left and the
// square entered, summed by population counts); a move gives the
// opponent a capture only with a man of theirs next to its end square or
// beyond a man of ours next to its start square, and only those moves are
// counted one by one. The last ply is counted by countFrisianBits: one
// pass ORs the eight jump sets, so a side without a capture ends after two
// population counts; single jumps are counted by population counts,
// longer captures by frisianMenCount (countMen* for Frisian's rules, with
// no record of two-piece chains in drop mode: two chains of two jumps
// never share start, end and captured pieces); the single jumps' eight
// population counts are made only where no capture goes on (with
// GOAMD64=v1 each one's fallback call also kept the jumper sets spilled
// to the stack). Both men's searches take a man's jumps from
// frisianJumps, branch-free (per axis, the empty squares at the step's
// distance on either side, the man's own square left out, mark the
// squares with an empty square beyond), and find the jumps from a
// landing square before going on, so that a chain's end costs no call;
// where no king ranks the captures, their first jumps (three for the
// count, two for the kids) are loops with the chain's state in
// registers, and man's recursion (state in the struct, a call per jump)
// takes only the chains that go on (12% of the ends in Frisian
// perft(9)); one frisianLeaf per tree holds the searches, which are not
// zeroed at every use. A king to move, or more captures than frisianMenKids holds,
// falls back to the generated bodies, and so does NoBulk.
// The tests check it against the generated bodies on random games, its
// searches against the full search, and the jump sets and the bulk count
// on their own.
//
// Performance notes for whoever edits the generator: [2]uint64 is not
// SSA-able, so bit sets are loaded and stored element by element through
// pointers (load*/put) and Moves and the capture state are built in place;
// copying a value just written with narrower stores stalls store
// forwarding (that alone was half of a no-bulk profile). A test
// checks the bitwise shortcuts against the full capture search on random
// games of every variant: keep it passing.
//
// Tests: go test ./replay/rules runs every perft.json table (and dctl's
// Thai drop and Killer tables, see extraPerft) to a fixed depth, at most
// about 10 million leaves per table, in a few seconds;
// DRAUGHTSDB_DEEP_PERFT=1 goes deeper. The later variants' tables were
// checked with it to their deepest depth under 600 million leaves: Pool,
// Czech, Spanish, Italian and Thai to depth 12, Frisian 11, Killer initial
// 10, Random178 8 and Woldouby 15; Turkish to 9 (1.45 billion).
// dctl's International and Italian rule-article positions are checked
// move list by move list, and real games of the later variants
// (testdata/games) are replayed.
//
// # Representation
//
// Pieces are bit sets in a padded ("ghost square") layout (Turkish's
// all-squares board excepted: square s is bit s-1 and the file masks of
// turkish.go stop steps along a rank at the edge): square s (0-based)
// is bit s + s/W, leaving one unused bit after every two rows. The four
// diagonal steps are then fixed shifts (by W/2 and W/2+1: 4/5 on 8x8, 5/6
// on 10x10, 6/7 on 12x12), and a step off the left or right edge lands on
// a ghost bit that no set ever contains, so no edge masks are needed.
// 8x8 needs 35 bits and 10x10 54, so both use one uint64; 12x12 needs 77
// bits and uses a two-word struct. Go generics would dispatch the bit
// operations through dictionaries (not inlined, several times slower), so
// the generator is written once, as a template, using small methods shared
// by both bit-set types, and `go generate` renders the 8x8, 10x10 and 12x12
// copies with their own types and constants. Position stores the sets
// as [2]uint64 so one Position type serves all boards.
package rules
