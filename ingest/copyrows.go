package ingest

import (
	"encoding/binary"
	"io"
	"math"

	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// Rows in PostgreSQL's binary COPY format, encoded by the importer itself.
//
// pgx's CopyFromRows encodes a batch on the writer's goroutine, value by
// value through interfaces ([][]any), while PostgreSQL waits for it. A
// game's row is instead encoded once, on the replay workers (prepare), but
// for the columns only the writer knows (the game's id, its players' ids,
// its source and place, which an appended game numbers differently), which
// lead the row (gameRowPrefix); the writer then only copies bytes. The
// position index rows are encoded likewise (positionRows). The formats are
// PostgreSQL's send/recv formats: big-endian integers, text and bytea as
// their bytes, jsonb as version 1 and the JSON text, arrays as in
// array_send (a test checks each against the database).

// copyHeader starts a binary COPY stream: the signature, flags and the
// length of the header extension.
var copyHeader = []byte("PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00")

// copyTrailer ends it: a tuple of -1 fields.
var copyTrailer = []byte{0xff, 0xff}

// Type OIDs of array elements.
const (
	oidInt8 = 20
	oidText = 25
)

type rowBuf []byte

func (b rowBuf) fields(n int) rowBuf { return binary.BigEndian.AppendUint16(b, uint16(n)) }

func (b rowBuf) null() rowBuf { return binary.BigEndian.AppendUint32(b, math.MaxUint32) }

func (b rowBuf) int2(v int16) rowBuf {
	b = binary.BigEndian.AppendUint32(b, 2)
	return binary.BigEndian.AppendUint16(b, uint16(v))
}

func (b rowBuf) int4(v int32) rowBuf {
	b = binary.BigEndian.AppendUint32(b, 4)
	return binary.BigEndian.AppendUint32(b, uint32(v))
}

func (b rowBuf) int8(v int64) rowBuf {
	b = binary.BigEndian.AppendUint32(b, 8)
	return binary.BigEndian.AppendUint64(b, uint64(v))
}

// nullInt4 writes NULL for 0 (no player).
func (b rowBuf) nullInt4(v int32) rowBuf {
	if v == 0 {
		return b.null()
	}
	return b.int4(v)
}

func (b rowBuf) text(s string) rowBuf {
	b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func (b rowBuf) textPtr(s *string) rowBuf {
	if s == nil {
		return b.null()
	}
	return b.text(*s)
}

func (b rowBuf) bytea(v []byte) rowBuf {
	b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
	return append(b, v...)
}

// jsonb writes a JSON text as jsonb (NULL for nil).
// byteaFunc writes a bytea that fn appends in place (no copy of it).
func (b rowBuf) byteaFunc(fn func(dst []byte) []byte) rowBuf {
	at := len(b)
	b = append(b, 0, 0, 0, 0)
	b = fn(b)
	binary.BigEndian.PutUint32(b[at:], uint32(len(b)-at-4))
	return b
}

func (b rowBuf) jsonb(v []byte) rowBuf {
	if v == nil {
		return b.null()
	}
	b = binary.BigEndian.AppendUint32(b, uint32(len(v)+1))
	b = append(b, 1)
	return append(b, v...)
}

// textArray writes a one-dimensional text[] (NULL for nil).
func (b rowBuf) textArray(v []string) rowBuf {
	if v == nil {
		return b.null()
	}
	n := 12
	if len(v) > 0 {
		n += 8
	}
	for _, s := range v {
		n += 4 + len(s)
	}
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	b = arrayHeader(b, len(v), oidText)
	for _, s := range v {
		b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
		b = append(b, s...)
	}
	return b
}

// int8Array writes a one-dimensional bigint[].
func (b rowBuf) int8Array(v []int64) rowBuf {
	n := 12
	if len(v) > 0 {
		n += 8 + 12*len(v)
	}
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	b = arrayHeader(b, len(v), oidInt8)
	for _, x := range v {
		b = binary.BigEndian.AppendUint32(b, 8)
		b = binary.BigEndian.AppendUint64(b, uint64(x))
	}
	return b
}

// arrayHeader is array_send's header: dimensions, no NULLs, the element
// type, and the length and lower bound (1) of the one dimension; an empty
// array has no dimension.
func arrayHeader(b rowBuf, n int, elem uint32) rowBuf {
	dims := uint32(0)
	if n > 0 {
		dims = 1
	}
	b = binary.BigEndian.AppendUint32(b, dims)
	b = binary.BigEndian.AppendUint32(b, 0)
	b = binary.BigEndian.AppendUint32(b, elem)
	if n > 0 {
		b = binary.BigEndian.AppendUint32(b, uint32(n))
		b = binary.BigEndian.AppendUint32(b, 1)
	}
	return b
}

// gameRowFields is the number of columns of a games row: those of the
// store's games COPY (schema.GameCopyColumns), whose order the encoders
// follow: the columns the writer fills first (gameRowPrefix), then those
// prepare encodes (stored.row).
var gameRowFields = len(schema.GameCopyColumns())

// gameRowPrefix starts a games row: its field count and the columns known
// only to the writer.
func gameRowPrefix(b rowBuf, id, sourceID int64, ordinal int32, offset int64, white, black int32) rowBuf {
	b = b.fields(gameRowFields)
	b = b.int8(id)
	b = b.int8(sourceID)
	b = b.int4(ordinal)
	b = b.int8(offset)
	b = b.nullInt4(white)
	return b.nullInt4(black)
}

// positionRowFields is the number of columns of a position index row.
var positionRowFields = len(schema.PositionIndexColumns())

// positionRows encodes the position index rows of the writer's buckets
// (one per non-empty bucket, codec.AppendPositionEntries) as a binary COPY
// stream into b.
func (w *writer) positionRows(b rowBuf, sourceID int64) rowBuf {
	b = append(b[:0], copyHeader...)
	for i := range w.buckets {
		groups := &w.buckets[i]
		if len(groups[0])+len(groups[1])+len(groups[2])+len(groups[3]) == 0 {
			continue
		}
		b = b.fields(positionRowFields)
		b = b.int8(sourceID)
		b = b.int8(w.first)
		b = b.int2(int16(i - codec.PositionBuckets/2))
		b = b.byteaFunc(func(dst []byte) []byte { return codec.AppendPositionEntries(dst, groups) })
	}
	return append(b, copyTrailer...)
}

// gameRows is the games COPY of a batch, encoded as pgx's COPY goroutine
// reads it: PostgreSQL takes the first rows while the next are encoded,
// instead of waiting for the whole batch (250,000 generated games: the
// writer spent 0.12-0.13 s encoding batches while PostgreSQL waited).
type gameRows struct {
	games    []newGame
	sourceID int64
	ids      []int64 // of games, in order
	buf      rowBuf  // encoded, not yet read from off
	off      int
	next     int // the next game to encode
	started  bool
	ended    bool
}

// newGame is a game the batch stores.
type newGame struct {
	it           *Item
	st           *stored
	white, black int32
}

// gameRowsChunk is how many bytes Read encodes ahead at least: about a
// COPY message of pgx's (64 KB).
const gameRowsChunk = 64 << 10

func (r *gameRows) Read(p []byte) (int, error) {
	if r.off == len(r.buf) {
		if r.ended {
			return 0, io.EOF
		}
		r.buf, r.off = r.buf[:0], 0
		if !r.started {
			r.buf = append(r.buf, copyHeader...)
			r.started = true
		}
		for len(r.buf) < max(len(p), gameRowsChunk) && r.next < len(r.games) {
			g := &r.games[r.next]
			r.buf = gameRowPrefix(r.buf, r.ids[r.next], r.sourceID, int32(g.it.Ordinal), g.it.Offset, g.white, g.black)
			r.buf = append(r.buf, g.st.row...)
			r.next++
		}
		if r.next == len(r.games) {
			r.buf = append(r.buf, copyTrailer...)
			r.ended = true
		}
	}
	n := copy(p, r.buf[r.off:])
	r.off += n
	return n, nil
}
