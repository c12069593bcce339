package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/spf13/cobra"
)

func newDBCommand(a *app) *cobra.Command {
	db := &cobra.Command{
		Use:   "db",
		Short: "Manage the database: the embedded local cluster and the schema",
		Long: `Manage the database.

Without a database URL, draughtsdb keeps its own PostgreSQL cluster in the data
directory (--data-dir, embedded.data_dir) and starts it whenever a command
needs it; these commands start, stop and inspect it by hand. With a database
URL (--database-url, DRAUGHTSDB_DATABASE_URL) they work on that server, and
start/stop only report that the server is not draughtsdb's to manage.`,
		// Without these, "db stpo" printed the help and exited 0.
		Args: subcommandArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	db.AddCommand(
		&cobra.Command{
			Use:   "start",
			Short: "Start the embedded cluster (create it on first use) and apply migrations; a no-op if running",
			Args:  cobra.NoArgs,
			RunE:  func(cmd *cobra.Command, _ []string) error { return a.dbStart(cmd.Context(), cmd.OutOrStdout()) },
		},
		&cobra.Command{
			Use:   "stop",
			Short: "Stop the embedded cluster cleanly; a no-op if it is not running",
			Args:  cobra.NoArgs,
			RunE:  func(cmd *cobra.Command, _ []string) error { return a.dbStop(cmd.Context(), cmd.OutOrStdout()) },
		},
		&cobra.Command{
			Use:   "status",
			Short: "Say whether the database runs, where, which server version, and which migrations are applied",
			Long: `Say whether the database runs, where, which server version, and which
migrations are applied. A database migrated by a newer draughtsdb, which
every other command refuses, is reported all the same (its newer migrations
listed last), and then status fails (exit status 1) with the same message.`,
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error { return a.dbStatus(cmd.Context(), cmd.OutOrStdout()) },
		},
		&cobra.Command{
			Use:   "url",
			Short: "Print the database URL (for psql or other tools); starts the embedded cluster if needed",
			Long: `Print the database URL (for psql or other tools); starts the embedded
cluster if needed: psql "$(draughtsdb db url)".

The embedded cluster's URL is over its Unix socket, or, when it listens on
TCP (embedded.listen_addresses), over TCP without the password: the URL's
passfile= parameter names the password file DATA/pgpass (mode 0600), which
psql and draughtsdb read, so the password never shows in ps. Tools that
drop URL parameters take the file as PGPASSFILE=DATA/pgpass. A configured
database URL is printed as it is.`,
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				u, err := databaseURL(cmd.Context(), a.cfg)
				if err != nil {
					return err
				}
				fmt.Fprintln(cmd.OutOrStdout(), u)
				return nil
			},
		},
		&cobra.Command{
			Use:   "repair",
			Short: "Give the embedded cluster draughtsdb's settings again (after an interrupted first start), then start it",
			Long: `Give the embedded cluster draughtsdb's settings again, then start it and
apply migrations.

Every command refuses a data directory whose cluster would run on settings
that are not draughtsdb's: its postgresql.conf does not load draughtsdb.conf
(an older draughtsdb interrupted while it created the cluster, or an edit),
postgresql.conf or postgresql.auto.conf overrides the socket, port or
listen addresses draughtsdb manages, or a server of it runs on other
settings (PostgreSQL's stock ones: a socket in /var/run/postgresql and TCP
on localhost, which other users of the machine can reach). Repair stops
such a server, makes the configuration load draughtsdb.conf (commenting out
the overrides), and starts the cluster, keeping its data. A cluster that
cannot start that way and never had draughtsdb's settings (an interrupted
initdb) is moved aside (pgdata.broken-TIME, never deleted) and a new one
is made. Repairing a cluster that needs nothing starts it, like db start.`,
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error { return a.dbRepair(cmd.Context(), cmd.OutOrStdout()) },
		},
		&cobra.Command{
			Use:   "migrate",
			Short: "Apply pending schema migrations (commands that use the database do this on their own)",
			Args:  cobra.NoArgs,
			RunE:  func(cmd *cobra.Command, _ []string) error { return a.dbMigrate(cmd.Context(), cmd.OutOrStdout()) },
		},
		newRebuildOpeningsCommand(a),
	)
	return db
}

// subcommandArgs is the Args of a command that only groups subcommands:
// an argument that names none is an unknown command, as for draughtsdb
// itself (cobra checks that only for the root).
func subcommandArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2 // cobra's default for the root
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
	}
	return errors.New(msg)
}

