package ingest

import (
	"errors"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/ingest/source"
)

// SourceError is why one source failed: it could not be opened, its text
// broke off (a truncated or corrupt .gz), or its games could not be stored.
// The other sources of the run go on. The message names the source once and
// the game where it stopped when there is one:
//
//	games/x.pdn.gz: game 57: unexpected EOF (the text breaks off inside this game; ...)
type SourceError struct {
	Source string // the source's name (source.Source.Name)
	Game   int    // ordinal of the game where it stopped; 0: none or not known
	Err    error  // the cause
	// Note, when set, tells what became of the source's games.
	Note string
}

func (e *SourceError) Error() string {
	var b strings.Builder
	b.WriteString(e.Source)
	if e.Game > 0 {
		b.WriteString(": game ")
		b.WriteString(strconv.Itoa(e.Game))
	}
	b.WriteString(": ")
	// A *source.Error of the same source names it already: print its cause.
	var se *source.Error
	if errors.As(e.Err, &se) && se == e.Err && se.Name == e.Source {
		if se.Op == "open" {
			b.WriteString("cannot open: ")
		}
		b.WriteString(se.Err.Error())
	} else {
		b.WriteString(e.Err.Error())
	}
	if e.Note != "" {
		b.WriteString(" (")
		b.WriteString(e.Note)
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *SourceError) Unwrap() error { return e.Err }

// sourceError makes err the failure of the source named name, unless it is
// one already.
func sourceError(name string, game int, err error) *SourceError {
	var se *SourceError
	if errors.As(err, &se) && se.Source == name {
		return se
	}
	return &SourceError{Source: name, Game: game, Err: err}
}

// ErrSourceStopped ends a source that Config.Stop stopped.
var ErrSourceStopped = errors.New("stopped")
