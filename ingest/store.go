package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// standardColumns are the tags stored in their own columns; the others go
// to games.tags.
var standardColumns = map[string]bool{
	"Event": true, "Site": true, "Date": true, "Round": true, "White": true, "Black": true,
	"Result": true, "GameType": true, "FEN": true, "SetUp": true,
}

// stored is an accepted game encoded for COPY. It is built on the replay
// workers (Config.Prepare), so the single writer only sends bytes: row is
// the game's row of games in binary COPY format but for the leading
// columns the writer fills (see copyrows.go); the other fields are what
// the writer still needs to decide duplicates and to index the game.
type stored struct {
	variant      int16
	date         string
	white, black string // cleaned player names, "" for none
	result       int16
	header       dupHeader // event, site and round, as stored, for duplicates
	movesHash    int64
	hashes       []uint64 // the start position and after every ply
	opening      []openings.Entry
	evals        []Evaluation // [%eval] comments (evalcomments.go)
	pattern      []byte       // its pattern_index record but for the id (patternindex.go)
	row          rowBuf
}

// preparer returns the function that encodes an accepted game on the
// replay workers, with its opening entries up to depth plies.
func preparer(depth int) func(g *replay.Game) any {
	return func(g *replay.Game) any {
		st := prepare(g)
		st.opening = openings.GameEntries(make([]openings.Entry, 0, min(depth, len(g.Moves))), st.hashes, g.Moves, depth)
		return st
	}
}

// prepare encodes an accepted game. Every text on its way to a column goes
// through one cleaner (sanitize.go): what it had to change is added to the
// game's warnings, so the stored game says that it differs from its bytes.
func prepare(g *replay.Game) *stored {
	var c cleaner
	moves := codec.AppendMoves(make([]byte, 0, 2*len(g.Moves)+8), g.Moves)
	basis := c.text("variant basis", string(g.Basis))
	event, site := nullable(c.text("tag Event", g.PDN.Tag("Event"))), nullable(c.text("tag Site", g.PDN.Tag("Site")))
	round := nullable(c.text("tag Round", g.PDN.Tag("Round")))
	st := &stored{
		variant: codec.VariantID(g.Variant), date: c.text("date", g.Date),
		white: c.player("white player", g.White), black: c.player("black player", g.Black),
		result: codec.ResultCode(g.Result), movesHash: codec.MovesHash(g.Variant, g.StartFEN, moves),
	}
	st.header = newDupHeader(deref(event), deref(site), deref(round))
	tagMap := otherTagMap(g, &c)
	tags, facts := encodeTags(tagMap), readPlayerFacts(tagMap)
	var startFEN *string
	if g.StartFEN != "" {
		fen := c.text("start FEN", g.StartFEN)
		startFEN = &fen
	}
	st.evals = gameEvaluations(g)
	for i := range st.evals {
		e := &st.evals[i]
		e.Engine, e.Setting = c.text("evaluation engine", e.Engine), c.text("evaluation setting", e.Setting)
		e.PV, e.EngineVersion = c.text("evaluation pv", e.PV), c.text("evaluation version", e.EngineVersion)
		e.BestMove = c.ptr("evaluation best move", e.BestMove)
	}
	annotations, varWarnings := gameAnnotations(g, &c)
	var warnings []string
	if n := len(g.Warnings) + len(varWarnings) + len(c.notes); n > 0 {
		warnings = make([]string, 0, n)
		for _, w := range g.Warnings {
			warnings = append(warnings, capText(dbText(w), maxWarning))
		}
		for _, w := range varWarnings {
			warnings = append(warnings, capText(dbText(w), maxWarning))
		}
		warnings = append(warnings, c.notes...)
	}
	st.pattern = patternBody(g)
	st.hashes = make([]uint64, 0, len(g.Hashes)+1)
	st.hashes = append(st.hashes, g.Start.Hash())
	st.hashes = append(st.hashes, g.Hashes...)

	// The row after gameRowPrefix's columns, in gameCopyColumns' order.
	b := make(rowBuf, 0, 168+len(moves)+len(tags)+len(annotations))
	b = b.int2(st.variant).text(basis).textPtr(event).textPtr(site).text(st.date).textPtr(round)
	b = b.int2(st.result).int2(int16(len(g.Moves))).textPtr(startFEN).bytea(moves)
	b = b.int8(int64(g.Final.Hash())).int8(st.movesHash).jsonb(tags).textArray(warnings)
	b = b.int2(codec.ResultCode(g.Proven))
	if annotations != nil {
		b = b.bytea(annotations)
	} else {
		b = b.null()
	}
	b = b.nullInt4(facts.whiteRating).nullInt4(facts.blackRating)
	b = b.textPtr(nullable(facts.whiteID)).textPtr(nullable(facts.blackID))
	st.row = b
	return st
}

