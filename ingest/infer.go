package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Source inference: the variant of a source's games that name none.
//
// replay decides each game alone (replay/source.go): a game without a
// GameType, Variant tag or Italian tags is read as the variant of its
// squares (V0: Russian for algebraic 8x8, English for numeric 8x8,
// International for 10x10, ...), and only when V0 rejects it as the one
// other variant of its board and notation that accepts it (basis
// "replay"). A game V0 accepts stays V0 however plainly its file is of
// another variant. So the pipeline's sink is wrapped (inferSources): it
// holds each source's first inferWindow games (by ordinal: the window),
// and when one of them was decided by replay it looks at all of them
// again:
//
//   - the games of the window that name no variant are grouped by board
//     and notation (a class: V0 is the same for all of them);
//   - a class reads as variant X when some of its games replay only as X
//     (basis "replay", none as another variant) and X accepts every game
//     of the class that V0 accepts: X then explains every game of the
//     window that either explains, and more;
//   - the source's games of that class that name no variant (the window's
//     and every later one) are then replayed as X: those X accepts are
//     stored as X with basis "source" and a warning that names the first
//     game that only X accepts and the counts, and those X rejects keep
//     their own result (a game V0 accepts gets a warning that X rejects
//     it). The games decided by replay keep that basis.
//
// The rule is deterministic (it reads only the source's text) and each
// game's warning says why. It costs nothing for a source without a game
// decided by replay (most: their games are handed on as they are, only
// later by up to a window), and for the others a second replay of their
// games that name no variant, on the sink's goroutine. Only the first
// inferWindow games decide, so that a large file is not held whole; a
// resumed import that skipped some of them reads and replays the skipped
// ones again to decide the same way. A source read from standard input
// cannot be read again: its games are decided from what the items keep
// (validate and normalize keep the parsed games; the import spools
// standard input to a file, which it reads again).
//
// The Czech federation's files are the case in point: in mrcd2007.pdn 84
// of 102 games are Czech by replay and Russian also accepts the other 18,
// all of which Czech accepts: all 102 are Czech.
var inferWindow = 1024 // a variable so that tests can lower it

// inferSources wraps sink with source inference for a pipeline run with
// cfg (whose Prepare and Keep rebuild the items it changes). A forced
// variant leaves nothing to infer.
func inferSources(cfg Config, sink func(*Event) error) func(*Event) error {
	if cfg.Replay.Variant != nil {
		return sink
	}
	inf := &inferrer{cfg: cfg, sink: sink, r: replay.NewReplayer(cfg.Replay)}
	return inf.event
}

type inferrer struct {
	cfg  Config
	sink func(*Event) error
	r    *replay.Replayer
	g    replay.Game // scratch
	cur  *sourceInfer
}

// sourceInfer is the state of the source being handed on.
type sourceInfer struct {
	src      *source.Source
	held     []Event // Games events up to the window's last game, in order
	window   bool    // still holding
	evidence bool    // a held game was decided by replay
	plans    []*classPlan
	// The source read again, for the games whose parsed text the items
	// do not keep (the importer drops it).
	rd     *source.Reader
	pr     *pdn.Reader
	ahead  *pdn.Game // read but not yet asked for
	failed bool      // the source could not be read again
	// kept holds the window's games read again while deciding, by
	// ordinal, for apply.
	kept map[int]*pdn.Game
}

// classPlan is the decision for one class: its games that name no variant
// read as x.
type classPlan struct {
	width, height int
	notation      rules.Notation
	v0, x         *rules.Variant
	// For the decision and the warnings: the class's games in the window,
	// those decided by replay as x, the first of them, and those V0
	// accepts (all of which x accepts).
	games, onlyX, both int
	firstOrdinal       int
	firstLine          int
	refuted            bool
}

func (p *classPlan) holds(v *rules.Variant) bool {
	return v.Board.Width == p.width && v.Board.Height == p.height && v.DefaultNotation == p.notation
}

