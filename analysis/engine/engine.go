package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/endgame"
	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Engine is one engine instance: it serves one search at a time.
type Engine interface {
	// Name is the engine's name as it reports it ("" if it gives none:
	// see Spec.Fallback); Version its version ("" if none).
	Name() string
	Version() string
	// Search finds the move of the side to move at the end of g within
	// l. A game that is already over (the side to move has no legal move,
	// or the variant's Win rule decides it) gives a Result without a move.
	Search(ctx context.Context, g Game, l Limit) (Result, error)
	// Close releases the engine (a process, a connection, a table).
	Close() error
}

// GamePlayer is an Engine that plays whole games with its own clock, as a
// DXP engine does: NewGame before a game's first Search, EndGame after its
// last. Search then sees the same game grow by the moves of both sides.
type GamePlayer interface {
	Engine
	// NewGame starts a game from start in which the engine plays side.
	NewGame(ctx context.Context, start rules.Position, side rules.Color) error
	// EndGame tells the engine that g ended with result r.
	EndGame(ctx context.Context, g Game, r replay.Result) error
}

// Restarter is an Engine that can start afresh after an error, when it is
// out of step with the game (a Hub process that answered badly, a DXP
// connection after a timeout).
type Restarter interface {
	Restart(ctx context.Context) error
}

// EvalVersioner is an Engine whose evaluations name more than its
// version: the built-in engine's (and draughtsdb hub's) carry a
// fingerprint of the evaluation, so that other weights are told apart in
// stored evaluations.
type EvalVersioner interface {
	EvalVersion() string
}

// EvalVersion is e's EvalVersion, or its Version.
func EvalVersion(e Engine) string {
	if ev, ok := e.(EvalVersioner); ok {
		return ev.EvalVersion()
	}
	return e.Version()
}

// LineSearcher is an Engine for which Game.Continue matters: it keeps what
// it learnt from one search to the next (the built-in engine's
// transposition table).
type LineSearcher interface {
	Engine
	KeepsTable() bool
}

// Game is what an engine is asked to search: the position reached from
// Start by Moves, with the game's history so that the engine sees
// repetitions and Frisian's king-move limit.
type Game struct {
	// Start is where Moves begin.
	Start rules.Position
	// Moves are the plies played from Start (legal in turn).
	Moves []rules.Move
	// History holds the hashes of the game's positions before Start,
	// oldest first (nil when Start is the game's beginning or when the
	// earlier positions are unknown). Only positions since the last
	// irreversible move matter.
	History []uint64
	// KingMoves is Frisian's king-move counter at Start (nil: a fresh
	// one, as at a game's beginning).
	KingMoves *rules.KingMoveCounter
	// KingPlies is the king-move draw count at Start
	// (rules.DrawCounter.Plies; 0 at a game's beginning, or for a
	// position evaluated on its own).
	KingPlies int
	// Continue allows a LineSearcher to keep its table from its previous
	// search: the positions of one game searched in order share much of
	// their trees. Without it every search starts from nothing.
	Continue bool
}

// DrawCount is the king-move draw count after Moves: KingPlies at Start,
// then the moves applied to a rules.DrawCounter (legal moves, as
// Position checks).
func (g *Game) DrawCount() int {
	d := rules.DrawCounter{Plies: g.KingPlies}
	pos := g.Start
	for i := range g.Moves {
		d.Update(&pos, &g.Moves[i])
		pos.Play(&g.Moves[i])
	}
	return d.Plies
}

// Position returns the position after Moves, the hashes of the game's
// positions up to it (History, Start, the position after each move: the
// last is the position's own, which is what search.Options.History's
// repetition check compares the searched lines against) and the king-move
// counter before it; nil history for a Game of a start position alone. A
// move that is not legal in its position is an error naming its ply.
func (g *Game) Position() (rules.Position, []uint64, rules.KingMoveCounter, error) {
	var kmc rules.KingMoveCounter
	if g.KingMoves != nil {
		kmc = *g.KingMoves
	}
	pos := g.Start
	hist := make([]uint64, 0, len(g.History)+len(g.Moves))
	hist = append(hist, g.History...)
	var buf []rules.Move
	for i := range g.Moves {
		m := &g.Moves[i]
		buf = pos.LegalMoves(buf[:0])
		ok := false
		for j := range buf {
			if buf[j].SameAs(m) {
				ok = true
				break
			}
		}
		if !ok {
			return rules.Position{}, nil, kmc, fmt.Errorf("%w: ply %d (%s) is not legal in %s", ErrGame, i+1, hub.FormatMove(m), pos.FEN())
		}
		hist = append(hist, pos.Hash())
		kmc.Update(&pos, m)
		pos.Play(m)
	}
	if len(hist) == 0 {
		// A position on its own: no history at all, so that its search is
		// the plain search of the position (deterministic results that
		// analyze --independent and draughtsdb hub share).
		return pos, nil, kmc, nil
	}
	hist = append(hist, pos.Hash())
	return pos, hist, kmc, nil
}

