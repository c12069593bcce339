// Package ingest moves games from PDN sources into draughtsdb: it reads
// sources (package ingest/source) with the streaming PDN reader (package
// ingest/pdn), replays every game on a pool of workers (package replay) and
// hands the results, in file order, to a sink: the validate command counts
// them, the import command writes them to PostgreSQL.
//
// The pipeline has three stages:
//
//	reader (one goroutine, sources in order) -> batches of raw games
//	workers (N goroutines)                    -> replayed batches
//	collector (the caller's goroutine)        -> sink, in input order
//
// Results reach the sink in exactly the order of the input, whatever the
// number of workers, so output and database ordinals are deterministic and
// an interrupted run can resume at a known game.
package ingest
