package replay

import (
	"errors"
	"fmt"
	"strings"
)

// Reasons a game is rejected. A *RejectError unwraps to exactly one of them,
// and Reason(err) names it for summaries ("rejected by reason").
var (
	ErrIllegalMove        = errors.New("illegal move")
	ErrAmbiguousMove      = errors.New("ambiguous move")
	ErrUnknownMove        = errors.New("unknown move")    // "- -": the move was not recorded
	ErrBadMoveText        = errors.New("unreadable move") // not a move in any notation we know
	ErrBadFEN             = errors.New("invalid FEN")     // the FEN tag or a /FEN/ setup
	ErrUnsupportedVariant = errors.New("unsupported variant")
	ErrSyntax             = errors.New("PDN syntax error") // the reader could not read the game cleanly
	ErrMidGameSetup       = errors.New("mid-game setup")   // a /FEN/ setup, with Options.NoSetups (the import)
)

var reasons = []error{ErrIllegalMove, ErrAmbiguousMove, ErrUnknownMove, ErrBadMoveText, ErrBadFEN, ErrUnsupportedVariant, ErrSyntax, ErrMidGameSetup}

// RejectError says why a game was rejected and where: the ply, the move as
// written, the position before it and the legal moves there.
type RejectError struct {
	Err      error  // one of the Err* reasons above
	Ply      int    // 1-based ply of the offending move; 0 for the whole game
	Text     string // the move as written
	FEN      string // the position before the move
	Legal    []string
	Detail   string // a short explanation for a person
	Variant  string
	underlie error // a lower-level cause (FEN or PDN error), if any
}

func (e *RejectError) Error() string {
	var b strings.Builder
	if e.Ply > 0 {
		fmt.Fprintf(&b, "ply %d %q: ", e.Ply, e.Text)
	}
	b.WriteString(e.Err.Error())
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// Unwrap returns the reason and the lower-level cause.
func (e *RejectError) Unwrap() []error {
	if e.underlie != nil {
		return []error{e.Err, e.underlie}
	}
	return []error{e.Err}
}

// Reason returns the short name of the reason err carries ("illegal move",
// "ambiguous move", ...), or "error" for anything else.
func Reason(err error) string {
	for _, r := range reasons {
		if errors.Is(err, r) {
			return r.Error()
		}
	}
	return "error"
}
