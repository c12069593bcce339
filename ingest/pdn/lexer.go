package pdn

import (
	"bytes"
	"io"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// The lexer works on a sliding window over the input. Bytes from the start
// of the current game (rd.start) up to rd.w stay in rd.buf, so a finished
// game's Raw is one slice of the window and the tokens are offsets into it;
// nothing before the current game is kept, which keeps memory constant in
// the size of the file. Game boundaries are decided while lexing (a result,
// or a tag after movetext), so every byte is looked at once.

// MaxGameSize bounds the bytes of one game. A longer game (in practice a
// runaway comment) is skipped and reported as ErrGameTooLarge.
const MaxGameSize = 4 << 20

const (
	initialBufSize = 64 << 10
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
	esc       bool // tag value holds backslash escapes
	num       int32
	off, n    int32 // relative to the game start
	line, col int32
}

type openParen struct{ line, col int32 }

// ensure makes at least n bytes available at rd.r unless the input ends.
func (rd *Reader) ensure(n int) bool {
	for rd.w-rd.r < n {
		if !rd.fill() {
			return false
		}
	}
	return true
}

// fill reads more input, first sliding the current game to the front of
// the buffer. It reports whether new bytes arrived.
func (rd *Reader) fill() bool {
	if rd.eof {
		return false
	}
	if rd.w-rd.start >= MaxGameSize {
		// Drop what we have of this oversized game and keep scanning for
		// its end without keeping its bytes.
		if !rd.overflow {
			rd.overflow = true
			rd.fail(ErrGameTooLarge, int32(rd.line), rd.col(rd.r), "game is longer than 4 MB (an unclosed comment?); skipped")
		}
		rd.toks, rd.nTags, rd.nMoves = rd.toks[:0], 0, 0
		rd.start = rd.r
	}
	// Slide only when the buffer is full, so a game read in small pieces
	// is copied O(log n) times, not once per read.
	if rd.w == len(rd.buf) && rd.start > 0 {
		n := copy(rd.buf, rd.buf[rd.start:rd.w])
		rd.base += int64(rd.start)
		rd.r -= rd.start
		rd.w = n
		rd.start = 0
	}
	if rd.w == len(rd.buf) {
		nb := make([]byte, 2*len(rd.buf))
		copy(nb, rd.buf[:rd.w])
		rd.buf = nb
	}
	if !rd.sniffed {
		rd.sniffed = true
		if rd.sniff() {
			return true
		}
	}
	for tries := 0; tries < 100; tries++ {
		n, err := rd.src.Read(rd.buf[rd.w:])
		rd.w += n
		if err != nil {
			rd.eof = true
			if err != io.EOF {
				rd.rerr = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	rd.eof = true
	return false
}

// Positions held across a fill are absolute file offsets: fill slides the
// buffer, so buffer indexes would go stale.
func (rd *Reader) pos() int64 { return rd.base + int64(rd.r) }

// idx converts an absolute offset back to a buffer index, clamped to the
// kept part of the game (an oversized game drops its head).
func (rd *Reader) idx(abs int64) int {
	return max(int(abs-rd.base), rd.start)
}

// rel is a token offset: relative to the game's first byte.
func (rd *Reader) rel(abs int64) int32 { return int32(abs - rd.gameAbs) }

func (rd *Reader) col(idx int) int32 {
	return int32(rd.base + int64(idx) - rd.lineStart + 1)
}

// newline consumes a line break at rd.r (LF, CR or CRLF).
func (rd *Reader) newline() {
	c := rd.buf[rd.r]
	rd.r++
	if c == '\r' && rd.ensure(1) && rd.buf[rd.r] == '\n' {
		rd.r++
	}
	rd.line++
	rd.lineStart = rd.base + int64(rd.r)
	rd.bol = true
}

func (rd *Reader) fail(sentinel error, line, col int32, reason string) {
	if rd.err != nil {
		return
	}
	rd.err = &SyntaxError{File: rd.name, Line: int(line), Column: int(col), Game: rd.ordinal, Reason: reason, Err: sentinel}
}

func (rd *Reader) warn(line, col int32, reason string) {
	rd.warns = append(rd.warns, Warning{Line: int(line), Column: int(col), Reason: reason})
}

func (rd *Reader) emit(t token) {
	if !rd.overflow && !rd.deep {
		switch t.kind {
		case tkTagName:
			rd.nTags++
		case tkMove, tkUnknown:
			rd.nMoves++
		}
		rd.toks = append(rd.toks, t)
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

func (rd *Reader) isBOM() bool {
	return rd.ensure(3) && rd.buf[rd.r+1] == 0xBB && rd.buf[rd.r+2] == 0xBF
}

// skipLine skips to (not over) the next line break.
func (rd *Reader) skipLine() {
	for {
		for rd.r < rd.w {
			if c := rd.buf[rd.r]; c == '\n' || c == '\r' {
				return
			}
			rd.r++
		}
		if !rd.fill() {
			return
		}
	}
}

// scanGame lexes the next game into rd.toks and sets rd.end. It returns
// false at the end of the input when no game is left.
func (rd *Reader) scanGame() bool {
	// A game ended by the next game's tag leaves rd.r on that tag; the
	// new game starts at the beginning of its line.
	if rd.r > rd.start {
		if rd.bol {
			rd.start = max(rd.start, int(rd.lineStart-rd.base))
		} else {
			rd.start = rd.r
		}
	}
	rd.toks, rd.nTags, rd.nMoves = rd.toks[:0], 0, 0
	rd.warns = rd.warns[:0]
	rd.resultLine, rd.resultCol = 0, 0
	rd.err = nil
	rd.overflow = false
	rd.deep = false
	rd.depth = 0
	rd.score = rd.score[:0]
	rd.forceEnd = false
	hasTags, hasMoves, blank := false, false, false
	nl := 0

	// Leading blank lines, BOMs and % line comments before the game.
	content := false
	for {
		if rd.r >= rd.w && !rd.fill() {
			rd.start = rd.r
			return false
		}
		c := rd.buf[rd.r]
		switch {
		case isBlank(c):
			rd.r++
			continue
		case c == '\n' || c == '\r':
			rd.newline()
			if !content {
				rd.start = rd.r
			}
			content = false
			continue
		case c == 0xEF && rd.isBOM():
			rd.r += 3
			if !content {
				rd.start = rd.r
			}
			continue
		case c == '%' && rd.bol:
			content = true
			rd.skipLine()
			continue
		}
		break
	}
	rd.ordinal++
	// rd.start is the start of the current line (or the first byte after a
	// BOM); any % comment lines before it belong to this game.
	rd.gameAbs = rd.base + int64(rd.start)
	rd.gameLine = rd.line - rd.countLinesBack()

	for {
		if rd.r >= rd.w && !rd.fill() {
			rd.finish(rd.w, false)
			return true
		}
		c := rd.buf[rd.r]
		if c == '\n' || c == '\r' {
			rd.newline()
			nl++
			if nl >= 2 {
				blank = true
			}
			continue
		}
		if isBlank(c) {
			rd.r++
			continue
		}
		line, col := int32(rd.line), rd.col(rd.r)
		wasBOL := rd.bol
		if c != '[' {
			rd.lastLine, rd.lastCol = line, col
		}
		rd.bol = false
		nl = 0
		if isDigit(c) || isLetter(c) {
			// Most tokens: moves and move numbers (the default case
			// below), lexed a run at a time.
			hasMoves = true
			if rd.wordRun(line) {
				continue
			}
			if rd.scanWord(line, col) {
				return true
			}
			continue
		}
		switch c {
		case '[':
			if hasMoves || rd.forceEnd || (hasTags && blank) {
				// The next game starts here; it owns the whole line.
				end := rd.r
				if wasBOL {
					end = max(int(rd.lineStart-rd.base), rd.start)
				}
				rd.bol = wasBOL
				if hasMoves {
					rd.warn(rd.lastLine, rd.lastCol, "no result at the end of the game; the next game's tags follow")
				}
				rd.finish(end, false)
				return true
			}
			rd.scanTag(line, col)
			hasTags, blank = true, false
		case '{':
			rd.scanComment(line, col)
		case '}':
			rd.fail(ErrUnexpectedToken, line, col, "'}' without a matching '{' (comments do not nest)")
			rd.r++
		case '(':
			hasMoves = true
			if rd.scanParenStrength(line, col) {
				break
			}
			rd.r++
			if rd.depth >= MaxDepth {
				if !rd.deep {
					rd.fail(ErrNestingTooDeep, line, col, "variations nested more than "+strconv.Itoa(MaxDepth)+
						" levels deep (the limit); the rest of the game is skipped")
					// Keep what came before; build nothing more, so the
					// cost stays linear and the builder's depth bounded.
					rd.deep = true
				}
			} else {
				rd.opens[rd.depth] = openParen{line, col}
			}
			rd.depth++
			rd.emit(token{kind: tkOpen, line: line, col: col})
		case ')':
			hasMoves = true
			rd.r++
			if rd.depth == 0 {
				rd.fail(ErrUnbalancedVariation, line, col, "')' without a matching '('")
				break
			}
			rd.depth--
			rd.emit(token{kind: tkClose, line: line, col: col})
		case '$':
			hasMoves = true
			rd.scanNAG(line, col)
		case '!', '?':
			hasMoves = true
			s := rd.pos()
			for rd.r < rd.w || rd.fill() {
				if b := rd.buf[rd.r]; b != '!' && b != '?' {
					break
				}
				rd.r++
			}
			rd.emit(token{kind: tkStrength, off: rd.rel(s), n: int32(rd.pos() - s), line: line, col: col})
		case '%':
			if wasBOL {
				rd.skipLine()
				break
			}
			hasMoves = true
			if rd.scanWord(line, col) {
				return true
			}
		case '\\':
			// Some exports write a literal "\n" between tags; read it as a
			// line break.
			if rd.ensure(2) && rd.buf[rd.r+1] == 'n' {
				rd.r += 2
				break
			}
			hasMoves = true
			if rd.scanWord(line, col) {
				return true
			}
		case '/':
			hasMoves = true
			if rd.scanSetup(line, col) {
				break
			}
			if rd.scanWord(line, col) {
				return true
			}
		case ']', '"':
			rd.fail(ErrUnexpectedToken, line, col, "unexpected '"+string(c)+"' in the movetext")
			rd.r++
		case 0xEF:
			if rd.isBOM() {
				rd.r += 3
				break
			}
			fallthrough
		default:
			hasMoves = true
			if rd.scanWord(line, col) {
				return true
			}
		}
	}
}

// countLinesBack returns how many line breaks lie between rd.start and rd.r
// (the % comment lines that belong to the game), so the game's first line
// can be reported.
func (rd *Reader) countLinesBack() int {
	n := 0
	for i := rd.start; i < rd.r; i++ {
		switch rd.buf[i] {
		case '\n':
			n++
		case '\r':
			if i+1 >= rd.r || rd.buf[i+1] != '\n' {
				n++
			}
		}
	}
	return n
}

// finish closes the current game at buffer index end. With eatEOL the rest
// of the line, if blank, is included.
func (rd *Reader) finish(end int, eatEOL bool) {
	if eatEOL {
		save := rd.pos()
		rd.skipSpaces()
		if rd.r < rd.w && (rd.buf[rd.r] == '\n' || rd.buf[rd.r] == '\r') {
			rd.newline()
		} else {
			rd.r = rd.idx(save)
		}
		end = rd.r
	} else {
		// Leave trailing blank lines to the gap between games.
		for end > rd.start {
			c := rd.buf[end-1]
			if !isBlank(c) && c != '\n' && c != '\r' {
				break
			}
			end--
		}
		if end < rd.w && rd.buf[end] == '\r' {
			end++
		}
		if end < rd.w && rd.buf[end] == '\n' {
			end++
		}
		if end > rd.r { // never move the end past what was lexed
			end = rd.r
		}
	}
	if rd.depth > 0 {
		o := rd.opens[min(rd.depth, MaxDepth)-1]
		rd.fail(ErrUnbalancedVariation, o.line, o.col, "variation '(' is never closed")
	}
	rd.end = end
}

// scanTag lexes [Name "value"].
func (rd *Reader) scanTag(line, col int32) {
	rd.r++ // '['
	bad := func(reason string) {
		rd.fail(ErrBadTag, int32(rd.line), rd.col(rd.r), reason)
		rd.skipLine()
	}
	rd.skipSpaces()
	ns := rd.pos()
	rd.skipWhile(&nameByte)
	if rd.pos() == ns {
		bad("tag name expected after '['")
		return
	}
	ne := rd.pos()
	rd.skipSpaces()
	if !rd.ensure(1) || rd.buf[rd.r] != '"' {
		bad("tag value must be in double quotes")
		return
	}
	rd.r++
	vs, esc := rd.pos(), false
	for {
		rd.skipWhile(&valueByte)
		if rd.r >= rd.w && !rd.fill() {
			bad("tag value is not closed by '\"'")
			return
		}
		c := rd.buf[rd.r]
		if c == '"' {
			break
		}
		if c == '\n' || c == '\r' {
			bad("tag value is not closed by '\"' on its line")
			return
		}
		if c == '\\' && rd.ensure(2) && (rd.buf[rd.r+1] == '"' || rd.buf[rd.r+1] == '\\') {
			esc = true
			rd.r++
		}
		rd.r++
	}
	ve := rd.pos()
	rd.r++
	rd.skipSpaces()
	if !rd.ensure(1) || rd.buf[rd.r] != ']' {
		bad("']' expected after the tag value")
		return
	}
	rd.r++
	if rd.overflow {
		return
	}
	if ne-ns == 6 && string(rd.buf[rd.idx(ns):rd.idx(ne)]) == "Result" {
		// The last Result tag decides which score also ends the game.
		v := rd.buf[rd.idx(vs):rd.idx(ve)]
		rd.score = rd.score[:0]
		if len(v) >= 3 && isScore(v) && !isStdResult(v) {
			rd.score = append(rd.score, v...)
		}
	}
	rd.emit(token{kind: tkTagName, off: rd.rel(ns), n: int32(ne - ns), line: line, col: col})
	rd.emit(token{kind: tkTagValue, esc: esc, off: rd.rel(vs), n: int32(ve - vs), line: line, col: col})
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

func (rd *Reader) skipSpaces() { rd.skipWhile(&spaceByte) }

// skipWhile advances over the bytes in set, refilling as needed.
func (rd *Reader) skipWhile(set *[256]bool) {
	for {
		// Scan the buffered bytes with locals (no refill check per byte).
		buf, r := rd.buf[:rd.w], rd.r
		for r < len(buf) && set[buf[r]] {
			r++
		}
		rd.r = r
		if r < len(buf) || !rd.fill() {
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

// scanComment lexes {...}. Comments do not nest. A comment still open when
// a line starts with a tag ("[" and a letter) is taken as unterminated: the
// game ends there and the tag starts the next one.
func (rd *Reader) scanComment(line, col int32) {
	rd.r++
	s := rd.pos()
	for {
		rd.skipWhile(&commentByte)
		if rd.r >= rd.w {
			if !rd.fill() {
				rd.fail(ErrUnterminatedComment, line, col, "comment '{' is never closed")
				return
			}
			continue
		}
		c := rd.buf[rd.r]
		switch c {
		case '}':
			rd.emit(token{kind: tkComment, off: rd.rel(s), n: int32(rd.pos() - s), line: line, col: col})
			rd.r++
			rd.bol = false // a line break inside the comment does not start a line
			return
		case '\n', '\r':
			rd.newline()
			if rd.ensure(2) && rd.buf[rd.r] == '[' && isLetter(rd.buf[rd.r+1]) {
				rd.fail(ErrUnterminatedComment, line, col, "comment '{' is not closed before the next game's tags")
				rd.forceEnd = true
				return
			}
			continue
		}
		rd.r++
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// scanParenStrength recognises a move strength in parentheses, "(!?)".
func (rd *Reader) scanParenStrength(line, col int32) bool {
	rd.ensure(8)
	i := rd.r + 1
	for i < rd.w && i-rd.r < 8 && (rd.buf[i] == '!' || rd.buf[i] == '?') {
		i++
	}
	if i == rd.r+1 || i >= rd.w || rd.buf[i] != ')' {
		return false
	}
	s := rd.pos()
	rd.r = i + 1
	rd.emit(token{kind: tkStrength, off: rd.rel(s), n: int32(rd.pos() - s), line: line, col: col})
	return true
}

func (rd *Reader) scanNAG(line, col int32) {
	rd.r++
	var n int32
	digits := 0
	for (rd.r < rd.w || rd.fill()) && isDigit(rd.buf[rd.r]) {
		if n < 1<<20 {
			n = n*10 + int32(rd.buf[rd.r]-'0')
		}
		digits++
		rd.r++
	}
	if n >= 1<<20 {
		rd.fail(ErrUnexpectedToken, line, col, "NAG number too large")
		n = 0
	}
	rd.emit(token{kind: tkNAG, num: n, line: line, col: col})
}

// scanSetup lexes a mid-game setup /FEN "..."/. It reports false, consuming
// nothing, when the '/' does not start one.
func (rd *Reader) scanSetup(line, col int32) bool {
	if !rd.ensure(4) || string(rd.buf[rd.r+1:rd.r+4]) != "FEN" {
		return false
	}
	rd.r += 4
	rd.skipSpaces()
	if !rd.ensure(1) || rd.buf[rd.r] != '"' {
		rd.fail(ErrUnexpectedToken, line, col, `setup must be written /FEN "..."/`)
		return true
	}
	rd.r++
	vs := rd.pos()
	for {
		if rd.r >= rd.w && !rd.fill() {
			rd.fail(ErrUnexpectedToken, line, col, "setup FEN is not closed by '\"'")
			return true
		}
		c := rd.buf[rd.r]
		if c == '"' {
			break
		}
		if c == '\n' || c == '\r' {
			rd.fail(ErrUnexpectedToken, line, col, "setup FEN is not closed by '\"' on its line")
			return true
		}
		rd.r++
	}
	ve := rd.pos()
	rd.r++
	rd.skipSpaces()
	if !rd.ensure(1) || rd.buf[rd.r] != '/' {
		rd.fail(ErrUnexpectedToken, line, col, `setup must end with '/': /FEN "..."/`)
		return true
	}
	rd.r++
	if allBlank(rd.buf[rd.idx(vs):rd.idx(ve)]) && !rd.overflow {
		// Nothing to set up: it would vanish from the game unnoticed.
		rd.fail(ErrUnexpectedToken, line, col, `setup /FEN "..."/ without a position`)
		return true
	}
	rd.emit(token{kind: tkSetup, off: rd.rel(vs), n: int32(ve - vs), line: line, col: col})
	return true
}

// wordRun lexes the common words at rd.r, plain moves and move numbers
// followed by blanks, for as long as they come on this line and lie whole
// in the buffer; it is the main loop of scanGame and scanWord for them, kept
// small so that its loop stays in registers. It stops before anything else
// (a result among them) and reports whether it took any word.
func (rd *Reader) wordRun(line int32) bool {
	if rd.overflow || rd.deep || len(rd.score) > 0 {
		return false
	}
	buf, r := rd.buf[:rd.w], rd.r
	toks, moves := rd.toks, 0
	colBase := int32(rd.base - rd.lineStart + 1) // col(i) = colBase + i
	offBase := rd.base - rd.gameAbs              // rel(pos(i)) = offBase + i
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
			break // not a word that scanGame would give to wordRun
		}
	}
	if lastCol == 0 {
		return false
	}
	rd.toks, rd.nMoves, rd.r = toks, rd.nMoves+moves, r
	rd.lastLine, rd.lastCol = line, lastCol
	return true
}

// scanWord lexes a move, a move number or a result. It reports true when a
// result ended the game.
func (rd *Reader) scanWord(line, col int32) bool {
	sa, s := rd.pos(), rd.r
	var acc uint8 // class union of the word's bytes
	for {
		buf := rd.buf[:rd.w]
		r, a := wordEnd(buf, rd.r)
		acc |= a
		rd.r = r
		if r < len(buf) {
			break
		}
		more := rd.fill()
		s = rd.idx(sa) // the buffer may have slid
		if !more {
			break
		}
	}
	w := rd.buf[s:rd.r]
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
		rd.emit(token{kind: kind, off: rd.rel(sa + int64(r0)), n: int32(r1 - r0), line: line, col: col + int32(r0)})
	}
	if isStdResult(w) || len(rd.score) > 0 && rd.isScoreResult(w) {
		tok(tkResult, 0, len(w))
		rd.resultLine, rd.resultCol = line, col
		if rd.depth > 0 {
			o := rd.opens[min(rd.depth, MaxDepth)-1]
			rd.fail(ErrUnbalancedVariation, o.line, o.col, "variation '(' is not closed before the result "+string(w))
			rd.depth = 0
		}
		rd.finish(rd.r, true)
		return true
	}
	if simpleMove(acc) && len(w) > 0 && w[0] != '-' && w[0] != ':' {
		// The common case, a plain move: what isMove accepts.
		rd.emit(token{kind: tkMove, off: rd.rel(sa), n: int32(len(w)), line: line, col: col})
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
				if rd.err == nil { // quote only what is reported
					rd.fail(ErrUnexpectedToken, line, col, "unexpected "+quote(w)+" in the movetext")
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
		rd.emit(token{kind: tkNumber, num: num, black: i-d >= 2, line: line, col: col})
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
		if rd.err == nil { // quote only what is reported
			rd.fail(ErrUnexpectedToken, line, col+int32(r0), "unexpected "+quote(m)+" in the movetext")
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
// message, cut to at most maxQuote bytes on a rune boundary ("..." marks
// the cut).
func clip(s string) string {
	if len(s) <= maxQuote {
		return s
	}
	i := maxQuote
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// A result is a standard terminator (isStdResult) or another score such as
// "4-6", but the latter only when it equals the game's Result tag, because
// "4-6" is also a well-formed numeric move: isScoreResult reports that.
func (rd *Reader) isScoreResult(w []byte) bool {
	return len(rd.score) > 0 && !rd.overflow && string(rd.score) == string(w)
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