func (a *app) dbStart(ctx context.Context, w io.Writer) error {
	if a.cfg.Database.URL != "" {
		fmt.Fprintf(w, "using the configured server %s; nothing to start\n", redact(a.cfg.Database.URL))
		return a.dbMigrate(ctx, w)
	}
	c, err := embeddedCluster(a.cfg)
	if err != nil {
		return err
	}
	started, err := c.Start(ctx)
	if err != nil {
		return fmt.Errorf("start embedded PostgreSQL in %s: %w", c.DataDir(), err)
	}
	if started {
		fmt.Fprintf(w, "started the embedded PostgreSQL in %s\n", c.DataDir())
	} else {
		fmt.Fprintf(w, "the embedded PostgreSQL in %s is already running\n", c.DataDir())
	}
	return a.dbMigrate(ctx, w)
}

func (a *app) dbRepair(ctx context.Context, w io.Writer) error {
	if a.cfg.Database.URL != "" {
		return fmt.Errorf("db repair: the configured server %s is not draughtsdb's to repair (it repairs the embedded cluster, used without a database URL)", redact(a.cfg.Database.URL))
	}
	c, err := embeddedCluster(a.cfg)
	if err != nil {
		return err
	}
	done, err := c.Repair(ctx)
	for _, d := range done {
		fmt.Fprintln(w, d)
	}
	if err != nil {
		return fmt.Errorf("repair embedded PostgreSQL in %s: %w", c.DataDir(), err)
	}
	if len(done) == 0 {
		fmt.Fprintf(w, "the embedded PostgreSQL in %s needed no repair; it runs\n", c.DataDir())
	}
	return a.dbMigrate(ctx, w)
}

func (a *app) dbStop(ctx context.Context, w io.Writer) error {
	if a.cfg.Database.URL != "" {
		fmt.Fprintf(w, "using the configured server %s; draughtsdb does not stop servers it did not start\n", redact(a.cfg.Database.URL))
		return nil
	}
	c, err := embeddedCluster(a.cfg)
	if err != nil {
		return err
	}
	stopped, err := c.Stop(ctx)
	if err != nil {
		return err
	}
	if stopped {
		fmt.Fprintf(w, "stopped the embedded PostgreSQL in %s\n", c.DataDir())
	} else {
		fmt.Fprintf(w, "the embedded PostgreSQL in %s is not running\n", c.DataDir())
	}
	return nil
}

