package openings_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// position is a position as opening_index tells it from others: its
// variant and 44 hash bits.
type position struct {
	variant int16
	bucket  int16
	group   int
	hash    uint32
}

// h is a full hash of p (the 20 bits opening_index does not keep from low).
func (p position) h(low uint64) int64 {
	return int64(p.bucket)<<54 | int64(p.group)<<52 | int64(p.hash)<<20 | int64(low&(1<<20-1))
}

// games are the games of a (position, move) by result slot.
type games = [4]int64

// stats are opening statistics: the games of every move of every position.
type stats map[position]map[codec.MoveCode]games

func (s stats) add(p position, c codec.MoveCode, g games) {
	if g == (games{}) {
		return // no games: a (position, move) the rows do not hold
	}
	m := s[p]
	if m == nil {
		m = map[codec.MoveCode]games{}
		s[p] = m
	}
	sum := m[c]
	for i := range sum {
		sum[i] += g[i]
	}
	m[c] = sum
}

// storedRow is an opening_index row.
type storedRow struct {
	source          int64
	variant, bucket int16
	entries         []byte
}

func readRows(t *testing.T, pool *pgxpool.Pool) []storedRow {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT source_id, variant, bucket, entries FROM opening_index ORDER BY ctid`)
	if err != nil {
		t.Fatal(err)
	}
	var out []storedRow
	for rows.Next() {
		var r storedRow
		if err := rows.Scan(&r.source, &r.variant, &r.bucket, &r.entries); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// decodeRows is what the rows say, read by the Go decoder.
func decodeRows(t *testing.T, rows []storedRow) stats {
	t.Helper()
	s := stats{}
	for _, r := range rows {
		err := codec.DecodeOpeningEntries(r.entries, func(e codec.OpeningEntry) {
			s.add(position{r.variant, r.bucket, e.Group, e.Hash}, e.Code, games{int64(e.Counts[0]), int64(e.Counts[1]), int64(e.Counts[2]), int64(e.Counts[3])})
		})
		if err != nil {
			t.Fatalf("source %d variant %d bucket %d: %v", r.source, r.variant, r.bucket, err)
		}
	}
	return s
}

// treeRow is a row of draughtsdb_opening_tree.
type treeRow struct {
	code                               int32
	games, whiteWins, draws, blackWins int64
}

// trees calls draughtsdb_opening_tree at every probe, in one query.
func trees(t *testing.T, pool *pgxpool.Pool, probes []position) [][]treeRow {
	t.Helper()
	variants := make([]int32, len(probes))
	hashes := make([]int64, len(probes))
	for i, p := range probes {
		variants[i], hashes[i] = int32(p.variant), p.h(uint64(i)*0x9E3779B9)
	}
	rows, err := pool.Query(context.Background(), `SELECT t.i, tr.move_code, tr.games, tr.white_wins, tr.draws, tr.black_wins
		FROM unnest($1::int[], $2::bigint[]) WITH ORDINALITY AS t(v, h, i), LATERAL draughtsdb_opening_tree(t.v, t.h) AS tr`, variants, hashes)
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]treeRow, len(probes))
	for rows.Next() {
		var i int64
		var r treeRow
		if err := rows.Scan(&i, &r.code, &r.games, &r.whiteWins, &r.draws, &r.blackWins); err != nil {
			t.Fatal(err)
		}
		out[i-1] = append(out[i-1], r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, o := range out {
		slices.SortFunc(o, func(a, b treeRow) int { return int(a.code) - int(b.code) })
	}
	return out
}

// wantTree is the tree of p in s, as draughtsdb_opening_tree gives it.
func wantTree(s stats, p position) []treeRow {
	var out []treeRow
	for c, g := range s[p] {
		out = append(out, treeRow{int32(c), g[0] + g[1] + g[2] + g[3], g[0], g[1], g[2]})
	}
	slices.SortFunc(out, func(a, b treeRow) int { return int(a.code) - int(b.code) })
	return out
}

// checkTrees compares draughtsdb_opening_tree with s at every probe.
func checkTrees(t *testing.T, pool *pgxpool.Pool, s stats, probes []position) {
	t.Helper()
	got := trees(t, pool, probes)
	bad := 0
	for i, p := range probes {
		if want := wantTree(s, p); !slices.Equal(got[i], want) {
			if bad++; bad <= 10 {
				t.Errorf("%+v: draughtsdb_opening_tree %v, the rows say %v", p, got[i], want)
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d positions differ", bad, len(probes))
	}
}

// importGames imports real games (the ingest samples: International,
// English, Russian) and synthetic International games in batches of
// batch games into a new database.
func importGames(t *testing.T, synthetic, batch int) *pgxpool.Pool {
	t.Helper()
	path := filepath.Join(t.TempDir(), "synthetic.pdn")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := synth.Write(f, synth.Options{Variant: rules.International, Games: synthetic, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	pool := pgtest.NewDB(t)
	samples, err := filepath.Glob("../../ingest/sample/*.pdn")
	if err != nil || len(samples) == 0 {
		t.Fatalf("ingest samples: %v %v", samples, err)
	}
	sum, err := ingest.Import(context.Background(), pool, append(samples, path), ingest.Options{BatchSize: batch})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("imported %d games", sum.Imported)
	return pool
}

// probesOf lists the positions of s with more than one game, one in every
// `every` of the others, and as many random absent positions.
func probesOf(s stats, every int, r *rand.Rand) []position {
	var out []position
	i := 0
	for _, p := range slices.SortedFunc(maps.Keys(s), comparePositions) {
		n := int64(0)
		for _, g := range s[p] {
			n += g[0] + g[1] + g[2] + g[3]
		}
		if i++; n > 1 || i%every == 0 {
			out = append(out, p)
		}
	}
	for range len(out) / 10 {
		p := position{20, int16(r.IntN(1024) - 512), r.IntN(4), r.Uint32()}
		if s[p] == nil {
			out = append(out, p)
		}
	}
	return out
}

func comparePositions(a, b position) int {
	return cmpAll(int(a.variant)-int(b.variant), int(a.bucket)-int(b.bucket), a.group-b.group, int(int64(a.hash)-int64(b.hash)))
}

func cmpAll(cs ...int) int {
	for _, c := range cs {
		if c != 0 {
			return c
		}
	}
	return 0
}

// TestOpeningEntriesSQLMatchesGo: draughtsdb_opening_entries expands every
// row of an import as the Go decoder does, entry by entry, and
// draughtsdb_opening_tree gives the rows' statistics at the positions they
// hold (every one with several games, a sample of the others) and nothing
// at absent ones.
func TestOpeningEntriesSQLMatchesGo(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	ctx := context.Background()
	pool := importGames(t, 3000, 700)
	rows := readRows(t, pool)
	if len(rows) == 0 {
		t.Fatal("no opening_index rows")
	}
	sqlRows, err := pool.Query(ctx, `SELECT o.ctid::text, e.hash_group, e.hash_bits, e.move_code, e.white_wins, e.draws, e.black_wins, e.other
		FROM (SELECT ctid, entries FROM opening_index ORDER BY ctid) o, LATERAL draughtsdb_opening_entries(o.entries) WITH ORDINALITY AS e
		ORDER BY o.ctid, e.ordinality`)
	if err != nil {
		t.Fatal(err)
	}
	var fromSQL []string
	for sqlRows.Next() {
		var ctid string
		var g, code, w, d, b, x int32
		var hash int64
		if err := sqlRows.Scan(&ctid, &g, &hash, &code, &w, &d, &b, &x); err != nil {
			t.Fatal(err)
		}
		fromSQL = append(fromSQL, fmt.Sprintf("%d %08x %d %d %d %d %d", g, hash, code, w, d, b, x))
	}
	if err := sqlRows.Err(); err != nil {
		t.Fatal(err)
	}
	var fromGo []string
	for _, r := range rows {
		if err := codec.DecodeOpeningEntries(r.entries, func(e codec.OpeningEntry) {
			fromGo = append(fromGo, fmt.Sprintf("%d %08x %d %d %d %d %d", e.Group, e.Hash, e.Code, e.Counts[0], e.Counts[1], e.Counts[2], e.Counts[3]))
		}); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(fromSQL, fromGo) {
		t.Fatalf("draughtsdb_opening_entries gives %d entries, the Go decoder %d (first difference at %d)", len(fromSQL), len(fromGo), firstDiff(fromSQL, fromGo))
	}
	s := decodeRows(t, rows)
	probes := probesOf(s, 20, rand.New(rand.NewPCG(1, 1)))
	checkTrees(t, pool, s, probes)
	t.Logf("%d rows, %d entries, %d positions, %d probed", len(rows), len(fromGo), len(s), len(probes))

	for _, bad := range []string{`'\x00'`, `substring(int4send(1) || int8send(0) || int8send(0) || int8send(0) FROM 1 FOR 32)`} {
		if _, err := pool.Exec(ctx, `SELECT * FROM draughtsdb_opening_entries(`+bad+`)`); err == nil {
			t.Errorf("draughtsdb_opening_entries(%s): no error", bad)
		}
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestOpeningTreeSearchesRows: draughtsdb_opening_tree finds a position's
// entries in rows built to mislead its search: its 32 hash bits also
// inside other entries (a single's move code and slot, a key's counts,
// across two entries) before its own or with none of its own; many moves
// of one position (hundreds of entries in a run, keys split over 65535);
// rows of thousands of entries (TOASTed); empty groups and segments.
func TestOpeningTreeSearchesRows(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	var source int64
	if err := pool.QueryRow(ctx, `INSERT INTO sources (name, sha256) VALUES ('built', 'built') RETURNING id`).Scan(&source); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	want := stats{}
	var probes []position
	var rows []storedRow
	for n := range 60 {
		variant := int16(20 + n%2)
		bucket := int16(r.IntN(6) - 3) // a few buckets, several rows each
		var st []codec.OpeningStat
		add := func(g int, hash uint32, c codec.MoveCode, games games) {
			st = append(st, codec.OpeningStat{Group: g, Hash: hash, Code: c, Games: [4]uint64{uint64(games[0]), uint64(games[1]), uint64(games[2]), uint64(games[3])}})
			want.add(position{variant, bucket, g, hash}, c, games)
		}
		randomGames := func() games {
			switch r.IntN(4) {
			case 0:
				return games{int64(r.IntN(3)), int64(r.IntN(3)), int64(r.IntN(3)), int64(r.IntN(2))}
			case 1:
				return games{70000 + int64(r.IntN(70000)), int64(r.IntN(3)), 65535, 0}
			}
			var g games
			g[r.IntN(4)] = 1
			return g
		}
		// Filler: random positions, more in some rows (TOASTed rows).
		fill := r.IntN(40)
		if n%10 == 0 {
			fill = 3000
		}
		groups := r.IntN(16)
		for range fill {
			if g := r.IntN(4); groups&(1<<g) != 0 {
				add(g, r.Uint32(), codec.MoveCode(r.Uint32N(1<<29)), randomGames())
			}
		}
		// A target whose bits appear earlier inside a single's second word
		// (code << 2 | slot), inside a key's counts, and across the
		// boundary of two singles; present or not.
		g := r.IntN(4)
		target := r.Uint32N(1<<30) | 1<<20 // < 2^30: a code << 2 | slot can equal it
		decoy := target - 1 - r.Uint32N(1<<10)
		var one games
		one[target&3] = 1
		add(g, decoy, codec.MoveCode(target>>2), one)
		add(g, decoy, 5, games{int64(target >> 16), int64(target & 0xFFFF), 0, 0})
		// Across two singles: the first's second word ends in target's
		// top 2 bytes, the next's hash starts with its low 2.
		h2 := target&0xFFFF<<16 | uint32(r.IntN(1<<16)) | 1
		top := target >> 16
		var first games
		first[top&3] = 1
		add(g, h2-1, codec.MoveCode(top>>2|uint32(r.IntN(1<<10))<<14), first)
		add(g, h2, 9, games{1, 0, 0, 0})
		probes = append(probes, position{variant, bucket, g, target}, position{variant, bucket, g, decoy})
		if n%3 != 0 {
			// Present: many moves (a run to gallop over), some split.
			for c := range 1 + r.IntN(300) {
				add(g, target, codec.MoveCode(c*7+1), randomGames())
			}
		}
		b, err := codec.AppendOpeningEntries(nil, st)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, storedRow{source, variant, bucket, b})
	}
	copyRows := make([][]any, len(rows))
	for i, r := range rows {
		copyRows[i] = []any{r.source, r.variant, r.bucket, r.entries}
	}
	if _, err := pool.CopyFrom(ctx, pgx.Identifier{"opening_index"}, []string{"source_id", "variant", "bucket", "entries"}, pgx.CopyFromRows(copyRows)); err != nil {
		t.Fatal(err)
	}
	checkToasted(t, pool)
	if got := decodeRows(t, readRows(t, pool)); !maps.EqualFunc(got, want, maps.Equal) {
		t.Fatal("the rows do not decode to the statistics built")
	}
	for p := range want {
		probes = append(probes, p)
	}
	checkTrees(t, pool, want, probes)
}

// checkToasted fails the test when no opening_index row is TOASTed: the
// tree is then not checked on rows read from the TOAST table.
func checkToasted(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	var toast string
	if err := pool.QueryRow(context.Background(), `SELECT reltoastrelid::regclass::text FROM pg_class WHERE oid = 'opening_index'::regclass`).Scan(&toast); err != nil {
		t.Fatal(err)
	}
	var chunks int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM `+toast).Scan(&chunks); err != nil || chunks == 0 {
		t.Fatalf("no TOASTed opening_index row (%d chunks in %s, %v)", chunks, toast, err)
	}
}

