package pdn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Reader reads games one by one from a PDN stream: its lexer finds each
// game and its tokens, and the Reader builds the Game from them.
type Reader struct {
	lx lexer
	gameReport
	stack    []lineState // the builder's open variations, reused
	prevTags bool        // the previous game had tags
	// Text that is not PDN skipped since the last game (see skip), for the
	// next game's warning, and in all (Skipped).
	junkPieces, junkLine int
	junkBytes            int64
	junkWhy              string
	skippedPieces        int
	skippedBytes         int64
	pieceEnd             int64 // where the piece last read ends
	// split, when set (SplitAt), is asked at each game's start whether to
	// stop there.
	split func(offset int64) bool
}

// gameReport is what is wrong with the current game, found by the lexer
// and by the builder alike: its first defect and its warnings.
type gameReport struct {
	name    string // the file's, given to NewReader
	ordinal int    // the game's, 1-based
	err     *SyntaxError
	warns   []Warning
}

// fail records a defect of the current game unless one is already
// recorded: a game reports its first defect.
func (rp *gameReport) fail(sentinel error, line, col int32, reason string) {
	if rp.err != nil {
		return
	}
	rp.err = &SyntaxError{File: rp.name, Line: int(line), Column: int(col), Game: rp.ordinal, Reason: reason, Err: sentinel}
}

func (rp *gameReport) warn(kind WarningKind, line, col int32, reason string) {
	rp.warns = append(rp.warns, Warning{Kind: kind, Line: int(line), Column: int(col), Reason: reason})
}

// NewReader returns a Reader over r. The name is used in error messages.
func NewReader(r io.Reader, name string) *Reader {
	return newReaderSize(r, name, initialBufSize)
}

// newReaderSize lets tests start with a tiny buffer to exercise refills.
func newReaderSize(r io.Reader, name string, size int) *Reader {
	rd := &Reader{gameReport: gameReport{name: name}}
	rd.lx = lexer{src: r, rep: &rd.gameReport, buf: make([]byte, max(size, 16)), line: 1, bol: true}
	return rd
}

// ErrSplit is what Next returns, without a game, when the Reader stopped
// at a split (see SplitAt).
var ErrSplit = errors.New("pdn: stopped at a split")

// SplitAt makes the Reader stop before a game that begins where a new
// Reader would read the rest of the input the same: Next returns ErrSplit
// instead of the game when at accepts the game's offset and the game
// begins at the start of its line, with nothing before it that is part of
// it (no lead), after a game that had tags. A Reader made by
// NewSplitReader on the input from that offset then reads the same games
// as this one would have, but for their Ordinal, Offset and Line (and the
// Line and Game of their errors and warnings), which it counts from there;
// Line gives the line of the split. This lets a caller cut a stream at
// places it guesses (a tag at the start of a line after a blank line, say),
// read the pieces in parallel, and keep a piece's games only when the
// reader of the piece before it stopped at the piece's start.
//
// at is called once for each game's start, with its offset, only when the
// conditions above hold; it must not block.
func (rd *Reader) SplitAt(at func(offset int64) bool) { rd.split = at }

// NewSplitReader returns a Reader over r, the input from a split on (see
// SplitAt): as NewReader, but in the state of a Reader that stopped there,
// after a game with tags.
//
// Its window starts at 16 KB rather than 64 (it grows as a game needs):
// a caller reading pieces in parallel makes one per piece.
func NewSplitReader(r io.Reader, name string) *Reader {
	rd := newReaderSize(r, name, splitBufSize)
	rd.prevTags = true
	return rd
}

const splitBufSize = 16 << 10

// Line is the line the Reader has reached: after ErrSplit, the line where
// the next game begins.
func (rd *Reader) Line() int { return rd.lx.line }

// Offset is the byte offset in the input the Reader has reached (in the
// UTF-8 text, for UTF-16 input): after Next, the end of the game it
// returned; during Next, where its lexer is.
func (rd *Reader) Offset() int64 { return rd.lx.base + int64(rd.lx.r) }

// atSplit reports whether the game that skipToGame found is one to stop
// before (see SplitAt): the conditions under which the lexer and the
// Reader are in the state that NewSplitReader starts in, and the caller's.
func (rd *Reader) atSplit() bool {
	lx := &rd.lx
	return rd.split != nil && rd.prevTags && rd.junkPieces == 0 && lx.r == lx.start && lx.stray == 0 && lx.bol &&
		lx.lineStart == lx.base+int64(lx.r) && rd.split(lx.base+int64(lx.start))
}

