package ingest

import (
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Text for PostgreSQL.
//
// A text (or jsonb) value that is not valid UTF-8 or that holds a NUL byte
// makes PostgreSQL refuse the whole COPY ("invalid byte sequence for
// encoding UTF8"), which used to stop the import for good: the reader
// decodes each game as UTF-8 or Windows-1252, but bytes still slip through
// (a quote in a message cut inside a character, a NUL in a tag, a %00 in an
// evaluation comment, a file name). So every text that the importer hands to
// PostgreSQL passes through cleanText on its way to a row: a game's columns
// and other tags when it is prepared (prepare, on the workers), a rejected
// game's texts and a source's name and error when they are written. The
// game's bytes as read are kept exactly in rejected_games.raw (bytea).

// Caps on what the importer stores of a text the input controls.
const (
	maxQuote   = 40   // bytes of input quoted in a message the importer writes
	maxMessage = 1000 // bytes of a stored message or error text
	maxWarning = 300  // bytes of one stored warning
	maxMove    = 200  // bytes of rejected_games.move (the move as written)
	// maxPlayer caps a player's name: players.name has a unique b-tree
	// index, whose entries PostgreSQL limits to about 2.7 KB, so a runaway
	// White tag would make every batch of its source fail.
	maxPlayer = 200
)

// textFix says what cleanText changed.
type textFix uint8

const (
	fixNUL      textFix = 1 << iota // NUL bytes removed
	fixEncoding                     // bytes that are not UTF-8 decoded as Windows-1252
)

// cp1252High maps bytes 0x80..0x9F of Windows-1252 to Unicode (0xA0..0xFF
// are Latin-1, U+00A0..U+00FF); the five undefined bytes map to the C1
// controls of the same value, as Windows does, so decoding never fails.
var cp1252High = [32]rune{
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
}

// cleanText returns s as PostgreSQL text accepts it: valid UTF-8 sequences
// are kept, every other byte is read as Windows-1252 (the usual encoding of
// old PDN files: a Latin-1 "\xe8" becomes "è"), and NUL bytes are removed.
// A clean string is returned as is, without allocating.
func cleanText(s string) (string, textFix) {
	if isCleanText(s) {
		return s, 0
	}
	var fix textFix
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0:
			fix |= fixNUL
			i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				fix |= fixEncoding
				if c < 0xA0 {
					r = cp1252High[c-0x80]
				} else {
					r = rune(c)
				}
				b = utf8.AppendRune(b, r)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
		}
	}
	return string(b), fix
}

// isCleanText reports whether s can go to PostgreSQL as it is.
func isCleanText(s string) bool {
	return strings.IndexByte(s, 0) < 0 && utf8.ValidString(s)
}

// dbText is cleanText when nobody needs to know what changed.
func dbText(s string) string {
	s, _ = cleanText(s)
	return s
}

// dbTextPtr cleans an optional text.
func dbTextPtr(s *string) *string {
	if s == nil || isCleanText(*s) {
		return s
	}
	c := dbText(*s)
	return &c
}

// capText cuts s so that it is at most n bytes in all, "..." included
// (stored columns have hard limits); pdn.Clip does the rune-safe cut.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return pdn.Clip(s, n-3)
}

// quoteInput quotes a piece of input for a message: Go syntax (so control
// characters and invalid bytes are visible), at most maxQuote bytes of it.
func quoteInput(s string) string {
	return strconv.Quote(capText(s, maxQuote))
}

// cleaner cleans the texts of one game and remembers what it changed, so
// the game can carry a warning that says so.
type cleaner struct {
	notes []string
}

// text cleans s, the value of what ("tag White", "evaluation engine").
func (c *cleaner) text(what, s string) string {
	out, fix := cleanText(s)
	if fix&fixNUL != 0 {
		c.notes = append(c.notes, what+": NUL bytes removed")
	}
	if fix&fixEncoding != 0 {
		c.notes = append(c.notes, what+": bytes that are not UTF-8 read as Windows-1252")
	}
	return out
}

// ptr cleans an optional text.
func (c *cleaner) ptr(what string, s *string) *string {
	if s == nil || isCleanText(*s) {
		return s
	}
	out := c.text(what, *s)
	return &out
}

// player cleans a player's name (see playerName) and caps it at maxPlayer.
func (c *cleaner) player(what, s string) string {
	name := playerName(c.text(what, s))
	if len(name) > maxPlayer {
		name = capText(name, maxPlayer)
		c.notes = append(c.notes, what+": name longer than "+strconv.Itoa(maxPlayer)+" bytes cut")
	}
	return name
}

// tagWhat names a tag in a note, its name quoted and capped when it is not
// a plain word.
func tagWhat(name string) string {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return "tag " + quoteInput(name)
		}
	}
	return "tag " + capText(name, maxQuote)
}
