package codec

import (
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOpeningHashParts: bucket, group and hash bits are the 44 top bits of
// a hash below its sign, as migration 0012's SQL computes them (h >> 54,
// (h >> 52) & 3, (h >> 20) & 0xFFFFFFFF on a signed bigint).
func TestOpeningHashParts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, h := range append([]uint64{0, 1<<64 - 1, 1 << 63, 1<<63 - 1, 1 << 54, 1 << 52, 1 << 20}, r.Uint64(), r.Uint64(), r.Uint64()) {
		b, g, k := PositionBucket(h), PositionGroup(h), PositionKey(h)
		if b < -512 || b > 511 || g < 0 || g > 3 {
			t.Fatalf("%#x: bucket %d group %d", h, b, g)
		}
		if got := (int64(b)<<2|int64(g))<<32 | int64(k); got != int64(h)>>20 {
			t.Errorf("%#x: bucket %d group %d hash %#x give %#x, want %#x", h, b, g, k, got, int64(h)>>20)
		}
	}
	if PositionBuckets != 1024 {
		t.Errorf("%d buckets", PositionBuckets)
	}
}

// TestOpeningEntriesGolden: the bytes of a small row, written out by hand
// from the format of migration 0012, so that the encoder cannot drift from
// the SQL that reads its rows.
func TestOpeningEntriesGolden(t *testing.T) {
	stats := []OpeningStat{
		{Group: 3, Hash: 0x01020304, Code: 0x1ABCDEF, Games: [4]uint64{0, 0, 0, 1}},             // a single, other result
		{Group: 1, Hash: 0xFFFFFFFE, Code: 7, Games: [4]uint64{2, 0, 1, 0}},                     // a key
		{Group: 1, Hash: 0x00000005, Code: 9, Games: [4]uint64{0, 1, 0, 0}},                     // a single, draw
		{Group: 1, Hash: 0x00000005, Code: 8, Games: [4]uint64{70000, 3, 0, 0}},                 // split in two keys
		{Group: 2, Hash: 0x00000001, Code: 1, Games: [4]uint64{}},                               // no games: left out
		{Group: 0, Hash: 0x00000002, Code: 2, Games: [4]uint64{0, 0, 1, 0}},                     // a single, black wins
		{Group: 0, Hash: 0x00000002, Code: 1, Games: [4]uint64{1, 0, 0, 0}},                     // a single, white wins
		{Group: 3, Hash: 0x01020304, Code: 0x1ABCDEF - 1, Games: [4]uint64{65535, 0, 0, 65535}}, // one full key
	}
	got, err := AppendOpeningEntries(nil, stats)
	if err != nil {
		t.Fatal(err)
	}
	want := "" +
		// header: singles of groups 0..3, keys of groups 0..3
		"00000002" + "00000001" + "00000000" + "00000001" +
		"00000000" + "00000003" + "00000000" + "00000001" +
		// singles: group 0 (hash 2, codes 1 and 2), group 1, group 3
		"00000002" + "00000004" + "00000002" + "0000000a" +
		"00000005" + "00000025" +
		"01020304" + "06af37bf" +
		// keys: group 1 (hash 5 code 8 twice, hash fffffffe code 7), group 3
		"00000005" + "00000020" + "ffff" + "0003" + "0000" + "0000" +
		"00000005" + "00000020" + "1171" + "0000" + "0000" + "0000" +
		"fffffffe" + "0000001c" + "0002" + "0000" + "0001" + "0000" +
		"01020304" + "06af37b8" + "ffff" + "0000" + "0000" + "ffff"
	if hex.EncodeToString(got) != want {
		t.Fatalf("got  %x\nwant %s", got, want)
	}
	// Appends to dst.
	if again, _ := AppendOpeningEntries([]byte{0xAA}, stats); again[0] != 0xAA || hex.EncodeToString(again[1:]) != want {
		t.Errorf("append: %x", again)
	}
}

