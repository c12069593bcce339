package rules

import (
	"errors"
	"fmt"
)

// Sentinel errors; test with errors.Is.
var (
	ErrUnknownVariant = errors.New("rules: unknown variant")
	ErrSquare         = errors.New("rules: bad square")
	// FEN errors, wrapped in a *FENError.
	ErrFENSyntax       = errors.New("malformed FEN")
	ErrFENColor        = errors.New("bad colour in FEN")
	ErrFENSquare       = errors.New("square out of range in FEN")
	ErrFENDuplicate    = errors.New("square given twice in FEN")
	ErrFENPromotionRow = errors.New("man on its own promotion row in FEN")
	// ErrMoveSyntax is returned by ParseMoveText.
	ErrMoveSyntax = errors.New("rules: malformed move text")
)

// FENError reports what is wrong with a FEN string. It unwraps to one of
// the ErrFEN* sentinels.
type FENError struct {
	FEN    string // the input
	Detail string // what and where, e.g. `square 51 (board has 1-50)`
	Err    error  // sentinel
}

func (e *FENError) Error() string {
	return fmt.Sprintf("rules: %v: %s in %q", e.Err, e.Detail, capText(e.FEN, 60))
}

// capText cuts s to at most n bytes on a rune boundary, marking the cut
// with "...": an error message quotes its input, never a whole 400 KB FEN.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "..."
}

func (e *FENError) Unwrap() error { return e.Err }