// Next returns the next game. At the end of the input it returns nil,
// io.EOF. A malformed game is returned as far as it could be read together
// with a *SyntaxError; the following call continues with the next game. Any
// other error comes from the underlying reader and ends the stream. A
// Reader given SplitAt returns nil, ErrSplit where it stops.
func (rd *Reader) Next() (*Game, error) {
	for {
		g, err := rd.next()
		if g == nil || !rd.isJunk(g) || err != nil && (rd.err == nil || err != error(rd.err)) {
			return g, err // a game, or an I/O error (not the game's defect)
		}
		rd.skip(g, err)
	}
}

// isJunk reports whether g, just read, is no game: no tag, no move, no
// comment, setup, variation or NAG, even a broken one (lexer.pdnSeen),
// only text that is not PDN (words, results, stray bytes), and not too
// large to tell (an oversized game keeps no tokens and stays a rejected
// game).
func (rd *Reader) isJunk(g *Game) bool {
	return !rd.lx.overflow && !rd.lx.pdnSeen && len(g.Tags) == 0 && len(g.Moves) == 0 && len(g.Comments) == 0
}

// skip forgets g, text that is not PDN between games (isJunk): it takes no
// ordinal, and the next game gets a warning saying what was skipped before
// it (Skipped counts it too).
func (rd *Reader) skip(g *Game, err error) {
	rd.ordinal--
	if rd.junkPieces == 0 {
		rd.junkLine = g.Line
		rd.junkWhy = ""
		if rd.err != nil {
			rd.junkWhy = rd.err.Reason
		} else if g.Result != "" {
			rd.junkWhy = "a result " + clip(g.Result) + " without a game"
		}
	}
	n := rd.pieceEnd - g.Offset
	rd.junkPieces++
	rd.junkBytes += n
	rd.skippedPieces++
	rd.skippedBytes += n
}

// Skipped returns how many pieces of text that are not PDN the Reader has
// skipped between games (see Next), and their bytes.
func (rd *Reader) Skipped() (pieces int, bytes int64) { return rd.skippedPieces, rd.skippedBytes }

// junkWarning is the warning of the game after skipped text.
func (rd *Reader) junkWarning() string {
	w := "text that is not PDN skipped before this game (" + strconv.FormatInt(rd.junkBytes, 10) + " bytes"
	if rd.junkPieces > 1 {
		w += " in " + strconv.Itoa(rd.junkPieces) + " pieces"
	}
	w += ")"
	if rd.junkWhy != "" {
		w += ": " + rd.junkWhy
	}
	return w
}

// next reads the next piece of the input as a game (Next skips junk).
func (rd *Reader) next() (*Game, error) {
	lx := &rd.lx
	rd.err, rd.warns = nil, rd.warns[:0]
	if !lx.scanGame(rd) {
		if lx.stopped {
			return nil, ErrSplit
		}
		if lx.rerr != nil {
			return nil, lx.rerr
		}
		return nil, io.EOF
	}
	var g *Game
	if lx.overflow {
		g = new(Game)
	} else {
		g = newGame(lx.nTags)
	}
	g.Ordinal, g.Offset, g.Line = rd.ordinal, lx.gameAbs, lx.gameLine
	if !lx.overflow {
		rd.build(g, lx.raw())
	} else {
		g.Raw, lx.head = lx.head, nil
		if e := rd.gameReport.err; e != nil && e.Err == ErrGameTooLarge {
			end := lx.base + int64(lx.end)
			e.Reason = fmt.Sprintf("game is %d bytes, longer than 4 MB (an unclosed comment?); skipped, its first 4 MB kept (bytes %d to %d of the file hold it whole)", end-g.Offset, g.Offset, end)
		}
	}
	if rd.junkPieces > 0 && !rd.isJunk(g) {
		rd.warn(WarnNotPDN, int32(rd.junkLine), 1, rd.junkWarning())
		rd.junkPieces, rd.junkBytes = 0, 0
	}
	rd.checkGame(g)
	rd.pieceEnd = lx.base + int64(lx.end)
	lx.release()
	if lx.rerr != nil {
		return g, lx.rerr
	}
	if rd.err != nil {
		return g, rd.err
	}
	return g, nil
}

