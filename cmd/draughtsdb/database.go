package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/pgcluster"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// embeddedCluster returns the local cluster described by cfg.
func embeddedCluster(cfg *Config) (*pgcluster.Cluster, error) {
	dir := cfg.Embedded.DataDir
	if dir == "" {
		dir = defaultDataDir()
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return pgcluster.New(pgcluster.Config{
		DataDir:         dir,
		BinDir:          cfg.Embedded.BinDir,
		Port:            cfg.Embedded.Port,
		ListenAddresses: cfg.Embedded.ListenAddresses,
		RepairCommand:   "draughtsdb db repair --data-dir " + shellQuote(dir),
		Notice:          func(msg string) { fmt.Fprintln(os.Stderr, "draughtsdb: "+msg) },
	})
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// databaseURL returns the configured URL, or starts the embedded cluster
// (creating it on first use) and returns its URL: over TCP with the
// password when it listens on TCP (what `db url` prints works for anyone
// given it), else over its socket.
func databaseURL(ctx context.Context, cfg *Config) (string, error) {
	if cfg.Database.URL != "" {
		return cfg.Database.URL, nil
	}
	c, err := embeddedCluster(cfg)
	if err != nil {
		return "", err
	}
	if _, err := c.Start(ctx); err != nil {
		return "", fmt.Errorf("start embedded PostgreSQL in %s: %w", c.DataDir(), err)
	}
	schema.SetServerLog(c.LogFile()) // for schema.DescribeError
	return c.ClientURL()
}

// openDatabase connects (starting the embedded cluster if needed) and
// applies any pending migrations.
func openDatabase(ctx context.Context, cfg *Config) (*pgxpool.Pool, error) {
	// Checked with the configuration already; what user SQL runs with.
	if err := schema.SetUserSQLLimits(schema.UserSQLLimits{WorkMem: strings.TrimSpace(cfg.UserSQL.WorkMem),
		TempFileLimit: strings.TrimSpace(cfg.UserSQL.TempFileLimit)}); err != nil {
		return nil, fmt.Errorf("user_sql settings: %w", err)
	}
	url, err := databaseURL(ctx, cfg)
	if err != nil {
		return nil, err
	}
	pool, err := connect(ctx, url)
	if err != nil {
		return nil, err
	}
	if _, err := schema.Migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	if err := repairSources(ctx, pool, os.Stderr); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// repairSources finishes what migrations marked for repair (see
// ingest.RepairSources), saying so when there was anything to do.
func repairSources(ctx context.Context, pool *pgxpool.Pool, w io.Writer) error {
	sum, err := ingest.RepairSources(ctx, pool, nil)
	if err != nil {
		return err
	}
	if sum.Sources > 0 {
		fmt.Fprintf(w, "draughtsdb: repaired %d source(s) marked by a migration (%d games re-checked, %d result warnings added, %d games named from P1/P2; opening statistics recounted)\n",
			sum.Sources, sum.Games, sum.Warned, sum.Named)
	}
	return nil
}

// connect opens a pool and checks the server answers, turning a failure
// into one line that names the server and the cause.
func connect(ctx context.Context, url string) (*pgxpool.Pool, error) {
	pc, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("database URL: %s", strings.TrimPrefix(err.Error(), "cannot parse `"+url+"`: "))
	}
	if pc.ConnConfig.ConnectTimeout == 0 {
		pc.ConnConfig.ConnectTimeout = 10 * time.Second
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, connectError(pc, err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, connectError(pc, err)
	}
	return pool, nil
}

func connectError(pc *pgxpool.Config, err error) error {
	cc := pc.ConnConfig
	where := cc.Host
	if !strings.HasPrefix(where, "/") {
		where = net.JoinHostPort(cc.Host, fmt.Sprint(cc.Port))
	} else {
		where = "socket " + where
	}
	return fmt.Errorf("cannot connect to PostgreSQL at %s (database %q, user %q): %s", where, cc.Database, cc.User, rootCause(err))
}

// rootCause digs the reason a person needs out of pgx's layered error.
func rootCause(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Message
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return "unknown host " + dnsErr.Name
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Err != nil {
		msg := opErr.Err.Error()
		if i := strings.LastIndex(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
		return msg
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "timed out"
	}
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return msg
}
