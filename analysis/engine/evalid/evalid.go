// Package evalid names the built-in engine's evaluation: Version is
// search.Version with a fingerprint of the evaluation's scores and of a
// selective search, so that the version stored beside an evaluation
// (evaluations.engine_version) changes when the evaluation's weights or
// the search on a clock do, even where search.Version does not. The Hub
// server reports it in its id line and package engine as the built-in
// engine's Version; both are the same engine.
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
// Plies positions of every variant (rules.Variants), and of the score,
// move and nodes of a selective search (Options.Selective, the search on a
// clock) of a position further on with a quarter of the pieces gone (so
// that a change of the search that a stored evaluation may reflect, such
// as the reductions or ProbCut, changes the version too); deterministic,
// computed once (about 15 ms).
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
		fmt.Fprintf(h, "search:")
		start := pos.Pieces()
		for ply := 0; ply < 80 && 4*pos.Pieces() > 3*start; ply++ {
			moves := pos.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			pos.Play(&moves[len(moves)/2])
		}
		// Depth 4 shows the reductions and the aspiration windows; in
		// International ProbCut needs 6 (a node of depth 4 below the root).
		depth := 4
		if v == rules.International {
			depth = 6
		}
		r := e.Search(context.Background(), pos, search.Options{Depth: depth, Selective: true}, nil)
		fmt.Fprintf(h, "%d,%d,%d-%d;", r.Score, r.Nodes, r.Best.From(), r.Best.To())
	}
	return fmt.Sprintf("%08x", uint32(h.Sum64()))
}

// Version is search.Version and the fingerprint: "0.1+eval.1a2b3c4d".
func Version() string { return search.Version + "+eval." + Fingerprint() }

// WithEndgame is version with the endgame tables' piece count the
// engine searched with ("0.1+eval.1a2b3c4d+endgame.4"): their exact values
// below the root change scores, so that evaluations with and without
// them are told apart. pieces <= 0: version itself.
func WithEndgame(version string, pieces int) string {
	if pieces <= 0 {
		return version
	}
	return fmt.Sprintf("%s+endgame.%d", version, pieces)
}