// withTags is a Game allocated together with room for its tags.
type withTags[T any] struct {
	g    Game
	tags T
}

// newGame returns a Game whose Tags is empty with room for n tags (nil when
// n is 0), in one allocation for the usual numbers of tags.
func newGame(n int) *Game {
	var g *Game
	switch {
	case n == 0:
		return new(Game)
	case n <= 4:
		x := new(withTags[[4]Tag])
		g = &x.g
		g.Tags = x.tags[:0:n]
	case n <= 6:
		x := new(withTags[[6]Tag])
		g = &x.g
		g.Tags = x.tags[:0:n]
	case n <= 8:
		x := new(withTags[[8]Tag])
		g = &x.g
		g.Tags = x.tags[:0:n]
	case n <= 12:
		x := new(withTags[[12]Tag])
		g = &x.g
		g.Tags = x.tags[:0:n]
	default:
		g = new(Game)
		g.Tags = make([]Tag, 0, n)
	}
	return g
}

// checkGame adds the warnings that need the whole game.
func (rd *Reader) checkGame(g *Game) {
	if rt := g.Tag("Result"); rt != "" && g.Result != "" && rt != g.Result {
		rd.warn(WarnResultDiffers, rd.lx.resultLine, rd.lx.resultCol, "result "+g.Result+" differs from the Result tag "+clip(rt))
	}
	if len(g.Tags) == 0 && len(g.Moves) > 0 && rd.prevTags && !rd.lx.overflow {
		rd.warn(WarnMovesWithoutTags, int32(g.Line), 1, "moves without tags after a game with tags (a stray fragment?)")
	}
	rd.prevTags = len(g.Tags) > 0
	if len(rd.warns) > 0 {
		g.Warnings = append([]Warning(nil), rd.warns...)
	}
}

// builder turns the token list of one game into a Game.
type builder struct {
	rd   *Reader
	raw  []byte
	s    string // raw as a string when it is UTF-8
	cp   bool   // raw is Windows-1252
	nul  bool   // raw holds NUL bytes, stripped from every string
	slow bool   // cp || nul: texts go through text, not views of s
	toks []token
	i    int
}

// text returns a token's text as UTF-8 without NUL bytes.
func (b *builder) text(t token) string {
	if !b.slow {
		return b.s[t.off : t.off+t.n]
	}
	var s string
	if b.cp {
		s = decodeCP1252(b.raw[t.off : t.off+t.n])
	} else {
		s = b.s[t.off : t.off+t.n]
	}
	if b.nul && strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "")
	}
	return s
}

// tagValue returns the text of a tag value token, unescaped.
func (b *builder) tagValue(t token) string {
	v := b.text(t)
	if t.esc {
		v = unescape(v)
		if strings.ContainsAny(v, "\r\n") {
			// A value written over several lines: its whitespace folds to
			// single spaces, as a comment's does.
			v = strings.Join(strings.Fields(v), " ")
		}
	}
	return v
}

func (rd *Reader) build(g *Game, window []byte) {
	// One copy per game: Raw is a fresh buffer that nothing writes to
	// afterwards, and the strings of the game are views of it.
	g.Raw = append([]byte(nil), window...)
	b := builder{rd: rd, raw: g.Raw, toks: rd.lx.toks}
	if utf8.Valid(g.Raw) {
		b.s = unsafe.String(unsafe.SliceData(g.Raw), len(g.Raw))
	} else {
		b.cp = true
		g.Windows1252 = true
	}
	if k := bytes.IndexByte(g.Raw, 0); k >= 0 {
		b.nul = true
		line, col := rawPos(g.Raw, k)
		rd.warn(WarnNUL, int32(g.Line+line), int32(col), strconv.Itoa(bytes.Count(g.Raw, []byte{0}))+
			" NUL byte(s) removed from the game's text (a binary or UTF-16 file?)")
	}
	b.slow = b.cp || b.nul
	nm := rd.lx.nMoves
	if nm > 0 {
		e := rd.err
		for i := range b.toks {
			if t := &b.toks[i]; t.kind == tkMove {
				g.moveFirst = e == nil || int(t.line) < e.Line || int(t.line) == e.Line && int(t.col) < e.Column
				break
			}
		}
	}
	// Tags come first (a tag after movetext starts the next game).
	for b.i < len(b.toks) && (b.toks[b.i].kind == tkTagName || b.toks[b.i].kind == tkComment) {
		t := b.toks[b.i]
		if t.kind == tkComment {
			g.Comments = append(g.Comments, cleanComment(b.text(t)))
			b.i++
			continue
		}
		g.Tags = append(g.Tags, Tag{Name: internTag(b.text(t)), Value: b.tagValue(b.toks[b.i+1])})
		b.i += 2
	}
	var pre []string
	g.Moves, pre = b.line(getMoves(nm), g)
	g.Comments = append(g.Comments, pre...)
}

