// Package pdn reads and writes draughts games in PDN (Portable Draughts
// Notation), streaming: one game at a time over an io.Reader, in memory
// bounded by the largest game (MaxGameSize), not by the file.
//
// # Reading
//
//	rd := pdn.NewReader(f, "games.pdn") // the name appears in errors
//	for {
//		g, err := rd.Next()
//		if err == io.EOF {
//			break
//		}
//		var se *pdn.SyntaxError
//		if errors.As(err, &se) {
//			// g is the partial game; g.Raw holds its exact bytes.
//			log.Print(se) // "games.pdn:12:7: game 3: comment '{' is never closed"
//			continue      // the reader has resynchronised on the next game
//		} else if err != nil {
//			return err // I/O error from f: the stream ends
//		}
//		use(g.Tag("White"), g.MainLine(), g.Result)
//	}
//
// A Game holds its Tags in file order; the main line as Moves, each with
// its Text as written ("32-28", "28x19x10", "c3:e5:g7", "cd4", UnknownMove),
// the move Number written before it (Black for "12..."), its Strength
// ("!?"), and a Note (nil when empty) with NAGs, Comments, nested
// Variations and a mid-game /FEN "..."/ Setup; Comments before the first
// move; the Result token as written; Ordinal, Offset and Line of the game in
// the file; Raw, the exact bytes read; Windows1252 when those bytes were not
// UTF-8. Moves are not checked against the rules: that is the replay's job.
//
// Game boundaries: a result token (1-0 0-1 1/2-1/2 * 2-0 1-1 0-2 0-0, or a
// match score such as 4-6, or a lone "-", when it equals the game's Result
// tag) ends a game; so does a tag that follows movetext, or a tag after a
// blank line in the tags that repeats one of the game's tags (games with
// tags only; a blank line inside a game's tags does not end them), or the
// end of the input. Text between games with no tag, move, comment, setup,
// variation or NAG (prose, a result alone, stray bytes at the end) is no
// game: it takes no ordinal, the next game gets a warning naming it, and
// Skipped counts it. Game.LooksLikePDN tells a game whose text is PDN
// from prose that reads as a piece of movetext.
// Comments closed on the result's line still belong to the game it ends
// ("2-0 {a fine win}", after its last move); a comment on a line of its own
// leads the next game. Games without tags and one-line games are fine.
//
// Accepted forms: numeric and algebraic moves with - x : separators, full
// capture paths, leading zeros (01-07), move numbers "1." "1..." "1. ..."
// and glued "1.32-28", "-" or "--" for an unknown move (so "1. - -" is two
// unknown moves; a lone "-" is the result when the Result tag is "-"),
// text between tags that can be no movetext (no digit, no '*': a literal
// "\r" after each tag line, a program's remark), skipped with one warning
// for the game, "%" line comments
// at the start of a line, ";" comments to the end of the line (PDN 1.0,
// after PGN; returned as comments), tag values over several lines (their
// line breaks read as spaces), strengths in parentheses "(!?)", a literal
// "\n" between tags (some web exports), CRLF/LF/CR line ends. Comments
// are returned with their whitespace folded to single spaces.
//
// # Encodings and hostile bytes
//
// Every string the reader hands out (tag names and values, comments, move
// texts, setups, results, warnings, error messages) is valid UTF-8 without
// NUL bytes, whatever the input holds:
//   - A UTF-16 stream (byte order mark FF FE or FE FF at its start) is
//     decoded to UTF-8 as it is read; Raw, Offset and columns then refer to
//     that UTF-8 text (UTF8Text decodes it the same way, for a caller that
//     cuts the text into pieces for readers of their own). Unpaired surrogates and an odd last byte read as
//     U+FFFD. A UTF-8 BOM is skipped (at the start and between games).
//   - Otherwise each game is decoded on its own: UTF-8 when its bytes are
//     valid UTF-8, else Windows-1252 (Game.Windows1252).
//   - NUL bytes are stripped: between tokens they count as blanks, inside
//     a tag, comment, setup or word they are dropped ("3\x002-28" is the
//     move 32-28), and the game gets a Warning counting them. Raw keeps
//     them. NULs between games (padding) are skipped silently.
//   - Messages quote at most 40 bytes of input, cut on a rune boundary
//     with "..." after the quote, control characters escaped, and bytes
//     that are not UTF-8 read as Windows-1252.
//   - Variations nest at most MaxDepth (64) levels: a deeper game is
//     rejected with ErrNestingTooDeep, keeping the moves before the limit,
//     and the rest of it is only scanned for its end. Nothing is recursive
//     per '(': a 1 MB "((((...)))" costs time and memory linear in its
//     length, and the next game reads normally (BenchmarkDeepNesting:
//     1,000,000 levels and the game after them).
//   - A game longer than MaxGameSize is skipped (ErrGameTooLarge, naming
//     that game, its size and its bytes in the file); its Raw is its first
//     MaxGameSize bytes. What lies between games does not count and is not kept:
//     blank lines, % lines, NUL padding and stray '}' ']' '"' of any length
//     stream in constant memory and the next game reads whole. Its Raw
//     starts with its lead (the % lines and blanks right before it, stray
//     bytes, which are its defect as before) when that is at most 64 KB,
//     else at its first tag, comment or move (with PDN_BIGMEM=1 a test
//     streams 1 GB of each kind of gap in a 128 KB window). A game without a result runs until the next
//     tag, though: a gap of more than MaxGameSize after it is inside it,
//     and it is skipped as too large (the next game reads whole).
//
// Errors: each defect is a *SyntaxError (File, Line, Column, Game, Reason)
// that unwraps to ErrUnterminatedComment, ErrUnbalancedVariation,
// ErrNestingTooDeep, ErrBadTag, ErrUnexpectedToken (also a /FEN ""/ setup
// without a position) or ErrGameTooLarge. Next returns the partial game
// with the first defect and carries on with the next game. Oddities that
// lose no information (a missing result before the next game, a result
// token that disagrees with the Result tag, a move fragment without tags
// after tagged games, stripped NUL bytes) are listed in Game.Warnings
// instead.
//
// # Writing
//
//	w := pdn.NewWriter(out)
//	err := w.WriteGame(g)
//
// writes PDN 3.0: UTF-8, the seven standard tags (Event Site Date Round
// White Black Result) first in that order when present, then the others in
// their order; FEN values without spaces or a trailing dot; GameType in full
// form (FullGameType); lines of at most 80 characters (a longer single token
// stands alone, and so does a comment holding '}', which is written as a
// ';' comment to the end of its line; a comment word that would start a
// line with '[' and a letter, which reads as a tag there, is indented by a
// blank); comments,
// NAGs, strengths, variations and setups (as read) kept; the move numbers as
// read, glued to a move that would otherwise read as a result ("1.1-0",
// "0.4-6" when 4-6 is the game's score); "*" when the game had no result
// token. Reading the output gives the same game back; WriteGame returns an
// error (after writing what it can) for a game that cannot read back the
// same: a blank setup or one holding '"' or a line break, variations
// deeper than MaxDepth.
//
// # API
//
//	func NewReader(r io.Reader, name string) *Reader
//	func (*Reader) Next() (*Game, error)
//	func (*Reader) SplitAt(at func(offset int64) bool); func (*Reader) Line() int
//	func NewSplitReader(r io.Reader, name string) *Reader
//	func Rebase(g *Game, err error, games int, offset int64, lines int)
//	var ErrSplit
//	func NewWriter(w io.Writer) *Writer
//	func (*Writer) WriteGame(g *Game) error
//	func FullGameType(gt string) string
//	func NormalizeTagValue(name, value string) string // what the Writer writes for a tag
//	func (*Game) Tag(name string) string
//	func (*Game) MainLine() []string
//	func (*Move) Comments() []string; NAGs() []int; Variations() []Variation; Setup() string
//	type Game struct { Ordinal int; Offset int64; Line int; Raw []byte; Windows1252 bool;
//		Tags []Tag; Comments []string; Moves []Move; Result string; Warnings []Warning }
//	type Tag struct { Name, Value string }
//	type Move struct { Text, Strength string; Note *Note; Number int32; Black bool }
//	type Note struct { Setup string; NAGs []int; Comments []string; Variations []Variation }
//	type Variation struct { Comments []string; Moves []Move }
//	type Warning struct { Kind WarningKind; Line, Column int; Reason string }
//	type SyntaxError struct { File string; Line, Column, Game int; Reason string; Err error }
//	const UnknownMove = "--"; const MaxGameSize = 4 << 20; const MaxLineLength = 80; const MaxDepth = 64
//
// # Performance
//
// BenchmarkReadOCA (go test -bench ReadOCA -cpu 1) reads the 11.5 MB, 22,621
// game OCA archive: 270,000-340,000 games/s (135-175 MB/s, medians of 6
// runs 306,000 and 320,000) on one core of the shared 2-core development
// machine (184,000 before the tuning of Nov 2026; 507,000-515,000 on a
// quieter day, Nov 30, the same before and after the hostile-input checks:
// NUL stripping, UTF-16 sniffing and the nesting limit cost nothing
// measurable, nor did the lexer's own type and steps: 30 alternating runs,
// medians 45.4 ms after and 45.7 ms before, about 500,000 games/s), 3
// allocations and 3.5 KB per game (a Move is 48 bytes; the Game together
// with its tags, Raw, the move slice, which is most of the bytes; the
// game's strings are views of Raw). With PDN_BIGMEM=1 a test streams 1 GB
// and checks the heap stays under 50 MB.
// BenchmarkDeepNesting reads 1,000,000 nested '(' (2 MB) and the game after
// them in 8.5 ms and 6 MB (the reader used to die of a stack overflow after
// 116 s).
//
// # Reading in parallel
//
// A stream cannot be cut into games without lexing it (a comment may hide
// a tag, a game may lack its result), but it can be cut where a game very
// likely begins and the pieces read at once, each by a Reader of its own
// (package ingest does so): a Reader given SplitAt stops (ErrSplit) before
// a game that begins at an offset the caller accepts, and only where
// nothing read so far bears on that game (it begins its line, with no lead,
// after a game with tags), so that NewSplitReader on the input from there
// reads the rest of the stream exactly as the first Reader would have, but
// for the games' positions, which Rebase moves back into the whole stream.
// A piece is kept only when the reader of the piece before it stopped at
// its start; otherwise that reader goes on. A test checks this at every
// line start of every file of the test suite; FuzzSplit at
// the line starts of arbitrary input.
//
// # Internals
//
// Reading has two stages. The lexer (lexer.go) keeps a sliding window over
// the input holding the current game (skipToGame releases what lies between
// games as it skips it, keeping at most the game's lead, maxLead bytes; fill
// checks MaxGameSize only once beginGame has numbered the game), decides
// where each game ends and turns it into tokens, offsets into the window, in
// steps that follow the shape of a game (skipToGame, scanTagSection,
// scanMovetext, scanLayout, ..., endAtResult, endAtNextTag: the grammar is
// at scanGame). The Reader (reader.go) then builds the Game from the tokens
// in one pass, with an explicit stack for the variations; both add to the
// game's report (its first defect and its warnings). Runs of moves and move
// numbers are lexed and built in tight loops of their own (wordRun,
// moveRun); the rest goes through scanMovetext's switch and the builder's.
package pdn
