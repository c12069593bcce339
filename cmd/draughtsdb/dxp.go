package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/dxp"
	"github.com/draughtsdb/draughtsdb/analysis/engine"
	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/spf13/cobra"
)

func newDXPCommand(a *app) *cobra.Command {
	var (
		engineSpec string
		engineArgs []string
		depth      int
		moveTimeMS int
		ttSize     int
		name       string
		timeout    time.Duration
		noTakeBack bool
		initiate   bool
		color      string
		minutes    int
		moves      int
		games      int
		trace      bool
		bk         bookFlags
	)
	cmd := &cobra.Command{
		Use:   "dxp [--listen ADDR] [--engine builtin|hub:PATH] [--engine-arg ARG ...] [--depth N | --movetime MS] [--initiate ...]",
		Short: "Serve an engine over DXP (DamExchange), the protocol International draughts programs play matches by",
		Long: `Listen on ADDR (dxp.listen, default 127.0.0.1:27531, DXP's port) and play
International draughts over DXP with an engine: builtin (draughtsdb's own
search) or hub:PATH, a Hub-protocol engine program (--engine-arg gives its
arguments), as for analyze.

By default draughtsdb follows: the program that connects sends a GAMEREQ
(its name, our colour, the thinking time, the number of moves, the start
position); a request of another protocol version is refused with code 1, one
whose position cannot be played (no legal move, a man on its promotion row)
or that comes during a game with code 2. Every move received is checked
against the legal moves; an illegal or malformed one ends the game with a
CHAT saying why and a GAMEEND. Our engine sends GAMEEND when it has no legal
move (reason 1: it loses), on a threefold repetition or after 25 moves each
of kings only (reason 2: draw), and when the GAMEREQ's number of moves is
played (reason 0). A GAMEEND from the other side is acknowledged; BACKREQ to
an earlier point of the game is accepted (--no-takeback refuses them); CHAT
is printed. Several connections play at once, each with its own engine:
at most --max-connections (dxp.max_connections, 4); one more is told so in
a CHAT and closed. A connection takes its engine when its first game begins
(a Hub engine is a process each) and gives it back when it closes: one
engine is kept for the next connection, the others are stopped. A
connection silent outside a game for --idle-timeout (dxp.idle_timeout, 5m;
a new connection before its first message too) is closed. A GAMEREQ may
give at most --max-minutes (dxp.max_minutes, 60) of thinking time: a
request for more is played as that many minutes, said in a CHAT.

Search per move: --depth N or --movetime MS; with neither, each move gets
the time left in the GAMEREQ's thinking time over the moves still to play
plus two (at least 20 ms; 1 s per move when the GAMEREQ gives 0 minutes).

--initiate makes draughtsdb the side that sends GAMEREQ on every connection,
for programs that connect and then wait for a request (Moby Dam with
"-c HOST -p PORT"): --games games (colours alternating, our engine plays
--color in the first), --minutes and --moves in the request; after the last
game a GAMEEND with stop code 1 asks the other program to stop, and the
connection is closed.

One line per game goes to stderr: the opponent, our colour, the plies, the
result and how it ended. SIGINT or SIGTERM closes every connection (the
games in progress end unfinished) and stops.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			addr := strings.TrimSpace(a.cfg.DXP.Listen)
			if _, _, err := net.SplitHostPort(addr); err != nil {
				return fmt.Errorf("dxp.listen %s: want HOST:PORT (127.0.0.1:27531, :27531): %v", capQuote(addr), err)
			}
			depthSet, timeSet := cmd.Flags().Changed("depth"), cmd.Flags().Changed("movetime")
			if depthSet && timeSet {
				return errors.New("give --depth or --movetime, not both")
			}
			var lim engine.Limit // zero: from the GAMEREQ
			switch {
			case depthSet:
				lim = engine.Limit{Depth: depth}
			case timeSet:
				lim = engine.Limit{MoveTime: time.Duration(moveTimeMS) * time.Millisecond}
			}
			if depthSet || timeSet {
				if err := lim.Check(); err != nil {
					return engineFlagError(err)
				}
			}
			if timeout < 0 {
				return errors.New("--timeout must not be negative")
			}
			// The configuration checked dxp.idle_timeout (1s..24h) and the
			// integer settings' ranges.
			idle, err := time.ParseDuration(strings.TrimSpace(a.cfg.DXP.IdleTimeout))
			if err != nil {
				return fmt.Errorf("dxp.idle_timeout: %w", err)
			}
			o := dxp.ServerOptions{Name: name, Limit: lim, Timeout: timeout, NoTakeBack: noTakeBack,
				IdleTimeout: idle, MaxConnections: a.cfg.DXP.MaxConnections, MaxMinutes: a.cfg.DXP.MaxMinutes}
			if initiate {
				var our rules.Color
				switch strings.ToLower(color) {
				case "white", "w":
					our = rules.White
				case "black", "b", "z":
					our = rules.Black
				default:
					return fmt.Errorf("--color %s: want white or black", capQuote(color))
				}
				if minutes < 0 || minutes > 999 || moves < 0 || moves > 999 {
					return errors.New("--minutes and --moves must be 0..999 (DXP's three digits)")
				}
				if games < 1 {
					return errors.New("--games must be at least 1")
				}
				o.Initiate = &dxp.Game{Engine: our.Opponent(), Minutes: minutes, Moves: moves}
				o.Games = games
			} else {
				for _, f := range []string{"color", "minutes", "moves", "games"} {
					if cmd.Flags().Changed(f) {
						return fmt.Errorf("--%s goes with --initiate", f)
					}
				}
			}
			stderr := cmd.ErrOrStderr()
			o.Notice = func(s string) { fmt.Fprintln(stderr, "draughtsdb: dxp: "+s) }
			o.Log = func(r dxp.GameRecord) { fmt.Fprintln(stderr, "draughtsdb: dxp: "+r.String()) }
			if trace {
				o.Trace = func(peer string, sent bool, raw []byte) {
					dir := "<-"
					if sent {
						dir = "->"
					}
					fmt.Fprintf(stderr, "draughtsdb: dxp: %s %s %q\n", peer, dir, raw)
				}
			}

			spec, err := engine.ParseSpec(engineSpec, engineArgs, engine.Builtin, engine.Hub)
			if err != nil {
				return engineFlagError(err)
			}
			if err := bk.check(cmd.Flags().Changed); err != nil {
				return err
			}
			book, err := bk.build(cmd.Context(), a, rules.International)
			if err != nil {
				return err
			}
			if book != nil {
				o.Notice(fmt.Sprintf("opening book: %d positions (--book-min-games %d, --book-min-score %g)", book.Len(), bk.minGames, bk.minScore))
			}
			eo := engine.Options{Variant: rules.International, TTSizeMB: ttSize, Stderr: stderr, Notice: o.Notice}
			// The first engine is started here, to learn its name and to
			// fail before listening; the others when connections need them.
			open := func(ctx context.Context) (engine.Engine, error) {
				e, err := engine.OpenSpec(ctx, spec, eo)
				if err != nil || book == nil {
					return e, err
				}
				return engine.WithBook(e, book)
			}
			first, err := open(cmd.Context())
			if err != nil {
				return engineFlagError(err)
			}
			pool := engine.NewPool(first, func() (engine.Engine, error) { return open(context.Background()) }, 1)
			engName := pool.Name()
			if engName == "" {
				engName = spec.Fallback()
			}
			if o.Name == "" {
				o.Name = engName
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				pool.Close()
				return fmt.Errorf("dxp: %w", err)
			}
			setting := "time from each GAMEREQ"
			if lim != (engine.Limit{}) {
				setting = lim.Setting()
			}
			role := "following"
			if initiate {
				role = fmt.Sprintf("initiating %d game(s) per connection", games)
			}
			fmt.Fprintf(stderr, "draughtsdb: dxp on %s: %s, %s, %s, at most %d connection(s) (Ctrl-C stops it)\n", ln.Addr(), engName, setting, role, o.MaxConnections)
			if err := dxp.Serve(cmd.Context(), ln, pool, o); err != nil {
				return err
			}
			fmt.Fprintln(stderr, "draughtsdb: dxp stopped")
			return nil
		},
	}
	f := cmd.Flags()
	f.String("listen", "127.0.0.1:27531", settingHelp("dxp.listen"))
	bindFlag(f, "listen", "dxp.listen")
	f.StringVar(&engineSpec, "engine", "builtin", "engine: builtin, or hub:PATH for a Hub-protocol engine program")
	f.StringArrayVar(&engineArgs, "engine-arg", nil, "argument for the hub engine program (repeat for several)")
	f.IntVar(&depth, "depth", 0, "search every move to this depth in plies (deterministic); default: a move time from the GAMEREQ")
	f.IntVar(&moveTimeMS, "movetime", 0, "search every move this many milliseconds; default: a move time from the GAMEREQ")
	f.IntVar(&ttSize, "tt-size", search.DefaultTTSizeMB, "builtin engine: transposition table per connection in MB")
	f.StringVar(&name, "name", "", "our name in GAMEACC and GAMEREQ, at most 32 bytes (default: the engine's name and version)")
	f.DurationVar(&timeout, "timeout", 0, "how long the other program may stay silent when it owes a move or an answer before the connection is closed (default: the game's thinking time plus a minute)")
	f.BoolVar(&noTakeBack, "no-takeback", false, "answer every BACKREQ with code 1 (not supported)")
	f.BoolVar(&initiate, "initiate", false, "send the GAMEREQ ourselves on every connection (for programs that connect and wait, as Moby Dam -c)")
	f.StringVar(&color, "color", "white", "with --initiate: our engine's colour in the first game (white or black); colours alternate")
	f.IntVar(&minutes, "minutes", 5, "with --initiate: each side's thinking time for the whole game in minutes (0..999)")
	f.IntVar(&moves, "moves", 0, "with --initiate: moves to play in that time (0..999; 0 = no limit)")
	f.IntVar(&games, "games", 2, "with --initiate: games per connection")
	f.Int("max-connections", 4, settingHelp("dxp.max_connections"))
	f.Int("max-minutes", 60, settingHelp("dxp.max_minutes"))
	f.String("idle-timeout", "5m", settingHelp("dxp.idle_timeout"))
	bk.add(f, "our engine")
	bindFlag(f, "max-connections", "dxp.max_connections")
	bindFlag(f, "max-minutes", "dxp.max_minutes")
	bindFlag(f, "idle-timeout", "dxp.idle_timeout")
	f.BoolVar(&trace, "trace", false, "print every DXP message sent (->) and received (<-) to stderr")
	return cmd
}
