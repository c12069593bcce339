package codec

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

type posEntry struct {
	group int
	key   uint32
	id    int64
}

func decodeAll(t *testing.T, first int64, b []byte) []posEntry {
	t.Helper()
	var out []posEntry
	if err := DecodePositionEntries(first, b, func(g int, k uint32, id int64) { out = append(out, posEntry{g, k, id}) }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPositionEntriesLayout spells out the bytes of one small row, as
// migration 0011 and draughtsdb_games_at read them: the 4 slot counts, the
// keys, then one delta byte per slot, a gap of 300 ids bridged by one
// filler (delta 255, key 0).
func TestPositionEntriesLayout(t *testing.T) {
	var groups [PositionGroups][]uint64
	groups[0] = []uint64{PositionSlot(0xAABBCCDD, 0), PositionSlot(1, 3), PositionSlot(2, 3)}
	groups[2] = []uint64{PositionSlot(7, 300)}
	got := AppendPositionEntries([]byte("x"), &groups)
	want := "78" + // the caller's byte, kept
		"00000003" + "00000000" + "00000002" + "00000000" + // slots per group
		"aabbccdd" + "00000001" + "00000002" + // group 0's keys
		"00000000" + "00000007" + // group 2: a filler, then key 7
		"00" + "03" + "00" + // group 0's deltas: ids first+0, +3, +3
		"ff" + "2d" // group 2: 255 + 45 = 300
	if h := hex.EncodeToString(got); h != want {
		t.Fatalf("entries\n got %s\nwant %s", h, want)
	}
	entries := decodeAll(t, 1000, got[1:])
	wantEntries := []posEntry{{0, 0xAABBCCDD, 1000}, {0, 1, 1003}, {0, 2, 1003}, {2, 7, 1300}}
	if !slices.Equal(entries, wantEntries) {
		t.Fatalf("decoded %v, want %v", entries, wantEntries)
	}
}

// TestPositionEntriesRoundTrip encodes random rows (gaps of every size,
// exact multiples of 255, repeated games, empty groups) and decodes them.
func TestPositionEntriesRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		var groups [PositionGroups][]uint64
		var want []posEntry
		first := rng.Int64N(1 << 40)
		for g := range groups {
			if rng.IntN(5) == 0 {
				continue // an empty group
			}
			off := uint32(0)
			for range rng.IntN(300) {
				switch rng.IntN(6) {
				case 0: // same game again
				case 1:
					off += 255 * uint32(1+rng.IntN(3))
				case 2:
					off += uint32(rng.IntN(100000))
				default:
					off += uint32(rng.IntN(300))
				}
				key := rng.Uint32()
				groups[g] = append(groups[g], PositionSlot(key, off))
				want = append(want, posEntry{g, key, first + int64(off)})
			}
		}
		b := AppendPositionEntries(nil, &groups)
		got := decodeAll(t, first, b)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: %d entries decoded, want %d (first difference at %d)", trial, len(got), len(want), firstDiff(got, want))
		}
	}
}

func firstDiff(a, b []posEntry) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestPositionBucketsRefineOldPrefixes: a bucket and group are the 12-bit
// prefix of the format before 0011 (bucket = prefix >> 2, group = prefix
// & 3) and the key is the old entry's hash bits, which is how 0011
// converts the stored rows.
func TestPositionBucketsRefineOldPrefixes(t *testing.T) {
	g := readGolden(t)
	n := 0
	for _, game := range g.Games {
		for _, p := range game.Positions {
			h, err := strconv.ParseUint(p.Hash, 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			if PositionBucket(h) != p.Prefix>>2 || PositionGroup(h) != int(p.Prefix&3) || int64(PositionKey(h)) != p.Entry>>32&0xFFFFFFFF {
				t.Fatalf("%s: hash %s: bucket %d group %d key %x; old prefix %d entry %x", game.Source, p.Hash,
					PositionBucket(h), PositionGroup(h), PositionKey(h), p.Prefix, p.Entry)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d positions checked", n)
	}
	for _, h := range []uint64{0, 1<<64 - 1, 1 << 63, 1<<63 - 1} {
		if b := PositionBucket(h); b < -PositionBuckets/2 || b >= PositionBuckets/2 {
			t.Errorf("bucket %d of %x out of range", b, h)
		}
	}
}

func TestDecodePositionEntriesRejectsMalformed(t *testing.T) {
	var groups [PositionGroups][]uint64
	groups[1] = []uint64{PositionSlot(5, 1), PositionSlot(6, 2)}
	good := AppendPositionEntries(nil, &groups)
	for name, b := range map[string][]byte{
		"empty":        nil,
		"short header": good[:15],
		"truncated":    good[:len(good)-1],
		"trailing":     append(bytes.Clone(good), 0),
		"huge count":   append([]byte{0xff, 0xff, 0xff, 0xff}, good[4:]...),
	} {
		err := DecodePositionEntries(1, b, func(int, uint32, int64) {})
		if !errors.Is(err, ErrBadPositionEntries) {
			t.Errorf("%s: %v, want ErrBadPositionEntries", name, err)
		}
	}
}