// rawPos returns the line (0-based, from the start of raw) and the 1-based
// column of raw[k].
func rawPos(raw []byte, k int) (line, col int) {
	ls := 0
	for i := 0; i < k; i++ {
		switch raw[i] {
		case '\n':
			line, ls = line+1, i+1
		case '\r':
			if i+1 >= len(raw) || raw[i+1] != '\n' {
				line, ls = line+1, i+1
			}
		}
	}
	return line, k - ls + 1
}

// lineState is a line of moves being built: the main line or an open
// variation, with its pending move number and setup.
type lineState struct {
	moves []Move
	pre   []string // comments before its first move
	num   int32
	black bool
	setup string
	at    int // in the enclosing line, the move this variation belongs to (-1: none)
}

// line builds the main line from b.i to the end of the tokens: its moves
// and the comments before its first move. Variations are built with an
// explicit stack, not by recursion (the lexer keeps at most MaxDepth levels
// of them).
func (b *builder) line(moves []Move, g *Game) ([]Move, []string) {
	var pre []string
	num, black := int32(0), false
	setup := ""
	stack := b.rd.stack[:0] // the enclosing lines of the current variation
	toks, i := b.toks, b.i
	for {
		if i >= len(toks) {
			if len(stack) == 0 {
				break
			}
			// Close the variations still open (an error already reported).
			i = len(toks)
			moves, pre, num, black, setup, stack = b.closeVariation(moves, pre, setup, stack)
			continue
		}
		if k := toks[i].kind; (k == tkNumber || k == tkMove && len(moves) < cap(moves)) && setup == "" && !b.slow {
			// Makes progress: it takes at least this token.
			moves, i, num, black = b.moveRun(moves, i, num, black)
			continue
		}
		t := &toks[i]
		i++
		switch t.kind {
		case tkTagName:
			// Only possible after an unterminated comment swallowed a
			// blank line; keep the tag.
			v := toks[i]
			i++
			g.Tags = append(g.Tags, Tag{Name: internTag(b.text(*t)), Value: b.tagValue(v)})
		case tkComment:
			c := cleanComment(b.text(*t))
			if len(moves) == 0 {
				pre = append(pre, c)
			} else {
				n := moves[len(moves)-1].note()
				n.Comments = append(n.Comments, c)
			}
		case tkNumber:
			num, black = t.num, t.black
		case tkDots:
			black = true
		case tkMove, tkUnknown:
			text := UnknownMove
			if t.kind == tkMove {
				text = b.text(*t)
			}
			// Fill the move in place: the slots past len are still zero.
			if len(moves) < cap(moves) {
				moves = moves[:len(moves)+1]
			} else {
				moves = append(moves, Move{})
			}
			m := &moves[len(moves)-1]
			m.Text, m.Number, m.Black = text, num, black
			if setup != "" {
				m.Note = &Note{Setup: setup}
				setup = ""
			}
			num, black = 0, false
		case tkSetup:
			setup = b.text(*t)
		case tkNAG:
			if m := b.last(moves, t, "NAG"); m != nil {
				n := m.note()
				n.NAGs = append(n.NAGs, int(t.num))
			}
		case tkStrength:
			if m := b.last(moves, t, "move strength"); m != nil {
				m.Strength += b.text(*t)
			}
		case tkOpen:
			at := -1
			if b.last(moves, t, "variation") != nil {
				at = len(moves) - 1
			}
			stack = append(stack, lineState{moves: moves, pre: pre, num: num, black: black, setup: setup, at: at})
			moves, pre, num, black, setup = nil, nil, 0, false, ""
		case tkClose:
			if len(stack) == 0 {
				break // the lexer emits no unmatched ')'; ignore one anyway
			}
			moves, pre, num, black, setup, stack = b.closeVariation(moves, pre, setup, stack)
		case tkResult:
			g.Result = b.text(*t)
		}
	}
	b.i = i
	b.rd.stack = stack[:0]
	if setup != "" {
		moves = append(moves, Move{Note: &Note{Setup: setup}})
	}
	return moves, pre
}

