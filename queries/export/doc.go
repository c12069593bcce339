// Package export streams the database out for research: games,
// positions, evaluations and rejected games as CSV, JSON lines, Parquet or
// PDN (`draughtsdb export`).
//
// # Use
//
//	out, err := export.Create("positions.parquet", os.Stdout) // .gz: gzip; "-": stdout
//	sum, err := export.Run(ctx, pool, out, export.Options{
//		What: export.Positions, Format: export.Parquet,
//		Filter: export.Filter{Variant: rules.International, From: "1990", MinPly: 20},
//	})
//	err = out.Close() // or out.Abort() after a failure: the file at the path stays as it was
//
// # What is exported
//
// One row source per Options.What (ColumnSets lists every column):
//
//   - games (games.go): one row per stored game, in id order: the tags,
//     result, ply count and the moves in the variant's notation with full
//     capture paths, rendered straight from the compact games.moves bytes.
//   - positions (positions.go): one row per (game, ply), the start being
//     ply 0, from decoding each game (schema/codec.Decode, which replays
//     it with the rules engine: FEN, Zobrist hash, side to move). result is
//     the game's result from the side to move's view: 1 win, 0.5 draw, 0
//     loss (a double forfeit 0-0 is a loss for both), null when unknown.
//     The eval_* columns carry one evaluation per position, chosen
//     deterministically: the deepest, then the latest (evaluated_at), then
//     the least engine and setting name, among those passing
//     Options.Engine / Options.Setting; null when there is none.
//   - positions with Distinct (distinct.go): one row per distinct
//     (variant, position), most played first, with the number of games
//     reaching it (a game counts once even when it repeats the position)
//     and their results from the side to move's view.
//   - evaluations (evaluations.go): table evaluations.
//   - rejected (rejected.go): table rejected_games; PDN writes each game's
//     bytes exactly as read.
//   - openings (openings.go): the opening statistics (analysis/openings),
//     one row per (position, move), walking the tree breadth first from
//     each variant's initial position through moves played at least
//     Options.MinGames times, to Options.MaxPly plies; each position once.
//
// Filter selects games (games, positions): Variant; Events and Players as
// case-insensitive LIKE patterns (any of several); From/To, inclusive, at
// the precision given (YYYY, YYYY.MM, YYYY.MM.DD; unknown years excluded,
// unknown months and days sorting after known ones); MinPly; MinRating
// (both players rated at least this); Sources (a
// source selection, archive by default: imported files, not engine
// matches); Positions (games that reach one of these positions, by any
// move order). Evaluations take Variant, Engine and Setting; openings
// Variant and Sources; rejected games take no filter.
//
// # Formats
//
// Every column has a Kind: String, Int (int64), Float (double), Bool,
// Time (microseconds, UTC).
//
//   - csv (csv.go): RFC 4180 with a header line; null is an empty field.
//   - jsonl (jsonl.go): one object per line, keys in column order, null
//     for null, JSON numbers and booleans, times as RFC 3339 strings.
//   - parquet (parquet.go): github.com/parquet-go/parquet-go; one column
//     per Column, optional when nullable, INT64 / DOUBLE / BOOLEAN /
//     BYTE_ARRAY (STRING) / INT64 TIMESTAMP(MICROS, UTC); columns with few
//     distinct values (variant, side to move, engine, event, players, ...)
//     dictionary-encoded; zstd; row groups of DefaultRowGroupRows rows
//     (Options.RowGroupRows). The tests read the files back with Apache
//     Arrow's reader.
//   - pdn (pdn.go; games and rejected only): normalised PDN with every
//     evaluation of every position of the game as a comment
//     {[%eval 0.25][%depth 12][%engine ...][%setting ...]...}, in the
//     format of ingest/pdn/evalcomment.go, which the importer reads back: an
//     exported file imports as the same games (same moves_hash) and the
//     same evaluations. The variant is a GameType tag, or for Killer, which
//     has no PDN number, a Variant tag (a test exports and re-imports games
//     of every variant rules plays).
//
// A file name ending in .gz is gzip-compressed (output.go).
//
// # Streaming and consistency
//
// Run opens a REPEATABLE READ READ ONLY transaction and exports its
// snapshot; evaluation look-ups and the temporary table of distinct
// positions run on a second connection in the same snapshot
// (schema.WithReadSnapshot, session.go), so an export is one consistent
// state of the database. The SQL is the store's (schema/exports.sql): the
// package passes the filter's values (schema.ExportFilter) and reads typed
// rows, one at a time, through callbacks. Rows are streamed
// with pgx (never accumulated): games are fetched in id order, in batches
// of 256, which worker goroutines decode and replay in parallel while the
// writer writes the previous ones in order (gamestream.go); the
// evaluations of a batch's positions are fetched with one query (one
// primary-key probe per position). Memory is bounded by a few batches and,
// for Parquet, one row group (compressed) in the writer, whatever the
// number of rows. Distinct positions are aggregated by PostgreSQL from a
// temporary table, which costs disk, not memory.
package export