// Last is the game's last move (nil before the first).
func (g *Game) Last() *rules.Move {
	if len(g.Moves) == 0 {
		return nil
	}
	return &g.Moves[len(g.Moves)-1]
}

// Result is an engine's answer.
type Result struct {
	// Move is the move to play, legal in the searched position; the zero
	// Move when the game is over there.
	Move rules.Move
	// PV is the principal variation from Move (as far as it is legal; a
	// DXP engine gives none but Move).
	PV []rules.Move
	// Score is from the side to move's view in hundredths of a man; Mate
	// marks a forced win or loss. A DXP engine reports no score (HasScore
	// false).
	Score    int
	Mate     bool
	HasScore bool
	Depth    int
	Nodes    uint64
	Time     time.Duration
}

// Limit is a search limit: a fixed depth (deterministic for the built-in
// engine) or a move time.
type Limit struct {
	Depth    int
	MoveTime time.Duration
}

// Setting is the limit as stored in evaluations.setting: "depth=8" or
// "movetime=500" (milliseconds).
func (l Limit) Setting() string {
	if l.MoveTime > 0 {
		return fmt.Sprintf("movetime=%d", l.MoveTime.Milliseconds())
	}
	return fmt.Sprintf("depth=%d", l.Depth)
}

// Check reports whether l is usable: a move time > 0 (the depth is then
// not used), else a depth of 1..search.MaxDepth.
func (l Limit) Check() error {
	if l.MoveTime > 0 || l.Depth >= 1 && l.Depth <= search.MaxDepth {
		return nil
	}
	if l.MoveTime < 0 {
		return fmt.Errorf("%w: move time %v", ErrLimit, l.MoveTime)
	}
	return fmt.Errorf("%w: depth %d, want 1..%d", ErrLimit, l.Depth, search.MaxDepth)
}

// Errors.
var (
	// ErrLimit: a search limit that is neither a depth of 1..search.MaxDepth
	// nor a positive move time.
	ErrLimit = errors.New("engine: bad search limit")
	// ErrSpec: an engine specification that names no engine draughtsdb
	// can run, or one that does not fit its use.
	ErrSpec = errors.New("engine: unknown engine")
	// ErrGame: a Game whose moves are not legal.
	ErrGame = errors.New("engine: bad game")
	// ErrNoMove: an engine answered without a move in a game that goes on.
	ErrNoMove = errors.New("engine: the engine gave no move")
	// ErrResigned: the engine gave the game up (DXP GAMEEND "I lose").
	ErrResigned = errors.New("engine: the engine resigned")
	// ErrDrawClaim: the engine ended the game claiming a draw (DXP GAMEEND
	// "draw") in a position the rules may not call drawn.
	ErrDrawClaim = errors.New("engine: the engine claimed a draw")
)

// Kind is the kind of engine a Spec names.
type Kind int

// The kinds of engine.
const (
	Builtin Kind = iota + 1 // draughtsdb's own search in this process
	Hub                     // a Hub-protocol program
	DXP                     // a DXP engine listening on a TCP address
)

