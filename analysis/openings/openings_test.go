package openings

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// TestGameEntriesCountsAPositionOnce: a game that comes back to a position
// counts there once, and only the first depth plies count.
func TestGameEntriesCountsAPositionOnce(t *testing.T) {
	t.Parallel()
	// Two kings shuffle: positions repeat every 4 plies.
	v := rules.Russian
	g, err := replay.PlayLine(v, "W:WKc1:BKh8", []string{"c1-d2", "h8-g7", "d2-c1", "g7-h8", "c1-d2", "h8-g7"})
	if err != nil {
		t.Fatal(err)
	}
	hashes := append([]uint64{g.Start.Hash()}, g.Hashes...)
	entries := GameEntries(nil, hashes, g.Moves, 40)
	if len(entries) != 4 {
		t.Fatalf("%d entries for 4 distinct positions: %+v", len(entries), entries)
	}
	for i, e := range entries {
		if int(e.Ply) != i || e.Hash != hashes[i] || e.Code != codec.MoveCodeOf(&g.Moves[i]) {
			t.Errorf("entry %d: %+v", i, e)
		}
	}
	if n := len(GameEntries(nil, hashes, g.Moves, 3)); n != 3 {
		t.Errorf("depth 3: %d entries", n)
	}
}

// TestBatchRows: entries merge per (variant, position, move), results go
// to their slots, a count over 65535 is split, and each row holds one
// variant's entries of one bucket, in their groups, sorted.
func TestBatchRows(t *testing.T) {
	t.Parallel()
	var b Batch
	// h1 and h2 share a bucket and differ in group; h3 is in another
	// bucket; h4 has h1's group and a smaller hash.
	const (
		h1 = uint64(0x8123456789abcdef)
		h2 = h1 ^ 1<<53
		h3 = uint64(0x0123456789abcdef)
		h4 = h1 &^ (1 << 40)
	)
	e := []Entry{{Hash: h1, Code: 77}, {Hash: h2, Code: 5}, {Hash: h3, Code: 9}, {Hash: h4, Code: 3}}
	for i := 0; i < 70000; i++ {
		b.Add(20, 1, e[:1], 40)
	}
	b.Add(20, 2, e, 40)
	b.Add(25, 3, e[1:3], 40)
	b.Add(25, 0, e[1:3], 40)
	b.Add(25, 4, e[2:3], 40)
	b.Add(20, 1, []Entry{{Hash: h3, Code: 1, Ply: 40}}, 40) // beyond the depth
	type id struct {
		variant, bucket int16
		group           int
		hash            uint32
		code            codec.MoveCode
	}
	idOf := func(variant int16, e Entry) id {
		return id{variant, codec.PositionBucket(e.Hash), codec.PositionGroup(e.Hash), codec.PositionKey(e.Hash), e.Code}
	}
	sum := map[id][4]int{}
	n := map[id]int{}
	singles := 0
	rows := map[[2]int16]bool{}
	for _, r := range b.Rows() {
		if rows[[2]int16{r.Variant, r.Bucket}] {
			t.Errorf("two rows of variant %d bucket %d", r.Variant, r.Bucket)
		}
		rows[[2]int16{r.Variant, r.Bucket}] = true
		var prev *codec.OpeningEntry
		err := codec.DecodeOpeningEntries(r.Entries, func(oe codec.OpeningEntry) {
			if prev != nil && prev.Single == oe.Single && prev.Group == oe.Group && (prev.Hash > oe.Hash || prev.Hash == oe.Hash && prev.Code > oe.Code) {
				t.Errorf("variant %d bucket %d: %+v after %+v", r.Variant, r.Bucket, oe, *prev)
			}
			prev = &oe
			k := id{r.Variant, r.Bucket, oe.Group, oe.Hash, oe.Code}
			s := sum[k]
			for j, c := range oe.Counts {
				s[j] += int(c)
			}
			sum[k] = s
			n[k]++
			if oe.Single {
				singles++
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	want := map[id][4]int{
		idOf(20, e[0]): {70000, 1, 0, 0},
		idOf(20, e[1]): {0, 1, 0, 0},
		idOf(20, e[2]): {0, 1, 0, 0},
		idOf(20, e[3]): {0, 1, 0, 0},
		idOf(25, e[1]): {0, 0, 1, 1},
		idOf(25, e[2]): {0, 0, 1, 2},
	}
	if len(sum) != len(want) {
		t.Fatalf("entries %v", sum)
	}
	for k, c := range want {
		if sum[k] != c {
			t.Errorf("%+v: %v, want %v", k, sum[k], c)
		}
	}
	if singles != 3 { // the draws at h2, h3 and h4 in variant 20
		t.Errorf("%d singles, want 3", singles)
	}
	if len(rows) != 4 { // two variants, two buckets
		t.Errorf("%d rows, want 4", len(rows))
	}
	if k := idOf(20, e[0]); n[k] != 2 {
		t.Errorf("70,001 games in one entry should split in 2, got %d", n[k])
	}
	b.Reset()
	if len(b.Rows()) != 0 {
		t.Error("Reset left rows")
	}
}

// TestBallotNames: a ballot's name stands for the position its moves reach.
func TestBallotNames(t *testing.T) {
	t.Parallel()
	all, err := LoadBallots(filepath.Join("testdata", "ballots"))
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		name    string
		variant int16
	}
	named := map[key]NamedPosition{}
	for _, n := range all {
		named[key{n.Name, n.Variant}] = n
	}
	for _, c := range []struct {
		v     *rules.Variant
		name  string
		moves []string
	}{
		{rules.Russian, "I-1: ab4", []string{"a3-b4"}},
		{rules.Russian, "I-2: ab4 ba5", []string{"a3-b4", "b6-a5"}},
		{rules.Brazilian, "I-2: ab4 ba5", []string{"a3-b4", "b6-a5"}},
		{rules.English, "01 9-13 21-17", []string{"9-13", "21-17"}},
		{rules.English, "001 09-13 21-17 05-09", []string{"9-13", "21-17", "5-9"}},
	} {
		pos, err := replay.PositionAfter(c.v, "", c.moves)
		if err != nil {
			t.Fatal(err)
		}
		n, ok := named[key{c.name, int16(c.v.GameType)}]
		if !ok {
			t.Errorf("%s: no ballot %q", c.v.Name, c.name)
			continue
		}
		if n.Hash != pos.Hash() {
			t.Errorf("%s %q: hash %x, its moves reach %x (%s)", c.v.Name, c.name, n.Hash, pos.Hash(), pos.FEN())
		}
	}
}

// TestBallotMigrationUpToDate: migration 0005 is still the bytes that
// databases applied, and the newest *_opening_names migration loads exactly
// the names of testdata/ballots (go generate adds one when they differ).
func TestBallotMigrationUpToDate(t *testing.T) {
	t.Parallel()
	named, err := LoadBallots(filepath.Join("testdata", "ballots"))
	if err != nil {
		t.Fatal(err)
	}
	migrations := readMigrations(t)
	// Only the first load may equal BallotSQL: later ones are refreshes.
	if _, ok := migrations["0005_opening_names.sql"]; !ok {
		t.Fatal("no 0005_opening_names.sql")
	}
	if name, _, err := BallotMigration(migrations, named); err != nil || name != "" {
		t.Fatalf("the named openings changed: run go generate ./analysis/openings (it would add %s) %v", name, err)
	}
}

// TestBallotMigrationNeverEditsOne: when the names change, the generator
// adds the next migration, which replaces opening_names whole and carries
// the generated-code header, and leaves every existing file alone.
func TestBallotMigrationNeverEditsOne(t *testing.T) {
	t.Parallel()
	named, err := LoadBallots(filepath.Join("testdata", "ballots"))
	if err != nil {
		t.Fatal(err)
	}
	migrations := readMigrations(t)
	last := 0
	for f := range migrations {
		v, _ := strconv.Atoi(f[:4])
		last = max(last, v)
	}
	changed := append([]NamedPosition(nil), named[1:]...) // one name dropped
	name, content, err := BallotMigration(migrations, changed)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%04d_opening_names.sql", last+1); name != want {
		t.Fatalf("new migration %q, want %q", name, want)
	}
	dropped := fmt.Sprintf("(%d, %d, '%s', '%s')", named[0].Variant, int64(named[0].Hash), strings.ReplaceAll(named[0].Name, "'", "''"), named[0].List)
	if !bytes.HasPrefix(content, []byte("-- Code generated ")) || !bytes.Contains(content, []byte("DO NOT EDIT.")) ||
		!bytes.Contains(content, []byte("DELETE FROM opening_names;")) || bytes.Contains(content, []byte(dropped)) {
		t.Fatalf("new migration (must replace the names, without %s):\n%.400s", dropped, content)
	}
	// With it in place, nothing more to do.
	migrations[name] = content
	if again, _, err := BallotMigration(migrations, changed); err != nil || again != "" {
		t.Fatalf("second run: %q %v", again, err)
	}
}

func readMigrations(t *testing.T) map[string][]byte {
	t.Helper()
	dir := filepath.Join("..", "..", "schema", "migrations")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}
