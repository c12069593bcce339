// Package schema holds draughtsdb's database schema as numbered SQL
// migrations embedded in the binary, and the runner that applies them.
//
// Migrations live in migrations/NNNN_name.sql. Each file is applied once, in
// one transaction, in numeric order, and recorded in the table
// draughtsdb_migrations (version, name, applied_at). Migrate takes a
// PostgreSQL advisory lock first, so any number of processes may call it at
// once: the first applies what is missing, the others wait and then find
// nothing to do. Applied migrations are never edited; a change is a new file.
//
// Distribution (Citus): see migrations/0001_core.sql for the table-by-table
// plan of distribution columns.
package schema