// TestOpeningEntriesRoundTrip: random rows (empty groups, repeated
// positions, several moves of a position, counts around and far over
// 65535) decode to the games encoded, sorted, singles exactly where a
// (position, move) has one game.
func TestOpeningEntriesRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	type id struct {
		group int
		hash  uint32
		code  MoveCode
	}
	for round := range 2000 {
		var stats []OpeningStat
		n := r.IntN(60)
		if round == 0 {
			n = 0 // an empty row
		}
		groups := r.IntN(16) // which groups may have entries
		for range n {
			s := OpeningStat{Group: r.IntN(4), Hash: r.Uint32(), Code: MoveCode(r.Uint32N(1 << 29))}
			if groups&(1<<s.Group) == 0 {
				continue
			}
			if len(stats) > 0 && r.IntN(3) == 0 { // another move, or the same again, of a position
				p := stats[r.IntN(len(stats))]
				s.Group, s.Hash = p.Group, p.Hash
				if r.IntN(2) == 0 {
					s.Code = p.Code
				}
			}
			if r.IntN(20) == 0 {
				s.Hash = 0
			}
			for j := range s.Games {
				switch r.IntN(8) {
				case 0, 1, 2, 3:
				case 4, 5:
					s.Games[j] = 1
				case 6:
					s.Games[j] = uint64(r.IntN(100))
				default:
					s.Games[j] = OpeningMaxCount - 2 + uint64(r.IntN(5)) + OpeningMaxCount*uint64(r.IntN(3))
				}
			}
			stats = append(stats, s)
		}
		want := map[id][4]uint64{}
		for _, s := range stats {
			w := want[id{s.Group, s.Hash, s.Code}]
			for j := range w {
				w[j] += s.Games[j]
			}
			want[id{s.Group, s.Hash, s.Code}] = w
		}
		shuffled := slices.Clone(stats)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		b, err := AppendOpeningEntries(nil, shuffled)
		if err != nil {
			t.Fatal(err)
		}
		got := map[id][4]uint64{}
		var entries []OpeningEntry
		if err := DecodeOpeningEntries(b, func(e OpeningEntry) { entries = append(entries, e) }); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		singlesDone := false
		for i, e := range entries {
			k := id{e.Group, e.Hash, e.Code}
			g := got[k]
			total := 0
			for j, c := range e.Counts {
				g[j] += uint64(c)
				total += int(c)
			}
			got[k] = g
			if e.Single && (total != 1 || singlesDone) || total == 0 {
				t.Fatalf("round %d: entry %d %+v", round, i, e)
			}
			singlesDone = !e.Single
			if i > 0 {
				p := entries[i-1]
				if p.Single == e.Single && (p.Group > e.Group || p.Group == e.Group && (p.Hash > e.Hash || p.Hash == e.Hash && p.Code > e.Code)) {
					t.Fatalf("round %d: entry %d %+v after %+v", round, i, e, p)
				}
			}
		}
		for k, w := range want {
			if w == ([4]uint64{}) {
				delete(want, k)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("round %d: %d (position, move)s decoded, %d encoded", round, len(got), len(want))
		}
		for k, w := range want {
			if got[k] != w {
				t.Fatalf("round %d: %+v decoded %v, encoded %v", round, k, got[k], w)
			}
			// A single is a (position, move) of one game; a key splits
			// only when it must.
			parts, single := 0, false
			for _, e := range entries {
				if (id{e.Group, e.Hash, e.Code}) == k {
					parts++
					single = e.Single
				}
			}
			total := w[0] + w[1] + w[2] + w[3]
			if wantParts := int((max(w[0], w[1], w[2], w[3]) + OpeningMaxCount - 1) / OpeningMaxCount); single != (total == 1) || parts != wantParts {
				t.Fatalf("round %d: %+v (%v) in %d entries (single %v), want %d", round, k, w, parts, single, wantParts)
			}
		}
	}
}

// TestOpeningEntriesErrors: the encoder refuses what it cannot store and
// the decoder what the format cannot hold.
func TestOpeningEntriesErrors(t *testing.T) {
	for _, s := range []OpeningStat{{Group: 4, Games: [4]uint64{1}}, {Group: -1, Games: [4]uint64{1}}, {Code: 1 << 30, Games: [4]uint64{1}}} {
		if _, err := AppendOpeningEntries(nil, []OpeningStat{s}); !errors.Is(err, ErrBadOpeningStat) {
			t.Errorf("%+v: err %v", s, err)
		}
	}
	good, err := AppendOpeningEntries(nil, []OpeningStat{{Group: 2, Hash: 5, Code: 3, Games: [4]uint64{1}}, {Group: 1, Hash: 5, Code: 3, Games: [4]uint64{4, 5}}})
	if err != nil {
		t.Fatal(err)
	}
	badSlot := slices.Clone(good)
	badSlot[len(badSlot)-9] |= 2 // the key's slot bits
	huge := slices.Clone(good)
	huge[0] = 0xFF // 4 billion singles in group 0
	for name, b := range map[string][]byte{
		"empty": nil, "short header": good[:31], "cut entry": good[:len(good)-1], "extra byte": append(slices.Clone(good), 0),
		"key with slot bits": badSlot, "header too large": huge,
	} {
		if err := DecodeOpeningEntries(b, func(OpeningEntry) {}); !errors.Is(err, ErrBadOpeningEntries) {
			t.Errorf("%s: err %v", name, err)
		}
	}
	n := 0
	if err := DecodeOpeningEntries(good, func(OpeningEntry) { n++ }); err != nil || n != 2 {
		t.Errorf("good row: %d entries, %v", n, err)
	}
}

// FuzzDecodeOpeningEntries: any bytes decode or fail with
// ErrBadOpeningEntries, never panic; what decodes re-encodes to the same
// games.
func FuzzDecodeOpeningEntries(f *testing.F) {
	b, _ := AppendOpeningEntries(nil, []OpeningStat{{Group: 2, Hash: 5, Code: 3, Games: [4]uint64{1}}, {Group: 1, Hash: 5, Code: 3, Games: [4]uint64{4, 5}}})
	f.Add(b)
	f.Add(make([]byte, 32))
	f.Fuzz(func(t *testing.T, b []byte) {
		var stats []OpeningStat
		err := DecodeOpeningEntries(b, func(e OpeningEntry) {
			s := OpeningStat{Group: e.Group, Hash: e.Hash, Code: e.Code}
			for j, c := range e.Counts {
				s.Games[j] = uint64(c)
			}
			stats = append(stats, s)
		})
		if err != nil {
			if !errors.Is(err, ErrBadOpeningEntries) {
				t.Fatal(err)
			}
			return
		}
		if _, err := AppendOpeningEntries(nil, stats); err != nil {
			t.Fatal(err)
		}
	})
}