// oldRow is an opening_index row of migrations 0004-0011: one per import
// batch, variant and 12-bit prefix, in three arrays.
type oldRow struct {
	source                int64
	variant, prefix       int16
	singles, keys, counts []int64
}

// TestMigration0012ConvertsOpeningIndex: a database in the format before
// 0012, with the rows the import wrote then (here made from a current
// import's, one per batch, variant and prefix) and rows whose counts add up
// over 65535, gives the same draughtsdb_opening_tree before and after the
// migration; the converted rows (one per source, variant and bucket) are
// byte for byte what the Go encoder makes of the summed statistics, and the
// table is set and granted as 0007 and 0010 set the old one.
func TestMigration0012ConvertsOpeningIndex(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	ctx := context.Background()
	fresh := importGames(t, 7000, 1000)
	freshRows := readRows(t, fresh)
	want := decodeRows(t, freshRows)

	// The old rows, and what 0012 should make of them: per source,
	// variant and bucket, the stats to encode.
	type rowID struct {
		source          int64
		variant, bucket int16
	}
	bySource := map[rowID][]codec.OpeningStat{}
	var old []oldRow
	for _, r := range freshRows {
		var groups [codec.PositionGroups]oldRow
		err := codec.DecodeOpeningEntries(r.entries, func(e codec.OpeningEntry) {
			o := &groups[e.Group]
			key := int64(e.Hash)<<32 | int64(e.Code)<<2
			if e.Single {
				slot := int64(slices.Index(e.Counts[:], 1))
				o.singles = append(o.singles, key|slot)
			} else {
				o.keys = append(o.keys, key)
				o.counts = append(o.counts, packCounts(e.Counts[0], e.Counts[1], e.Counts[2], e.Counts[3]))
			}
			id := rowID{r.source, r.variant, r.bucket}
			bySource[id] = append(bySource[id], codec.OpeningStat{Group: e.Group, Hash: e.Hash, Code: e.Code,
				Games: [4]uint64{uint64(e.Counts[0]), uint64(e.Counts[1]), uint64(e.Counts[2]), uint64(e.Counts[3])}})
		})
		if err != nil {
			t.Fatal(err)
		}
		for g, o := range groups {
			if len(o.singles)+len(o.keys) > 0 {
				o.source, o.variant, o.prefix = r.source, r.variant, r.bucket<<2|int16(g)
				old = append(old, o)
			}
		}
	}
	// The most played position of the synthetic source gets three more
	// batches of one move whose counts add up to 120,000, 90,000,
	// 3 x 65,535 and 3 (three keys after 0012, the last with only black
	// wins), and a move with a single in one batch and a key in another.
	var top position
	var topGames int64 = -1
	for p, moves := range want {
		n := int64(0)
		for _, g := range moves {
			n += g[0] + g[1] + g[2] + g[3]
		}
		if n > topGames || n == topGames && comparePositions(p, top) < 0 {
			top, topGames = p, n
		}
	}
	var synthetic int64
	if err := fresh.QueryRow(ctx, `SELECT id FROM sources WHERE name LIKE '%synthetic.pdn'`).Scan(&synthetic); err != nil {
		t.Fatal(err)
	}
	key := int64(top.hash)<<32 | 12345<<2
	key2 := int64(top.hash)<<32 | 54321<<2
	for i := range 3 {
		o := oldRow{source: synthetic, variant: top.variant, prefix: top.bucket<<2 | int16(top.group),
			keys: []int64{key}, counts: []int64{packCounts(40000, 30000, 65535, 1)}}
		switch i {
		case 0:
			o.singles = []int64{key2 | codec.SlotBlackWins}
		case 1:
			o.keys, o.counts = append(o.keys, key2), append(o.counts, packCounts(1, 0, 2, 0))
		}
		old = append(old, o)
	}
	want.add(top, 12345, games{120000, 90000, 3 * 65535, 3})
	want.add(top, 54321, games{1, 0, 3, 0})
	id := rowID{synthetic, top.variant, top.bucket}
	bySource[id] = append(bySource[id],
		codec.OpeningStat{Group: top.group, Hash: top.hash, Code: 12345, Games: [4]uint64{120000, 90000, 3 * 65535, 3}},
		codec.OpeningStat{Group: top.group, Hash: top.hash, Code: 54321, Games: [4]uint64{1, 0, 3, 0}})

	// The old database: the migrations before 0012, the sources, the rows.
	ms, err := schema.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	var before []schema.Migration
	for _, m := range ms {
		if m.Version < 12 {
			before = append(before, m)
		}
	}
	pool, err := pgxpool.New(ctx, pgtest.NewEmptyDBURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if _, err := schema.Apply(ctx, pool, before); err != nil {
		t.Fatal(err)
	}
	srcs, err := fresh.Query(ctx, `SELECT id, name, sha256, opening_depth FROM sources`)
	if err != nil {
		t.Fatal(err)
	}
	srcRows, err := pgx.CollectRows(srcs, func(r pgx.CollectableRow) ([]any, error) {
		var id int64
		var name, sha string
		var depth *int16
		err := r.Scan(&id, &name, &sha, &depth)
		return []any{id, name, sha, depth}, err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range srcRows {
		if _, err := pool.Exec(ctx, `INSERT INTO sources (id, name, sha256, opening_depth) OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4)`, s...); err != nil {
			t.Fatal(err)
		}
	}
	copyRows := make([][]any, len(old))
	for i, o := range old {
		copyRows[i] = []any{o.source, o.variant, o.prefix, nonNil(o.singles), nonNil(o.keys), nonNil(o.counts)}
	}
	if _, err := pool.CopyFrom(ctx, pgx.Identifier{"opening_index"}, []string{"source_id", "variant", "prefix", "singles", "keys", "counts"}, pgx.CopyFromRows(copyRows)); err != nil {
		t.Fatal(err)
	}

	probes := probesOf(want, 16, rand.New(rand.NewPCG(2, 2)))
	t.Logf("%d old rows, %d positions, %d probed", len(old), len(want), len(probes))
	checkTrees(t, pool, want, probes) // the old rows hold the statistics
	applied, err := schema.Apply(ctx, pool, ms)
	if err != nil {
		t.Fatal(err)
	}
	if len(applied) != len(ms)-len(before) || applied[0].Version != 12 {
		t.Fatalf("applied %+v", applied)
	}
	checkTrees(t, pool, want, probes)

	// Every position: the converted rows, expanded in SQL, sum to want.
	sums, err := pool.Query(ctx, `SELECT o.variant, o.bucket, e.hash_group, e.hash_bits, e.move_code,
			sum(e.white_wins), sum(e.draws), sum(e.black_wins), sum(e.other)
		FROM opening_index o, draughtsdb_opening_entries(o.entries) e
		GROUP BY 1, 2, 3, 4, 5`)
	if err != nil {
		t.Fatal(err)
	}
	got := stats{}
	for sums.Next() {
		var p position
		var hash int64
		var code int32
		var g games
		if err := sums.Scan(&p.variant, &p.bucket, &p.group, &hash, &code, &g[0], &g[1], &g[2], &g[3]); err != nil {
			t.Fatal(err)
		}
		p.hash = uint32(hash)
		got.add(p, codec.MoveCode(code), g)
	}
	if err := sums.Err(); err != nil {
		t.Fatal(err)
	}
	if !maps.EqualFunc(got, want, maps.Equal) {
		t.Fatalf("the converted rows hold %d positions, want %d (or other games)", len(got), len(want))
	}

	// Byte for byte the Go encoder's rows, one per source, variant and
	// bucket; some TOASTed.
	converted := readRows(t, pool)
	if len(converted) != len(bySource) {
		t.Errorf("%d converted rows, want %d", len(converted), len(bySource))
	}
	for _, r := range converted {
		w, err := codec.AppendOpeningEntries(nil, bySource[rowID{r.source, r.variant, r.bucket}])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.entries, w) {
			t.Fatalf("source %d variant %d bucket %d: %d bytes, the Go encoder %d: %x...", r.source, r.variant, r.bucket, len(r.entries), len(w), r.entries[:min(64, len(r.entries))])
		}
	}
	checkToasted(t, pool)

	var options []string
	var readable bool
	if err := pool.QueryRow(ctx, `SELECT coalesce(reloptions, '{}'), has_table_privilege('draughtsdb_reader', 'opening_index', 'SELECT')
		FROM pg_class WHERE oid = 'opening_index'::regclass`).Scan(&options, &readable); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(options, "parallel_workers=0") || !readable {
		t.Errorf("opening_index options %v, readable by draughtsdb_reader %v", options, readable)
	}
}

func nonNil(s []int64) []int64 {
	if s == nil {
		return []int64{}
	}
	return s
}

// packCounts is an old row's counts: white << 48 | draws << 32 | black <<
// 16 | other.
func packCounts(w, d, b, o uint16) int64 {
	return int64(uint64(w)<<48 | uint64(d)<<32 | uint64(b)<<16 | uint64(o))
}