// dupKey is what two games must share to be the same game: variant,
// start and moves, players and date; sameGame then compares the rest.
type dupKey struct {
	variant      int16
	movesHash    int64
	white, black int32 // 0: no player
	date         string
}

// dupHeader is a game's Event, Site and Round, "" when absent or
// unknown (PDN's "?").
type dupHeader struct{ event, site, round string }

func newDupHeader(event, site, round string) dupHeader {
	known := func(s string) string {
		if s = strings.TrimSpace(s); s == "?" || s == "-" {
			return ""
		}
		return s
	}
	return dupHeader{known(event), known(site), known(round)}
}

// dupGame is a game stored (or stored earlier in the batch) under a key.
// The games of one key are a list through next (an index into dupGames,
// -1 at its end): one slice for the batch, not one per key.
type dupGame struct {
	ref    gameRef
	result int16
	header dupHeader
	next   int32
}

// dupGames are the games a batch's games may be duplicates of, by key.
type dupGames struct {
	first map[dupKey]int32
	games []dupGame
}

func (d *dupGames) add(k dupKey, g dupGame) {
	g.next = -1
	if i, ok := d.first[k]; ok {
		g.next = i
	}
	d.first[k] = int32(len(d.games))
	d.games = append(d.games, g)
}

// sameGame reports whether a game with result and header is the stored
// game d, their dupKey being equal: the same result, and Event, Site and
// Round each the same (but for case) where both games give one. Games
// that differ there are different games: the repeated short draws of a
// match (OCA_2.0's "Newcastle 1858" games 3, 17, 25 and 35, other
// rounds), or lidraughts games without moves (other Site, other result)
// were dropped as duplicates. The same game from two archives that agree on the players'
// names and the date mostly agrees on these too; where one of them leaves
// one out, it is still found.
func (d *dupGame) sameGame(result int16, h dupHeader) bool {
	same := func(a, b string) bool { return a == "" || b == "" || strings.EqualFold(a, b) }
	return d.result == result && same(d.header.event, h.event) && same(d.header.site, h.site) && same(d.header.round, h.round)
}

// find returns the first game (by source and ordinal) under k that is the
// same game as one with result and header.
func (d *dupGames) find(k dupKey, result int16, h dupHeader) (gameRef, bool) {
	var best gameRef
	found := false
	i, ok := d.first[k]
	for ok && i >= 0 {
		if g := &d.games[i]; g.sameGame(result, h) && (!found || g.ref.before(best)) {
			best, found = g.ref, true
		}
		i = d.games[i].next
	}
	return best, found
}

type gameRef struct {
	sourceID int64
	ordinal  int32
}

func (r gameRef) before(o gameRef) bool {
	return r.sourceID < o.sourceID || r.sourceID == o.sourceID && r.ordinal < o.ordinal
}

// batchCounts is what one batch added.
type batchCounts struct {
	imported, duplicates, rejected int
	byReason                       map[string]int
}

// writer holds what the import keeps between batches on its connection.
type writer struct {
	conn    *pgx.Conn
	players map[string]int32                                      // committed players only
	buckets [codec.PositionBuckets][codec.PositionGroups][]uint64 // position index slots of the batch (codec.PositionSlot)
	first   int64                                                 // the batch's first game id: the rows' first_game
	opening openings.Batch                                        // opening statistics of the batch
	games   rowBuf                                                // the batch's games rows, binary COPY (reused)
	pos     rowBuf                                                // its position index rows, likewise
	// filter, when set, holds the moves hashes of every game stored in a
	// database that had none (useFilter): the duplicates of a game it
	// cannot hold need not be looked for.
	filter *hashFilter
}

func (w *writer) resetIndex() {
	for i := range w.buckets {
		for g := range w.buckets[i] {
			w.buckets[i][g] = w.buckets[i][g][:0]
		}
	}
}

