package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/jackc/pgx/v5"
)

// standardColumns are the tags stored in their own columns; the others go
// to games.tags.
var standardColumns = map[string]bool{
	"Event": true, "Site": true, "Date": true, "Round": true, "White": true, "Black": true,
	"Result": true, "GameType": true, "FEN": true, "SetUp": true,
}

// stored is an accepted game encoded for COPY. It is built on the replay
// workers (Config.Prepare), so the single writer only sends bytes.
type stored struct {
	variant            int16
	basis              string
	event, site, round *string
	date               string
	white, black       string // cleaned player names, "" for none
	result             int16
	plies              int16
	startFEN           *string
	moves              []byte
	finalHash          int64
	movesHash          int64
	hashes             []uint64 // the start position and after every ply
	opening            []openings.Entry
	tags               []byte
	warnings           []string
	evals              []Evaluation // [%eval] comments (evalcomments.go)
}

// preparer returns the function that encodes an accepted game on the
// replay workers, with its opening entries up to depth plies.
func preparer(depth int) func(g *replay.Game) any {
	return func(g *replay.Game) any {
		st := prepare(g)
		st.opening = openings.GameEntries(nil, st.hashes, g.Moves, depth)
		return st
	}
}

// prepare encodes an accepted game.
func prepare(g *replay.Game) *stored {
	moves := AppendMoves(make([]byte, 0, 2*len(g.Moves)+8), g)
	st := &stored{
		variant: int16(g.Variant.GameType), basis: string(g.Basis),
		event: nullable(g.PDN.Tag("Event")), site: nullable(g.PDN.Tag("Site")), round: nullable(g.PDN.Tag("Round")),
		date: g.Date, white: playerName(g.White), black: playerName(g.Black),
		result: resultCode(g.Result), plies: int16(len(g.Moves)),
		moves: moves, finalHash: int64(g.Final.Hash()), movesHash: MovesHash(g.Variant, g.StartFEN, moves),
		tags: otherTags(g),
	}
	if g.StartFEN != "" {
		fen := g.StartFEN
		st.startFEN = &fen
	}
	if len(g.Warnings) > 0 {
		st.warnings = append([]string(nil), g.Warnings...)
	}
	st.evals = gameEvaluations(g)
	st.hashes = make([]uint64, 0, len(g.Hashes)+1)
	st.hashes = append(st.hashes, g.Start.Hash())
	st.hashes = append(st.hashes, g.Hashes...)
	return st
}

// dupKey is what makes two games the same game.
type dupKey struct {
	variant      int16
	movesHash    int64
	white, black int32 // 0: no player
	date         string
}

type gameRef struct {
	sourceID int64
	ordinal  int32
}

// batchCounts is what one batch added.
type batchCounts struct {
	imported, duplicates, rejected int
	byReason                       map[string]int
}

// writer holds what the import keeps between batches on its connection.
type writer struct {
	conn    *pgx.Conn
	players map[string]int32 // committed players only
	buckets [4096][]int64    // position index entries of the batch, by prefix
	opening openings.Batch   // opening statistics of the batch
}

// PositionPrefix and PositionEntry pack a position into the position_index
// table (see schema/migrations/0001_core.sql): the top 12 bits of the hash
// choose the row, the next 32 bits and the game id make the entry.
func PositionPrefix(h uint64) int16 { return int16(int64(h) >> 52) }

// PositionEntry is the packed entry of game id at position h.
func PositionEntry(h uint64, id int64) int64 {
	return int64((h>>20)&0xFFFFFFFF<<32 | uint64(id)&0xFFFFFFFF)
}

func (w *writer) resetIndex() {
	for i := range w.buckets {
		w.buckets[i] = w.buckets[i][:0]
	}
}

// index adds every position of game id to the batch's buckets.
func (w *writer) index(id int64, hashes []uint64) {
	for _, h := range hashes {
		b := int(PositionPrefix(h)) + 2048
		w.buckets[b] = append(w.buckets[b], PositionEntry(h, id))
	}
}

// indexRows returns one position_index row per non-empty bucket.
func (w *writer) indexRows(sourceID int64) [][]any {
	var rows [][]any
	for i := range w.buckets {
		if len(w.buckets[i]) > 0 {
			rows = append(rows, []any{sourceID, int16(i - 2048), w.buckets[i]})
		}
	}
	return rows
}

