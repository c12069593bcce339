// Package ingest moves games from PDN sources into draughtsdb: it reads
// sources (package ingest/source) with the streaming PDN reader (package
// ingest/pdn), replays every game on a pool of workers (package replay) and
// hands the results, in file order, to a sink: the validate command counts
// them, the import command writes them to PostgreSQL.
//
// The pipeline has three stages:
//
//	reader (one goroutine, sources in order) -> chunks of text
//	workers (N goroutines)                    -> games read and replayed
//	collector (the caller's goroutine)        -> sink, in input order
//
// The reader only cuts a source's text where a game likely begins; the
// workers read the chunks with PDN readers of their own and keep a
// chunk's games only when the reader of the chunk before stopped at its
// start, which makes the games exactly those of one reader over the whole
// text (feed.go). So reading, replay and the importer's encoding all run
// on every worker.
//
// Results reach the sink in exactly the order of the input, whatever the
// number of workers, so output and database ordinals are deterministic and
// an interrupted run can resume at a known game.
//
// Failures stay with their source. A source that cannot be opened, whose
// text breaks off (the games before the break are kept; the game the break
// falls in is left out) or whose games the database refuses ends with a
// *SourceError naming it and the game, and the run goes on with the others.
// Every text stored goes through cleanText (sanitize.go) first, so input
// bytes can never make PostgreSQL refuse a batch.
//
// The import holds no SQL: it decides (duplicates, resume points, what
// fails) and encodes the rows, and stores them through the store layer
// (schema's batches.go and batches_sources.go), which holds the statements
// and the COPY column lists the encoders follow. Import itself only
// orchestrates: register the sources, start the writer, feed it batches,
// finish the summary.
package ingest
