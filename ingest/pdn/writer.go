package pdn

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"strings"
)

// MaxLineLength is the longest line the Writer produces, unless a single
// token (a long tag or a long word in a comment) is longer on its own.
const MaxLineLength = 80

// standardTags is the Seven Tag Roster, written first and in this order.
var standardTags = [...]string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// Writer writes games as PDN 3.0 text.
type Writer struct {
	w     *bufio.Writer
	games int
	line  []byte
	open  bool   // the last token was a variation's "(": no space after it
	score string // the game's Result tag when the reader takes it as a result
	err   error
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriter(w), line: make([]byte, 0, 128)}
}

// Errors for games that cannot be written so that they read back the same
// (the Writer still writes what it can of them).
var (
	errBadSetup = errors.New("pdn: setup FEN is blank or holds '\"' or a line break")
	errTooDeep  = errors.New("pdn: variations nested more than MaxDepth levels deep")
)

// WriteGame writes one game and flushes it to the underlying writer.
func (w *Writer) WriteGame(g *Game) error {
	if w.err != nil {
		return w.err
	}
	if w.games > 0 {
		w.w.WriteByte('\n')
	}
	w.games++
	for _, name := range standardTags {
		for _, t := range g.Tags {
			if t.Name == name {
				w.writeTag(t)
			}
		}
	}
	for _, t := range g.Tags {
		if !isStandardTag(t.Name) {
			w.writeTag(t)
		}
	}
	if len(g.Tags) > 0 {
		w.w.WriteByte('\n')
	}
	for _, c := range g.Comments {
		w.comment(c)
	}
	// A move equal to the score the reader takes as a result (see
	// Reader.scanTag) must not stand alone.
	w.score = ""
	for _, t := range g.Tags {
		if v := []byte(t.Value); t.Name == "Result" {
			w.score = ""
			if len(v) >= 3 && isScore(v) && !isStdResult(v) {
				w.score = t.Value
			}
		}
	}
	w.moves(g.Moves, 0)
	res := g.Result
	if res == "" {
		res = "*"
	}
	w.token(res, false)
	w.flushLine()
	if err := w.w.Flush(); err != nil && w.err == nil {
		w.err = err
	}
	return w.err
}

func isStandardTag(n string) bool {
	for _, s := range standardTags {
		if s == n {
			return true
		}
	}
	return false
}

// NormalizeTagValue is the value the Writer writes for a tag: FEN without
// spaces or a trailing dot, GameType in full form, others unchanged.
func NormalizeTagValue(name, value string) string {
	switch name {
	case "FEN":
		return normalizeFEN(value)
	case "GameType":
		return FullGameType(value)
	}
	return value
}

// normalizeFEN drops the blanks and the trailing dots of a FEN. It is
// idempotent (trimming one dot of "W:W1.." was not), so a written FEN
// reads back as itself.
func normalizeFEN(v string) string {
	v = strings.Join(strings.Fields(v), "")
	return strings.TrimRight(v, ".")
}

func (w *Writer) writeTag(t Tag) {
	v := NormalizeTagValue(t.Name, t.Value)
	w.w.WriteByte('[')
	w.w.WriteString(t.Name)
	w.w.WriteString(` "`)
	for i := 0; i < len(v); i++ {
		if v[i] == '"' || v[i] == '\\' {
			w.w.WriteByte('\\')
		}
		w.w.WriteByte(v[i])
	}
	w.w.WriteString("\"]\n")
}

// moves writes a line of moves; depth is its variation depth (0: the main
// line), bounded by MaxDepth like the reader's.
func (w *Writer) moves(ms []Move, depth int) {
	for i := range ms {
		m := &ms[i]
		if s := m.Setup(); s != "" {
			// As read, not normalised: the reader keeps the setup as
			// written, so only this reads back the same.
			if allBlank(s) || strings.ContainsAny(s, "\"\r\n") {
				w.fail(errBadSetup)
			}
			w.token(`/FEN "`+s+`"/`, false)
		}
		if m.Text == "" {
			continue
		}
		num := ""
		switch {
		case m.Number > 0 && m.Black:
			num = strconv.Itoa(int(m.Number)) + "..."
		case m.Number > 0:
			num = strconv.Itoa(int(m.Number)) + "."
		case m.Black:
			num = "..."
		}
		if isStdResult([]byte(m.Text)) || m.Text == w.score {
			// A move that reads as a result alone ("1.1-0", or "4-6"
			// when that is the game's score) keeps a number glued to it,
			// "0." when it had none (read back as no number).
			if m.Number == 0 {
				num = "0" + num
				if !m.Black {
					num += "."
				}
			}
			w.token(num+m.Text+m.Strength, false)
		} else {
			if num != "" {
				w.token(num, false)
			}
			w.token(m.Text+m.Strength, false)
		}
		if m.Note == nil {
			continue
		}
		for _, n := range m.Note.NAGs {
			w.token("$"+strconv.Itoa(n), false)
		}
		for _, c := range m.Note.Comments {
			w.comment(c)
		}
		for _, v := range m.Note.Variations {
			if depth >= MaxDepth {
				w.fail(errTooDeep)
				break
			}
			w.token("(", false)
			w.open = true
			for _, c := range v.Comments {
				w.comment(c)
			}
			w.moves(v.Moves, depth+1)
			w.appendGlued(")") // ")" sticks to what precedes it
		}
	}
}

// comment writes {text}, split into words so it can wrap. A word that
// would start a line with '[' and a letter gets a blank before it there,
// because the reader takes such a line as the next game's tags (a blank
// costs nothing: comments are read with their whitespace folded). A
// comment holding '}' (read from a ';' comment) is written as one: ";text"
// to the end of its line.
func (w *Writer) comment(c string) {
	if strings.IndexByte(c, '}') >= 0 {
		w.token(";"+c, false)
		w.flushLine()
		return
	}
	words := asciiFields(c)
	if len(words) == 0 {
		w.token("{}", false)
		return
	}
	for i, wd := range words {
		if i == 0 {
			wd = "{" + wd
		}
		if i == len(words)-1 {
			wd += "}"
		}
		w.token(wd, i > 0 && len(wd) > 1 && wd[0] == '[' && isLetter(wd[1]))
	}
}

// token adds one token to the current line, wrapping before it when the
// line would grow past MaxLineLength. A token that must not start a line
// (indent: a comment word that reads as a tag there) is indented by a
// blank when it does. (It used to be kept on the previous line, carrying
// the word before it along: "(", a long word and such a word glued
// together made a line that could not break, longer than MaxLineLength,
// and a carried word that reads as a tag itself started a line.)
func (w *Writer) token(t string, indent bool) {
	if len(w.line) > 0 && len(w.line)+1+len(t) > MaxLineLength {
		w.flushLine()
	}
	// Only a variation's "(" glues to what follows, not a '(' that ends
	// a word of a comment ("{a( b}" keeps its space).
	if len(w.line) > 0 && !w.open || len(w.line) == 0 && indent {
		w.line = append(w.line, ' ')
	}
	w.open = false
	w.line = append(w.line, t...)
}

// appendGlued adds t to the current line without a space ("...)").
func (w *Writer) appendGlued(t string) {
	if len(w.line)+len(t) > MaxLineLength {
		w.flushLine()
	}
	w.open = false
	w.line = append(w.line, t...)
}

// fail records the first error of the Writer.
func (w *Writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

func (w *Writer) flushLine() {
	if len(w.line) == 0 {
		return
	}
	w.w.Write(w.line)
	w.w.WriteByte('\n')
	w.line = w.line[:0]
}
