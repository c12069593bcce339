package pdn

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sentinel errors. Every *SyntaxError unwraps to exactly one of them, so a
// caller can classify rejected games with errors.Is.
var (
	// ErrUnterminatedComment: a '{' comment that never closes before the
	// next game's tags or the end of the input.
	ErrUnterminatedComment = errors.New("unterminated comment")
	// ErrUnbalancedVariation: a ')' without '(' or a '(' that is never closed.
	ErrUnbalancedVariation = errors.New("unbalanced variation")
	// ErrNestingTooDeep: variations nested more than MaxDepth levels deep.
	// The moves before the offending '(' are kept; the rest of the game is
	// only scanned for its end.
	ErrNestingTooDeep = errors.New("variations nested too deeply")
	// ErrBadTag: a tag pair that is not [Name "value"].
	ErrBadTag = errors.New("malformed tag")
	// ErrUnexpectedToken: text in the movetext that is neither a move, a
	// move number, an annotation nor a result.
	ErrUnexpectedToken = errors.New("unexpected token")
	// ErrGameTooLarge: a single game longer than MaxGameSize bytes (almost
	// always a runaway comment); its bytes are skipped, not kept.
	ErrGameTooLarge = errors.New("game too large")
)

// SyntaxError describes the first defect found in one game. The reader
// returns it together with the (partial) game and then carries on with the
// next game.
type SyntaxError struct {
	File   string // the name given to NewReader
	Line   int    // 1-based line of the defect
	Column int    // 1-based byte column of the defect
	Game   int    // 1-based ordinal of the game in the file
	Reason string // what is wrong, for a person
	Err    error  // one of the Err* sentinels
}

// Error formats the defect as "file:line:column: game N: reason". The
// message is valid UTF-8 without NUL even when the file name is not (a
// name from an old file system, say): such bytes become U+FFFD.
func (e *SyntaxError) Error() string {
	file := e.File
	if !utf8.ValidString(file) || strings.IndexByte(file, 0) >= 0 {
		file = strings.ReplaceAll(strings.ToValidUTF8(file, "\uFFFD"), "\x00", "\uFFFD")
	}
	return fmt.Sprintf("%s:%d:%d: game %d: %s", file, e.Line, e.Column, e.Game, e.Reason)
}

// Unwrap returns the sentinel (ErrBadTag, ...).
func (e *SyntaxError) Unwrap() error { return e.Err }