func (inf *inferrer) event(ev *Event) error {
	switch ev.Kind {
	case SourceStart:
		inf.done()
		inf.cur = &sourceInfer{src: ev.Source, window: true}
		return inf.sink(ev)
	case Games:
		s := inf.cur
		if s == nil || s.src != ev.Source {
			return inf.sink(ev)
		}
		if s.window {
			s.held = append(s.held, *ev)
			last := 0
			for i := range ev.Items {
				it := &ev.Items[i]
				last = it.Ordinal
				if it.Ordinal <= inferWindow && it.Accepted && !s.evidence && replay.DecidedByReplay(it.GameWarnings) != "" {
					s.evidence = true
				}
			}
			if last >= inferWindow {
				return inf.closeWindow()
			}
			return nil
		}
		if len(s.plans) > 0 {
			inf.apply(ev.Items)
		}
		return inf.sink(ev)
	case SourceEnd:
		if s := inf.cur; s != nil && s.src == ev.Source && s.window {
			if err := inf.closeWindow(); err != nil {
				return err
			}
		}
		inf.done()
		return inf.sink(ev)
	}
	return inf.sink(ev)
}

// done closes the source read again, if it was.
func (inf *inferrer) done() {
	if s := inf.cur; s != nil && s.rd != nil {
		s.rd.Close()
		s.rd, s.pr = nil, nil
	}
	inf.cur = nil
}

// closeWindow decides the held source's classes, applies the decision to
// the held games and hands them on.
func (inf *inferrer) closeWindow() error {
	s := inf.cur
	s.window = false
	// A resumed import skipped the source's first games: whether one of
	// them was decided by replay is only known by replaying them again.
	resumed := len(s.held) > 0 && len(s.held[0].Items) > 0 && s.held[0].Items[0].Ordinal > 1
	if s.evidence || resumed {
		inf.decide()
		if len(s.plans) > 0 {
			for i := range s.held {
				inf.apply(s.held[i].Items)
			}
		}
		s.kept = nil
	}
	held := s.held
	s.held = nil
	for i := range held {
		if err := inf.sink(&held[i]); err != nil {
			return err
		}
	}
	return nil
}

// decide replays the window's games that name no variant and makes a plan
// for each class whose evidence is clear (see the comment at the top).
func (inf *inferrer) decide() {
	s := inf.cur
	type class struct {
		plan     *classPlan
		variants map[*rules.Variant]bool // decided by replay
		v0Games  []*pdn.Game             // accepted by V0
	}
	var classes []*class
	classOf := func(v0 *rules.Variant) *class {
		for _, c := range classes {
			if c.plan.holds(v0) {
				return c
			}
		}
		c := &class{plan: &classPlan{width: v0.Board.Width, height: v0.Board.Height, notation: v0.DefaultNotation, v0: v0},
			variants: map[*rules.Variant]bool{}}
		classes = append(classes, c)
		return c
	}
	look := func(pg *pdn.Game) {
		v0 := inf.r.UntoldVariant(pg)
		if v0 == nil {
			return
		}
		c := classOf(v0)
		err := inf.r.Replay(pg, nil, &inf.g)
		switch {
		case err == nil && inf.g.Basis == replay.BasisReplay:
			c.variants[inf.g.Variant] = true
			if c.plan.onlyX == 0 {
				c.plan.firstOrdinal, c.plan.firstLine = pg.Ordinal, pg.Line
			}
			c.plan.onlyX++
		case err == nil:
			c.v0Games = append(c.v0Games, pg)
		case !replay.MayBeOtherVariant(err):
			return // not a question of variant (an unrecorded move, a bad FEN)
		}
		c.plan.games++
	}
	// A resumed import skipped the source's first games: read them again.
	first := 0
	if len(s.held) > 0 && len(s.held[0].Items) > 0 {
		first = s.held[0].Items[0].Ordinal
	}
	for ord := 1; ord < first && ord <= inferWindow; ord++ {
		if pg := inf.reread(ord); pg != nil {
			look(pg)
		}
	}
	for i := range s.held {
		for k := range s.held[i].Items {
			it := &s.held[i].Items[k]
			if it.ReadErr != nil || it.Ordinal > inferWindow {
				continue
			}
			if pg := inf.pdnOf(it); pg != nil {
				if it.PDN == nil && it.Game == nil {
					if s.kept == nil {
						s.kept = map[int]*pdn.Game{}
					}
					s.kept[it.Ordinal] = pg
				}
				look(pg)
			}
		}
	}
	for _, c := range classes {
		if len(c.variants) != 1 {
			continue // none, or the class's games replay as several variants
		}
		for v := range c.variants {
			c.plan.x = v
		}
		for _, pg := range c.v0Games {
			if inf.r.ReplayAs(pg, c.plan.x, replay.BasisSource, &inf.g) != nil {
				c.plan.refuted = true
				break
			}
			c.plan.both++
		}
		if !c.plan.refuted {
			s.plans = append(s.plans, c.plan)
		}
	}
}

