// Package queries holds draughtsdb's named SQL queries and runs them.
//
// Each query is one file in sql/, readable and runnable in psql as it is:
//
//	psql "$(draughtsdb db url)" -v player='Tinsley, M.' -f queries/sql/player.sql
//
// A file starts with a header of comments:
//
//	-- name: player
//	-- A player's record: ...
//	-- param: player: the player's name
//	-- param: limit (default 50): how many rows
//
// Parameters are psql variables written :'name' (a quoted literal; the SQL
// casts it where it needs a number). In psql set every one with -v; the
// draughtsdb command fills defaults and binds them as query parameters
// ($1, $2, ...), never by pasting text into the SQL.
package queries
