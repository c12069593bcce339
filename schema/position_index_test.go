package schema_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
)

// indexGame is a stored game of these tests: its id and position hashes.
type indexGame struct {
	id     int64
	hashes []uint64
}

// popular are the positions many games reach (every game the first).
var popular = func() []uint64 {
	rng := rand.New(rand.NewPCG(9, 9))
	p := make([]uint64, 40)
	for i := range p {
		p[i] = rng.Uint64()
	}
	return p
}()

// randomGames makes n games from id first on, whose positions are drawn
// from the popular ones and at random (rare ones).
func randomGames(rng *rand.Rand, first int64, n int) []indexGame {
	pool := popular
	games := make([]indexGame, n)
	id := first
	for i := range games {
		id += int64(1 + rng.IntN(3)*rng.IntN(200)) // gaps, some over 255
		g := indexGame{id: id, hashes: []uint64{pool[0]}}
		for range 5 + rng.IntN(60) {
			if rng.IntN(4) == 0 {
				g.hashes = append(g.hashes, pool[rng.IntN(len(pool))])
			} else {
				g.hashes = append(g.hashes, rng.Uint64())
			}
		}
		games[i] = g
	}
	return games
}

// wantAt is what draughtsdb_games_at must return: every game with a
// position that agrees with h in the 44 bits the index keeps.
func wantAt(games []indexGame, h uint64) []int64 {
	var ids []int64
	for _, g := range games {
		for _, x := range g.hashes {
			if x>>20 == h>>20 {
				ids = append(ids, g.id)
				break
			}
		}
	}
	return ids
}

