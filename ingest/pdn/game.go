package pdn

// Tag is one [Name "value"] pair, value unescaped and in UTF-8.
type Tag struct {
	Name  string
	Value string
}

// UnknownMove is the Text of a move that was not recorded, written "-" or
// "--" in the source. "1. - - 2. - -" is read as two unknown moves per move
// number (white's and black's), as in the archives that use it.
const UnknownMove = "--"

// Game is one game as read from a PDN file.
type Game struct {
	// Ordinal is the 1-based position of the game in its file.
	Ordinal int
	// Offset and Line locate the first line of the game in the file
	// (0-based byte offset, 1-based line).
	Offset int64
	Line   int
	// Raw holds the exact bytes of the game as read, from the start of its
	// first non-blank line to the end of its result (and the line break
	// after it), NUL bytes included; for a UTF-16 input, the bytes of the
	// UTF-8 text it was decoded to. Nil only for a game skipped as
	// ErrGameTooLarge. Raw is the game's own copy, but the strings below
	// (tag values, move texts) share its memory when it is UTF-8: treat it
	// as read-only.
	Raw []byte
	// Windows1252 reports that Raw was not valid UTF-8 and was decoded as
	// Windows-1252; all strings below are UTF-8 either way.
	Windows1252 bool

	// Tags in file order.
	Tags []Tag
	// Comments written before the first move.
	Comments []string
	// Moves is the main line.
	Moves []Move
	// Warnings lists oddities that lose no information but that a strict
	// reader would reject (see the package documentation), and the NUL
	// bytes stripped from the game's strings. Each names its place in the
	// file; the reasons are UTF-8 without NUL and quote little input.
	Warnings []Warning
	// Result is the game terminator as written: "1-0", "0-1", "1/2-1/2",
	// "*", "2-0", "1-1", "0-2", "0-0", a match score like "4-6" (only when
	// it equals the Result tag), or "" when the game just stops.
	Result string

	moveFirst bool // a move comes before the game's first defect (LooksLikePDN)
}

// LooksLikePDN reports whether the game shows its text is PDN, whatever
// its defects: it has a tag pair, or a move comes before its first defect.
// Words of prose read as a piece of movetext fail before any move.
func (g *Game) LooksLikePDN() bool { return len(g.Tags) > 0 || g.moveFirst }

// Move is one move token of the movetext with what is attached to it.
type Move struct {
	// Text is the move as written ("32-28", "28x19x10", "c3:e5", "cd4",
	// UnknownMove), without strength marks. The reader does not check it
	// against the rules. Empty only for a trailing /FEN/ setup with no move
	// after it (see Note.Setup).
	Text string
	// Strength is the move-strength mark: "!", "?", "!!", "??", "!?", "?!"
	// (or any run of them as written, also parenthesised "(!?)").
	Strength string
	// Note holds the rarer attachments; nil when there are none.
	Note *Note
	// Number is the move number written just before this move (0 if none);
	// Black is set when it was written "12..." or "12. ...". (int32 and
	// last: a Move is 48 bytes, not 56, and games hold many.)
	Number int32
	Black  bool
}

// Note carries a move's comments, NAGs, variations and setup.
type Note struct {
	// Setup is the FEN of a /FEN "..."/ setup written before this move.
	Setup string
	// NAGs are the numeric annotation glyphs $n after the move ("$" alone
	// reads as 0).
	NAGs []int
	// Comments written after the move (before the next move).
	Comments []string
	// Variations are alternatives to this move, in file order.
	Variations []Variation
}

// Variation is one parenthesised alternative line.
type Variation struct {
	Comments []string // comments before its first move
	Moves    []Move
	// Unverified is set by those that replay variations (the reader
	// never sets it) on one kept as written because a move in it is not
	// legal where it is played.
	Unverified bool
}

// Tag returns the value of the first tag with the given name (exact case),
// or "".
func (g *Game) Tag(name string) string {
	for i := range g.Tags {
		if g.Tags[i].Name == name {
			return g.Tags[i].Value
		}
	}
	return ""
}

// MainLine returns the texts of the main-line moves in order (setup-only
// entries skipped).
func (g *Game) MainLine() []string {
	out := make([]string, 0, len(g.Moves))
	for i := range g.Moves {
		if g.Moves[i].Text != "" {
			out = append(out, g.Moves[i].Text)
		}
	}
	return out
}

// Comments returns the comments after the move, or nil.
func (m *Move) Comments() []string {
	if m.Note == nil {
		return nil
	}
	return m.Note.Comments
}

// NAGs returns the move's numeric annotation glyphs, or nil.
func (m *Move) NAGs() []int {
	if m.Note == nil {
		return nil
	}
	return m.Note.NAGs
}

// Variations returns the alternatives to the move, or nil.
func (m *Move) Variations() []Variation {
	if m.Note == nil {
		return nil
	}
	return m.Note.Variations
}

// Setup returns the FEN set up before the move, or "".
func (m *Move) Setup() string {
	if m.Note == nil {
		return ""
	}
	return m.Note.Setup
}

func (m *Move) note() *Note {
	if m.Note == nil {
		m.Note = &Note{}
	}
	return m.Note
}

// Warning is a non-fatal remark about a game, with its place in the file.
// Kind says what it is about, so that readers of warnings need not read
// Reason, the text for people.
type Warning struct {
	Kind   WarningKind
	Line   int
	Column int
	Reason string
}

// WarningKind says what a reader warning is about.
type WarningKind uint8

const (
	WarnTextBetweenTags  WarningKind = iota + 1 // text between tag lines that is neither a tag nor movetext, skipped
	WarnNoResult                                // no result at the end of the game; the next game's tags follow
	WarnNotPDN                                  // text that is not PDN skipped before the game
	WarnResultDiffers                           // the result token differs from the Result tag
	WarnMovesWithoutTags                        // moves without tags after a game with tags
	WarnNUL                                     // NUL bytes removed from the game's text
)
