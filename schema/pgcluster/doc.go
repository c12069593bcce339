// Package pgcluster creates, starts, stops and inspects a private PostgreSQL
// cluster built from the server binaries installed on the machine.
//
// It is how draughtsdb works out of the box: when no database URL is
// configured, the command line keeps one cluster under its data directory
// and starts it on demand. The test helper (schema/pgtest) uses the same code
// to run one throw-away cluster per test binary.
//
// Layout of a data directory D:
//
//	D/pgdata/      the cluster (initdb), mode 0700, owned by the server user
//	D/run/         the Unix socket directory (.s.PGSQL.<port>)
//	D/password     the superuser's password for TCP, mode 0600, the server user's
//	D/pgpass       the same in libpq's password file format, mode 0600, the caller's
//	D/server.log   the server's log
//	D/start.lock   flocked by Init and Start: concurrent starts take turns
//
// Missing parents of D are created too; as root, with mode 0711, so that
// the server user can pass through them. D itself, when draughtsdb creates
// it, is mode 0700 and the server user's; a D that exists keeps its owner
// and mode (as root, Start refuses one the server user cannot enter).
//
// The server listens on the Unix socket only, unless ListenAddresses is set.
// The socket is trusted ("trust"): its directory is private (0700) to the
// server user, so only that user (and root) can reach it. TCP is not: initdb
// gives the superuser a random password (D/password) and pg_hba.conf asks
// for it (scram-sha-256) on every TCP line; ClientURL is the TCP URL when
// ListenAddresses is set (pg_hba.conf admits loopback addresses only),
// which names D/pgpass in its passfile parameter instead of holding the
// password.
//
// Init builds the cluster in a staging directory in D (initdb, the include
// of draughtsdb.conf in postgresql.conf, pg_hba.conf, the password) and
// renames its pgdata into place last, so an interrupted first start never
// leaves a pgdata that would run on PostgreSQL's stock settings. Start
// refuses, with ErrNotDraughtsdbConfig, a pgdata that does not load
// draughtsdb.conf or overrides what it manages, and a running server of D
// on other sockets; Repair fixes both. A Start that fails after starting
// the server stops it. A cluster made by an older version, which
// trusted TCP too, is fixed by Start: trusted TCP lines of pg_hba.conf are
// switched to scram-sha-256 (and the configuration reloaded if the server
// runs), and a superuser without a password file gets one; Config.Notice
// hears of both.
//
// PostgreSQL refuses to run as root. When the calling process is root, every
// server program (initdb, pg_ctl, postgres) is run as the "postgres" system
// user that Debian's postgresql package creates, and the data directory is
// handed to that user. Root then connects through the socket as usual.
//
// Server binaries are found, in this order, in the configured BinDir, next to
// initdb/pg_ctl on PATH, in `pg_config --bindir`, and in the newest
// /usr/lib/postgresql/*/bin. When none is found, FindBinDir returns
// ErrNoServer, whose message names the package to install and the
// alternatives.
//
// A postmaster.pid left behind by a crash (kill -9) is handled by the server
// itself on the next start (it checks whether that process still lives); Start
// retries for a few seconds while the dead server's backends drain away. A
// pid file whose pid now belongs to another process, even another cluster's
// server, is stale: a server counts as running only if it works in this data
// directory (on Linux, /proc/PID/cwd or its -D), so Status reports "not
// running", Stop does nothing and Start removes the file.
package pgcluster