// writeBatch stores one batch of a source's games in one transaction,
// together with the source's resume point, so a batch is either wholly in
// the database or not at all.
func (w *writer) writeBatch(ctx context.Context, src *sourceState, items []Item) (batchCounts, error) {
	sourceID := src.id
	c := batchCounts{byReason: map[string]int{}}
	if len(items) == 0 {
		return c, nil
	}
	tx, err := w.conn.Begin(ctx)
	if err != nil {
		return c, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck

	newPlayers, err := w.resolvePlayers(ctx, tx, items)
	if err != nil {
		return c, err
	}

	// Find which accepted games are duplicates.
	type candidate struct {
		it  *Item
		st  *stored
		key dupKey
	}
	var games []candidate
	var hashes []int64
	for i := range items {
		it := &items[i]
		if !it.Accepted {
			continue
		}
		st := it.Prepared.(*stored)
		games = append(games, candidate{it: it, st: st, key: dupKey{
			variant: st.variant, movesHash: st.movesHash,
			white: w.playerID(st.white, newPlayers), black: w.playerID(st.black, newPlayers), date: st.date,
		}})
		hashes = append(hashes, st.movesHash)
	}
	existing := map[dupKey]gameRef{}
	if len(hashes) > 0 {
		rows, err := tx.Query(ctx, `SELECT source_id, ordinal, variant, moves_hash, coalesce(white_id, 0), coalesce(black_id, 0), date
			FROM games WHERE moves_hash = ANY($1)`, hashes)
		if err != nil {
			return c, err
		}
		for rows.Next() {
			var ref gameRef
			var k dupKey
			if err := rows.Scan(&ref.sourceID, &ref.ordinal, &k.variant, &k.movesHash, &k.white, &k.black, &k.date); err != nil {
				rows.Close()
				return c, err
			}
			if old, ok := existing[k]; !ok || ref.sourceID < old.sourceID || ref.sourceID == old.sourceID && ref.ordinal < old.ordinal {
				existing[k] = ref
			}
		}
		if err := rows.Err(); err != nil {
			return c, err
		}
	}

	// Reserve ids for the new games: the position index refers to them.
	fresh := 0
	for _, p := range games {
		if _, dup := existing[p.key]; !dup {
			fresh++
		}
	}
	var ids []int64
	if fresh > 0 {
		// One round trip for the whole block: the import lock keeps other
		// importers from drawing ids in between.
		var last int64
		if err := tx.QueryRow(ctx, `SELECT setval(s, nextval(s) + $1 - 1) FROM pg_get_serial_sequence('games', 'id') AS s`, fresh).Scan(&last); err != nil {
			return c, err
		}
		ids = make([]int64, fresh)
		for i := range ids {
			ids[i] = last - int64(fresh) + 1 + int64(i)
		}
	}
	w.resetIndex()
	w.opening.Reset()

	var gameRows, dupRows, rejRows [][]any
	for _, p := range games {
		it, st := p.it, p.st
		if ref, ok := existing[p.key]; ok {
			dupRows = append(dupRows, []any{sourceID, int32(it.Ordinal), it.Offset, ref.sourceID, ref.ordinal})
			c.duplicates++
			continue
		}
		existing[p.key] = gameRef{sourceID, int32(it.Ordinal)}
		id := ids[len(gameRows)]
		w.index(id, st.hashes)
		w.opening.Add(st.variant, st.result, st.opening, src.openingDepth)
		gameRows = append(gameRows, []any{
			id, st.variant, st.basis, sourceID, int32(it.Ordinal), it.Offset,
			st.event, st.site, st.date, st.round,
			nullID(p.key.white), nullID(p.key.black), st.result, st.plies, st.startFEN,
			st.moves, st.finalHash, st.movesHash, st.tags, st.warnings,
		})
		c.imported++
	}
	for i := range items {
		it := &items[i]
		if it.Accepted {
			continue
		}
		reason := replay.Reason(it.Reject)
		c.rejected++
		c.byReason[reason]++
		var ply *int32
		var move, fen *string
		var re *replay.RejectError
		if errors.As(it.Reject, &re) {
			if re.Ply > 0 {
				p := int32(re.Ply)
				ply, move, fen = &p, &re.Text, &re.FEN
			}
		}
		raw := it.PDN.Raw
		if raw == nil {
			raw = []byte{}
		}
		rejRows = append(rejRows, []any{sourceID, int32(it.Ordinal), it.Offset, int32(it.Line), raw, reason, ply, move, fen, it.Reject.Error()})
	}

	if len(gameRows) > 0 {
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"games"}, gameColumns, pgx.CopyFromRows(gameRows)); err != nil {
			return c, fmt.Errorf("copy games: %w", err)
		}
	}
	if posRows := w.indexRows(sourceID); len(posRows) > 0 {
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"position_index"}, positionColumns, pgx.CopyFromRows(posRows)); err != nil {
			return c, fmt.Errorf("copy position index: %w", err)
		}
	}
	if rows := w.opening.Rows(); len(rows) > 0 {
		copyRows := make([][]any, len(rows))
		for i, r := range rows {
			copyRows[i] = []any{sourceID, r.Variant, r.Prefix, nonNil(r.Singles), nonNil(r.Keys), nonNil(r.Counts)}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"opening_index"}, openingColumns, pgx.CopyFromRows(copyRows)); err != nil {
			return c, fmt.Errorf("copy opening statistics: %w", err)
		}
	}
	if len(rejRows) > 0 {
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"rejected_games"}, rejectedColumns, pgx.CopyFromRows(rejRows)); err != nil {
			return c, fmt.Errorf("copy rejected games: %w", err)
		}
	}
	if len(dupRows) > 0 {
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"duplicates"}, duplicateColumns, pgx.CopyFromRows(dupRows)); err != nil {
			return c, fmt.Errorf("copy duplicates: %w", err)
		}
	}
	if err := writeEvaluations(ctx, tx, items); err != nil {
		return c, err
	}
	last := items[len(items)-1].Ordinal
	if _, err := tx.Exec(ctx, `UPDATE sources SET games_read = $2, games_imported = games_imported + $3,
		duplicates = duplicates + $4, rejected = rejected + $5 WHERE id = $1`,
		sourceID, last, c.imported, c.duplicates, c.rejected); err != nil {
		return c, err
	}
	if err := tx.Commit(ctx); err != nil {
		return c, err
	}
	for name, id := range newPlayers {
		w.players[name] = id
	}
	return c, nil
}

