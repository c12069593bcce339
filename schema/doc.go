// Package schema holds draughtsdb's database schema as numbered SQL
// migrations embedded in the binary, and the runner that applies them.
//
// Migrations live in migrations/NNNN_name.sql. Each file is applied once, in
// one transaction, in numeric order, and recorded in the table
// draughtsdb_migrations (version, name, applied_at, checksum). Migrate takes
// a PostgreSQL advisory lock first, so any number of processes may call it
// at once: the first applies what is missing, the others wait and then find
// nothing to do.
//
// Applied migrations are never edited; a change is a new file. The runner
// enforces it: the checksum is the SHA-256 of the file's SQL, and before
// applying anything Migrate compares each applied migration with its file
// and stops with a *ChangedMigrationError (errors.Is ErrMigrationChanged)
// naming the first that differs. Rows recorded by a version before
// checksums get the file's checksum on their first run.
//
// # The store layer
//
// The SQL that draughtsdb itself runs lives here, in embedded .sql files of
// named statements ("-- name: NAME" starts each), with a typed method per
// use beside them: sources.go and sources.sql (list, find, rename, remove,
// selections), append.go (the appended sources that ingest.Append grows),
// matches.go (an engine match's lock, results and removal), patterns.go
// (the pattern index's rebuild, COPY and scan), repair.go (the repairs a
// migration marks), locks.go (advisory locks) and migrate.go (the runner's
// bookkeeping). players.go reads what package queries/players joins into
// players and their records (spellings, the user's links, pairings, a
// player's games, latest ratings, the explorer's name completion) and
// writes the links. explorer.go holds the explorer's reads: the filtered
// selections of games (an ExplorerFilter of bound values, the SQL fixed),
// a game for the viewer with its move classes, positions' names and mean
// evaluations, and a player's variants, tree games and page of games.
// SQL in .sql files reads and runs as SQL (psql, review), and a statement
// lives in one place however many callers it has. A name a Go variable
// asks for that its file lacks panics at package initialisation; a test
// fails on a statement nobody asks for, and another on any SQL string
// literal or .sql file outside schema but the named queries of queries/sql.
//
// The import's game batches are batches.go and batches.sql (players,
// duplicate candidates, game ids, the COPY of games and their position
// index with the column lists ingest encodes to, rejected games,
// duplicates, evaluation comments and the source's running totals, in the
// batch's transaction), and its sources batches_sources.go and
// batches_sources.sql (registered by the hash of their text, resumed,
// replaced on --force, taken over after a break, ended).
// leases.go is analyze's evaluation queue: the game selection (the user's
// --where set into its statement), the queue's claims, leases and status,
// the evaluations stored and the moves annotated. openings.go holds the
// opening statistics' reads (trees, names, mean evaluations, coverage,
// the filtered trees' games, the first moves), their recount and COPY, and
// the INSERT the named openings' migrations end with.
//
// Writers go through WithTx and WithLock, so the transaction and lock
// idioms are written once: WithTx commits when fn succeeds and otherwise
// rolls back on a context that outlives ctx's cancellation (a rollback on
// the cancelled context would fail and leave pgx to drop the connection,
// or the transaction open); WithLock holds a session advisory lock around
// fn and gives it back the same way. LockTx takes a lock that ends with
// its transaction, TryLock one that does not wait.
//
// exports.go and exports.sql are export's streamed reads: games through
// an ExportFilter, which writes its WHERE clause in place of the
// statement's "/* filter */" mark, so that the caller passes values, never
// SQL; the evaluations chosen for positions; rejected games; distinct
// positions aggregated from a temporary table. snapshot.go's
// WithReadSnapshot shares one REPEATABLE READ snapshot between two
// transactions, for a reader that looks things up while it streams.
//
// The store sits below ingest and the queries and above schema/codec and
// replay: it returns stored values typed (replay.Result, codec's formats)
// but never replays games or parses PDN; ingest does, and calls it.
//
// # User SQL
//
// SQL text written by a person (analyze --where, the named queries, the
// explorer) runs only through ReadOnly: a READ ONLY transaction with a
// statement timeout, work_mem and temp_file_limit (SetUserSQLLimits), as
// the role draughtsdb_reader (migration 0007), rolled back at the end. The role may SELECT the data tables and nothing else: no
// large objects, server files, signals or settings. A new table that user
// SQL should see needs GRANT SELECT ... TO draughtsdb_reader in its
// migration.
//
// # Errors
//
// DescribeError names the two database failures a person acts on alone, a
// full disk (ErrDiskFull) and a server that went away (ErrServerStopped);
// commands report their errors through it.
//
// Distribution (Citus): see migrations/0001_core.sql for the table-by-table
// plan of distribution columns.
package schema