// apply replays the items of a class with a plan as its variant and
// rebuilds those whose result changes (see the comment at the top).
func (inf *inferrer) apply(items []Item) {
	s := inf.cur
	for i := range items {
		it := &items[i]
		if it.ReadErr != nil || it.Accepted && replay.DecidedByReplay(it.GameWarnings) != "" ||
			!it.Accepted && !replay.MayBeOtherVariant(it.Reject) {
			continue
		}
		pg := inf.pdnOf(it)
		if pg == nil {
			continue
		}
		v0 := inf.r.UntoldVariant(pg)
		if v0 == nil {
			continue
		}
		var p *classPlan
		for _, q := range s.plans {
			if q.holds(v0) {
				p = q
			}
		}
		if p == nil {
			continue
		}
		err := inf.r.ReplayAs(pg, p.x, replay.BasisSource, &inf.g)
		if err == nil {
			inf.g.Warnings = append(inf.g.Warnings, p.because(it.Accepted))
			inf.rebuild(it, &inf.g)
			continue
		}
		if !it.Accepted {
			continue
		}
		what := replay.Reason(err)
		var re *replay.RejectError
		if errors.As(err, &re) && re.Ply > 0 {
			what = fmt.Sprintf("ply %d %q: %s", re.Ply, pdn.Clip(re.Text, 40), what)
		}
		if inf.r.Replay(pg, nil, &inf.g) != nil {
			continue // cannot be: the worker accepted it
		}
		inf.g.Warnings = append(inf.g.Warnings, replay.Warning{Kind: replay.WarnSourceVariantRejects, Variant: p.x.Name,
			Text: fmt.Sprintf("%s %s rejects %s; kept as %s (by %s). %s",
				replay.TextSourceVariantRejects, p.x.Name, what, inf.g.Variant.Name, inf.g.Basis, p.evidence())})
		inf.rebuild(it, &inf.g)
	}
}

// evidence says why the class reads as p.x.
func (p *classPlan) evidence() string {
	board := fmt.Sprintf("%dx%d", p.width, p.height)
	notation := "numeric"
	if p.notation == rules.Algebraic {
		notation = "algebraic"
	}
	return fmt.Sprintf("The source reads as %s: of its first %d %s %s games without GameType, Variant or Italian tags, %d replay only as %s (the first is game %d, line %d) and %s accepts all %d that %s (by notation) accepts",
		p.x.Name, p.games, board, notation, p.onlyX, p.x.Name, p.firstOrdinal, p.firstLine, p.x.Name, p.both, p.v0.Name)
}