// index adds every position of game id to the batch's buckets, as slots of
// position_index rows (codec.PositionSlot); ids come in ascending order,
// from w.first.
func (w *writer) index(id int64, hashes []uint64) {
	off := uint32(id - w.first)
	for _, h := range hashes {
		b := &w.buckets[int(codec.PositionBucket(h))+codec.PositionBuckets/2]
		g := codec.PositionGroup(h)
		b[g] = append(b[g], codec.PositionSlot(codec.PositionKey(h), off))
	}
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
		if w.filter == nil || w.filter.mayHold(st.movesHash) {
			hashes = append(hashes, st.movesHash)
		}
	}
	existing := dupGames{first: map[dupKey]int32{}}
	if len(hashes) > 0 {
		rows, err := tx.Query(ctx, `SELECT source_id, ordinal, variant, moves_hash, coalesce(white_id, 0), coalesce(black_id, 0), date,
			result, coalesce(event, ''), coalesce(site, ''), coalesce(round, '')
			FROM games WHERE moves_hash = ANY($1)`, hashes)
		if err != nil {
			return c, err
		}
		for rows.Next() {
			var g dupGame
			var k dupKey
			var event, site, round string
			if err := rows.Scan(&g.ref.sourceID, &g.ref.ordinal, &k.variant, &k.movesHash, &k.white, &k.black, &k.date,
				&g.result, &event, &site, &round); err != nil {
				rows.Close()
				return c, err
			}
			g.header = newDupHeader(event, site, round)
			existing.add(k, g)
		}
		if err := rows.Err(); err != nil {
			return c, err
		}
	}

	// Decide each game in order (a game may be the same as one earlier in
	// the batch), then reserve ids for the new ones: the position index
	// refers to them.
	dupOf := make([]gameRef, len(games)) // sourceID 0 (no source has it): not a duplicate
	fresh := 0
	for i, p := range games {
		if ref, ok := existing.find(p.key, p.st.result, p.st.header); ok {
			dupOf[i] = ref
			continue
		}
		existing.add(p.key, dupGame{ref: gameRef{sourceID, int32(p.it.Ordinal)}, result: p.st.result, header: p.st.header})
		fresh++
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
	var dupRows, rejRows [][]any
	var news []*stored // the new games, in id order from ids[0]
	var ordinals []int32
	rows := &gameRows{buf: w.games[:0], sourceID: sourceID, ids: ids}
	for i, p := range games {
		it, st := p.it, p.st
		if ref := dupOf[i]; ref.sourceID != 0 {
			dupRows = append(dupRows, []any{sourceID, int32(it.Ordinal), it.Offset, ref.sourceID, ref.ordinal})
			c.duplicates++
			continue
		}
		rows.games = append(rows.games, newGame{it: it, st: st, white: p.key.white, black: p.key.black})
		news = append(news, st)
		ordinals = append(ordinals, int32(it.Ordinal))
		c.imported++
	}
	defer func() { w.games = rows.buf }() // reused by the next batch
	// The position index and the opening statistics of the new games are
	// sorted out while PostgreSQL takes the games: the connection would
	// otherwise wait for this, and PostgreSQL for the connection.
	side := make(chan []openings.Row, 1)
	go func() {
		w.resetIndex()
		w.opening.Reset()
		if len(ids) > 0 {
			w.first = ids[0]
		}
		for i, st := range news {
			w.index(ids[i], st.hashes)
			w.opening.Add(st.variant, st.result, st.opening, src.openingDepth)
		}
		w.pos = w.positionRows(w.pos, sourceID)
		side <- w.opening.Rows()
	}()
	var openingRows []openings.Row
	waited := false
	wait := func() {
		if !waited {
			openingRows, waited = <-side, true
		}
	}
	defer wait() // the buckets are the writer's: the next batch reuses them
	for i := range items {
		it := &items[i]
		if it.Accepted {
			continue
		}
		reason := replay.Reason(it.Reject)
		c.rejected++
		c.byReason[reason]++
		raw := it.PDN.Raw
		if raw == nil {
			raw = []byte{}
		}
		r := rejectedTexts(it.Reject)
		rejRows = append(rejRows, []any{sourceID, int32(it.Ordinal), it.Offset, int32(it.Line), raw, dbText(reason), r.ply, r.move, r.fen, r.message})
	}

	pg := tx.Conn().PgConn()
	if len(news) > 0 {
		if _, err := pg.CopyFrom(ctx, rows, "COPY games ("+gameCopyColumns+") FROM STDIN (FORMAT binary)"); err != nil {
			return c, &copyError{table: "games", ordinals: ordinals, err: err}
		}
	}
	wait()
	if len(news) > 0 {
		if _, err := pg.CopyFrom(ctx, bytes.NewReader(w.pos), "COPY position_index (source_id, first_game, bucket, entries) FROM STDIN (FORMAT binary)"); err != nil {
			return c, fmt.Errorf("copy position index: %w", err)
		}
	}
	if err := openings.WriteRows(ctx, tx, sourceID, openingRows); err != nil {
		return c, err
	}
	if err := writePatternRows(ctx, tx, sourceID, ids, news); err != nil {
		return c, err
	}
	if len(rejRows) > 0 {
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"rejected_games"}, rejectedColumns, pgx.CopyFromRows(rejRows)); err != nil {
			ords := make([]int32, len(rejRows))
			for i, r := range rejRows {
				ords[i] = r[1].(int32)
			}
			return c, &copyError{table: "rejected_games", ordinals: ords, err: err}
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
	if w.filter != nil {
		for _, st := range news {
			w.filter.add(st.movesHash)
		}
	}
	return c, nil
}

