package pdn

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxGameSize bounds the bytes of one game, its Raw. A longer game (in
// practice a runaway comment) is skipped and reported as ErrGameTooLarge.
// What lies between games does not count: skipToGame releases it as it
// skips it (see maxLead).
const MaxGameSize = 4 << 20

const (
	initialBufSize = 64 << 10
	// maxLead bounds a game's lead, what its Raw holds before its first
	// token: the % lines right before it, the blanks on its first line and
	// the stray bytes that begin it ('}' ']' '"', a literal "\n"). A longer
	// lead is not kept (Raw starts at the first token) and is released as
	// it is skipped, so a run of blank or % lines, NUL padding or junk of
	// any length between two games costs constant memory and leaves the
	// next game whole. The rule depends on the lead's length alone, not on
	// where reads happen to end, so Raw does not depend on the io.Reader.
	maxLead = 64 << 10
	// MaxDepth is the deepest variation nesting read: a game nested deeper
	// is rejected (ErrNestingTooDeep) and the rest of it is only scanned for
	// its end, so a hostile "((((..." costs time and memory linear in its
	// length and nothing per level.
	MaxDepth = 64
)

type tokKind uint8

const (
	tkTagName tokKind = iota + 1
	tkTagValue
	tkComment
	tkOpen
	tkClose
	tkNAG
	tkStrength
	tkNumber // num, black
	tkDots   // a lone "..." after a move number
	tkMove
	tkUnknown // "-" or "--"
	tkSetup   // /FEN "..."/; off/n cover the quoted value
	tkResult
)

type token struct {
	kind      tokKind
	black     bool
	esc       bool // tag value holds backslash escapes or line breaks (builder.tagValue)
	num       int32
	off, n    int32 // relative to the game start
	line, col int32
}

type openParen struct{ line, col int32 }

// lexer splits a PDN stream into games and each game into tokens.
//
// It works on a sliding window over the input. Bytes from the start of the
// current game (start) up to w stay in buf, so a finished game's Raw is
// one slice of the window and the tokens are offsets into it; nothing
// before the current game is kept, nor more than maxLead bytes of what lies
// between games, which keeps memory constant in the size of the file. Game
// boundaries are decided while lexing (a result, or a tag after movetext),
// so every byte is looked at once.
//
// The defects it meets go to rep, the Reader's report on the current game.
type lexer struct {
	src io.Reader
	rep *gameReport

	// The sliding window.
	buf       []byte
	r, w      int
	start     int   // buffer index of the current game's first byte
	end       int   // buffer index just past the current game (set by finishGame)
	base      int64 // file offset of buf[0]
	line      int   // line number at r
	lineStart int64 // file offset of the current line's first byte
	bol       bool  // only blanks since the last line break
	eof       bool
	rerr      error // the read error that ended the input, if any
	sniffed   bool  // the start of the input was checked for a UTF-16 BOM
	inGame    bool  // between beginGame and resetGame: fill checks MaxGameSize
	stopped   bool  // scanGame stopped at a split (Reader.SplitAt)
	dropLead  bool  // skipToGame: the lead grew past maxLead and is not kept

	// The first stray byte ('}' ']' '"') that skipToGame met before the
	// game's first token (0: none), reported by beginGame as the game's
	// defect once the game has its ordinal.
	stray               byte
	strayLine, strayCol int32

	// The current game.
	gameAbs               int64 // file offset of its first byte
	gameLine              int   // line of its first byte
	toks                  []token
	nTags                 int    // tkTagName tokens in toks
	nMoves                int    // tkMove and tkUnknown tokens in toks
	overflow              bool   // longer than MaxGameSize: its bytes and tokens are dropped
	head                  []byte // an overflowing game's first MaxGameSize bytes, its Raw
	deep                  bool   // nested deeper than MaxDepth: tokens are no longer kept
	depth                 int    // open variations
	opens                 [MaxDepth]openParen
	score                 []byte // the Result tag's value when it is a score ("4-6"), else empty
	forceEnd              bool   // an unterminated comment: the next tag starts a new game
	pdnSeen               bool   // a comment, setup, variation or NAG began, even a broken one (Reader.isJunk)
	lastLine, lastCol     int32  // last movetext token
	resultLine, resultCol int32  // the result token
}

// ensure makes at least n bytes available at lx.r unless the input ends.
func (lx *lexer) ensure(n int) bool {
	for lx.w-lx.r < n {
		if !lx.fill() {
			return false
		}
	}
	return true
}

// fill reads more input, first sliding the current game to the front of
// the buffer. It reports whether new bytes arrived.
func (lx *lexer) fill() bool {
	if lx.eof {
		return false
	}
	if !lx.inGame {
		// Between games (skipToGame): a lead that has grown past maxLead
		// is dropped, lx.start following lx.r until a blank line starts a
		// new lead, so what lies between games never fills the window.
		if lx.dropLead || lx.r-lx.start > maxLead {
			lx.dropLead = true
			lx.start = lx.r
		}
	} else if lx.w-lx.start >= MaxGameSize {
		// Only a game is checked, once beginGame has numbered it, so the
		// error names the game it is about.
		// Drop what we have of this oversized game and keep scanning for
		// its end without keeping its bytes.
		if !lx.overflow {
			lx.overflow = true
			lx.rep.fail(ErrGameTooLarge, int32(lx.line), lx.col(lx.r), "game is longer than 4 MB (an unclosed comment?); skipped")
			// Its first MaxGameSize bytes stay its Raw: a rejected game
			// is kept, and these say what went wrong where.
			lx.head = append([]byte(nil), lx.buf[lx.start:lx.start+MaxGameSize]...)
		}
		lx.toks, lx.nTags, lx.nMoves = lx.toks[:0], 0, 0
		lx.start = lx.r
	}
	// Slide only when the buffer is full, so a game read in small pieces
	// is copied O(log n) times, not once per read.
	if lx.w == len(lx.buf) && lx.start > 0 {
		n := copy(lx.buf, lx.buf[lx.start:lx.w])
		lx.base += int64(lx.start)
		lx.r -= lx.start
		lx.w = n
		lx.start = 0
	}
	if lx.w == len(lx.buf) {
		nb := make([]byte, 2*len(lx.buf))
		copy(nb, lx.buf[:lx.w])
		lx.buf = nb
	}
	if !lx.sniffed {
		lx.sniffed = true
		if lx.sniff() {
			return true
		}
	}
	for tries := 0; tries < 100; tries++ {
		n, err := lx.src.Read(lx.buf[lx.w:])
		lx.w += n
		if err != nil {
			lx.eof = true
			if err != io.EOF {
				lx.rerr = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	lx.eof = true
	return false
}

// Positions held across a fill are absolute file offsets: fill slides the
// buffer, so buffer indexes would go stale.
func (lx *lexer) pos() int64 { return lx.base + int64(lx.r) }

// idx converts an absolute offset back to a buffer index, clamped to the
// kept part of the game (an oversized game drops its head).
func (lx *lexer) idx(abs int64) int {
	return max(int(abs-lx.base), lx.start)
}

// rel is a token offset: relative to the game's first byte.
func (lx *lexer) rel(abs int64) int32 { return int32(abs - lx.gameAbs) }

func (lx *lexer) col(idx int) int32 {
	return int32(lx.base + int64(idx) - lx.lineStart + 1)
}

// newline consumes a line break at lx.r (LF, CR or CRLF).
func (lx *lexer) newline() {
	c := lx.buf[lx.r]
	lx.r++
	if c == '\r' && lx.ensure(1) && lx.buf[lx.r] == '\n' {
		lx.r++
	}
	lx.line++
	lx.lineStart = lx.base + int64(lx.r)
	lx.bol = true
}

func (lx *lexer) emit(t token) {
	if !lx.overflow && !lx.deep {
		switch t.kind {
		case tkTagName:
			lx.nTags++
		case tkMove, tkUnknown:
			lx.nMoves++
		}
		lx.toks = append(lx.toks, t)
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\f' || c == '\v' }

// isBlank is isSpace or a NUL byte: a NUL between tokens is skipped like a
// blank (the game gets a warning, see builder.nul), so input padded with
// NULs, or UTF-16 without a byte order mark, still reads.
func isBlank(c byte) bool { return isSpace(c) || c == 0 }

// allBlank reports whether s has only blanks (a setup without a position).
func allBlank[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if !isBlank(s[i]) {
			return false
		}
	}
	return true
}

// Byte classes for the words of the movetext, sorted while their end is
// found (see wordEnd).
const (
	cDelim = 1 << iota // ends a word
	cDigit
	cOther // neither a delimiter nor a byte of a move (letters, digits, - :)
	cNul   // a NUL byte, stripped from the word (also cOther: never a simple move)
)

var wordClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch b := byte(c); {
		case isDigit(b):
			t[c] = cDigit
		case isLetter(b), b == '-', b == ':':
		default:
			t[c] = cOther
		}
	}
	for _, c := range []byte(" \t\n\r\f\v{}()[]$!?\"") {
		t[c] = cDelim
	}
	t[0] = cOther | cNul
	return t
}()

// wordEnd returns the end of the word at buf[r:] (its first delimiter, or
// len(buf)) and the union of the classes of its bytes.
func wordEnd(buf []byte, r int) (int, uint8) {
	var acc uint8
	for ; r < len(buf); r++ {
		f := wordClass[buf[r]]
		if f&cDelim != 0 {
			break
		}
		acc |= f
	}
	return r, acc
}

// simpleMove reports whether a word with the class union acc is what
// isMove accepts, given w[0] is a digit or a letter.
func simpleMove(acc uint8) bool { return acc&cOther == 0 && acc&cDigit != 0 }

func (lx *lexer) isBOM() bool {
	return lx.ensure(3) && lx.buf[lx.r+1] == 0xBB && lx.buf[lx.r+2] == 0xBF
}

// skipLine skips to (not over) the next line break.
func (lx *lexer) skipLine() {
	for {
		for lx.r < lx.w {
			if c := lx.buf[lx.r]; c == '\n' || c == '\r' {
				return
			}
			lx.r++
		}
		if !lx.fill() {
			return
		}
	}
}

// The lexer's steps follow the shape of a PDN stream (the methods that lex
// each part on the right):
//
//	stream      = { gap game }                        scanGame
//	gap         = blanks, blank lines, BOMs, % lines  skipToGame
//	game        = lead tags movetext termination      each part may be missing
//	lead        = layout before the first tag,        skipToGame (see maxLead)
//	              comment or word
//	tags        = { tag | layout }                    scanTagSection, scanTag
//	movetext    = { word | "(" | ")" | NAG            scanMovetext, wordRun, scanWord,
//	              | strength | setup | layout }       scanVariationOpen, scanVariationClose,
//	                                                  scanNAG, scanStrength, scanSetup
//	layout      = comment | % line | literal "\n"     scanLayout, scanComment
//	              | BOM | stray } ] "
//	termination = result | next game's tag | end      endAtResult, endAtNextTag, finishGame
//
// Nothing marks the end of a game but what follows it, so the lexer decides
// it on the way: a result, a tag after movetext (or after a blank line that
// follows tags), the end of the input.

// scanGame lexes the next game into lx.toks and sets lx.start and lx.end
// around it. It returns false at the end of the input when no game is left.
//
// With rd's SplitAt, it also returns false, setting lx.stopped, at a game
// the Reader stops before (atSplit), before numbering it.
func (lx *lexer) scanGame(rd *Reader) bool {
	lx.resetGame()
	if !lx.skipToGame() {
		return false
	}
	if rd.split != nil && rd.atSplit() {
		lx.stopped = true
		return false
	}
	lx.beginGame()
	if lx.scanTagSection() {
		return true
	}
	lx.scanMovetext()
	return true
}

// resetGame forgets the tokens and the lexing state of the previous game;
// the window keeps its bytes until skipToGame moves lx.start past them.
func (lx *lexer) resetGame() {
	lx.stopped = false
	lx.toks, lx.nTags, lx.nMoves = lx.toks[:0], 0, 0
	lx.resultLine, lx.resultCol = 0, 0
	lx.overflow = false
	lx.deep = false
	lx.depth = 0
	lx.score = lx.score[:0]
	lx.forceEnd = false
	lx.pdnSeen = false
	lx.inGame = false
}

// skipToGame consumes what lies between two games: blanks, blank lines,
// byte order marks and % line comments, stopping on the first byte of the
// next game, its first tag, comment or word. It moves lx.start, where the
// game's Raw begins, past the blank lines and BOMs but not past its lead:
// the % lines right before the game (remarks about it), the blanks on its
// first line, and the stray bytes that begin it, '}' ']' '"' (a defect of
// the game, reported by beginGame) or a literal "\n" (layout); after such
// a byte blank lines are part of the game too, as they were in its tag
// section. A lead longer than maxLead is dropped (released as it is
// skipped, see fill): Raw then starts at the game's first token. It
// reports false at the end of the input, unless stray bytes were met: they
// make a game of their own there, so that they are reported.
func (lx *lexer) skipToGame() bool {
	// A game ended by the next game's tag leaves lx.r on that tag; the
	// new game starts at the beginning of its line.
	if lx.r > lx.start {
		if lx.bol {
			lx.start = max(lx.start, int(lx.lineStart-lx.base))
		} else {
			lx.start = lx.r
		}
	}
	lx.dropLead = false
	lx.stray = 0
	content := false // the current line holds a % comment
	begun := false   // a stray byte or a literal "\n" begins the game
	for {
		if lx.r >= lx.w && !lx.fill() {
			if !begun {
				lx.start = lx.r
				return false
			}
			lx.trimLead()
			return true
		}
		c := lx.buf[lx.r]
		switch {
		case isBlank(c):
			lx.r++
		case c == '\n' || c == '\r':
			lx.newline()
			if !content && !begun {
				lx.start = lx.r // a blank line: a new lead starts after it
				lx.dropLead = false
			}
			content = false
		case c == 0xEF && lx.isBOM():
			lx.r += 3
			if begun {
				lx.bol = false
			} else if !content {
				lx.start = lx.r
			}
		case c == '%' && lx.bol:
			content = true
			if begun {
				lx.bol = false
			}
			lx.skipLine()
		case c == '}' || c == ']' || c == '"':
			if lx.stray == 0 {
				lx.stray, lx.strayLine, lx.strayCol = c, int32(lx.line), lx.col(lx.r)
			}
			begun = true
			lx.bol = false
			lx.r++
		case c == '\\' && lx.ensure(2) && lx.buf[lx.r+1] == 'n':
			begun = true
			lx.bol = false
			lx.r += 2
		default:
			lx.trimLead()
			return true
		}
	}
}

// trimLead drops the lead from the game about to begin when it is longer
// than maxLead, whether or not fill had to drop part of it already: the
// game's Raw depends on the input alone, not on the reads.
func (lx *lexer) trimLead() {
	if lx.dropLead || lx.r-lx.start > maxLead {
		lx.start = lx.r
	}
}

// beginGame numbers the game skipToGame found and records where it starts,
// for Game.Offset and Game.Line and for the token offsets. From here on
// the game's defects (a stray byte before it, a size past MaxGameSize) are
// reported under its ordinal.
func (lx *lexer) beginGame() {
	lx.rep.ordinal++
	lx.inGame = true
	lx.gameAbs = lx.base + int64(lx.start)
	lx.gameLine = lx.line - lx.countLinesBack()
	if lx.stray != 0 {
		lx.rep.fail(ErrUnexpectedToken, lx.strayLine, lx.strayCol, strayReason(lx.stray))
	}
}

// countLinesBack returns how many line breaks lie between lx.start and lx.r
// (the % comment lines that belong to the game), so the game's first line
// can be reported.
func (lx *lexer) countLinesBack() int {
	n := 0
	for i := lx.start; i < lx.r; i++ {
		switch lx.buf[i] {
		case '\n':
			n++
		case '\r':
			if i+1 >= lx.r || lx.buf[i+1] != '\n' {
				n++
			}
		}
	}
	return n
}

// scanTagSection consumes the game's tag pairs [Name "value"] and the
// layout among them (comments before the first move, % lines, ...), up to
// the first byte of movetext, which it leaves for scanMovetext. It reports
// true when the game ended within it: at the end of the input (a game of
// tags only, or of comments only), or at a tag that belongs to the next
// game, one after a blank line that follows tags (games without movetext
// are separated by blank lines alone) or one after an unterminated comment.
func (lx *lexer) scanTagSection() (ended bool) {
	hasTags := false
	blank := false // a blank line since the last tag
	nl := 0        // line breaks since the last token
	junk := -1     // index in rep.warns of the warning about skipped junk (-1: none)
	junkN := 0
	for {
		if lx.r >= lx.w && !lx.fill() {
			lx.finishGame(lx.w, false)
			return true
		}
		c := lx.buf[lx.r]
		if c == '\n' || c == '\r' {
			lx.newline()
			nl++
			if nl >= 2 {
				blank = true
			}
			continue
		}
		if isBlank(c) {
			lx.r++
			continue
		}
		if c != '[' && !lx.isLayout(c, lx.bol) {
			if hasTags {
				if n := lx.tagJunk(); n > 0 {
					// Text between tags that can be no movetext: skipped,
					// with one warning for the game's tag section.
					junkN++
					if junkN == 1 {
						junk = len(lx.rep.warns)
						lx.rep.warn(WarnTextBetweenTags, int32(lx.line), lx.col(lx.r), "text between the tags that is neither a tag nor movetext skipped: "+quote(lx.buf[lx.r:lx.r+n]))
					} else {
						w := &lx.rep.warns[junk]
						w.Reason = junkFirst(w.Reason) + " (" + strconv.Itoa(junkN) + " such pieces in this game's tags, the first quoted)"
					}
					lx.r += n
					lx.bol = false
					nl = 0
					continue
				}
			}
			return false // the movetext starts here
		}
		line, col := int32(lx.line), lx.col(lx.r)
		wasBOL := lx.bol
		lx.bol = false
		nl = 0
		if c != '[' {
			lx.lastLine, lx.lastCol = line, col
			lx.scanLayout(c, line, col)
			continue
		}
		// A blank line inside the tags does not end the game (real files
		// have them); a tag after one starts the next game only when it
		// names a tag this game has already: games of tags alone follow
		// one another so.
		if lx.forceEnd || hasTags && blank && lx.repeatsTag() {
			lx.endAtNextTag(wasBOL)
			return true
		}
		lx.scanTag(line, col)
		hasTags, blank = true, false
	}
}

// maxTagJunk bounds tagJunk's look ahead.
const maxTagJunk = 4096

// tagJunk returns the length of the text at lx.r, in a tag section after
// a tag, when it is junk between tags: up to the end of its line or the
// next '[' (within maxTagJunk bytes), it holds no digit and no '*' (so no
// move, move number or result) and not only '-' (unknown moves). It
// returns 0 for what may be movetext.
func (lx *lexer) tagJunk() int {
	only := true // only '-' and blanks so far
	for k := 0; k < maxTagJunk; k++ {
		if !lx.ensure(k + 1) {
			if only {
				return 0
			}
			return k
		}
		switch c := lx.buf[lx.r+k]; {
		case c == '\n' || c == '\r' || c == '[':
			if only {
				return 0
			}
			return k
		case isDigit(c) || c == '*' || c == '{' || c == ';':
			return 0
		case c != '-' && !isBlank(c):
			only = false
		}
	}
	return 0
}

// junkFirst returns a junk warning without its count of pieces.
func junkFirst(w string) string {
	if i := strings.Index(w, " ("); i >= 0 && strings.HasSuffix(w, "the first quoted)") {
		return w[:i]
	}
	return w
}

// repeatsTag reports whether the tag at lx.r names a tag the current game
// has already (or the game's tags are no longer kept, being too large).
func (lx *lexer) repeatsTag() bool {
	if lx.overflow {
		return true
	}
	k := 1
	for lx.ensure(k+1) && isSpace(lx.buf[lx.r+k]) && k < 64 {
		k++
	}
	s := k
	for lx.ensure(k+1) && isNameByte(lx.buf[lx.r+k]) && k-s < 256 {
		k++
	}
	name := lx.buf[lx.r+s : lx.r+k]
	if len(name) == 0 {
		return false
	}
	for _, t := range lx.toks {
		if t.kind == tkTagName {
			i := lx.idx(lx.gameAbs + int64(t.off))
			if string(lx.buf[i:i+int(t.n)]) == string(name) {
				return true
			}
		}
	}
	return false
}

// scanMovetext consumes the movetext up to the game's end: its
// termination (a result token, consumed with the rest of its line, see
// scanWord), the next game's tag (left for the next game; the game is
// warned that it has no result) or the end of the input.
func (lx *lexer) scanMovetext() {
	for {
		if lx.r >= lx.w && !lx.fill() {
			lx.finishGame(lx.w, false)
			return
		}
		c := lx.buf[lx.r]
		if c == '\n' || c == '\r' {
			lx.newline()
			continue
		}
		if isBlank(c) {
			lx.r++
			continue
		}
		line, col := int32(lx.line), lx.col(lx.r)
		wasBOL := lx.bol
		if c != '[' {
			lx.lastLine, lx.lastCol = line, col
		}
		lx.bol = false
		if isDigit(c) || isLetter(c) {
			// Most tokens: moves and move numbers, lexed a run at a time.
			if lx.wordRun(line) {
				continue
			}
			if lx.scanWord(line, col) {
				return
			}
			continue
		}
		switch c {
		case '[':
			lx.rep.warn(WarnNoResult, lx.lastLine, lx.lastCol, "no result at the end of the game; the next game's tags follow")
			lx.endAtNextTag(wasBOL)
			return
		case '(':
			lx.scanVariationOpen(line, col)
		case ')':
			lx.scanVariationClose(line, col)
		case '$':
			lx.scanNAG(line, col)
		case '!', '?':
			lx.scanStrength(line, col)
		case '/':
			if lx.scanSetup(line, col) {
				break
			}
			if lx.scanWord(line, col) {
				return
			}
		default:
			if lx.isLayout(c, wasBOL) {
				lx.scanLayout(c, line, col)
				break
			}
			// Anything else is read as a word: a move, a move number, a
			// result or an unexpected token.
			if lx.scanWord(line, col) {
				return
			}
		}
	}
}

// isLayout reports whether the byte c at lx.r starts layout, what may come
// anywhere in a game and is neither a tag nor movetext (see scanLayout).
// bol tells whether only blanks precede it on its line.
func (lx *lexer) isLayout(c byte, bol bool) bool {
	switch c {
	case '{', '}', ']', '"', ';':
		return true
	case '%':
		return bol // elsewhere a '%' is an unexpected word
	case '\\':
		return lx.ensure(2) && lx.buf[lx.r+1] == 'n'
	case 0xEF:
		return lx.isBOM()
	}
	return false
}

// scanLayout consumes the layout that isLayout found at lx.r: a {comment}
// or a ; comment to the end of the line (tokens), a % line comment, a
// literal "\n" that some web exports write between tags (skipped like a
// blank), a byte order mark (files concatenated), or a stray '}', ']' or
// '"' (a defect: comments do not nest, and brackets and quotes belong in
// tags).
func (lx *lexer) scanLayout(c byte, line, col int32) {
	switch c {
	case '{':
		lx.scanComment(line, col)
	case ';':
		// A comment to the end of the line (PDN 1.0, after PGN; older
		// programs' archives write them).
		lx.r++
		s := lx.pos()
		e := s // just past the last byte that is not blank
		for (lx.r < lx.w || lx.fill()) && lx.buf[lx.r] != '\n' && lx.buf[lx.r] != '\r' {
			if !isBlank(lx.buf[lx.r]) {
				e = lx.pos() + 1
			}
			lx.r++
		}
		// The token ends at the comment's last byte that is not blank:
		// finishGame leaves trailing blanks out of the game's Raw (a file
		// that ends in "; "), and the token must lie inside it.
		lx.emit(token{kind: tkComment, off: lx.rel(s), n: int32(e - s), line: line, col: col})
	case '}', ']', '"':
		lx.rep.fail(ErrUnexpectedToken, line, col, strayReason(c))
		lx.r++
	case '%':
		lx.skipLine()
	case '\\':
		lx.r += 2
	case 0xEF:
		lx.r += 3
	}
}

// strayReason is the defect of a stray '}', ']' or '"'.
func strayReason(c byte) string {
	if c == '}' {
		return "'}' without a matching '{' (comments do not nest)"
	}
	return "unexpected '" + string(c) + "' in the movetext"
}

// scanVariationOpen consumes the '(' that opens a variation, or a move
// strength in parentheses, "(!?)". Variations are lexed flat, a token per
// parenthesis, and nest at most MaxDepth levels: a deeper '(' fails the
// game, which keeps what came before and builds nothing more (lx.deep), so
// the cost stays linear and the builder's depth bounded.
func (lx *lexer) scanVariationOpen(line, col int32) {
	if lx.scanParenStrength(line, col) {
		return
	}
	lx.r++
	lx.pdnSeen = true
	if lx.depth >= MaxDepth {
		if !lx.deep {
			lx.rep.fail(ErrNestingTooDeep, line, col, "variations nested more than "+strconv.Itoa(MaxDepth)+
				" levels deep (the limit); the rest of the game is skipped")
			lx.deep = true
		}
	} else {
		lx.opens[lx.depth] = openParen{line, col}
	}
	lx.depth++
	lx.emit(token{kind: tkOpen, line: line, col: col})
}

// scanVariationClose consumes a ')' that closes a variation. One without
// a '(' is a defect and makes no token, so the builder sees balanced
// parentheses.
func (lx *lexer) scanVariationClose(line, col int32) {
	lx.r++
	if lx.depth == 0 {
		lx.rep.fail(ErrUnbalancedVariation, line, col, "')' without a matching '('")
		return
	}
	lx.depth--
	lx.emit(token{kind: tkClose, line: line, col: col})
}

// scanStrength consumes a move strength, a run of '!' and '?' ("!?", "??").
func (lx *lexer) scanStrength(line, col int32) {
	s := lx.pos()
	for lx.r < lx.w || lx.fill() {
		if b := lx.buf[lx.r]; b != '!' && b != '?' {
			break
		}
		lx.r++
	}
	lx.emit(token{kind: tkStrength, off: lx.rel(s), n: int32(lx.pos() - s), line: line, col: col})
}

// endAtNextTag ends the game before the '[' at lx.r, the next game's
// first tag. A tag at the start of its line takes the whole line: the
// next game starts there (see skipToGame).
func (lx *lexer) endAtNextTag(wasBOL bool) {
	end := lx.r
	if wasBOL {
		end = max(int(lx.lineStart-lx.base), lx.start)
	}
	lx.bol = wasBOL
	lx.finishGame(end, false)
}

// endAtResult ends the game at the result token w (at line, col) that
// scanWord has just consumed, with the rest of its line if blank.
// Variations still open there are a defect; the result closes them.
func (lx *lexer) endAtResult(line, col int32, w []byte) {
	lx.resultLine, lx.resultCol = line, col
	if lx.depth > 0 {
		o := lx.opens[min(lx.depth, MaxDepth)-1]
		lx.rep.fail(ErrUnbalancedVariation, o.line, o.col, "variation '(' is not closed before the result "+string(w))
		lx.depth = 0
	}
	// A comment closed on the result's line is the game's last word, not
	// the start of the next game (which would also decode it in that
	// game's encoding): "2-0 {a fine win}". One left open there stays
	// where it was, a defect of its own, not of the game before it.
	for {
		save := lx.pos()
		lx.skipSpaces()
		if !lx.closedOnLine() {
			lx.r = lx.idx(save)
			break
		}
		lx.scanComment(int32(lx.line), lx.col(lx.r))
	}
	lx.finishGame(lx.r, true)
}

// maxTrailingComment bounds the look ahead of closedOnLine.
const maxTrailingComment = 4096

// closedOnLine reports whether a comment starts at lx.r and ends on the
// same line within maxTrailingComment bytes.
func (lx *lexer) closedOnLine() bool {
	if !lx.ensure(1) || lx.buf[lx.r] != '{' {
		return false
	}
	for k := 1; k < maxTrailingComment && lx.ensure(k+1); k++ {
		switch lx.buf[lx.r+k] {
		case '}':
			return true
		case '\n', '\r':
			return false
		}
	}
	return false
}

// finishGame closes the current game at buffer index end: the game's Raw
// is lx.buf[lx.start:end]. With eatEOL the rest of the line, if blank, is
// included (after a result); otherwise the blank lines before end are
// left to the gap between games. A variation still open is a defect.
func (lx *lexer) finishGame(end int, eatEOL bool) {
	if eatEOL {
		save := lx.pos()
		lx.skipSpaces()
		if lx.r < lx.w && (lx.buf[lx.r] == '\n' || lx.buf[lx.r] == '\r') {
			lx.newline()
		} else {
			lx.r = lx.idx(save)
		}
		end = lx.r
	} else {
		// Leave trailing blank lines to the gap between games.
		for end > lx.start {
			c := lx.buf[end-1]
			if !isBlank(c) && c != '\n' && c != '\r' {
				break
			}
			end--
		}
		if end < lx.w && lx.buf[end] == '\r' {
			end++
		}
		if end < lx.w && lx.buf[end] == '\n' {
			end++
		}
		if end > lx.r { // never move the end past what was lexed
			end = lx.r
		}
	}
	if lx.depth > 0 {
		o := lx.opens[min(lx.depth, MaxDepth)-1]
		lx.rep.fail(ErrUnbalancedVariation, o.line, o.col, "variation '(' is never closed")
	}
	lx.end = end
}

// raw returns the bytes of the game just lexed.
func (lx *lexer) raw() []byte { return lx.buf[lx.start:lx.end] }

// release drops the game just lexed from the window: the next game starts
// after it.
func (lx *lexer) release() {
	lx.start = lx.end
	if lx.r < lx.start {
		lx.r = lx.start
	}
}

// scanTag consumes a tag pair [Name "value"] (a name of letters, digits,
// '_' and bytes above 0x7F; a value on one line, with \" and \\ escaped)
// and emits its name and value. A malformed pair is a defect (ErrBadTag)
// and the rest of its line is skipped, so the next line reads normally. A
// Result tag whose value is a score such as "4-6" makes that score a
// result too (see isScoreResult).
func (lx *lexer) scanTag(line, col int32) {
	lx.r++ // '['
	bad := func(reason string) {
		lx.rep.fail(ErrBadTag, int32(lx.line), lx.col(lx.r), reason)
		lx.skipLine()
	}
	lx.skipSpaces()
	ns := lx.pos()
	lx.skipWhile(&nameByte)
	if lx.pos() == ns {
		bad("tag name expected after '['")
		return
	}
	ne := lx.pos()
	lx.skipSpaces()
	if !lx.ensure(1) || lx.buf[lx.r] != '"' {
		bad("tag value must be in double quotes")
		return
	}
	lx.r++
	vs, esc := lx.pos(), false
	for {
		lx.skipWhile(&valueByte)
		if lx.r >= lx.w && !lx.fill() {
			bad("tag value is not closed by '\"'")
			return
		}
		c := lx.buf[lx.r]
		if c == '"' {
			break
		}
		if c == '\n' || c == '\r' {
			// PDN's strings may span lines (PDN 3.0's STRING token;
			// CheckerBoard reads them so): a value closed on a later line,
			// by '"' and ']', goes on; its line breaks read as spaces
			// (builder.tagValue). One never closed stays a defect of its
			// line, so that the next tags are read.
			if !lx.tagValueContinues() {
				bad("tag value is not closed by '\"' on its line")
				return
			}
			esc = true
			lx.newline()
			lx.bol = false
			continue
		}
		if c == '\\' && lx.ensure(2) && (lx.buf[lx.r+1] == '"' || lx.buf[lx.r+1] == '\\') {
			esc = true
			lx.r++
		}
		lx.r++
	}
	ve := lx.pos()
	lx.r++
	lx.skipSpaces()
	if !lx.ensure(1) || lx.buf[lx.r] != ']' {
		bad("']' expected after the tag value")
		return
	}
	lx.r++
	if lx.overflow {
		return
	}
	if ne-ns == 6 && string(lx.buf[lx.idx(ns):lx.idx(ne)]) == "Result" {
		// The last Result tag decides which score also ends the game.
		v := lx.buf[lx.idx(vs):lx.idx(ve)]
		lx.score = lx.score[:0]
		if len(v) >= 3 && isScore(v) && !isStdResult(v) || len(v) == 1 && v[0] == '-' {
			// A lone "-" too, written for an unknown result by some
			// programs: as the game's last word it is its result, not an
			// unrecorded move.
			lx.score = append(lx.score, v...)
		}
	}
	lx.emit(token{kind: tkTagName, off: lx.rel(ns), n: int32(ne - ns), line: line, col: col})
	lx.emit(token{kind: tkTagValue, esc: esc, off: lx.rel(vs), n: int32(ve - vs), line: line, col: col})
}

// maxTagContinuation bounds tagValueContinues' look ahead.
const maxTagContinuation = 4096

// tagValueContinues reports whether the tag value whose line ends at lx.r
// is closed later, by '"' then ']', before a line that starts with '['
// (the next tag) and within maxTagContinuation bytes.
func (lx *lexer) tagValueContinues() bool {
	bol := false
	for k := 0; k < maxTagContinuation && lx.ensure(k+1); k++ {
		c := lx.buf[lx.r+k]
		switch {
		case c == '\n' || c == '\r':
			bol = true
		case bol && isBlank(c):
		case bol && c == '[':
			return false
		case c == '\\':
			bol = false
			k++
		case c == '"':
			k++
			for lx.ensure(k+1) && isSpace(lx.buf[lx.r+k]) {
				k++
			}
			return lx.ensure(k+1) && lx.buf[lx.r+k] == ']'
		default:
			bol = false
		}
	}
	return false
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

func (lx *lexer) skipSpaces() { lx.skipWhile(&spaceByte) }

// skipWhile advances over the bytes in set, refilling as needed.
func (lx *lexer) skipWhile(set *[256]bool) {
	for {
		// Scan the buffered bytes with locals (no refill check per byte).
		buf, r := lx.buf[:lx.w], lx.r
		for r < len(buf) && set[buf[r]] {
			r++
		}
		lx.r = r
		if r < len(buf) || !lx.fill() {
			return
		}
	}
}

// Byte sets for skipWhile.
var spaceByte, nameByte, valueByte, commentByte = func() (sp, nm, val, com [256]bool) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		sp[c] = isBlank(b)
		nm[c] = isNameByte(b) || b == 0
		val[c] = b != '"' && b != '\\' && b != '\n' && b != '\r'
		com[c] = b != '}' && b != '\n' && b != '\r'
	}
	return
}()

// scanComment consumes a comment {...} and emits its text. Comments do not
// nest. A comment still open when a line starts with a tag ("[" and a
// letter) is taken as unterminated: the game ends there (forceEnd) and the
// tag starts the next one, so one missing '}' costs one game, not the file.
func (lx *lexer) scanComment(line, col int32) {
	lx.pdnSeen = true
	lx.r++
	s := lx.pos()
	for {
		lx.skipWhile(&commentByte)
		if lx.r >= lx.w {
			if !lx.fill() {
				lx.rep.fail(ErrUnterminatedComment, line, col, "comment '{' is never closed")
				return
			}
			continue
		}
		c := lx.buf[lx.r]
		switch c {
		case '}':
			lx.emit(token{kind: tkComment, off: lx.rel(s), n: int32(lx.pos() - s), line: line, col: col})
			lx.r++
			lx.bol = false // a line break inside the comment does not start a line
			return
		case '\n', '\r':
			lx.newline()
			if lx.ensure(2) && lx.buf[lx.r] == '[' && isLetter(lx.buf[lx.r+1]) {
				lx.rep.fail(ErrUnterminatedComment, line, col, "comment '{' is not closed before the next game's tags")
				lx.forceEnd = true
				return
			}
			continue
		}
		lx.r++
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// scanParenStrength consumes a move strength in parentheses, "(!?)", up
// to 7 marks, as some programs write them; it reports false, consuming
// nothing, when the '(' opens a variation instead.
func (lx *lexer) scanParenStrength(line, col int32) bool {
	lx.ensure(8)
	i := lx.r + 1
	for i < lx.w && i-lx.r < 8 && (lx.buf[i] == '!' || lx.buf[i] == '?') {
		i++
	}
	if i == lx.r+1 || i >= lx.w || lx.buf[i] != ')' {
		return false
	}
	s := lx.pos()
	lx.r = i + 1
	lx.emit(token{kind: tkStrength, off: lx.rel(s), n: int32(lx.pos() - s), line: line, col: col})
	return true
}

// scanNAG consumes a numeric annotation glyph, '$' and its digits ("$1":
// a good move). A number of 2^20 or more is a defect and reads as 0.
func (lx *lexer) scanNAG(line, col int32) {
	lx.pdnSeen = true
	lx.r++
	var n int32
	digits := 0
	for (lx.r < lx.w || lx.fill()) && isDigit(lx.buf[lx.r]) {
		if n < 1<<20 {
			n = n*10 + int32(lx.buf[lx.r]-'0')
		}
		digits++
		lx.r++
	}
	if n >= 1<<20 {
		lx.rep.fail(ErrUnexpectedToken, line, col, "NAG number too large")
		n = 0
	}
	lx.emit(token{kind: tkNAG, num: n, line: line, col: col})
}

// scanSetup consumes a mid-game setup /FEN "..."/ and emits its quoted
// position. It reports false, consuming nothing, when the '/' does not
// start one; a malformed or empty setup is a defect.
func (lx *lexer) scanSetup(line, col int32) bool {
	if !lx.ensure(4) || string(lx.buf[lx.r+1:lx.r+4]) != "FEN" {
		return false
	}
	lx.r += 4
	lx.pdnSeen = true
	lx.skipSpaces()
	if !lx.ensure(1) || lx.buf[lx.r] != '"' {
		lx.rep.fail(ErrUnexpectedToken, line, col, `setup must be written /FEN "..."/`)
		return true
	}
	lx.r++
	vs := lx.pos()
	for {
		if lx.r >= lx.w && !lx.fill() {
			lx.rep.fail(ErrUnexpectedToken, line, col, "setup FEN is not closed by '\"'")
			return true
		}
		c := lx.buf[lx.r]
		if c == '"' {
			break
		}
		if c == '\n' || c == '\r' {
			lx.rep.fail(ErrUnexpectedToken, line, col, "setup FEN is not closed by '\"' on its line")
			return true
		}
		lx.r++
	}
	ve := lx.pos()
	lx.r++
	lx.skipSpaces()
	if !lx.ensure(1) || lx.buf[lx.r] != '/' {
		lx.rep.fail(ErrUnexpectedToken, line, col, `setup must end with '/': /FEN "..."/`)
		return true
	}
	lx.r++
	if allBlank(lx.buf[lx.idx(vs):lx.idx(ve)]) && !lx.overflow {
		// Nothing to set up: it would vanish from the game unnoticed.
		lx.rep.fail(ErrUnexpectedToken, line, col, `setup /FEN "..."/ without a position`)
		return true
	}
	lx.emit(token{kind: tkSetup, off: lx.rel(vs), n: int32(ve - vs), line: line, col: col})
	return true
}

// wordRun lexes the common words at lx.r, plain moves and move numbers
// followed by blanks, for as long as they come on this line and lie whole
// in the buffer; it is the main loop of scanMovetext and scanWord for
// them, kept small so that its loop stays in registers. It stops before
// anything else (a result among them) and reports whether it took any word.
func (lx *lexer) wordRun(line int32) bool {
	if lx.overflow || lx.deep || len(lx.score) > 0 {
		return false
	}
	buf, r := lx.buf[:lx.w], lx.r
	toks, moves := lx.toks, 0
	colBase := int32(lx.base - lx.lineStart + 1) // col(i) = colBase + i
	offBase := lx.base - lx.gameAbs              // rel(pos(i)) = offBase + i
	lastCol := int32(0)
	for r < len(buf) {
		s := r
		var acc uint8
		r, acc = wordEnd(buf, r)
		if r >= len(buf) || r == s {
			r = s
			break
		}
		w := buf[s:r]
		if isStdResult(w) {
			r = s
			break
		}
		col := colBase + int32(s)
		if simpleMove(acc) {
			// What isMove accepts (w[0] is a digit or a letter).
			toks = append(toks, token{kind: tkMove, off: int32(offBase + int64(s)), n: int32(len(w)), line: line, col: col})
			moves++
		} else {
			// A move number alone: "12." or "12...".
			i := 0
			var num int32
			for i < len(w) && isDigit(w[i]) {
				if num < 1e6 {
					num = num*10 + int32(w[i]-'0')
				}
				i++
			}
			if i == 0 || i == len(w) || w[i] != '.' {
				r = s
				break
			}
			d := i
			for i < len(w) && w[i] == '.' {
				i++
			}
			if i < len(w) {
				r = s
				break
			}
			toks = append(toks, token{kind: tkNumber, num: num, black: i-d >= 2, line: line, col: col})
		}
		lastCol = col
		for r < len(buf) && isSpace(buf[r]) {
			r++
		}
		if r >= len(buf) || !isDigit(buf[r]) && !isLetter(buf[r]) {
			break // not a word that scanMovetext would give to wordRun
		}
	}
	if lastCol == 0 {
		return false
	}
	lx.toks, lx.nMoves, lx.r = toks, lx.nMoves+moves, r
	lx.lastLine, lx.lastCol = line, lastCol
	return true
}

// scanWord consumes a word of the movetext, whatever its length and
// bytes: a move, a move number (perhaps with its move glued on, "1.32-28"),
// "..." or "-"/"--" (an unknown move), or a result, which ends the game
// (endAtResult). Anything else is a defect (ErrUnexpectedToken). It
// reports true when a result ended the game.
func (lx *lexer) scanWord(line, col int32) bool {
	sa, s := lx.pos(), lx.r
	var acc uint8 // class union of the word's bytes
	for {
		buf := lx.buf[:lx.w]
		r, a := wordEnd(buf, lx.r)
		acc |= a
		lx.r = r
		if r < len(buf) {
			break
		}
		more := lx.fill()
		s = lx.idx(sa) // the buffer may have slid
		if !more {
			break
		}
	}
	w := lx.buf[s:lx.r]
	var raw []byte
	if acc&cNul != 0 {
		// NUL bytes inside a word are stripped: the word is judged
		// without them, its token spans the raw bytes, and the builder
		// strips them from the token's text.
		raw, w = w, bytes.ReplaceAll(w, []byte{0}, nil)
		if len(w) == 0 {
			return false
		}
	}
	// tok emits a token covering the bytes w[k0:k1].
	tok := func(kind tokKind, k0, k1 int) {
		r0, r1 := nulSpan(raw, k0, k1)
		lx.emit(token{kind: kind, off: lx.rel(sa + int64(r0)), n: int32(r1 - r0), line: line, col: col + int32(r0)})
	}
	if isStdResult(w) || len(lx.score) > 0 && lx.isScoreResult(w) {
		tok(tkResult, 0, len(w))
		lx.endAtResult(line, col, w)
		return true
	}
	if simpleMove(acc) && len(w) > 0 && w[0] != '-' && w[0] != ':' {
		// The common case, a plain move: what isMove accepts.
		lx.emit(token{kind: tkMove, off: lx.rel(sa), n: int32(len(w)), line: line, col: col})
		return false
	}
	// Move number: digits and dots, perhaps with the move glued on: "12.",
	// "12...", "1.32-28".
	i := 0
	var num int32
	for i < len(w) && isDigit(w[i]) {
		if num < 1e6 {
			num = num*10 + int32(w[i]-'0')
		}
		i++
	}
	k := 0 // start of the move in w
	if i < len(w) && w[i] == '.' {
		if i == 0 { // "..." alone
			for i < len(w) && w[i] == '.' {
				i++
			}
			if i < len(w) || i == 1 {
				if lx.rep.err == nil { // quote only what is reported
					lx.rep.fail(ErrUnexpectedToken, line, col, "unexpected "+quote(w)+" in the movetext")
				}
				return false
			}
			tok(tkDots, 0, 0)
			return false
		}
		d := i
		for i < len(w) && w[i] == '.' {
			i++
		}
		lx.emit(token{kind: tkNumber, num: num, black: i-d >= 2, line: line, col: col})
		if i == len(w) {
			return false
		}
		k = i
	}
	m := w[k:]
	if len(m) == 2 && m[0] == '-' && m[1] == '-' || len(m) == 1 && m[0] == '-' {
		// "1. - -": each dash stands for one unrecorded move.
		tok(tkUnknown, k, k)
		return false
	}
	if !isMove(m) {
		r0, _ := nulSpan(raw, k, k)
		if lx.rep.err == nil { // quote only what is reported
			lx.rep.fail(ErrUnexpectedToken, line, col+int32(r0), "unexpected "+quote(m)+" in the movetext")
		}
		return false
	}
	tok(tkMove, k, len(w))
	return false
}

// nulSpan maps the bytes [k0, k1) of a word stripped of its NUL bytes to
// the span of the raw word that holds them (raw nil: the word had none).
func nulSpan(raw []byte, k0, k1 int) (int, int) {
	if raw == nil {
		return k0, k1
	}
	r0, r1, k := -1, 0, 0
	for i, c := range raw {
		if c == 0 {
			continue
		}
		if k == k0 {
			r0 = i
		}
		k++
		if k == k1 {
			r1 = i + 1
		}
	}
	if r0 < 0 {
		r0 = len(raw)
	}
	return r0, max(r1, r0)
}

// maxQuote is how many bytes of input a message quotes at most.
const maxQuote = 40

// quote returns w for a message: double-quoted, at most maxQuote bytes of
// it (cut on a rune boundary, "..." marking the cut), read as Windows-1252
// when it is not UTF-8 (as the game's strings are), control characters
// escaped. The result is always valid UTF-8 without NUL, whatever w holds:
// messages end up in logs and in the database.
func quote(w []byte) string {
	valid := utf8.Valid(w)
	if len(w) > 4*maxQuote { // enough for maxQuote bytes in any encoding
		i := 4 * maxQuote
		for valid && i > 0 && !utf8.RuneStart(w[i]) {
			i--
		}
		w = w[:i]
	}
	s := string(w)
	if !valid {
		s = decodeCP1252(w)
	}
	out := make([]byte, 0, maxQuote+8)
	out = append(out, '"')
	for i, r := range s {
		if i >= maxQuote {
			return string(out) + `"...`
		}
		switch {
		case r == '"' || r == '\\':
			out = append(out, '\\', byte(r))
		case unicode.IsPrint(r):
			out = utf8.AppendRune(out, r)
		default: // \x00, \u2028 ...: escaped as Go does
			q := strconv.QuoteRune(r)
			out = append(out, q[1:len(q)-1]...)
		}
	}
	return string(append(out, '"'))
}

// clip returns a string from a game (already UTF-8 and free of NUL) for a
// message, cut to at most maxQuote bytes (see Clip).
func clip(s string) string { return Clip(s, maxQuote) }

// Clip cuts s to at most n bytes on a rune boundary, marking a cut with
// "...", for quoting input in a message: every layer that names a user's
// text in an error (a 400 KB tag, a move, a --where condition) caps it with
// this, so messages stay short and valid UTF-8.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// A result is a standard terminator (isStdResult) or another score such as
// "4-6", but the latter only when it equals the game's Result tag, because
// "4-6" is also a well-formed numeric move: isScoreResult reports that.
func (lx *lexer) isScoreResult(w []byte) bool {
	return len(lx.score) > 0 && !lx.overflow && string(lx.score) == string(w)
}

// isStdResult reports the standard terminators: 1-0 0-1 1/2-1/2 * 2-0 0-2
// 1-1 0-0.
func isStdResult(w []byte) bool {
	switch len(w) {
	case 1:
		return w[0] == '*'
	case 3:
		if w[1] != '-' {
			return false
		}
		switch w[0] {
		case '0':
			return w[2] == '0' || w[2] == '1' || w[2] == '2'
		case '1':
			return w[2] == '0' || w[2] == '1'
		case '2':
			return w[2] == '0'
		}
	case 7:
		return string(w) == "1/2-1/2"
	}
	return false
}

func isScore(v []byte) bool {
	dash := false
	for i, c := range v {
		switch {
		case isDigit(c) || c == '/':
		case c == '-' && i > 0 && i < len(v)-1 && !dash:
			dash = true
		default:
			return false
		}
	}
	return dash
}

// isMove accepts the shapes of draughts moves in any notation, leaving
// legality to the replay: letters, digits and the separators - x : with at
// least one digit, starting with a square.
func isMove(w []byte) bool {
	if len(w) == 0 || !(isDigit(w[0]) || isLetter(w[0])) {
		return false
	}
	digit := false
	for _, c := range w {
		switch {
		case isDigit(c):
			digit = true
		case isLetter(c), c == '-', c == ':':
		default:
			return false
		}
	}
	return digit
}
