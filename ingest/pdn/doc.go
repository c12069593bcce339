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
// match score such as 4-6 when it equals the game's Result tag) ends a game;
// so does a tag that follows movetext, or a tag after a blank line that
// follows a block of tags (games with tags only), or the end of the input.
// Games without tags and one-line games are fine.
//
// Accepted forms: numeric and algebraic moves with - x : separators, full
// capture paths, leading zeros (01-07), move numbers "1." "1..." "1. ..."
// and glued "1.32-28", "-" or "--" for an unknown move (so "1. - -" is two
// unknown moves), "%" line comments
// at the start of a line, strengths in parentheses "(!?)", a literal "\n"
// between tags (some web exports), BOMs, CRLF/LF/CR line ends, UTF-8 or
// Windows-1252 text (decided per game; strings are always UTF-8). Comments
// are returned with their whitespace folded to single spaces.
//
// Errors: each defect is a *SyntaxError (File, Line, Column, Game, Reason)
// that unwraps to ErrUnterminatedComment, ErrUnbalancedVariation, ErrBadTag,
// ErrUnexpectedToken or ErrGameTooLarge. Next returns the partial game with
// the first defect and carries on with the next game. Oddities that lose no
// information (a missing result before the next game, a result token that
// disagrees with the Result tag, a move fragment without tags after tagged
// games) are listed in Game.Warnings instead.
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
// stands alone); comments, NAGs, strengths, variations and setups kept; the
// move numbers as read; "*" when the game had no result token. Reading the
// output gives the same game back.
//
// # API
//
//	func NewReader(r io.Reader, name string) *Reader
//	func (*Reader) Next() (*Game, error)
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
//	type Warning struct { Line, Column int; Reason string }
//	type SyntaxError struct { File string; Line, Column, Game int; Reason string; Err error }
//	const UnknownMove = "--"; const MaxGameSize = 4 << 20; const MaxLineLength = 80
//
// # Performance
//
// BenchmarkReadOCA (go test -bench ReadOCA -cpu 1) reads the 11.5 MB, 22,621
// game OCA archive: 270,000-340,000 games/s (135-175 MB/s, medians of 6
// runs 306,000 and 320,000) on one core of the shared 2-core development
// machine (184,000 before the tuning of Nov 2026), 3 allocations and 3.5 KB
// per game (a Move is 48 bytes; the Game together with its
// tags, Raw, the move slice, which is most of the bytes; the game's strings
// are views of Raw). Runs of moves and move numbers are lexed and built in
// tight loops of their own (wordRun, moveRun); the rest goes through the
// general token switch. TestPeakMemoryLargeStream (PDN_BIGMEM=1) streams
// 1 GB and checks the heap stays under 50 MB.
package pdn
