package search

// Transposition table: a fixed number of two-entry buckets indexed by the
// low bits of the Zobrist hash. Slot 0 is depth-preferred (replaced only by
// an entry of at least its depth, or by the same position); slot 1 always
// takes what slot 0 refused. Entries store the full 64-bit key, so a false
// hit needs a full hash collision.

const (
	boundExact = 1
	boundLower = 2 // score >= stored (fail high)
	boundUpper = 3 // score <= stored (fail low)
)

// ttEntry is 16 bytes (fields ordered so that no padding is needed): a
// bucket of two is 32 bytes, two to a cache line.
type ttEntry struct {
	key   uint64
	score int16
	gen   uint16
	depth int8
	bound uint8
	move  uint8 // index of the best move in LegalMoves order, 255 = none
	age   uint8 // the search of the game that stored it (see table.age)
}

type ttBucket [2]ttEntry

// Each search has its own generation: entries of other generations count
// as empty, so a new search sees an empty table (results never depend on
// earlier searches) without clearing megabytes; the memory is really
// cleared only when the 16-bit generation wraps.
//
// Searches that continue a game (Options.Continue) keep the generation, so
// they see what the searches before them stored; each has its own age
// instead, and an entry of an older age gives way in the depth-preferred
// slot like a shallower one, so the table does not fill up with deep
// entries of positions the game has left.
type table struct {
	buckets []ttBucket
	mask    uint64
	gen     uint16
	age     uint8
}

const bucketBytes = 32

// newTable returns a table of at most mb megabytes (at least one bucket;
// the bucket count is a power of two).
func newTable(mb int) *table {
	if mb < 1 {
		mb = 1
	}
	n := uint64(mb) << 20 / bucketBytes
	p := uint64(1)
	for p*2 <= n {
		p *= 2
	}
	return &table{buckets: make([]ttBucket, p), mask: p - 1, gen: 1}
}

// clear empties the table for a new search.
func (t *table) clear() {
	t.age = 0
	t.gen++
	if t.gen == 0 {
		clear(t.buckets)
		t.gen = 1
	}
}

// nextAge starts a search that continues the previous ones.
func (t *table) nextAge() { t.age++ }

func (t *table) probe(key uint64) (ttEntry, bool) {
	b := &t.buckets[key&t.mask]
	if b[0].key == key && b[0].gen == t.gen {
		return b[0], true
	}
	if b[1].key == key && b[1].gen == t.gen {
		return b[1], true
	}
	return ttEntry{}, false
}

func (t *table) store(key uint64, depth, score, bound, move int) {
	b := &t.buckets[key&t.mask]
	e := ttEntry{key: key, score: int16(score), depth: int8(depth), bound: uint8(bound), move: uint8(move), gen: t.gen, age: t.age}
	live := b[0].gen == t.gen
	if !live || b[0].key == key || depth >= int(b[0].depth) || b[0].age != t.age {
		if live && b[0].key != key {
			b[1] = b[0] // keep the displaced entry in the always-replace slot
		}
		b[0] = e
		return
	}
	b[1] = e
}