// because is the warning of a game read as its source's variant;
// v0Accepts says the variant of its squares accepts it too.
func (p *classPlan) because(v0Accepts bool) replay.Warning {
	also := fmt.Sprintf("%s (by notation) rejects it", p.v0.Name)
	if v0Accepts {
		also = fmt.Sprintf("%s (by notation) accepts it too", p.v0.Name)
	}
	return replay.Warning{Kind: replay.WarnVariantBySource, Variant: p.x.Name,
		Text: fmt.Sprintf("%s %s: no GameType, Variant or Italian tags; %s. %s", replay.TextVariantBySource, p.x.Name, also, p.evidence())}
}

// rebuild makes it the accepted game g, as a worker would have handed it
// on (Config.Keep, Config.Prepare).
func (inf *inferrer) rebuild(it *Item, g *replay.Game) {
	pg := g.PDN
	it.Accepted, it.Reject = true, nil
	it.Plies, it.Warnings = g.Plies(), len(g.Warnings)
	it.GameWarnings = nil
	if len(g.Warnings) > 0 {
		it.GameWarnings = append([]replay.Warning(nil), g.Warnings...)
	}
	it.Game, it.Prepared = nil, nil
	if inf.cfg.Keep {
		it.Game = g.Clone()
	}
	it.PDN = pg
	if inf.cfg.Prepare != nil {
		it.Prepared = inf.cfg.Prepare(g)
		it.PDN = nil
	}
}

// pdnOf returns the parsed game of it: its own, its Game's, or the source
// read again.
func (inf *inferrer) pdnOf(it *Item) *pdn.Game {
	switch {
	case it.PDN != nil:
		return it.PDN
	case it.Game != nil && it.Game.PDN != nil:
		return it.Game.PDN
	}
	if pg, ok := inf.cur.kept[it.Ordinal]; ok {
		return pg
	}
	return inf.reread(it.Ordinal)
}

// reread returns game ordinal of the current source, read again from its
// text, or nil when it cannot be (standard input, an error, a game
// already passed). Games are asked for in ascending order.
func (inf *inferrer) reread(ordinal int) *pdn.Game {
	s := inf.cur
	if s.failed {
		return nil
	}
	if s.pr == nil {
		if s.src.Kind == source.StdIn {
			s.failed = true
			return nil
		}
		rd, err := s.src.Open()
		if err != nil {
			s.failed = true
			return nil
		}
		rd.SkipHash()
		s.rd, s.pr = rd, pdn.NewReader(rd, s.src.Name)
	}
	for {
		if g := s.ahead; g != nil {
			switch {
			case g.Ordinal == ordinal:
				s.ahead = nil
				return g
			case g.Ordinal > ordinal:
				return nil
			}
			s.ahead = nil
		}
		g, err := s.pr.Next()
		var se *pdn.SyntaxError
		if err == io.EOF || err != nil && !errors.As(err, &se) {
			s.failed = true
			return nil
		}
		if g != nil {
			s.ahead = g
		}
	}
}

// ReplayGames replays every game of srcs as Validate and Import decide it
// (each game alone, then source inference) and calls fn with each, in
// input order: g is the accepted game, or err is why the game was
// rejected (a *replay.RejectError). pg is the game as read. Tests and
// tools that check the database against their own replay of the files use
// it, so that they read every game as the import does. An error from fn
// stops the run and is returned.
func ReplayGames(ctx context.Context, srcs []*source.Source, fn func(src *source.Source, pg *pdn.Game, g *replay.Game, err error) error) error {
	cfg := Config{Keep: true}
	return Run(ctx, srcs, cfg, inferSources(cfg, func(ev *Event) error {
		if ev.Kind != Games {
			return nil
		}
		for i := range ev.Items {
			it := &ev.Items[i]
			pg := it.PDN
			if it.Game != nil {
				pg = it.Game.PDN
			}
			if err := fn(ev.Source, pg, it.Game, it.Reject); err != nil {
				return err
			}
		}
		return nil
	}))
}
