package pdn

import "io"

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
	maxDepth       = 64 // variation nesting accepted before giving up
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
		rd.toks = rd.toks[:0]
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
	if !rd.overflow {
		rd.toks = append(rd.toks, t)
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\f' || c == '\v' }

// delim reports the bytes that end a word.
var delim = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, '\f': true, '\v': true,
	'{': true, '}': true, '(': true, ')': true, '[': true, ']': true, '$': true, '!': true, '?': true, '"': true}

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
	rd.toks = rd.toks[:0]
	rd.warns = rd.warns[:0]
	rd.resultLine, rd.resultCol = 0, 0
	rd.err = nil
	rd.overflow = false
	rd.depth = 0
	rd.resultTag = -1
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
		case isSpace(c):
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
		if isSpace(c) {
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
			if rd.depth >= maxDepth {
				rd.fail(ErrUnbalancedVariation, line, col, "variations nested too deeply")
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
			if !isSpace(c) && c != '\n' && c != '\r' {
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
		o := rd.opens[min(rd.depth, maxDepth)-1]
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
	for (rd.r < rd.w || rd.fill()) && isNameByte(rd.buf[rd.r]) {
		rd.r++
	}
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
		rd.resultTag = len(rd.toks) + 1
	}
	rd.emit(token{kind: tkTagName, off: rd.rel(ns), n: int32(ne - ns), line: line, col: col})
	rd.emit(token{kind: tkTagValue, esc: esc, off: rd.rel(vs), n: int32(ve - vs), line: line, col: col})
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

func (rd *Reader) skipSpaces() {
	for (rd.r < rd.w || rd.fill()) && isSpace(rd.buf[rd.r]) {
		rd.r++
	}
}

// scanComment lexes {...}. Comments do not nest. A comment still open when
// a line starts with a tag ("[" and a letter) is taken as unterminated: the
// game ends there and the tag starts the next one.
func (rd *Reader) scanComment(line, col int32) {
	rd.r++
	s := rd.pos()
	for {
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
	rd.emit(token{kind: tkSetup, off: rd.rel(vs), n: int32(ve - vs), line: line, col: col})
	return true
}

// scanWord lexes a move, a move number or a result. It reports true when a
// result ended the game.
func (rd *Reader) scanWord(line, col int32) bool {
	sa := rd.pos()
	for (rd.r < rd.w || rd.fill()) && !delim[rd.buf[rd.r]] {
		rd.r++
	}
	s := rd.idx(sa)
	w := rd.buf[s:rd.r]
	if rd.isResult(w) {
		rd.emit(token{kind: tkResult, off: rd.rel(sa), n: int32(len(w)), line: line, col: col})
		rd.resultLine, rd.resultCol = line, col
		if rd.depth > 0 {
			o := rd.opens[min(rd.depth, maxDepth)-1]
			rd.fail(ErrUnbalancedVariation, o.line, o.col, "variation '(' is not closed before the result "+string(w))
			rd.depth = 0
		}
		rd.finish(rd.r, true)
		return true
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
	if i < len(w) && w[i] == '.' {
		if i == 0 { // "..." alone
			for i < len(w) && w[i] == '.' {
				i++
			}
			if i < len(w) || i == 1 {
				rd.fail(ErrUnexpectedToken, line, col, "unexpected "+quote(w)+" in the movetext")
				return false
			}
			rd.emit(token{kind: tkDots, line: line, col: col})
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
		sa += int64(i)
		col += int32(i)
		w = w[i:]
	}
	if len(w) == 2 && w[0] == '-' && w[1] == '-' {
		rd.emit(token{kind: tkUnknown, line: line, col: col})
		return false
	}
	if len(w) == 1 && w[0] == '-' {
		// "1. - -": each dash stands for one unrecorded move.
		rd.emit(token{kind: tkUnknown, line: line, col: col})
		return false
	}
	if !isMove(w) {
		rd.fail(ErrUnexpectedToken, line, col, "unexpected "+quote(w)+" in the movetext")
		return false
	}
	rd.emit(token{kind: tkMove, off: rd.rel(sa), n: int32(len(w)), line: line, col: col})
	return false
}

func quote(w []byte) string {
	if len(w) > 40 {
		w = w[:40]
	}
	return "\"" + string(w) + "\""
}

// isResult: the standard terminators always; another score such as "4-6"
// only when it equals the game's Result tag, because "4-6" is also a
// well-formed numeric move.
func (rd *Reader) isResult(w []byte) bool {
	switch string(w) {
	case "1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0":
		return true
	}
	if rd.resultTag < 0 || rd.resultTag >= len(rd.toks) || rd.overflow {
		return false
	}
	t := rd.toks[rd.resultTag]
	i := int(rd.gameAbs-rd.base) + int(t.off)
	v := rd.buf[i : i+int(t.n)]
	return len(v) >= 3 && string(v) == string(w) && isScore(v)
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
