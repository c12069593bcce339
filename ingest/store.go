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
	"github.com/draughtsdb/draughtsdb/schema"
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
			warnings = append(warnings, capText(dbText(w.Text), maxWarning))
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

	// The row after gameRowPrefix's columns, in schema.GameCopyColumns' order.
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

// batch is one batch of a source's games on its way into the database.
type batch struct {
	src      *sourceState
	items    []Item
	players  map[string]int32 // the batch's players not in the writer's cache
	games    []candidate      // its accepted games, in order
	ids      []int64          // reserved for the new games, ascending
	news     []*stored        // the new games, in id order from ids[0]
	rows     *gameRows        // their games rows
	ordinals []int32          // their ordinals, likewise
	dups     []schema.Duplicate
	rejected []schema.RejectedGame
	c        batchCounts
}

// candidate is an accepted game of a batch with its duplicate key.
type candidate struct {
	it  *Item
	st  *stored
	key dupKey
}

// writeBatch stores one batch of a source's games in one transaction,
// together with the source's resume point, so a batch is either wholly in
// the database or not at all.
func (w *writer) writeBatch(ctx context.Context, src *sourceState, items []Item) (batchCounts, error) {
	b := &batch{src: src, items: items, c: batchCounts{byReason: map[string]int{}}}
	if len(items) == 0 {
		return b.c, nil
	}
	if err := schema.WithTx(ctx, w.conn, func(tx pgx.Tx) error { return w.store(ctx, tx, b) }); err != nil {
		return b.c, err
	}
	// The caches hold committed rows only: a batch rolled back leaves them.
	for name, id := range b.players {
		w.players[name] = id
	}
	if w.filter != nil {
		for _, st := range b.news {
			w.filter.add(st.movesHash)
		}
	}
	return b.c, nil
}

// store writes b in tx: its players, its new games with their position
// index, opening statistics and pattern rows, its rejected games and
// duplicates, the evaluation comments and the source's totals.
func (w *writer) store(ctx context.Context, tx pgx.Tx, b *batch) error {
	var err error
	if b.players, err = w.resolvePlayers(ctx, tx, b.items); err != nil {
		return err
	}
	dupOf, fresh, err := findDuplicates(ctx, tx, b, w.candidates(b))
	if err != nil {
		return err
	}
	// Ids are reserved for the new games before they are written: the
	// position index refers to them.
	if fresh > 0 {
		first, err := schema.ReserveGameIDs(ctx, tx, fresh)
		if err != nil {
			return err
		}
		b.ids = make([]int64, fresh)
		for i := range b.ids {
			b.ids[i] = first + int64(i)
		}
	}
	b.split(w, dupOf)
	// The games' buffer is reused by the next batch, but not after a COPY
	// that failed: pgconn's CopyFrom can return while its goroutine is
	// still in b.rows.Read, which writes the buffer (and the one it grew
	// from), so the next batch starts a buffer of its own.
	reuse := true
	defer func() {
		if reuse {
			w.games = b.rows.buf
		} else {
			w.games = nil
		}
	}()
	side := w.indexAside(b)
	var openingRows []openings.Row
	waited := false
	wait := func() {
		if !waited {
			openingRows, waited = <-side, true
		}
	}
	defer wait() // the buckets are the writer's: the next batch reuses them
	b.rejectedRows()
	if len(b.news) > 0 {
		if err := schema.CopyGames(ctx, tx, b.rows); err != nil {
			reuse = false
			return &copyError{table: "games", ordinals: b.ordinals, err: err}
		}
	}
	wait()
	return w.storeRest(ctx, tx, b, openingRows)
}

// storeRest writes what follows b's games in tx, in this order.
func (w *writer) storeRest(ctx context.Context, tx pgx.Tx, b *batch, openingRows []openings.Row) error {
	sourceID := b.src.id
	if len(b.news) > 0 {
		if err := schema.CopyPositionIndex(ctx, tx, bytes.NewReader(w.pos)); err != nil {
			return fmt.Errorf("copy position index: %w", err)
		}
	}
	if err := openings.WriteRows(ctx, tx, sourceID, openingRows); err != nil {
		return err
	}
	if err := writePatternRows(ctx, tx, sourceID, b.ids, b.news); err != nil {
		return err
	}
	if len(b.rejected) > 0 {
		if err := schema.CopyRejectedGames(ctx, tx, b.rejected); err != nil {
			ords := make([]int32, len(b.rejected))
			for i, r := range b.rejected {
				ords[i] = r.Ordinal
			}
			return &copyError{table: "rejected_games", ordinals: ords, err: err}
		}
	}
	if len(b.dups) > 0 {
		if err := schema.CopyDuplicates(ctx, tx, b.dups); err != nil {
			return fmt.Errorf("copy duplicates: %w", err)
		}
	}
	if err := writeEvaluations(ctx, tx, b.items); err != nil {
		return err
	}
	last := b.items[len(b.items)-1].Ordinal
	return schema.AddBatchTotals(ctx, tx, sourceID, last, b.c.imported, b.c.duplicates, b.c.rejected)
}

