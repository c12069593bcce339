package codec

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// The bytes of pattern_index.entries (migration 0015): the games of an
// import batch of one variant, each as its start and its plies with the
// squares they capture, so that a scan replays them without generating
// moves. Databases hold them and SQL reads them
// (draughtsdb_pattern_positions): they must never change.
const (
	// patternCapture is set on a ply's from square when the ply captures.
	patternCapture = 0x80
	// patternPromotes is set on a ply's to square when the piece becomes a
	// king on the way or at the end.
	patternPromotes = 0x80
	// patternSquare keeps a byte's square number (1..72).
	patternSquare = 0x7f
)

// AppendPatternEntry appends one game's record of pattern_index.entries:
// the uvarint delta (the game's id minus the previous game's in the row;
// the first game's minus the row's first_game), then the game's body as
// AppendPatternGame writes it.
func AppendPatternEntry(dst []byte, delta int64, body []byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(delta)), body...)
}

// AppendPatternGame appends the body of a game's record in
// pattern_index.entries (see AppendPatternEntry):
//
//	uvarint  plies << 1 | setup
//	setup    only when set (the start is not the variant's initial
//	         position): the side to move (0 White, 1 Black), uvarint n,
//	         then n pieces as (square, piece) bytes, piece 1 white man,
//	         2 white king, 3 black man, 4 black king
//	plies    each: from | 0x80 if it captures, to | 0x80 if it promotes,
//	         and for a capture n then the n captured squares (ascending)
//
// initial says that start is the variant's initial position (no setup).
func AppendPatternGame(dst []byte, start *rules.Position, initial bool, moves []rules.Move) []byte {
	setup := uint64(1)
	if initial {
		setup = 0
	}
	dst = binary.AppendUvarint(dst, uint64(len(moves))<<1|setup)
	if !initial {
		side := byte(0)
		if start.SideToMove() == rules.Black {
			side = 1
		}
		dst = append(dst, side)
		n := start.Board().Squares()
		count := 0
		for sq := 1; sq <= n; sq++ {
			if start.Piece(sq) != rules.Empty {
				count++
			}
		}
		dst = binary.AppendUvarint(dst, uint64(count))
		for sq := 1; sq <= n; sq++ {
			if pc := start.Piece(sq); pc != rules.Empty {
				dst = append(dst, byte(sq), byte(pc))
			}
		}
	}
	var capt [64]int
	for i := range moves {
		m := &moves[i]
		from, to := byte(m.From()), byte(m.To())
		if m.Promotes() {
			to |= patternPromotes
		}
		if !m.IsCapture() {
			dst = append(dst, from, to)
			continue
		}
		c := m.Captured(capt[:0])
		dst = append(dst, from|patternCapture, to, byte(len(c)))
		for _, sq := range c {
			dst = append(dst, byte(sq))
		}
	}
	return dst
}

// ErrPatternEntries is pattern_index entries cut short or malformed.
var ErrPatternEntries = errors.New("malformed pattern_index entries")

// PatternReader reads the records of one pattern_index row in order: Game
// for each game's header, then Ply once per ply before the next Game.
type PatternReader struct {
	b  []byte
	i  int
	id int64
}

// NewPatternReader reads entries of a row whose first_game is firstGame.
func NewPatternReader(firstGame int64, entries []byte) PatternReader {
	return PatternReader{b: entries, id: firstGame}
}

// More reports whether another game follows.
func (r *PatternReader) More() bool { return r.i < len(r.b) }

// PatternGame is a record's header: the game id, its plies, and for a game
// that starts from a setup, the side to move and (square, piece) pairs.
type PatternGame struct {
	ID     int64
	Plies  int
	Setup  bool
	Side   rules.Color
	Pieces []byte
}

func (r *PatternReader) uvarint() (uint64, error) {
	v, n := binary.Uvarint(r.b[r.i:])
	if n <= 0 {
		return 0, fmt.Errorf("%w: bad varint at byte %d", ErrPatternEntries, r.i)
	}
	r.i += n
	return v, nil
}

// Game reads the next game's header.
func (r *PatternReader) Game() (PatternGame, error) {
	var g PatternGame
	d, err := r.uvarint()
	if err != nil {
		return g, err
	}
	r.id += int64(d)
	g.ID = r.id
	pl, err := r.uvarint()
	if err != nil {
		return g, err
	}
	g.Plies, g.Setup = int(pl>>1), pl&1 == 1
	if g.Setup {
		if r.i >= len(r.b) {
			return g, fmt.Errorf("%w: game %d: setup cut short", ErrPatternEntries, g.ID)
		}
		if r.b[r.i] == 1 {
			g.Side = rules.Black
		}
		r.i++
		n, err := r.uvarint()
		if err != nil {
			return g, err
		}
		if uint64(len(r.b)-r.i) < 2*n {
			return g, fmt.Errorf("%w: game %d: setup of %d pieces cut short", ErrPatternEntries, g.ID, n)
		}
		g.Pieces = r.b[r.i : r.i+2*int(n)]
		r.i += 2 * int(n)
	}
	return g, nil
}

// Ply reads the next ply of the current game: its squares, whether the
// piece promotes, and the captured squares (nil for a plain move; a slice
// of the row's bytes). ok is false when the entries are cut short.
func (r *PatternReader) Ply() (from, to int, promotes bool, captured []byte, ok bool) {
	b, i := r.b, r.i
	if i+2 > len(b) {
		return 0, 0, false, nil, false
	}
	f, t := b[i], b[i+1]
	i += 2
	if f&patternCapture != 0 {
		if i >= len(b) {
			return 0, 0, false, nil, false
		}
		n := int(b[i])
		i++
		if i+n > len(b) {
			return 0, 0, false, nil, false
		}
		captured = b[i : i+n]
		i += n
	}
	r.i = i
	return int(f & patternSquare), int(t & patternSquare), t&patternPromotes != 0, captured, true
}
