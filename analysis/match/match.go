package match

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// DefaultMaxPlies is the move limit when Options.MaxPlies is 0: 300 plies
// (150 moves each) played by the engines without a decision is a draw.
// The draw rules end International and Russian games long before; the
// limit is for variants without a king-move rule.
const DefaultMaxPlies = 300

// Store keeps a match's finished games: the database as one source per
// match (cmd/draughtsdb: ingest.Append), or anything else that keeps them
// in order.
type Store interface {
	// Results returns the results of the games stored for the match, in
	// round order: rounds 1..len. Run plays on from the next round.
	Results(ctx context.Context) ([]replay.Result, error)
	// Save stores game g (round len(Results)+1) as pdnText, durably, in
	// one step: after a crash it is either stored whole or not at all.
	Save(ctx context.Context, g *Game, pdnText []byte) error
}

// Options describe a match.
type Options struct {
	Variant *rules.Variant
	// Openings are played in order, each twice (A White, then B White);
	// after the last, from the first again.
	Openings []Opening
	// Games is the match's length (0: two per opening). A longer Games
	// extends a match already stored; rounds are the same whatever Games
	// is.
	Games int
	// MaxPlies is the move limit (DefaultMaxPlies when 0, none when < 0).
	MaxPlies int
	// A and B are the engines; NameA and NameB their names in the games
	// ("": the engine's own name). Equal names get " (A)" and " (B)".
	A, B         Player
	NameA, NameB string
	// Event and Site are the games' tags; Key the match key (Key).
	Event, Site, Key string
	Store            Store
	// Progress, when set, is called after each game is stored, with the
	// standing so far from A's view (the games stored before this run
	// included).
	Progress func(g *Game, st Stats)
	// Notice receives remarks (an engine restarted, a Finish that failed).
	Notice func(string)
	// Now is the clock of the games' dates (time.Now when nil).
	Now func() time.Time
}

// Summary is a match's standing when Run returns.
type Summary struct {
	// Stats is from engine A's view, over every stored game of the match.
	Stats Stats
	// Played is the games this run played; Resumed the games stored
	// before it (the rounds it skipped).
	Played, Resumed int
	// Forfeits counts this run's games lost by forfeit, per engine (A, B).
	Forfeits [2]int
	// NameA and NameB are the names the games record.
	NameA, NameB string
}

// ErrEngineLost: an engine could not be restarted after a failure, so the
// match cannot go on (the games before are stored; running the match again
// resumes it).
var ErrEngineLost = errors.New("match: engine could not be restarted")

