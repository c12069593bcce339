package ingest

import (
	"fmt"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// DecodeMoves is the inverse of AppendMoves: it replays the compact moves
// of games.moves from start and returns the legal move of each ply. Every
// encoded (from, landing squares) must match exactly one legal move of the
// position (the same start and path; captured sets are implied by the
// path), else the error names the ply.
func DecodeMoves(v *rules.Variant, start rules.Position, moves []byte) ([]rules.Move, error) {
	var (
		out   []rules.Move
		legal []rules.Move
		path  [40]int
		mpath []int
	)
	pos := start
	for i := 0; i < len(moves); {
		ply := len(out) + 1
		capture := moves[i]&0x80 != 0
		from := int(moves[i] & 0x7f)
		i++
		path = [40]int{}
		n := 0
		if !capture {
			if i >= len(moves) {
				return out, fmt.Errorf("ply %d: truncated move", ply)
			}
			path[0] = int(moves[i] & 0x7f)
			n = 1
			i++
		} else {
			for {
				if i >= len(moves) {
					return out, fmt.Errorf("ply %d: truncated capture", ply)
				}
				if n == len(path) {
					return out, fmt.Errorf("ply %d: capture path too long", ply)
				}
				b := moves[i]
				i++
				path[n] = int(b & 0x7f)
				n++
				if b&0x80 == 0 {
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
			return out, fmt.Errorf("ply %d: encoded move from %d (%v) is not legal in %s", ply, from, path[:n], pos.FEN())
		}
		m := legal[found]
		out = append(out, m)
		pos.Play(&m)
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
