package ingest

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
	"github.com/draughtsdb/draughtsdb/schema/pgtest"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

func TestMain(m *testing.M) {
	if os.Getenv("DRAUGHTSDB_IMPORT_CHILD") != "" {
		os.Exit(importChild())
	}
	pgtest.Main(m)
}

// sharedDir holds gzipped copies of every shared PDN archive.
const sharedDir = "pdn/testdata/shared"

// writeSynth writes n synthetic games of v to dir and returns the path.
func writeSynth(t testing.TB, dir string, v *rules.Variant, n int, seed uint64) string {
	t.Helper()
	path := filepath.Join(dir, fmt.Sprintf("%s-%d.pdn", v.Name, seed))
	var b bytes.Buffer
	if err := synth.Write(&b, synth.Options{Variant: v, Games: n, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// snapshot is the content of a database that an import decides: every
// game read, by source text and ordinal, and where it went; every
// position_index entry (its bucket, group and 32 hash bits, and the game's
// ordinal and moves, not its id, which a re-import changes); and the
// opening statistics per (variant, position, move) summed over the rows.
// The packed index columns are decoded in Go (package codec, which the
// schema tests check against the SQL functions) rather than by those
// PL/pgSQL functions: on the shared archives they took minutes, this takes
// seconds. The position entries are folded into a count and an
// order-independent hash, so that a million of them take no memory.
func snapshot(t testing.TB, pool querier) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	scan := func(sql string, fn func(pgx.Rows) error) {
		t.Helper()
		rows, err := pool.Query(ctx, sql)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			if err := fn(rows); err != nil {
				t.Fatal(err)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	// Each game's identity: the source's text and the ordinal in it.
	ident := map[int64]uint64{}
	scan(`SELECT g.id, s.sha256, g.ordinal, g.moves_hash FROM games g JOIN sources s ON s.id = g.source_id`, func(r pgx.Rows) error {
		var id int64
		var sha string
		var ord int
		var hash int64
		if err := r.Scan(&id, &sha, &ord, &hash); err != nil {
			return err
		}
		out = append(out, fmt.Sprintf("%s %d game %d", sha, ord, hash))
		// Not the source's sha256: the append tests compare databases
		// whose sources differ only in that.
		ident[id] = mix(uint64(hash) ^ mix(uint64(ord)))
		return nil
	})
	scan(`SELECT s.sha256 || ' ' || r.ordinal || ' rejected ' || r.reason FROM rejected_games r JOIN sources s ON s.id = r.source_id
		UNION ALL
		SELECT s.sha256 || ' ' || d.ordinal || ' duplicate of ' || coalesce(o.sha256, 'no source') || ' ' || d.of_ordinal
		FROM duplicates d JOIN sources s ON s.id = d.source_id LEFT JOIN sources o ON o.id = d.of_source_id`, func(r pgx.Rows) error {
		var s string
		err := r.Scan(&s)
		out = append(out, s)
		return err
	})
	var positions, sum, xor, missing uint64
	scan(`SELECT first_game, bucket, entries FROM position_index`, func(r pgx.Rows) error {
		var first int64
		var bucket int16
		var entries []byte
		if err := r.Scan(&first, &bucket, &entries); err != nil {
			return err
		}
		return codec.DecodePositionEntries(first, entries, func(group int, key uint32, id int64) {
			g, ok := ident[id]
			if !ok {
				// Not a game: the id itself, so that the hash still differs.
				missing++
				g = ^mix(uint64(id))
			}
			m := mix(g ^ mix(uint64(uint16(bucket))<<40|uint64(group)<<32|uint64(key)))
			positions++
			sum += m
			xor ^= m
		})
	})
	out = append(out, fmt.Sprintf("position %d %x %x, %d of no game", positions, sum, xor, missing))
	type openingKey struct {
		variant, bucket int16
		group           int
		hash            uint32
		code            codec.MoveCode
	}
	openings := map[openingKey][4]uint64{}
	scan(`SELECT variant, bucket, entries FROM opening_index`, func(r pgx.Rows) error {
		var variant, bucket int16
		var entries []byte
		if err := r.Scan(&variant, &bucket, &entries); err != nil {
			return err
		}
		return codec.DecodeOpeningEntries(entries, func(e codec.OpeningEntry) {
			k := openingKey{variant, bucket, e.Group, e.Hash, e.Code}
			c := openings[k]
			for i, n := range e.Counts {
				c[i] += uint64(n)
			}
			openings[k] = c
		})
	})
	for k, c := range openings {
		out = append(out, fmt.Sprintf("opening %d %d %d %d %v", k.variant, int(k.bucket)*4+k.group, k.hash, k.code, c))
	}
	slices.Sort(out)
	return out
}

// querier is a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// mix is splitmix64's finaliser: a bijection that spreads every input bit
// over the output, so that sums of mixed values tell multisets apart.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// TestSnapshotSeesEveryTable: the helper that the import tests compare
// databases with notices a change to any table it reads.
func TestSnapshotSeesEveryTable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	// 40 games, 10 of them again in a second file with a game that does
	// not replay: games, duplicates and a rejection.
	first := writeSynth(t, dir, rules.Russian, 40, 8)
	var b bytes.Buffer
	if err := synth.Write(&b, synth.Options{Variant: rules.Russian, Games: 10, Seed: 8}); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n[Event \"bad\"]\n[GameType \"25\"]\n1. c3-d4 c3-d4 *\n")
	second := filepath.Join(dir, "second.pdn")
	if err := os.WriteFile(second, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	pool := pgtest.NewDB(t)
	sum, err := Import(ctx, pool, []string{first, second}, Options{BatchSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Imported != 40 || sum.Duplicates != 10 || sum.Rejected != 1 {
		t.Fatalf("import: %+v, want 40 games, 10 duplicates, 1 rejected", sum)
	}
	before := snapshot(t, pool)
	for _, change := range []string{
		`UPDATE games SET moves_hash = moves_hash + 1 WHERE id = (SELECT max(id) FROM games)`,
		`DELETE FROM rejected_games`,
		`DELETE FROM duplicates WHERE ctid = (SELECT min(ctid) FROM duplicates)`,
		// One byte of one position's hash bits; then the game ids of a row.
		`UPDATE position_index SET entries = set_byte(entries, 16, get_byte(entries, 16) # 1) WHERE ctid = (SELECT min(ctid) FROM position_index)`,
		`UPDATE position_index SET first_game = first_game + 1 WHERE ctid = (SELECT min(ctid) FROM position_index)`,
		`DELETE FROM opening_index WHERE ctid = (SELECT min(ctid) FROM opening_index)`,
	} {
		tx, err := pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, change); err != nil {
			t.Fatalf("%s: %v", change, err)
		}
		if after := snapshot(t, tx); slices.Equal(before, after) {
			t.Errorf("the snapshot does not see %s", change)
		}
		if err := tx.Rollback(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if again := snapshot(t, pool); !slices.Equal(before, again) {
		t.Error("the snapshot differs on the same database")
	}
}

func count(t testing.TB, pool *pgxpool.Pool, sql string) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), sql).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestImportSharedArchives(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	sum, err := Import(ctx, pool, []string{sharedDir}, Options{BatchSize: 500})
	if err != nil {
		t.Fatal(err)
	}
	if sum.SourcesFailed != 0 || sum.Sources < 80 {
		t.Fatalf("summary %+v", sum)
	}
	if sum.GamesRead != sum.Imported+sum.Duplicates+sum.Rejected {
		t.Fatalf("read %d != imported %d + duplicates %d + rejected %d", sum.GamesRead, sum.Imported, sum.Duplicates, sum.Rejected)
	}
	// Per source: every game read is in exactly one table.
	bad := count(t, pool, `SELECT count(*) FROM sources s WHERE status <> 'done'
		OR games_read <> (SELECT count(*) FROM games g WHERE g.source_id = s.id)
		              + (SELECT count(*) FROM rejected_games r WHERE r.source_id = s.id)
		              + (SELECT count(*) FROM duplicates d WHERE d.source_id = s.id)
		OR games_read <> games_imported + duplicates + rejected`)
	if bad != 0 {
		t.Fatalf("%d sources where games read != games + rejected + duplicates", bad)
	}
	if n := count(t, pool, `SELECT count(*) FROM games`); n != sum.Imported {
		t.Fatalf("games table has %d, summary says %d", n, sum.Imported)
	}
	// OCA: 22,621 games, every one accepted.
	if n := count(t, pool, `SELECT games_imported + duplicates FROM sources WHERE name LIKE '%english/OCA_2.0.pdn.gz'`); n != 22621 {
		t.Fatalf("OCA: %d games accepted, want 22621", n)
	}
	before := snapshot(t, pool)

	again, err := Import(ctx, pool, []string{sharedDir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Imported != 0 || again.GamesRead != 0 || again.SourcesSkipped != sum.Sources {
		t.Fatalf("second run: %+v, want every source skipped", again)
	}
	if after := snapshot(t, pool); !slices.Equal(before, after) {
		t.Fatal("second run changed the database")
	}

	// --force re-imports a source and ends where it started: OCA_2.0's
	// games are the originals of testsuite/succeed/OCA_2.0.pdn's 43
	// duplicates, whose links follow it to its new id (they pointed at
	// the deleted source).
	for _, dir := range []string{"international", "english"} {
		forced, err := Import(ctx, pool, []string{filepath.Join(sharedDir, dir)}, Options{Force: true})
		if err != nil {
			t.Fatal(err)
		}
		if forced.Imported == 0 || forced.SourcesSkipped != 0 {
			t.Fatalf("--force %s: %+v", dir, forced)
		}
		if after := snapshot(t, pool); !slices.Equal(before, after) {
			t.Fatalf("--force re-import of %s does not give the same database", dir)
		}
	}
	if n := count(t, pool, `SELECT count(*) FROM duplicates d JOIN sources o ON o.id = d.of_source_id WHERE o.name LIKE '%english/OCA_2.0.pdn.gz'`); n < 40 {
		t.Fatalf("%d duplicates of OCA_2.0's games; the test checks nothing", n)
	}
}

func TestPositionIndexFindsEveryPly(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	dir := t.TempDir()
	path := writeSynth(t, dir, rules.International, 200, 3)
	if _, err := Import(ctx, pool, []string{path}, Options{BatchSize: 64}); err != nil {
		t.Fatal(err)
	}
	// Replay game 17 in Go and look up every position it passes through.
	var b bytes.Buffer
	synth.Write(&b, synth.Options{Variant: rules.International, Games: 17, Seed: 3})
	var id int64
	if err := pool.QueryRow(ctx, `SELECT id FROM games WHERE ordinal = 17`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	hashes := replayHashes(t, b.Bytes(), 17)
	for ply, h := range hashes {
		rows, err := pool.Query(ctx, `SELECT draughtsdb_games_at($1)`, int64(h))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for rows.Next() {
			var g int64
			rows.Scan(&g)
			found = found || g == id
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if !found {
			t.Fatalf("ply %d: game %d not found by its position hash %x", ply, id, h)
		}
	}
	// The start position is reached by all 200 games; a position no game
	// reaches, by none.
	if n := count(t, pool, fmt.Sprintf(`SELECT count(*) FROM draughtsdb_games_at(%d)`, int64(hashes[0]))); n != 200 {
		t.Fatalf("start position found in %d games, want 200", n)
	}
	if n := count(t, pool, `SELECT count(*) FROM draughtsdb_games_at(1234567)`); n != 0 {
		t.Fatalf("a position no game reaches found in %d games", n)
	}
}

// TestResumeAfterCancel cancels imports at random batches and checks that
// re-running them gives the database an uninterrupted import gives.
func TestResumeAfterCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	paths := []string{
		writeSynth(t, dir, rules.International, 900, 1),
		writeSynth(t, dir, rules.Russian, 700, 2),
		filepath.Join(sharedDir, "testsuite"), // rejections and duplicates too
	}
	ref := pgtest.NewDB(t)
	if _, err := Import(ctx, ref, paths, Options{BatchSize: 100}); err != nil {
		t.Fatal(err)
	}
	want := snapshot(t, ref)

	// The attempts are independent (a database each): in parallel.
	seed := uint64(time.Now().UnixNano())
	for attempt := range 3 {
		t.Run(fmt.Sprintf("attempt%d", attempt), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(seed, uint64(attempt)))
			pool := pgtest.NewDB(t)
			stops := 0
			for run := 0; ; run++ {
				cctx, cancel := context.WithCancel(ctx)
				at, events := 1+rng.IntN(12), 0
				sum, err := Import(cctx, pool, paths, Options{BatchSize: 100, Workers: 2, Progress: func(_, _ int64, _ int) {
					if events++; events == at {
						cancel()
					}
				}})
				cancel()
				if err == nil {
					if sum.SourcesFailed != 0 {
						t.Fatalf("attempt %d run %d: %+v", attempt, run, sum)
					}
					break
				}
				// Interrupted, the summary counts the games of the
				// committed batches, not those the readers had reached.
				if sum == nil || sum.GamesRead != sum.Imported+sum.Duplicates+sum.Rejected {
					t.Fatalf("attempt %d run %d, interrupted: %+v", attempt, run, sum)
				}
				stops++
				if run > 200 {
					t.Fatal("import never finished")
				}
			}
			if stops == 0 {
				t.Fatalf("attempt %d: the import was never interrupted", attempt)
			}
			if got := snapshot(t, pool); !slices.Equal(got, want) {
				t.Fatalf("attempt %d (%d interruptions): database differs from an uninterrupted import (%d vs %d rows)", attempt, stops, len(got), len(want))
			}
			t.Logf("attempt %d (seed %d): equal after %d interruptions", attempt, seed, stops)
		})
	}
}

// TestResumeAfterKill kills an importing child process with SIGKILL and
// re-runs the import.
func TestResumeAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	paths := []string{writeSynth(t, dir, rules.International, 3000, 5), writeSynth(t, dir, rules.English, 1000, 6)}
	ref := pgtest.NewDB(t)
	if _, err := Import(ctx, ref, paths, Options{BatchSize: 50}); err != nil {
		t.Fatal(err)
	}
	want := snapshot(t, ref)

	url := pgtest.NewDBURL(t)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), "DRAUGHTSDB_IMPORT_CHILD="+url, "DRAUGHTSDB_IMPORT_PATHS="+paths[0]+string(os.PathListSeparator)+paths[1])
	child.Stderr = os.Stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- child.Wait() }()
	// Kill it once some batches, but not all, are committed. The child
	// stops reading at 2,000 games (importChild), so it cannot finish
	// first however slowly this loop runs; no time limit either way.
	for {
		if n := count(t, pool, `SELECT coalesce(sum(games_read), 0) FROM sources`); n >= 500 {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("the child exited (%v) before committing 500 games", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-exited
	committed := count(t, pool, `SELECT coalesce(sum(games_read), 0) FROM sources`)
	if committed >= 4000 {
		t.Fatalf("the child finished (%d games) before it was killed", committed)
	}
	sum, err := Import(ctx, pool, paths, Options{BatchSize: 50})
	if err != nil {
		t.Fatal(err)
	}
	if sum.SourcesResumed == 0 {
		t.Fatalf("no source resumed: %+v", sum)
	}
	if got := snapshot(t, pool); !slices.Equal(got, want) {
		t.Fatalf("after kill -9 at %d games and a re-run: database differs from an uninterrupted import", committed)
	}
}

// importChild is the child process of TestResumeAfterKill: a slow import
// that stops reading at 2,000 of its 4,000 games and waits to be killed.
func importChild() int {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("DRAUGHTSDB_IMPORT_CHILD"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	paths := filepath.SplitList(os.Getenv("DRAUGHTSDB_IMPORT_PATHS"))
	_, err = Import(ctx, pool, paths, Options{BatchSize: 50, SpoolDir: os.Getenv("DRAUGHTSDB_IMPORT_SPOOL"),
		Progress: func(_, _ int64, games int) {
			if games >= 2000 {
				time.Sleep(time.Hour) // until killed
			}
			time.Sleep(5 * time.Millisecond)
		}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func TestBadInputsFailAloneAndTheRestIsImported(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	dir := t.TempDir()
	good := writeSynth(t, dir, rules.Russian, 120, 9)
	raw, _ := os.ReadFile(good)

	// A .gz whose stream is corrupt after a valid start.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw)
	zw.Close()
	corrupt := gz.Bytes()
	for i := len(corrupt) / 2; i < len(corrupt)/2+64; i++ {
		corrupt[i] ^= 0x5a
	}
	badGz := filepath.Join(dir, "corrupt.pdn.gz")
	os.WriteFile(badGz, corrupt, 0o644)

	// A zip cut short (no central directory).
	var zb bytes.Buffer
	zwr := zip.NewWriter(&zb)
	f, _ := zwr.Create("games.pdn")
	f.Write(raw)
	zwr.Close()
	truncated := filepath.Join(dir, "truncated.zip")
	os.WriteFile(truncated, zb.Bytes()[:zb.Len()*2/3], 0o644)

	// An unreadable file: mode 000 for an ordinary user; root reads
	// anything, so there a path whose target is gone.
	unreadable := filepath.Join(dir, "unreadable.pdn")
	if os.Geteuid() == 0 {
		os.Symlink(filepath.Join(dir, "gone.pdn"), unreadable)
	} else {
		os.WriteFile(unreadable, raw, 0o000)
	}

	good2 := writeSynth(t, dir, rules.Brazilian, 80, 10)
	var notices []string
	sum, err := Import(ctx, pool, []string{good, badGz, truncated, unreadable, good2}, Options{Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if sum.SourcesFailed != 3 {
		t.Fatalf("%d sources failed, want 3: %+v\n%v", sum.SourcesFailed, sum, notices)
	}
	if sum.Imported != 200 {
		t.Fatalf("imported %d games, want the 200 of the good files", sum.Imported)
	}
	for _, name := range []string{"corrupt.pdn.gz", "truncated.zip", "unreadable.pdn"} {
		found := false
		for _, n := range notices {
			found = found || bytes.Contains([]byte(n), []byte(name))
		}
		if !found {
			t.Errorf("no notice names %s: %v", name, notices)
		}
	}
}

// replayHashes replays game number ordinal of a PDN text and returns the
// hashes of the start position and after every ply.
func replayHashes(t testing.TB, text []byte, ordinal int) []uint64 {
	t.Helper()
	rd := pdn.NewReader(bytes.NewReader(text), "gen.pdn")
	r := replay.NewReplayer(replay.Options{})
	for {
		pg, err := rd.Next()
		if err != nil {
			t.Fatalf("game %d not found: %v", ordinal, err)
		}
		if pg.Ordinal != ordinal {
			continue
		}
		var g replay.Game
		if err := r.Replay(pg, nil, &g); err != nil {
			t.Fatal(err)
		}
		return append([]uint64{g.Start.Hash()}, g.Hashes...)
	}
}

// TestOpeningDepth: the statistics count the plies the import was told to,
// and the source records the depth.
func TestOpeningDepth(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewDB(t)
	path := writeSynth(t, t.TempDir(), rules.Russian, 200, 9)
	if _, err := Import(ctx, pool, []string{path}, Options{OpeningDepth: 2}); err != nil {
		t.Fatal(err)
	}
	if d := count(t, pool, `SELECT opening_depth FROM sources`); d != 2 {
		t.Fatalf("sources.opening_depth %d", d)
	}
	// Every game's first two plies and nothing else: 200 entries at the
	// start (one per game) and 200 at ply 1, spread over the positions.
	entries := openingEntries(t, pool)
	if entries != 400 {
		t.Fatalf("%d entries for 200 games at depth 2, want 400", entries)
	}
	start := rules.Russian.StartPosition()
	if n := count(t, pool, `SELECT coalesce(sum(games), 0)::int FROM draughtsdb_opening_tree(25, `+strconv.FormatInt(int64(start.Hash()), 10)+`)`); n != 200 {
		t.Fatalf("tree at the start counts %d games, want 200", n)
	}
}

// TestRebuildOpenings: statistics rebuilt from the stored games
// (openings.Rebuild) equal the import's, for sources imported without them
// (before migration 0004) and at another depth.
func TestRebuildOpenings(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	paths := []string{writeSynth(t, dir, rules.International, 700, 11), filepath.Join(sharedDir, "testsuite")}
	ref := pgtest.NewDB(t)
	if _, err := Import(ctx, ref, paths, Options{BatchSize: 100}); err != nil {
		t.Fatal(err)
	}
	want := snapshot(t, ref)

	pool := pgtest.NewDB(t)
	if _, err := Import(ctx, pool, paths, Options{BatchSize: 100}); err != nil {
		t.Fatal(err)
	}
	// As a database from before the statistics.
	if _, err := pool.Exec(ctx, `DELETE FROM opening_index; UPDATE sources SET opening_depth = NULL`); err != nil {
		t.Fatal(err)
	}
	sum, err := openings.Rebuild(ctx, pool, openings.RebuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	games := count(t, pool, `SELECT count(*) FROM games`)
	if sum.Games+sum.Undecodable != games || sum.Sources != count(t, pool, `SELECT count(*) FROM sources`) {
		t.Fatalf("rebuilt %+v of %d games", sum, games)
	}
	if got := snapshot(t, pool); !slices.Equal(got, want) {
		t.Fatalf("rebuilt statistics differ from the import's (%d undecodable games)", sum.Undecodable)
	}
	t.Logf("rebuilt %+v", sum)
	// Nothing to do a second time; another depth rebuilds everything.
	if again, err := openings.Rebuild(ctx, pool, openings.RebuildOptions{}); err != nil || again.Sources != 0 {
		t.Fatalf("second rebuild: %+v %v", again, err)
	}
	if _, err := openings.Rebuild(ctx, pool, openings.RebuildOptions{Depth: 2}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, pool, `SELECT count(*) FROM sources WHERE opening_depth <> 2`); n != 0 {
		t.Fatalf("%d sources not at depth 2", n)
	}
	entries := openingEntries(t, pool)
	if sum.Undecodable != 0 {
		t.Fatalf("%d games could not be decoded", sum.Undecodable)
	}
	if two := count(t, pool, `SELECT (count(*) FILTER (WHERE ply_count >= 2) * 2 + count(*) FILTER (WHERE ply_count = 1))::int FROM games`); entries != two {
		t.Fatalf("%d entries at depth 2, games give %d", entries, two)
	}
}

// openingEntries is the number of (game, ply) entries in the opening
// statistics: the summed counts plus the singles.
func openingEntries(t *testing.T, pool *pgxpool.Pool) int {
	t.Helper()
	return count(t, pool, `SELECT coalesce(sum(e.white_wins + e.draws + e.black_wins + e.other), 0)::int
		FROM opening_index o, draughtsdb_opening_entries(o.entries) e`)
}

// TestImportLendsAProcessor: while Import runs, Go has one processor more
// than the CPUs (the writer's network goroutines find one idle; see Import),
// and afterwards as many as before. Left alone when GOMAXPROCS is set.
func TestImportLendsAProcessor(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: skipped under -short")
	}
	if os.Getenv("GOMAXPROCS") != "" || runtime.GOMAXPROCS(0) != runtime.NumCPU() {
		t.Skip("GOMAXPROCS is set: Import leaves it")
	}
	pool := pgtest.NewDB(t)
	path := writeSynth(t, t.TempDir(), rules.International, 50, 3)
	during := 0
	_, err := Import(context.Background(), pool, []string{path}, Options{Progress: func(_, _ int64, _ int) {
		during = max(during, runtime.GOMAXPROCS(0))
	}})
	if err != nil {
		t.Fatal(err)
	}
	if want := runtime.NumCPU() + 1; during != want {
		t.Errorf("GOMAXPROCS during the import %d, want %d", during, want)
	}
	if after := runtime.GOMAXPROCS(0); after != runtime.NumCPU() {
		t.Errorf("GOMAXPROCS after the import %d, want %d", after, runtime.NumCPU())
	}
}