// candidates fills b.games with the batch's accepted games and their
// duplicate keys, and returns the moves hashes whose stored games may be
// duplicates of them (with a filter, only those it may hold).
func (w *writer) candidates(b *batch) []int64 {
	var hashes []int64
	for i := range b.items {
		it := &b.items[i]
		if !it.Accepted {
			continue
		}
		st := it.Prepared.(*stored)
		b.games = append(b.games, candidate{it: it, st: st, key: dupKey{
			variant: st.variant, movesHash: st.movesHash,
			white: w.playerID(st.white, b.players), black: w.playerID(st.black, b.players), date: st.date,
		}})
		if w.filter == nil || w.filter.mayHold(st.movesHash) {
			hashes = append(hashes, st.movesHash)
		}
	}
	return hashes
}

// findDuplicates decides which of b's games are duplicates, in order (a
// game may be the same as one earlier in the batch), of the stored games
// with one of hashes: dupOf[i] is the game b.games[i] repeats, sourceID 0
// (no source has it) for a new game; fresh counts the new games.
func findDuplicates(ctx context.Context, q schema.Querier, b *batch, hashes []int64) (dupOf []gameRef, fresh int, err error) {
	existing := dupGames{first: map[dupKey]int32{}}
	if len(hashes) > 0 {
		err := schema.ForEachDuplicateCandidate(ctx, q, hashes, func(g *schema.DuplicateCandidate) {
			k := dupKey{variant: g.Variant, movesHash: g.MovesHash, white: g.White, black: g.Black, date: g.Date}
			existing.add(k, dupGame{ref: gameRef{g.SourceID, g.Ordinal}, result: g.Result, header: newDupHeader(g.Event, g.Site, g.Round)})
		})
		if err != nil {
			return nil, 0, err
		}
	}
	dupOf = make([]gameRef, len(b.games))
	for i, p := range b.games {
		if ref, ok := existing.find(p.key, p.st.result, p.st.header); ok {
			dupOf[i] = ref
			continue
		}
		existing.add(p.key, dupGame{ref: gameRef{b.src.id, int32(p.it.Ordinal)}, result: p.st.result, header: p.st.header})
		fresh++
	}
	return dupOf, fresh, nil
}

// split sorts b's games into duplicates and new games, the new ones with
// their ids (b.ids, in order) and games rows.
func (b *batch) split(w *writer, dupOf []gameRef) {
	sourceID := b.src.id
	b.rows = &gameRows{buf: w.games[:0], sourceID: sourceID, ids: b.ids}
	for i, p := range b.games {
		it, st := p.it, p.st
		if ref := dupOf[i]; ref.sourceID != 0 {
			b.dups = append(b.dups, schema.Duplicate{SourceID: sourceID, Ordinal: int32(it.Ordinal), Offset: it.Offset,
				OfSourceID: ref.sourceID, OfOrdinal: ref.ordinal})
			b.c.duplicates++
			continue
		}
		b.rows.games = append(b.rows.games, newGame{it: it, st: st, white: p.key.white, black: p.key.black})
		b.news = append(b.news, st)
		b.ordinals = append(b.ordinals, int32(it.Ordinal))
		b.c.imported++
	}
}

// indexAside sorts out the position index (into w.pos) and the opening
// statistics of b's new games while PostgreSQL takes the games: the
// connection would otherwise wait for this, and PostgreSQL for the
// connection. The channel gives the opening rows when both are done; the
// buckets are the writer's, so it must be received from before the next
// batch.
func (w *writer) indexAside(b *batch) <-chan []openings.Row {
	side := make(chan []openings.Row, 1)
	go func() {
		w.resetIndex()
		w.opening.Reset()
		if len(b.ids) > 0 {
			w.first = b.ids[0]
		}
		for i, st := range b.news {
			w.index(b.ids[i], st.hashes)
			w.opening.Add(st.variant, st.result, st.opening, b.src.openingDepth)
		}
		w.pos = w.positionRows(w.pos, b.src.id)
		side <- w.opening.Rows()
	}()
	return side
}

// rejectedRows fills b.rejected with the batch's rejected games, counting
// them by reason.
func (b *batch) rejectedRows() {
	for i := range b.items {
		it := &b.items[i]
		if it.Accepted {
			continue
		}
		reason := replay.Reason(it.Reject)
		b.c.rejected++
		b.c.byReason[reason]++
		raw := it.PDN.Raw
		if raw == nil {
			raw = []byte{}
		}
		r := rejectedTexts(it.Reject)
		b.rejected = append(b.rejected, schema.RejectedGame{SourceID: b.src.id, Ordinal: int32(it.Ordinal), Offset: it.Offset,
			Line: int32(it.Line), Raw: raw, Reason: dbText(reason), Ply: r.ply, Move: r.move, FEN: r.fen, Message: r.message})
	}
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
	return schema.BatchPlayers(ctx, tx, names)
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