func (a *app) dbStatus(ctx context.Context, w io.Writer) error {
	var dbURL string
	if a.cfg.Database.URL != "" {
		dbURL = a.cfg.Database.URL
		fmt.Fprintf(w, "database:   %s (configured URL)\n", redact(dbURL))
	} else {
		c, err := embeddedCluster(a.cfg)
		if err != nil {
			return err
		}
		st, err := c.Status(ctx)
		if err != nil {
			return err
		}
		state := "not running"
		switch {
		case !st.Initialized:
			state = "not created yet (the first command that needs it creates it)"
		case st.Running:
			state = fmt.Sprintf("running (pid %d)", st.PID)
		}
		fmt.Fprintf(w, "database:   embedded PostgreSQL, %s\n", state)
		fmt.Fprintf(w, "data dir:   %s\n", st.DataDir)
		fmt.Fprintf(w, "socket dir: %s\n", st.SocketDir)
		fmt.Fprintf(w, "binaries:   %s (%s)\n", st.BinDir, st.Version)
		fmt.Fprintf(w, "url:        %s\n", st.URL)
		if !st.Running {
			return nil
		}
		dbURL = st.URL
	}
	pool, err := connect(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	var server string
	if err := pool.QueryRow(ctx, "SHOW server_version").Scan(&server); err != nil {
		return err
	}
	fmt.Fprintf(w, "server:     PostgreSQL %s\n", server)
	return printMigrations(ctx, w, pool)
}

func (a *app) dbMigrate(ctx context.Context, w io.Writer) error {
	u, err := databaseURL(ctx, a.cfg)
	if err != nil {
		return err
	}
	pool, err := connect(ctx, u)
	if err != nil {
		return err
	}
	defer pool.Close()
	applied, err := schema.Migrate(ctx, pool)
	if err != nil {
		return err
	}
	for _, m := range applied {
		fmt.Fprintf(w, "applied migration %04d_%s\n", m.Version, m.Name)
	}
	if err := repairSources(ctx, pool, w); err != nil {
		return err
	}
	return printMigrations(ctx, w, pool)
}

// printMigrations lists the migrations and which are applied. A database
// migrated by a newer draughtsdb gets its report too, the migrations this
// draughtsdb does not know listed after its own, and then the
// *schema.SchemaNewerError every other command fails with.
func printMigrations(ctx context.Context, w io.Writer, pool *pgxpool.Pool) error {
	all, err := schema.Migrations()
	if err != nil {
		return err
	}
	applied, err := schema.AppliedMigrations(ctx, pool)
	if err != nil {
		return err
	}
	at := make(map[int]schema.Applied, len(applied))
	for _, ap := range applied {
		at[ap.Version] = ap
	}
	known := 0
	for _, m := range all {
		if _, ok := at[m.Version]; ok {
			known++
		}
	}
	newer := len(applied) - known
	fmt.Fprintf(w, "migrations: %d applied, %d pending", known, len(all)-known)
	if newer > 0 {
		fmt.Fprintf(w, ", %d more applied by a newer draughtsdb", newer)
	}
	fmt.Fprintln(w)
	for _, m := range all {
		state := "pending"
		if ap, ok := at[m.Version]; ok {
			state = "applied " + ap.AppliedAt.Format("2006-01-02 15:04:05")
		}
		fmt.Fprintf(w, "  %04d_%-24s %s\n", m.Version, m.Name, state)
	}
	for _, ap := range applied {
		if len(all) == 0 || ap.Version > all[len(all)-1].Version {
			fmt.Fprintf(w, "  %04d_%-24s applied %s by a newer draughtsdb\n", ap.Version, ap.Name, ap.AppliedAt.Format("2006-01-02 15:04:05"))
		}
	}
	return schema.CheckNotNewer(applied, all)
}

// redacted is what redact prints in place of a password.
const redacted = "xxxxx"

// redact hides the password of a database URL for printing (db start,
// stop and status, config). It takes both forms pgx and libpq accept: a
// URL (postgres://user:password@host/db?password=...), where it hides the
// password of the user info and of every password parameter (any case),
// and keyword/value (host=h password=secret or password='a secret'),
// printed as written with the password's value hidden. Anything else is
// not echoed at all: it may be a password typed in the wrong place.
func redact(s string) string {
	if scheme, _, ok := strings.Cut(s, "://"); ok && scheme != "" && !strings.ContainsAny(scheme, " \t\n=") {
		return redactURL(s)
	}
	if out, ok := redactKeywordValue(s); ok {
		return out
	}
	return "(unparsable database URL)"
}

func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable database URL)"
	}
	if u.RawQuery != "" {
		params := strings.Split(u.RawQuery, "&")
		for i, p := range params {
			k, _, _ := strings.Cut(p, "=")
			if key, err := url.QueryUnescape(k); err != nil || strings.EqualFold(key, "password") {
				params[i] = k + "=" + redacted
			}
		}
		u.RawQuery = strings.Join(params, "&")
	}
	u.Fragment, u.RawFragment = "", "" // unused; a '#' in a password starts one
	return u.Redacted()
}

// redactKeywordValue hides the value of the password keyword of a
// keyword/value connection string, parsed as libpq does (keyword = value,
// a value in single quotes or with backslash escapes); false when s is
// not one.
func redactKeywordValue(s string) (string, bool) {
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' }
	var b strings.Builder
	i, pairs := 0, 0
	for {
		start := i
		for i < len(s) && space(s[i]) {
			i++
		}
		b.WriteString(s[start:i])
		if i == len(s) {
			break
		}
		k := i
		for i < len(s) && !space(s[i]) && s[i] != '=' {
			i++
		}
		key := s[k:i]
		for i < len(s) && space(s[i]) {
			i++
		}
		if key == "" || i == len(s) || s[i] != '=' {
			return "", false
		}
		i++
		for i < len(s) && space(s[i]) {
			i++
		}
		b.WriteString(s[k:i])
		v := i
		if i < len(s) && s[i] == '\'' {
			for i++; ; i++ {
				if i >= len(s) {
					return "", false // unterminated quote
				}
				if s[i] == '\\' {
					i++
				} else if s[i] == '\'' {
					i++
					break
				}
			}
		} else {
			for ; i < len(s) && !space(s[i]); i++ {
				if s[i] == '\\' {
					i++
				}
			}
			i = min(i, len(s))
		}
		if strings.EqualFold(key, "password") {
			b.WriteString(redacted)
		} else {
			b.WriteString(s[v:i])
		}
		pairs++
	}
	return b.String(), pairs > 0
}