// Key is the identity of a match: the same settings give the same key, so
// that running a match again resumes it. It covers what decides the games:
// the variant, both engines (spec and program arguments), the search
// limit, the move limit, the event name, the DXP time control and the
// openings (their positions and lines, in order). The number of games is
// not part of it (more games extend the match), nor the timeout or the
// table size.
func Key(v *rules.Variant, specA string, argsA []string, specB string, argsB []string,
	setting string, maxPlies int, event, dxpControl string, openings []Opening) string {
	h := sha256.New()
	field := func(s string) { fmt.Fprintf(h, "%d:%s;", len(s), s) }
	field("draughtsdb match 1")
	field(v.Name)
	for _, e := range [][]string{append([]string{specA}, argsA...), append([]string{specB}, argsB...)} {
		field(strconv.Itoa(len(e)))
		for _, s := range e {
			field(s)
		}
	}
	field(setting)
	field(strconv.Itoa(maxPlies))
	field(event)
	field(dxpControl)
	for i := range openings {
		o := &openings[i]
		field(o.Start.FEN())
		field(strconv.Itoa(len(o.Line)))
		for j := range o.Line {
			field(moveText(&o.Line[j]))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// pointsForA is engine A's points in a game of round round with result r.
func pointsForA(round int, r replay.Result) float64 {
	aWhite := round%2 == 1
	switch w, ok := r.Winner(); {
	case ok && (w == rules.White) == aWhite:
		return 1
	case ok:
		return 0
	}
	return 0.5
}

// Run plays the match: it reads the stored games (Store.Results), plays the
// rounds after them up to Options.Games, and saves each game as soon as it
// ends. Round r plays opening (r-1)/2 (cycling), A White in odd rounds.
//
// A game ends by the rules (Game.adjudicate) or by a forfeit: an engine
// that fails to move (an error, a timeout, a crash, an illegal move) loses
// the game, and is Reset before the next one; if it cannot be restarted,
// Run returns ErrEngineLost. When ctx is cancelled the game being played
// is abandoned (not saved) and Run returns ctx's error with the summary so
// far: running the match again plays that round anew.
func Run(ctx context.Context, o Options) (*Summary, error) {
	if len(o.Openings) == 0 {
		return nil, errors.New("match: no openings")
	}
	if o.A == nil || o.B == nil || o.Store == nil || o.Variant == nil {
		return nil, errors.New("match: engines, variant and store are required")
	}
	games := o.Games
	if games <= 0 {
		games = 2 * len(o.Openings)
	}
	maxPlies := o.MaxPlies
	switch {
	case maxPlies == 0:
		maxPlies = DefaultMaxPlies
	case maxPlies < 0:
		maxPlies = 0
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	notice := o.Notice
	if notice == nil {
		notice = func(string) {}
	}
	sum := &Summary{}
	nameA, nameB := playerNames(o)
	sum.NameA, sum.NameB = nameA, nameB

	stored, err := o.Store.Results(ctx)
	if err != nil {
		return sum, err
	}
	for i, r := range stored {
		sum.Stats.Add(pointsForA(i+1, r))
	}
	sum.Resumed = len(stored)

	for round := len(stored) + 1; round <= games; round++ {
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		op := &o.Openings[(round-1)/2%len(o.Openings)]
		g := newGame(round, op)
		if g.Pos.Variant() != o.Variant {
			return sum, fmt.Errorf("match: opening %d is %s, the match %s", (round-1)/2+1, g.Pos.Variant().Name, o.Variant.Name)
		}
		white, black := o.A, o.B
		if !g.AWhite {
			white, black = o.B, o.A
		}
		g.setNames(nameA, nameB)
		failed, err := play(ctx, g, white, black, maxPlies)
		if err != nil {
			return sum, err // cancelled: the game is abandoned
		}
		// A DXP engine names itself when it accepts its first game.
		nameA, nameB = playerNames(o)
		sum.NameA, sum.NameB = nameA, nameB
		g.setNames(nameA, nameB)
		g.Ended = now()
		for _, p := range []Player{white, black} {
			if p == failed {
				continue
			}
			if err := p.Finish(ctx, g); err != nil {
				notice(fmt.Sprintf("game %d: telling %s the game ended: %v", round, p.Name(), err))
			}
		}
		// A finished game is stored even if the match is being stopped:
		// storing takes a moment, playing it again much longer.
		if err := o.Store.Save(context.WithoutCancel(ctx), g, g.PDN(o.Event, o.Site, o.Key)); err != nil {
			return sum, fmt.Errorf("match: storing game %d: %w", round, err)
		}
		pts := pointsForA(round, g.Result)
		sum.Stats.Add(pts)
		sum.Played++
		if g.Reason.IsForfeit() {
			if failed == o.A {
				sum.Forfeits[0]++
			} else {
				sum.Forfeits[1]++
			}
		}
		if o.Progress != nil {
			o.Progress(g, sum.Stats)
		}
		if failed != nil {
			notice(fmt.Sprintf("game %d: restarting %s after: %s", round, failed.Name(), g.Reason))
			if err := failed.Reset(ctx); err != nil {
				if ctx.Err() != nil {
					return sum, ctx.Err()
				}
				return sum, fmt.Errorf("%w: %s after game %d: %v", ErrEngineLost, failed.Name(), round, err)
			}
		}
	}
	return sum, nil
}

// playerNames are the names the games give A and B: Options.NameA/NameB,
// else the engines' own; equal names get " (A)" and " (B)". Run asks
// after each game's start, as a DXP engine gives its name only then.
func playerNames(o Options) (string, string) {
	a, b := o.NameA, o.NameB
	if a == "" {
		a = o.A.Name()
	}
	if b == "" {
		b = o.B.Name()
	}
	if strings.EqualFold(a, b) {
		a, b = a+" (A)", b+" (B)"
	}
	return a, b
}

// play plays g to its end. failed is the player that forfeited it (nil:
// none), to be Reset; err is ctx's error when the match was cancelled.
func play(ctx context.Context, g *Game, white, black Player, maxPlies int) (failed Player, err error) {
	side := map[Player]rules.Color{white: rules.White, black: rules.Black}
	if white == black {
		return nil, errors.New("match: an engine cannot play itself in one process (start it twice)")
	}
	for _, p := range []Player{white, black} {
		if err := p.Begin(ctx, g, side[p]); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			name := g.White
			if side[p] == rules.Black {
				name = g.Black
			}
			g.forfeit(side[p], fmt.Errorf("%s: starting the game: %w", name, err))
			return p, nil
		}
	}
	for {
		// An engine may answer a cancelled search with a move (the
		// built-in one does): the match is stopping all the same.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if r, why, over := g.adjudicate(maxPlies); over {
			g.Result, g.Reason = r, why
			return nil, nil
		}
		p := white
		if g.Pos.SideToMove() == rules.Black {
			p = black
		}
		m, err := p.Move(ctx, g)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, hub.ErrVariant) {
			// Not this game's failure: the engine plays no game of the variant.
			return nil, fmt.Errorf("match: %s: %w", p.Name(), err)
		}
		if err == nil {
			if lm, ok := g.legal(&m); ok {
				m = lm
			} else {
				err = fmt.Errorf("%w %s at ply %d in %s", ErrIllegalMove, moveText(&m), len(g.Moves)+1, g.Pos.FEN())
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			name := g.White
			if side[p] == rules.Black {
				name = g.Black
			}
			g.forfeit(side[p], fmt.Errorf("%s at ply %d: %w", name, len(g.Moves)+1, err))
			if g.Reason == Resignation || g.Reason == DrawClaim {
				return nil, nil // the engine ended the game itself; nothing to restart
			}
			return p, nil
		}
		g.play(m)
	}
}

// moveText writes m in Hub notation (32-28, 28x19x23), which names every
// move of every variant exactly; "(none)" for the zero move.
func moveText(m *rules.Move) string {
	if m.From() == 0 && m.To() == 0 {
		return "(none)"
	}
	return hub.FormatMove(m)
}

// setNames sets White and Black from A's and B's names.
func (g *Game) setNames(a, b string) {
	g.White, g.Black = a, b
	if !g.AWhite {
		g.White, g.Black = b, a
	}
}
