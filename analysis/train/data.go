// Package train generates self-play games of the built-in engine and fits
// the learned evaluation of package search to their results (logistic
// regression of the game result on the evaluation's features). Both steps
// run in pieces that resume: self-play writes chunks of games into a
// directory (one file per chunk, each from its own seed, skipped when it
// exists), and the fit writes a checkpoint of its weights after every
// epoch.
package train

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Record is one quiet position of a self-play game (the side to move has
// no capture) with the game's result and the search's score there.
type Record struct {
	// Men and Kings by colour, bit s-1 for square s.
	Men, Kings [2]uint64
	Side       rules.Color
	// Result is the game's result from White's view: 2 a win, 1 a draw, 0
	// a loss.
	Result uint8
	// Ply is the position's ply in the game (capped at 255).
	Ply uint8
	// Score is the engine's search score from the side to move's view
	// (hundredths of a man), clamped to the int16 range.
	Score int16
}

const recordSize = 4*8 + 1 + 1 + 1 + 2

// chunkMagic starts every chunk file, followed by the variant's name on
// one line.
const chunkMagic = "DDBTRAIN1\n"

// Position returns the record's position in variant v.
func (r *Record) Position(v *rules.Variant) rules.Position {
	p := rules.NewPosition(v, r.Side)
	n := v.Board.Squares()
	for s := 1; s <= n; s++ {
		b := uint64(1) << uint(s-1)
		switch {
		case r.Men[0]&b != 0:
			p.SetPiece(s, rules.WhiteMan)
		case r.Kings[0]&b != 0:
			p.SetPiece(s, rules.WhiteKing)
		case r.Men[1]&b != 0:
			p.SetPiece(s, rules.BlackMan)
		case r.Kings[1]&b != 0:
			p.SetPiece(s, rules.BlackKing)
		}
	}
	p.SetSideToMove(r.Side)
	return p
}

// recordOf makes the record of pos.
func recordOf(pos *rules.Position, ply int, score int) Record {
	r := Record{Side: pos.SideToMove(), Ply: uint8(min(ply, 255)),
		Score: int16(max(min(score, 32767), -32768))}
	n := pos.Board().Squares()
	for s := 1; s <= n; s++ {
		b := uint64(1) << uint(s-1)
		switch pos.Piece(s) {
		case rules.WhiteMan:
			r.Men[0] |= b
		case rules.WhiteKing:
			r.Kings[0] |= b
		case rules.BlackMan:
			r.Men[1] |= b
		case rules.BlackKing:
			r.Kings[1] |= b
		}
	}
	return r
}

func (r *Record) put(b []byte) {
	binary.LittleEndian.PutUint64(b[0:], r.Men[0])
	binary.LittleEndian.PutUint64(b[8:], r.Men[1])
	binary.LittleEndian.PutUint64(b[16:], r.Kings[0])
	binary.LittleEndian.PutUint64(b[24:], r.Kings[1])
	b[32] = byte(r.Side)
	b[33] = r.Result
	b[34] = r.Ply
	binary.LittleEndian.PutUint16(b[35:], uint16(r.Score))
}

func (r *Record) get(b []byte) {
	r.Men[0] = binary.LittleEndian.Uint64(b[0:])
	r.Men[1] = binary.LittleEndian.Uint64(b[8:])
	r.Kings[0] = binary.LittleEndian.Uint64(b[16:])
	r.Kings[1] = binary.LittleEndian.Uint64(b[24:])
	r.Side = rules.Color(b[32] & 1)
	r.Result = b[33]
	r.Ply = b[34]
	r.Score = int16(binary.LittleEndian.Uint16(b[35:]))
}

// writeChunk writes recs to path atomically (a temporary file renamed).
func writeChunk(path string, v *rules.Variant, recs []Record) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.WriteString(chunkMagic + v.Name + "\n")
	var b [recordSize]byte
	for i := range recs {
		recs[i].put(b[:])
		w.Write(b[:])
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", tmp, err)
	}
	return os.Rename(tmp, path)
}

// ReadChunk reads the records of one chunk file, checking that it holds
// positions of variant v.
func ReadChunk(path string, v *rules.Variant) ([]Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(string(data), chunkMagic) {
		return nil, fmt.Errorf("%s: not a training chunk (no %q header)", path, strings.TrimSpace(chunkMagic))
	}
	data = data[len(chunkMagic):]
	nl := strings.IndexByte(string(data), '\n')
	if nl < 0 {
		return nil, fmt.Errorf("%s: truncated header", path)
	}
	if name := string(data[:nl]); name != v.Name {
		return nil, fmt.Errorf("%s: positions of %s, not %s", path, name, v.Name)
	}
	data = data[nl+1:]
	if len(data)%recordSize != 0 {
		return nil, fmt.Errorf("%s: %d bytes of records, not a multiple of %d", path, len(data), recordSize)
	}
	recs := make([]Record, len(data)/recordSize)
	for i := range recs {
		recs[i].get(data[i*recordSize:])
	}
	return recs, nil
}

// Chunks lists the chunk files of dir in order.
func Chunks(dir string) ([]string, error) {
	m, err := filepath.Glob(filepath.Join(dir, "games-*.bin"))
	if err != nil {
		return nil, err
	}
	sort.Strings(m)
	return m, nil
}

// ReadAll reads every chunk of dir.
func ReadAll(dir string, v *rules.Variant) ([]Record, error) {
	files, err := Chunks(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no training chunks (games-*.bin): run `draughtsdb train gen` first", dir)
	}
	var all []Record
	for _, f := range files {
		recs, err := ReadChunk(f, v)
		if err != nil {
			return nil, err
		}
		all = append(all, recs...)
	}
	return all, nil
}
