package ingest

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// AppendMoves appends the compact form of g's moves that games.moves
// stores: per ply the start square, with bit 7 set for a capture, then the
// landing squares, each with bit 7 set while more follow. A plain move is
// two bytes (from, to); a capture is 1 + one byte per captured piece.
// Squares are the variant's numbers (1..72), so they fit in 7 bits.
func AppendMoves(dst []byte, g *replay.Game) []byte {
	var path [40]int
	for i := range g.Moves {
		m := &g.Moves[i]
		if !m.IsCapture() {
			dst = append(dst, byte(m.From()), byte(m.To()))
			continue
		}
		dst = append(dst, byte(m.From())|0x80)
		p := m.Path(path[:0])
		for j, sq := range p {
			b := byte(sq)
			if j < len(p)-1 {
				b |= 0x80
			}
			dst = append(dst, b)
		}
	}
	return dst
}

// MovesHash identifies a game's moves: the first 8 bytes of the SHA-256 of
// the variant's GameType, the start FEN ("" for the initial position) and
// the compact moves. Games with equal MovesHash are the same game
// (duplicates when their players and date agree too).
func MovesHash(v *rules.Variant, startFEN string, moves []byte) int64 {
	h := sha256.New()
	var b [2]byte
	binary.BigEndian.PutUint16(b[:], uint16(v.GameType))
	h.Write(b[:])
	h.Write([]byte(startFEN))
	h.Write([]byte{0})
	h.Write(moves)
	var sum [sha256.Size]byte
	return int64(binary.BigEndian.Uint64(h.Sum(sum[:0])))
}

// resultCode is games.result: 0 unknown, 1 white wins, 2 draw, 3 black
// wins, 4 double forfeit.
func resultCode(r replay.Result) int16 {
	switch r {
	case replay.WhiteWins:
		return 1
	case replay.Draw:
		return 2
	case replay.BlackWins:
		return 3
	case replay.DoubleForfeit:
		return 4
	}
	return 0
}