var (
	positionColumns = []string{"source_id", "prefix", "entries"}
	openingColumns  = []string{"source_id", "variant", "prefix", "singles", "keys", "counts"}
	gameColumns     = []string{"id", "variant", "variant_basis", "source_id", "ordinal", "byte_offset", "event", "site", "date", "round",
		"white_id", "black_id", "result", "ply_count", "start_fen", "moves", "final_hash", "moves_hash", "tags", "warnings"}
	rejectedColumns  = []string{"source_id", "ordinal", "byte_offset", "line", "raw", "reason", "ply", "move", "fen", "message"}
	duplicateColumns = []string{"source_id", "ordinal", "byte_offset", "of_source_id", "of_ordinal"}
)

// resolvePlayers returns the ids of the players of this batch that are not
// in the committed cache, creating them as needed.
func (w *writer) resolvePlayers(ctx context.Context, tx pgx.Tx, items []Item) (map[string]int32, error) {
	var names []string
	seen := map[string]bool{}
	for i := range items {
		if !items[i].Accepted {
			continue
		}
		st := items[i].Prepared.(*stored)
		for _, name := range [2]string{st.white, st.black} {
			if name == "" || seen[name] {
				continue
			}
			seen[name] = true
			if _, ok := w.players[name]; !ok {
				names = append(names, name)
			}
		}
	}
	found := map[string]int32{}
	if len(names) == 0 {
		return found, nil
	}
	rows, err := tx.Query(ctx, `WITH new AS (
			INSERT INTO players (name) SELECT unnest($1::text[]) ORDER BY 1 ON CONFLICT (name) DO NOTHING RETURNING id, name)
		SELECT id, name FROM new UNION ALL SELECT id, name FROM players WHERE name = ANY($1)`, names)
	if err != nil {
		return nil, fmt.Errorf("players: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int32
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, err
		}
		found[name] = id
	}
	return found, rows.Err()
}

func (w *writer) playerID(name string, batch map[string]int32) int32 {
	if name == "" {
		return 0
	}
	if id, ok := w.players[name]; ok {
		return id
	}
	return batch[name]
}

// playerName cleans a White/Black tag; "?" and "" mean no name.
func playerName(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "?" || s == "-" {
		return ""
	}
	return s
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nullID(id int32) *int32 {
	if id == 0 {
		return nil
	}
	return &id
}

// otherTags returns the non-standard tags as a JSON object, or nil.
func otherTags(g *replay.Game) []byte {
	m := map[string]string{}
	for _, t := range g.PDN.Tags {
		if standardColumns[t.Name] {
			continue
		}
		if _, dup := m[t.Name]; !dup {
			m[t.Name] = t.Value
		}
	}
	if len(m) == 0 {
		return nil
	}
	b, _ := json.Marshal(m)
	return b
}

// nonNil makes an empty array of a nil slice (the columns are NOT NULL).
func nonNil(s []int64) []int64 {
	if s == nil {
		return []int64{}
	}
	return s
}