func gamesAt(t *testing.T, pool *pgxpool.Pool, h uint64) []int64 {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT id FROM draughtsdb_games_at($1) AS f(id) ORDER BY id`, int64(h))
	if err != nil {
		t.Fatal(err)
	}
	ids := []int64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}

func newSource(t *testing.T, pool *pgxpool.Pool, name string) int64 {
	t.Helper()
	var id int64
	if err := pool.QueryRow(context.Background(), `INSERT INTO sources (name, sha256) VALUES ($1, $1) RETURNING id`, name).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestPositionIndexSQLReadsGoRows: rows written by the Go encoder, as the
// import writes them (one per batch and bucket), read back by the SQL
// functions: draughtsdb_position_entries gives every entry the Go decoder
// gives, and draughtsdb_games_at the games of popular positions (rows over
// 2 KB, which PostgreSQL compresses or moves out of line), rare ones and
// absent ones.
func TestPositionIndexSQLReadsGoRows(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	rng := rand.New(rand.NewPCG(3, 4))
	src := newSource(t, pool, "go rows")
	var all []indexGame
	first := int64(1)
	for batch := range 3 {
		games := randomGames(rng, first, 400+batch*300)
		all = append(all, games...)
		first = games[len(games)-1].id + 1
		var buckets [codec.PositionBuckets][codec.PositionGroups][]uint64
		for _, g := range games {
			for _, h := range g.hashes {
				b := &buckets[int(codec.PositionBucket(h))+codec.PositionBuckets/2]
				b[codec.PositionGroup(h)] = append(b[codec.PositionGroup(h)], codec.PositionSlot(codec.PositionKey(h), uint32(g.id-games[0].id)))
			}
		}
		for i := range buckets {
			if len(buckets[i][0])+len(buckets[i][1])+len(buckets[i][2])+len(buckets[i][3]) == 0 {
				continue
			}
			entries := codec.AppendPositionEntries(nil, &buckets[i])
			if _, err := pool.Exec(ctx, `INSERT INTO position_index (source_id, first_game, bucket, entries) VALUES ($1, $2, $3, $4)`,
				src, games[0].id, int16(i-codec.PositionBuckets/2), entries); err != nil {
				t.Fatal(err)
			}
		}
	}
	var big int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM position_index WHERE length(entries) > 2048`).Scan(&big); err != nil || big == 0 {
		t.Fatalf("%d rows over 2 KB (err %v): the test needs some", big, err)
	}

	// Every entry, in SQL and in Go.
	rows, err := pool.Query(ctx, `SELECT p.first_game, p.entries, e.grp, e.key, e.game_id
		FROM position_index p, draughtsdb_position_entries(p.first_game, p.entries) e`)
	if err != nil {
		t.Fatal(err)
	}
	type entry struct {
		group int
		key   uint32
		id    int64
	}
	var sqlEntries, goEntries []entry
	seen := map[string]bool{}
	for rows.Next() {
		var first, key, id int64
		var group int32
		var b []byte
		if err := rows.Scan(&first, &b, &group, &key, &id); err != nil {
			t.Fatal(err)
		}
		sqlEntries = append(sqlEntries, entry{int(group), uint32(key), id})
		if !seen[string(b)] {
			seen[string(b)] = true
			if err := codec.DecodePositionEntries(first, b, func(g int, k uint32, id int64) { goEntries = append(goEntries, entry{g, k, id}) }); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range all {
		n += len(g.hashes)
	}
	cmp := func(a, b entry) int {
		if a.id != b.id {
			return int(a.id - b.id)
		}
		if a.group != b.group {
			return a.group - b.group
		}
		return int(int64(a.key) - int64(b.key))
	}
	slices.SortFunc(sqlEntries, cmp)
	slices.SortFunc(goEntries, cmp)
	if len(sqlEntries) != n || !slices.Equal(sqlEntries, goEntries) {
		t.Fatalf("SQL decodes %d entries, Go %d, the games hold %d", len(sqlEntries), len(goEntries), n)
	}

	// Lookups: the popular positions, a sample of the rare ones, a hash
	// that differs only below the 44 bits kept, and absent hashes.
	var probes []uint64
	for _, g := range all[:50] {
		probes = append(probes, g.hashes...)
	}
	probes = append(probes, all[7].hashes[3]^0xFFFFF, rng.Uint64(), rng.Uint64())
	for _, h := range probes {
		want := wantAt(all, h)
		if want == nil {
			want = []int64{}
		}
		if got := gamesAt(t, pool, h); !slices.Equal(got, want) {
			t.Fatalf("games at %x: %d games, want %d", h, len(got), len(want))
		}
	}
	if got := gamesAt(t, pool, all[0].hashes[0]); len(got) != len(all) {
		t.Fatalf("the position of every game: %d games, want %d", len(got), len(all))
	}
}

// TestMigration0011ConvertsOldRows: a database of the format before 0011
// (one row per batch and 12-bit prefix of bigint entries) is converted by
// 0011 so that every lookup gives the games it gave before.
func TestMigration0011ConvertsOldRows(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	ctx := context.Background()
	pool := newPool(t)
	all, err := schema.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	at := slices.IndexFunc(all, func(m schema.Migration) bool { return m.Version == 11 })
	if at < 0 {
		t.Fatal("no migration 0011")
	}
	if _, err := schema.Apply(ctx, pool, all[:at]); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var games []indexGame
	for s, n := range []int{1200, 300, 5300} {
		src := newSource(t, pool, "old "+string(rune('a'+s)))
		first := int64(1)
		if len(games) > 0 {
			first = games[len(games)-1].id + 1
		}
		batch := randomGames(rng, first, n)
		games = append(games, batch...)
		// The old importer: per batch of up to 5,000 games, one row per prefix.
		for lo := 0; lo < len(batch); lo += 5000 {
			var buckets [4096][]int64
			for _, g := range batch[lo:min(lo+5000, len(batch))] {
				for _, h := range g.hashes {
					buckets[int(codec.PositionPrefix(h))+2048] = append(buckets[int(codec.PositionPrefix(h))+2048], codec.PositionEntry(h, g.id))
				}
			}
			var rows [][]any
			for i := range buckets {
				if len(buckets[i]) > 0 {
					rows = append(rows, []any{src, int16(i - 2048), buckets[i]})
				}
			}
			if _, err := pool.CopyFrom(ctx, pgx.Identifier{"position_index"}, []string{"source_id", "prefix", "entries"}, pgx.CopyFromRows(rows)); err != nil {
				t.Fatal(err)
			}
		}
	}
	var probes []uint64
	for _, g := range games[:4] {
		probes = append(probes, g.hashes...)
	}
	for _, g := range games[len(games)-4:] {
		probes = append(probes, g.hashes...)
	}
	before := make([][]int64, len(probes))
	for i, h := range probes {
		before[i] = gamesAt(t, pool, h)
		if want := wantAt(games, h); !slices.Equal(before[i], want) {
			t.Fatalf("before 0011, games at %x: %d, want %d", h, len(before[i]), len(want))
		}
	}
	if _, err := schema.Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	for i, h := range probes {
		if got := gamesAt(t, pool, h); !slices.Equal(got, before[i]) {
			t.Fatalf("after 0011, games at %x: %d, before %d", h, len(got), len(before[i]))
		}
	}
	var entries, total int64
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM position_index p, draughtsdb_position_entries(p.first_game, p.entries)`).Scan(&entries); err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		total += int64(len(g.hashes))
	}
	if entries != total {
		t.Fatalf("after 0011: %d entries, the games hold %d", entries, total)
	}
	// A source's rows still go with it.
	if _, err := pool.Exec(ctx, `DELETE FROM sources WHERE name = 'old b'`); err != nil {
		t.Fatal(err)
	}
	if got := gamesAt(t, pool, games[0].hashes[0]); len(got) != 1200+5300 {
		t.Fatalf("after deleting a source, %d games at the first position, want %d", len(got), 1200+5300)
	}
}
