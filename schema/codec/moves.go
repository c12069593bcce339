package codec

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// The bytes of games.moves (see AppendMoves). Databases hold games written
// with them and moves_hash is computed over them: they must never change.
const (
	// captureBit is set on a ply's first byte (its start square) when the
	// ply is a capture.
	captureBit = 0x80
	// moreBit is set on a capture's landing square when another follows.
	moreBit = 0x80
	// squareMask keeps a byte's square number (1..72 fit in 7 bits).
	squareMask = 0x7f
)

// maxPath is the most landing squares a stored capture may have (more than
// any legal capture on a 12x12 board).
const maxPath = 40

// AppendMoves appends the compact form of moves that games.moves stores:
// per ply the start square, with bit 7 set for a capture, then the landing
// squares, each with bit 7 set while more follow. A plain move is two bytes
// (from, to); a capture is 1 + one byte per captured piece. Squares are the
// variant's numbers (1..72), so they fit in 7 bits.
func AppendMoves(dst []byte, moves []rules.Move) []byte {
	var path [maxPath]int
	for i := range moves {
		m := &moves[i]
		if !m.IsCapture() {
			dst = append(dst, byte(m.From()), byte(m.To()))
			continue
		}
		dst = append(dst, byte(m.From())|captureBit)
		p := m.Path(path[:0])
		for j, sq := range p {
			b := byte(sq)
			if j < len(p)-1 {
				b |= moreBit
			}
			dst = append(dst, b)
		}
	}
	return dst
}

// MovesHash identifies a game's moves (games.moves_hash): the first 8 bytes
// of the SHA-256 of the variant's GameType (2 bytes, big endian), the start
// FEN ("" for the initial position), a zero byte and the compact moves.
// Games with equal MovesHash are the same game (duplicates when their
// players and date agree too). Databases compare it with the hashes they
// hold, so its input must never change.
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

// A DecodeError is stored moves that do not replay: bytes cut short, or a
// move that is not legal where it is played. Every stored game was
// verified when it was imported, so it means a damaged row or a rules
// engine that no longer agrees with the one that imported the game.
type DecodeError struct {
	Ply    int    // 1-based ply at fault
	Reason string // what is wrong with it
}

func (e *DecodeError) Error() string { return fmt.Sprintf("ply %d: %s", e.Ply, e.Reason) }

// DecodeMoves is the inverse of AppendMoves: it replays the compact moves
// of games.moves from start and returns the legal move of each ply. Every
// encoded (from, landing squares) must match exactly one legal move of the
// position (the same start and path; captured sets are implied by the
// path), else the error, a *DecodeError, names the ply; the moves before
// it are returned with it.
func DecodeMoves(v *rules.Variant, start rules.Position, moves []byte) ([]rules.Move, error) {
	return decode(start, moves, nil, nil, nil, nil)
}

// FirstVisit decodes a stored game of variant v (its columns start_fen and
// moves, as Decode takes them) up to the first position whose Zobrist hash
// is h, and no further: ply is that position's (0 for the start), next the
// move played from it, hasNext false when the game ends there. found is
// false when the game never reaches h. It decodes the plies before the
// position and one more, not the whole game: a tree over stored games
// needs only the move from the position.
func FirstVisit(v *rules.Variant, startFEN string, moves []byte, h uint64) (ply int, next rules.Move, hasNext, found bool, err error) {
	var vis Visitor
	return vis.FirstVisit(v, startFEN, moves, h)
}

// A Visitor is FirstVisit with its buffers kept from one game to the next:
// a loop over many games allocates nothing per game. One per goroutine.
type Visitor struct {
	moves []rules.Move
	sc    scratch
}

// FirstVisit is the package's FirstVisit.
func (vis *Visitor) FirstVisit(v *rules.Variant, startFEN string, moves []byte, h uint64) (ply int, next rules.Move, hasNext, found bool, err error) {
	start := v.StartPosition()
	if startFEN != "" {
		if start, err = rules.ParseFEN(v, startFEN); err != nil {
			return 0, next, false, false, fmt.Errorf("start FEN: %w", err)
		}
	}
	stop := func(pos *rules.Position) bool {
		if pos.Hash() == h {
			found = true
			return true
		}
		ply++
		return false
	}
	vis.moves, err = decode(start, moves, vis.moves[:0], nil, stop, &vis.sc)
	if err != nil || !found {
		return 0, next, false, found, err
	}
	if len(vis.moves) > ply {
		return ply, vis.moves[ply], true, true, nil
	}
	return ply, next, false, true, nil
}

// scratch is decode's buffers.
type scratch struct {
	legal []rules.Move
	mpath []int
	path  [maxPath]int
}

// decode is DecodeMoves appending to out; with positions not nil, it also
// appends to *positions the position after every ply. With stop not nil,
// it asks stop of each position before its ply is decoded (and of the
// final one): after a true, it decodes that ply and returns. sc, when not
// nil, holds buffers to reuse.
func decode(start rules.Position, moves []byte, out []rules.Move, positions *[]rules.Position, stop func(*rules.Position) bool,
	sc *scratch) ([]rules.Move, error) {
	if sc == nil {
		sc = &scratch{}
	}
	legal, mpath, path := sc.legal, sc.mpath, &sc.path
	defer func() { sc.legal, sc.mpath = legal, mpath }()
	pos := start
	for i := 0; i < len(moves); {
		last := stop != nil && stop(&pos)
		ply := len(out) + 1
		capture := moves[i]&captureBit != 0
		from := int(moves[i] & squareMask)
		i++
		*path = [maxPath]int{}
		n := 0
		if !capture {
			if i >= len(moves) {
				return out, &DecodeError{Ply: ply, Reason: "truncated move"}
			}
			path[0] = int(moves[i] & squareMask)
			n = 1
			i++
		} else {
			for {
				if i >= len(moves) {
					return out, &DecodeError{Ply: ply, Reason: "truncated capture"}
				}
				if n == len(path) {
					return out, &DecodeError{Ply: ply, Reason: "capture path too long"}
				}
				b := moves[i]
				i++
				path[n] = int(b & squareMask)
				n++
				if b&moreBit == 0 {
					break
				}
			}
		}
		legal = pos.LegalMoves(legal[:0])
		found := match(legal, from, capture, path[:n], &mpath)
		if found < 0 && capture {
			// Every capture order, in case the stored path is an order
			// LegalMoves dropped as a duplicate.
			legal = pos.AppendMoves(legal[:0], true)
			found = match(legal, from, capture, path[:n], &mpath)
		}
		if found < 0 {
			return out, &DecodeError{Ply: ply, Reason: fmt.Sprintf("encoded move from %d (%v) is not legal in %s", from, path[:n], pos.FEN())}
		}
		m := legal[found]
		out = append(out, m)
		pos.Play(&m)
		if positions != nil {
			*positions = append(*positions, pos)
		}
		if last {
			return out, nil
		}
	}
	if stop != nil {
		stop(&pos)
	}
	return out, nil
}

// match returns the index of the move in legal that starts on from and
// lands on path in order, or -1.
func match(legal []rules.Move, from int, capture bool, path []int, buf *[]int) int {
	n := len(path)
	for j := range legal {
		m := &legal[j]
		if m.From() != from || m.IsCapture() != capture {
			continue
		}
		if !capture {
			if m.To() == path[0] {
				return j
			}
			continue
		}
		mpath := m.Path((*buf)[:0])
		*buf = mpath
		if len(mpath) != n {
			continue
		}
		same := true
		for k := range n {
			if mpath[k] != path[k] {
				same = false
				break
			}
		}
		if same {
			return j
		}
	}
	return -1
}