func (k Kind) String() string {
	switch k {
	case Builtin:
		return "builtin"
	case Hub:
		return "hub"
	case DXP:
		return "dxp"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Spec is a parsed engine specification.
type Spec struct {
	Kind Kind
	// Path is a Hub engine's program, Addr a DXP engine's HOST:PORT.
	Path, Addr string
	// Args are a Hub engine's program arguments.
	Args []string
	// Text is the specification as given.
	Text string
}

// String is the specification as given.
func (s Spec) String() string { return s.Text }

// Fallback is the name to show for an engine that reports none: the
// program's file name, or the DXP address.
func (s Spec) Fallback() string {
	switch s.Kind {
	case Hub:
		return s.Path[strings.LastIndexByte(s.Path, '/')+1:]
	case DXP:
		return "dxp:" + s.Addr
	}
	return search.Name
}

// ParseSpec reads an engine specification, with args its program's
// arguments:
//
//	builtin         draughtsdb's own search (package search); no args
//	hub:PATH        the Hub-protocol engine program PATH (Scan with args
//	                ["hub"], or draughtsdb itself with ["hub"])
//	dxp:HOST:PORT   a DXP engine listening there (Moby Dam, draughtsdb
//	                dxp); International only; no args
//
// kinds, if any, are the kinds the caller can use: another is an error
// that says which it takes. Every error wraps ErrSpec and quotes spec.
func ParseSpec(spec string, args []string, kinds ...Kind) (Spec, error) {
	s := Spec{Text: spec, Args: args}
	kind, arg, _ := strings.Cut(spec, ":")
	switch {
	case spec == "builtin":
		s.Kind = Builtin
	case kind == "hub" && arg != "":
		s.Kind, s.Path = Hub, arg
	case kind == "dxp" && arg != "":
		if _, _, err := net.SplitHostPort(arg); err != nil {
			return Spec{}, fmt.Errorf("%w %s: want dxp:HOST:PORT (%v)", ErrSpec, Quote(spec), err)
		}
		s.Kind, s.Addr = DXP, arg
	default:
		return Spec{}, fmt.Errorf("%w %s: want %s", ErrSpec, Quote(spec), want(kinds))
	}
	if len(kinds) > 0 {
		ok := false
		for _, k := range kinds {
			ok = ok || k == s.Kind
		}
		if !ok {
			return Spec{}, fmt.Errorf("%w %s: this command takes %s", ErrSpec, Quote(spec), want(kinds))
		}
	}
	if s.Kind != Hub && len(args) > 0 {
		return Spec{}, fmt.Errorf("%w: %s takes no program arguments (have %d: %s)", ErrSpec, s.Kind, len(args), Quote(strings.Join(args, " ")))
	}
	return s, nil
}

func want(kinds []Kind) string {
	if len(kinds) == 0 {
		kinds = []Kind{Builtin, Hub, DXP}
	}
	var w []string
	for _, k := range kinds {
		switch k {
		case Builtin:
			w = append(w, "builtin")
		case Hub:
			w = append(w, "hub:PATH")
		case DXP:
			w = append(w, "dxp:HOST:PORT")
		}
	}
	if len(w) == 1 {
		return w[0]
	}
	return strings.Join(w[:len(w)-1], ", ") + " or " + w[len(w)-1]
}

// Quote quotes s for a message, cut to 80 bytes on a rune boundary, with
// invalid UTF-8 and unprintable runes escaped.
func Quote(s string) string { return fmt.Sprintf("%q", pdn.Clip(s, 80)) }

// Options configure the engines Open starts.
type Options struct {
	// Variant is the variant of the games the engine will play (a DXP
	// engine plays International only); nil: International for DXP.
	Variant *rules.Variant
	// TTSizeMB is the built-in engine's transposition table
	// (search.DefaultTTSizeMB when <= 0).
	TTSizeMB int
	// Timeout bounds one search beyond its move time (at a fixed depth:
	// in all) for every kind: a Hub engine is then restarted and a DXP
	// wait fails; the built-in engine stops and gives its best move so
	// far. Default a minute.
	Timeout time.Duration
	// Retry: a Hub engine's search that times out or crashes is tried
	// once more (hub.AnalyzeRetry), as batch analysis wants.
	Retry bool
	// Stderr receives a Hub engine's standard error (nil: discarded).
	Stderr io.Writer
	// Notice receives remarks: a Hub engine's over-long lines, a DXP
	// engine's CHAT.
	Notice func(string)
	// DXPName is our name in a DXP GAMEREQ ("draughtsdb" if empty);
	// DXPMinutes and DXPMoves the time control sent (see package dxp).
	DXPName              string
	DXPMinutes, DXPMoves int
	// Endgame, if not nil, gives the built-in engine the endgame tables of
	// a variant (nil: none), asked before each search; EndgamePieces is
	// their piece count, which its EvalVersion names.
	Endgame       func(*rules.Variant) *endgame.Tables
	EndgamePieces int
}

func (o *Options) fill() {
	if o.TTSizeMB <= 0 {
		o.TTSizeMB = search.DefaultTTSizeMB
	}
	if o.Timeout <= 0 {
		o.Timeout = time.Minute
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
}

// DXPOpener starts a DXP engine; package dxp registers it (RegisterDXP),
// as it builds on this package.
type DXPOpener func(ctx context.Context, s Spec, o Options) (Engine, error)

var (
	dxpMu     sync.Mutex
	dxpOpener DXPOpener
)

// RegisterDXP makes open the opener of dxp: specifications. Package dxp
// calls it when it is initialised.
func RegisterDXP(open DXPOpener) {
	dxpMu.Lock()
	defer dxpMu.Unlock()
	dxpOpener = open
}

// Open starts the engine spec names (ParseSpec's forms, with args its
// program's arguments).
func Open(ctx context.Context, spec string, args []string, o Options) (Engine, error) {
	s, err := ParseSpec(spec, args)
	if err != nil {
		return nil, err
	}
	return OpenSpec(ctx, s, o)
}

// OpenSpec starts the engine of a parsed specification.
func OpenSpec(ctx context.Context, s Spec, o Options) (Engine, error) {
	o.fill()
	switch s.Kind {
	case Builtin:
		b := NewBuiltin(o.TTSizeMB)
		b.SetEndgame(o.Endgame, o.EndgamePieces)
		return b, nil
	case Hub:
		h, err := startHub(s, o)
		if err != nil {
			return nil, fmt.Errorf("engine %s: %w", Quote(s.Text), err)
		}
		return h, nil
	case DXP:
		if o.Variant != nil && o.Variant != rules.International {
			return nil, fmt.Errorf("%w: %s: DXP plays International draughts only, not %s", ErrSpec, Quote(s.Text), o.Variant.Name)
		}
		dxpMu.Lock()
		open := dxpOpener
		dxpMu.Unlock()
		if open == nil {
			return nil, fmt.Errorf("%w: %s: this program has no DXP client (import package analysis/dxp)", ErrSpec, Quote(s.Text))
		}
		e, err := open(ctx, s, o)
		if err != nil {
			return nil, fmt.Errorf("engine %s: %w", Quote(s.Text), err)
		}
		return e, nil
	}
	return nil, fmt.Errorf("%w %s", ErrSpec, Quote(s.Text))
}

// Over is the result in a position whose game is over by the variant's
// Win rule (rules.Position.Outcome), without asking an engine: -search.Win
// or search.Win for the side to move, no move. ok is false when the game
// goes on.
func Over(pos *rules.Position) (r Result, ok bool) {
	o := pos.Outcome()
	if o == rules.Undecided {
		return Result{}, false
	}
	winner := rules.White
	if o == rules.BlackWins {
		winner = rules.Black
	}
	r = Result{Score: -search.Win, Mate: true, HasScore: true}
	if winner == pos.SideToMove() {
		r.Score = search.Win
	}
	return r, true
}

// Booker gives a book move in a position (package book's Book).
type Booker interface {
	Move(pos *rules.Position) (rules.Move, bool)
}

// WithBook plays b's move while the game is inside it (a move the
// king-move limit allows), without asking e; outside it e searches. A book
// move's Result has no score, depth 0. A GamePlayer (a DXP engine, which
// keeps its own book) is refused.
func WithBook(e Engine, b Booker) (Engine, error) {
	if _, ok := e.(GamePlayer); ok {
		return nil, fmt.Errorf("%w: a DXP engine plays its own book", ErrSpec)
	}
	return &booked{Engine: e, b: b}, nil
}

type booked struct {
	Engine
	b Booker
}

func (x *booked) Search(ctx context.Context, g Game, l Limit) (Result, error) {
	pos, _, kmc, err := g.Position()
	if err != nil {
		return Result{}, err
	}
	if m, ok := x.b.Move(&pos); ok && kmc.Allowed(&pos, &m) {
		return Result{Move: m, PV: []rules.Move{m}}, nil
	}
	return x.Engine.Search(ctx, g, l)
}

// Restart restarts the engine under the book, if it can be.
func (x *booked) Restart(ctx context.Context) error {
	if r, ok := x.Engine.(Restarter); ok {
		return r.Restart(ctx)
	}
	return nil
}

// Unwrap is the engine under the book.
func (x *booked) Unwrap() Engine { return x.Engine }

// IsBuiltin reports whether e is the built-in engine (under a book, say).
func IsBuiltin(e Engine) bool {
	for {
		switch x := e.(type) {
		case *BuiltinEngine:
			return true
		case interface{ Unwrap() Engine }:
			e = x.Unwrap()
		default:
			return false
		}
	}
}
