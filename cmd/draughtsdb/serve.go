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
and a statement timeout. One line per request goes to stderr: method, path,
status and duration. SIGINT or SIGTERM stops taking requests and waits for
those under way.

The default address is on loopback: the explorer has no authentication, so
listen elsewhere (--listen :8080) only where everyone who can reach it may
read the database.`,
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
			srv, err := explorer.New(pool, explorer.Options{DefaultVariant: a.cfg.Variant, Log: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return fmt.Errorf("serve: %w", err)
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
	return cmd
}
