// Package evalid names the built-in engine's evaluation: Version is
// search.Version with a fingerprint of the evaluation's scores, so that
// the version stored beside an evaluation (evaluations.engine_version)
// changes when the evaluation's weights do, even where search.Version
// does not. The Hub server reports it in its id line and package engine
// as the built-in engine's Version; both are the same engine.
package evalid

import (
	"context"
	"fmt"
	"hash/fnv"
	"sync"

	"github.com/draughtsdb/draughtsdb/analysis/search"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Plies is how many positions of each variant the fingerprint scores: the
// start position and the positions after each of the first legal moves
// played in turn (captures come quickly in most variants, so material,
// kings and structure all weigh in).
const Plies = 12

// Fingerprint is 8 hex digits of an FNV-1a hash of the depth-1 scores of
// Plies positions of every variant (rules.Variants), deterministic; it is
// computed once (about 25 ms).
func Fingerprint() string { return fingerprint() }

var fingerprint = sync.OnceValue(compute)

func compute() string {
	h := fnv.New64a()
	e := search.NewEngine(1)
	for _, v := range rules.Variants() {
		pos := v.StartPosition()
		fmt.Fprintf(h, "%s:", v.Name)
		for range Plies {
			r := e.Search(context.Background(), pos, search.Options{Depth: 1}, nil)
			fmt.Fprintf(h, "%d,", r.Score)
			moves := pos.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			pos.Play(&moves[len(moves)/2])
		}
	}
	return fmt.Sprintf("%08x", uint32(h.Sum64()))
}

// Version is search.Version and the fingerprint: "0.1+eval.1a2b3c4d".
func Version() string { return search.Version + "+eval." + Fingerprint() }