// closeVariation ends the innermost open variation (its moves and pre),
// attaches it to its move in the enclosing line and returns that line's
// state, popped from the stack.
func (b *builder) closeVariation(moves []Move, pre []string, setup string, stack []lineState) ([]Move, []string, int32, bool, string, []lineState) {
	if setup != "" {
		moves = append(moves, Move{Note: &Note{Setup: setup}})
	}
	up := stack[len(stack)-1]
	stack[len(stack)-1] = lineState{} // do not pin the game's moves
	stack = stack[:len(stack)-1]
	if up.at >= 0 {
		n := up.moves[up.at].note()
		n.Variations = append(n.Variations, Variation{Comments: pre, Moves: moves})
	}
	return up.moves, up.pre, up.num, up.black, up.setup, stack
}

// moveRun is the common case of line, kept apart so that its loop stays in
// registers: it builds the moves of a run of move numbers and moves (UTF-8
// text, no pending setup) while the slice has room, and returns where it
// stopped with the pending move number.
func (b *builder) moveRun(moves []Move, i int, num int32, black bool) ([]Move, int, int32, bool) {
	toks, s := b.toks, b.s
	for ; i < len(toks); i++ {
		t := &toks[i]
		if t.kind == tkNumber {
			num, black = t.num, t.black
			continue
		}
		if t.kind != tkMove || len(moves) == cap(moves) {
			break
		}
		moves = moves[:len(moves)+1] // the slots past len are still zero
		m := &moves[len(moves)-1]
		m.Text, m.Number, m.Black = s[t.off:t.off+t.n], num, black
		num, black = 0, false
	}
	return moves, i, num, black
}

// last returns the move that an annotation token t belongs to, or reports
// the token when there is none.
func (b *builder) last(moves []Move, t *token, what string) *Move {
	if len(moves) == 0 {
		b.rd.fail(ErrUnexpectedToken, t.line, t.col, what+" before any move")
		return nil
	}
	return &moves[len(moves)-1]
}

// cleanComment trims a comment and folds its line breaks and runs of blanks
// into single spaces: in PDN, line breaks inside comments are layout.
func cleanComment(c string) string {
	clean := true
	for i := 0; i < len(c); i++ {
		switch c[i] {
		case '\n', '\r', '\t', '\f', '\v':
			clean = false
		case ' ':
			if i == 0 || i == len(c)-1 || c[i+1] == ' ' {
				clean = false
			}
		}
	}
	if clean {
		return c
	}
	return strings.Join(asciiFields(c), " ")
}

// asciiFields splits on ASCII blanks only: a no-break space inside a
// comment is text, not layout.
func asciiFields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v'
	})
}

func unescape(v string) string {
	var sb strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && (v[i+1] == '"' || v[i+1] == '\\') {
			i++
		}
		sb.WriteByte(v[i])
	}
	return sb.String()
}

// internTag returns a shared copy of the common tag names, so games kept in
// memory do not pin their raw text through a tag name alone.
func internTag(n string) string {
	switch n {
	case "Event":
		return "Event"
	case "Site":
		return "Site"
	case "Date":
		return "Date"
	case "Round":
		return "Round"
	case "White":
		return "White"
	case "Black":
		return "Black"
	case "Result":
		return "Result"
	case "GameType":
		return "GameType"
	case "FEN":
		return "FEN"
	case "SetUp":
		return "SetUp"
	}
	return n
}

// Rebase moves the positions of g, read by a Reader from a split on (see
// SplitAt), and of err, the error Next returned with it, into the whole
// input: games is the number of games before the split, offset its byte
// offset and lines the line breaks before it (its Line minus 1).
func Rebase(g *Game, err error, games int, offset int64, lines int) {
	if g != nil {
		g.Ordinal += games
		g.Offset += offset
		g.Line += lines
		for i := range g.Warnings {
			g.Warnings[i].Line += lines
		}
	}
	var se *SyntaxError
	if errors.As(err, &se) {
		se.Game += games
		se.Line += lines
	}
}
