package endgame

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// The file: magic, the variant's name and the piece count, then every
// table's values in build order (int16, little-endian), then the CRC-32
// of all before it, so that a file cut short or damaged is rebuilt rather
// than believed.
const magic = "draughtsdb endgame 1\n"

// maxDistance bounds a value's plies to the end as read from a file: the
// longest wins of up to 5 pieces on 8x8 boards are far shorter, and the
// search needs a table's win to stay a mate score (search.MateThreshold
// leaves 1000 plies).
const maxDistance = 500

// ErrCorrupt: a tables file that is not whole.
var ErrCorrupt = errors.New("endgame: tables file damaged")

// WriteTo writes the tables in the file format.
func (t *Tables) WriteTo(w io.Writer) (int64, error) {
	crc := crc32.NewIEEE()
	out := bufio.NewWriterSize(w, 1<<16)
	bw := bufio.NewWriterSize(io.MultiWriter(out, crc), 1<<16)
	var n int64
	head := fmt.Sprintf("%s%s %d\n", magic, t.v.Name, t.pieces)
	k, err := bw.WriteString(head)
	n += int64(k)
	if err != nil {
		return n, err
	}
	var b [2]byte
	for _, tb := range t.order {
		for _, v := range tb.val {
			binary.LittleEndian.PutUint16(b[:], uint16(v))
			if _, err := bw.Write(b[:]); err != nil {
				return n, err
			}
			n += 2
		}
	}
	if err := bw.Flush(); err != nil {
		return n, err
	}
	k, err = out.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
	if err == nil {
		err = out.Flush()
	}
	return n + int64(k), err
}

// ReadTables reads tables of v with pieces pieces written by WriteTo.
func ReadTables(r io.Reader, v *rules.Variant, pieces int) (*Tables, error) {
	t, err := newTables(v, pieces)
	if err != nil {
		return nil, err
	}
	crc := crc32.NewIEEE()
	br := bufio.NewReaderSize(r, 1<<16)
	head := fmt.Sprintf("%s%s %d\n", magic, v.Name, pieces)
	got := make([]byte, len(head))
	if _, err := io.ReadFull(br, got); err != nil || string(got) != head {
		return nil, fmt.Errorf("%w: not the %d-piece tables of %s", ErrCorrupt, pieces, v.Name)
	}
	crc.Write(got)
	var buf []byte
	for _, tb := range t.order {
		buf = append(buf[:0], make([]byte, 4*tb.size)...)
		if _, err := io.ReadFull(br, buf); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		crc.Write(buf)
		tb.val = make([]Value, 2*tb.size)
		for i := range tb.val {
			v := Value(binary.LittleEndian.Uint16(buf[2*i:]))
			// A decided value is odd (a win in an odd number of plies, a
			// loss in an even one) and far from the search's mate scores;
			// anything else is not a table this generator wrote, whatever
			// its checksum.
			if v != 0 && (v%2 == 0 || v > maxDistance || v < -maxDistance-1) {
				return nil, fmt.Errorf("%w: value %d", ErrCorrupt, v)
			}
			tb.val[i] = v
		}
	}
	var c [4]byte
	if _, err := io.ReadFull(br, c[:]); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if binary.LittleEndian.Uint32(c[:]) != crc.Sum32() {
		return nil, fmt.Errorf("%w: checksum", ErrCorrupt)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, fmt.Errorf("%w: bytes after the checksum", ErrCorrupt)
	}
	return t, nil
}

// FileName is the tables' file in a directory.
func FileName(v *rules.Variant, pieces int) string {
	return fmt.Sprintf("%s-%d.egt", v.Name, pieces)
}

// Open reads the tables of v from dir, or generates them there on first
// use (written to a temporary file and renamed, so that a build cut off
// leaves no file to be read); a damaged file is generated again.
// progress is Generate's.
func Open(dir string, v *rules.Variant, pieces int, progress func(done, total int64)) (*Tables, error) {
	path := filepath.Join(dir, FileName(v, pieces))
	if f, err := os.Open(path); err == nil {
		t, err := ReadTables(f, v, pieces)
		f.Close()
		if err == nil {
			return t, nil
		}
		if !errors.Is(err, ErrCorrupt) {
			return nil, fmt.Errorf("endgame: %s: %w", path, err)
		}
	}
	t, err := Generate(v, pieces, progress)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("endgame: %w", err)
	}
	f, err := os.CreateTemp(dir, FileName(v, pieces)+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("endgame: %w", err)
	}
	_, err = t.WriteTo(f)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return nil, fmt.Errorf("endgame: writing %s: %w", path, err)
	}
	return t, nil
}
