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
