package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/draughtsdb/draughtsdb/analysis/endgame"
	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/analysis/match"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/spf13/pflag"
)

// endgameFlags are the endgame tables' flag of the built-in engine's
// commands.
type endgameFlags struct{ pieces int }

func (e *endgameFlags) add(f *pflag.FlagSet, who string) {
	var names []string
	for _, v := range rules.Variants() {
		if endgame.Supported(v) {
			names = append(names, v.Name)
		}
	}
	f.IntVar(&e.pieces, "endgame-pieces", 0, fmt.Sprintf("%s: exact win/draw/loss tables of every position of up to N pieces (2-%d), built into the data directory's endgame/ on first use (4 pieces: about 15M positions, 30 MB, a minute); in %s (where a count of king moves draws, as in russian, a win counts only where the count cannot end the game first); 0 = none", who, endgame.MaxPieces, strings.Join(names, ", ")))
}

func (e *endgameFlags) check() error {
	if e.pieces != 0 && (e.pieces < 2 || e.pieces > endgame.MaxPieces) {
		return fmt.Errorf("--endgame-pieces %d: want 0 (none) or 2..%d", e.pieces, endgame.MaxPieces)
	}
	return nil
}

// open reads or builds the tables of v (nil without --endgame-pieces, or
// for a variant without them), with a progress bar while it builds.
func (e *endgameFlags) open(a *app, v *rules.Variant, quiet bool) (*endgame.Tables, error) {
	if e.pieces == 0 || !endgame.Supported(v) {
		return nil, nil
	}
	dir := a.cfg.Embedded.DataDir
	if dir == "" {
		dir = defaultDataDir()
	}
	dir = filepath.Join(dir, "endgame")
	var bar *progress
	t, err := endgame.Open(dir, v, e.pieces, func(done, total int64) {
		if bar == nil {
			bar = newProgress(quiet, fmt.Sprintf("endgame tables, %s, %d pieces", v.Name, e.pieces), "positions", total)
		}
		bar.set(done)
	})
	bar.finish()
	if err != nil {
		return nil, fmt.Errorf("--endgame-pieces: %w", err)
	}
	return t, nil
}

// loader opens each variant's tables on its first search (a Hub GUI
// chooses the variant after the start) and keeps them; a variant without
// tables, or whose tables could not be built, searches without them, with
// one line on w saying why.
func (e *endgameFlags) loader(a *app, w io.Writer) func(*rules.Variant) *endgame.Tables {
	var mu sync.Mutex
	seen := map[*rules.Variant]*endgame.Tables{}
	return func(v *rules.Variant) *endgame.Tables {
		mu.Lock()
		defer mu.Unlock()
		if t, ok := seen[v]; ok {
			return t
		}
		t, err := e.open(a, v, false)
		switch {
		case err != nil:
			fmt.Fprintf(w, "draughtsdb: %v; %s searches without them\n", err, v.Name)
		case t == nil:
			fmt.Fprintf(w, "draughtsdb: %v\n", errNoTables(v))
		}
		seen[v] = t
		return t
	}
}

// setting is the match key's part of the flag: it changes how a builtin
// engine plays (nothing without one, or without the flag).
func (e *endgameFlags) setting(specs ...engine.Spec) string {
	if e.pieces == 0 || !slices.ContainsFunc(specs, func(s engine.Spec) bool { return s.Kind == engine.Builtin }) {
		return ""
	}
	return fmt.Sprintf(" endgame=%d", e.pieces)
}

// checkMatch refuses the flag where no engine of a match can use it:
// without a builtin engine, or in a variant without tables. The match
// would not measure what it was asked to.
func (e *endgameFlags) checkMatch(v *rules.Variant, specA, specB engine.Spec) error {
	if e.pieces == 0 {
		return nil
	}
	if specA.Kind != engine.Builtin && specB.Kind != engine.Builtin {
		return errors.New("--endgame-pieces: for builtin engines; a draughtsdb Hub engine takes it as its own argument (--engine-arg-a=--endgame-pieces=N)")
	}
	return e.checkVariant(v)
}

// checkVariant: v has tables (nil: any variant, decided per game).
func (e *endgameFlags) checkVariant(v *rules.Variant) error {
	if e.pieces != 0 && v != nil && !endgame.Supported(v) {
		return errNoTables(v)
	}
	return nil
}

// useIn builds or reads the tables of v before a match (a build in the
// first move would cost that move its clock) and gives them to the
// builtin engines of eo (checkMatch first).
func (e *endgameFlags) useIn(eo *match.EngineOptions, a *app, v *rules.Variant, quiet bool, notice func(string)) error {
	if e.pieces == 0 {
		return nil
	}
	t, err := e.open(a, v, quiet)
	if err != nil {
		return err
	}
	notice(fmt.Sprintf("endgame tables: %s, up to %d pieces, %d positions", v.Name, e.pieces, t.Entries()))
	eo.Endgame = func(x *rules.Variant) *endgame.Tables {
		if x == v {
			return t
		}
		return nil
	}
	eo.EndgamePieces = e.pieces
	return nil
}

// errNoTables: v has no endgame tables, and why.
func errNoTables(v *rules.Variant) error {
	return fmt.Errorf("--endgame-pieces: %s has no endgame tables (a board of more than 32 squares, a limit on moving one king, or games won otherwise than by having no move)", v.Name)
}