// copyError is a COPY of games or rejected games that PostgreSQL refused;
// the ordinals of its rows let storeFailure name the game at fault.
type copyError struct {
	table    string
	ordinals []int32 // of the rows, in order
	err      error
}

func (e *copyError) Error() string { return "copy " + e.table + ": " + e.err.Error() }
func (e *copyError) Unwrap() error { return e.err }

// ordinal returns the ordinal of the row a PostgreSQL error context
// ("COPY games, line 17, column event") points to, or 0.
func (e *copyError) ordinal(where string) int {
	rest, ok := strings.CutPrefix(where, "COPY "+e.table+", line ")
	if !ok {
		return 0
	}
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	line, err := strconv.Atoi(rest[:end])
	if err != nil || line < 1 || line > len(e.ordinals) {
		return 0
	}
	return int(e.ordinals[line-1])
}

// storeFailure turns an error of writeBatch into the failure of its source
// when the data is at fault: PostgreSQL refused a value (class 22, data
// exception, such as an invalid byte sequence), a constraint (23) or a
// limit (54). It returns nil for the errors that concern the whole run (a
// lost connection, a full disk, a cancelled context).
func storeFailure(name string, items []Item, err error) *SourceError {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || len(pe.Code) < 2 {
		return nil
	}
	switch pe.Code[:2] {
	case "22", "23", "54":
	default:
		return nil
	}
	game := 0
	var ce *copyError
	if errors.As(err, &ce) {
		game = ce.ordinal(pe.Where)
	}
	return &SourceError{Source: name, Game: game, Err: err,
		Note: fmt.Sprintf("the games from %d on are not stored", items[0].Ordinal)}
}

// rejectedText is what rejected_games stores of a rejection besides the
// game's bytes: clean texts (sanitize.go), the move and the input quoted in
// the message capped, since a runaway "move" can be megabytes long (the
// bytes stay whole in raw).
type rejectedText struct {
	ply       *int32
	move, fen *string
	message   string
}

func rejectedTexts(reject error) rejectedText {
	var out rejectedText
	var re *replay.RejectError
	if errors.As(reject, &re) {
		if re.Ply > 0 {
			p := int32(re.Ply)
			move := capText(dbText(re.Text), maxMove)
			fen := dbText(re.FEN)
			out.ply, out.move, out.fen = &p, &move, &fen
		}
		if len(re.Text) > maxQuote {
			short := *re
			short.Text = capText(re.Text, maxQuote)
			out.message = capText(dbText(short.Error()), maxMessage)
			return out
		}
	}
	out.message = capText(dbText(reject.Error()), maxMessage)
	return out
}

var (
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

// otherTags returns the non-standard tags as a JSON object, or nil. Names
// and values are cleaned before they are encoded: jsonb refuses the \u0000
// that encoding/json makes of a NUL, and encoding/json would turn bytes that
// are not UTF-8 into U+FFFD instead of reading them as Windows-1252.
func otherTags(g *replay.Game, c *cleaner) []byte {
	return encodeTags(otherTagMap(g, c))
}

// otherTagMap is otherTags before encoding: the names and values stored.
func otherTagMap(g *replay.Game, c *cleaner) map[string]string {
	m := map[string]string{}
	for _, t := range g.PDN.Tags {
		// A Date tag that the date column does not hold as written (not
		// YYYY.MM.DD) is kept here too, so that nothing written is lost.
		if standardColumns[t.Name] && !(t.Name == "Date" && t.Value != g.Date && t.Value != "") {
			continue
		}
		name := t.Name
		if !isCleanText(name) {
			name = c.text(tagWhat(name)+" (name)", name)
		}
		if _, dup := m[name]; !dup {
			m[name] = c.text(tagWhat(name), t.Value)
		}
	}
	return m
}

func encodeTags(m map[string]string) []byte {
	if len(m) == 0 {
		return nil
	}
	b, _ := json.Marshal(m)
	return b
}
