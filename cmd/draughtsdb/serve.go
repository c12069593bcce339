package main

import (
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/draughtsdb/draughtsdb/queries/explorer"
	"github.com/spf13/cobra"
)

// serveGrace is how long a stop (SIGINT, SIGTERM) waits for the requests
// under way.
const serveGrace = 10 * time.Second

func newServeCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve [--listen ADDR]",
		Short: "Serve the explorer: a web page and a JSON API for openings, positions, games and players",
		Long: `Serve the explorer on ADDR (serve.listen, default 127.0.0.1:8080): a web page
(open http://ADDR/) with a board to play moves on, the opening tree at the
position (filtered by player, colour, event and dates if asked), the games
that reached it and a game viewer with evaluations; and the JSON API behind
it under /api/ (see the README's Explorer section).

Every request runs read only, as the role draughtsdb_reader, with a request
and a statement timeout. Expensive requests (filtered trees and games lists,
pages after the first) are bounded at once overall (serve.max_expensive,
--max-expensive) and per client IP (serve.max_expensive_per_client,
--max-expensive-per-client); cheap ones have a bound of their own and never
wait behind them. A request over a bound waits up to 2 s, then gets 503 or
429 with Retry-After. One line per request goes to stderr: method, path,
status and duration, and the cause of every 500 or 503 (the answer itself
names no socket, role or database). SIGINT or SIGTERM stops taking requests
and waits for those under way.

The default address is on loopback: the explorer has no authentication, so
listen elsewhere (--listen :8080) only where everyone who can reach it may
read the database. On loopback it answers only the Host names localhost,
127.0.0.1 and [::1] with its port (a DNS rebinding sends another), and no
answer may be framed by another page.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			addr := strings.TrimSpace(a.cfg.Serve.Listen)
			if _, _, err := net.SplitHostPort(addr); err != nil {
				return fmt.Errorf("serve.listen %s: want HOST:PORT (127.0.0.1:8080, :8080): %v", capQuote(addr), err)
			}
			pool, err := openDatabase(cmd.Context(), a.cfg)
			if err != nil {
				return err
			}
			defer pool.Close()
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return fmt.Errorf("serve: %w", err)
			}
			defer ln.Close()
			srv, err := explorer.New(pool, explorer.Options{DefaultVariant: a.cfg.Variant, Log: cmd.ErrOrStderr(),
				MaxExpensive: a.cfg.Serve.MaxExpensive, MaxExpensivePerClient: a.cfg.Serve.MaxExpensivePerClient,
				AllowedHosts: explorer.LoopbackHosts(ln.Addr())})
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "draughtsdb: explorer on http://%s/ (Ctrl-C stops it)\n", ln.Addr())
			if err := explorer.Serve(cmd.Context(), ln, srv.Handler(), serveGrace); err != nil {
				return fmt.Errorf("serve: %w", err)
			}
			fmt.Fprintln(cmd.ErrOrStderr(), "draughtsdb: explorer stopped")
			return nil
		},
	}
	f := cmd.Flags()
	f.String("listen", "127.0.0.1:8080", settingHelp("serve.listen"))
	bindFlag(f, "listen", "serve.listen")
	f.Int("max-expensive", 2, settingHelp("serve.max_expensive"))
	bindFlag(f, "max-expensive", "serve.max_expensive")
	f.Int("max-expensive-per-client", 1, settingHelp("serve.max_expensive_per_client"))
	bindFlag(f, "max-expensive-per-client", "serve.max_expensive_per_client")
	return cmd
}
