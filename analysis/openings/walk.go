package openings

import (
	"context"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// Walk visits the opening tree of the archive sources breadth first from
// start: every position
// reached by moves played at least minGames times, each position once
// (transpositions are one node, at the smallest ply that reaches it), to
// at most maxPly plies from start (<= 0: no limit; the statistics end at
// the import's opening depth anyway). fn gets each node with its ply from
// start; its branches with fewer than minGames games are not followed.
// The nodes of a ply are read in batches (Trees); the work grows with the
// positions visited, which minGames bounds: with 1 the walk visits every
// position of every game's counted plies.
func Walk(ctx context.Context, q Querier, start *rules.Position, minGames int64, maxPly int, fn func(ply int, node *Node) error) error {
	return WalkFrom(ctx, q, start, minGames, maxPly, "", fn)
}

// WalkFrom is Walk over the games of the sources a selection names (as
// TreeFrom reads it; "" is the archive sources).
func WalkFrom(ctx context.Context, q Querier, start *rules.Position, minGames int64, maxPly int, sources string, fn func(ply int, node *Node) error) error {
	if minGames < 1 {
		minGames = 1
	}
	seen := map[uint64]bool{start.Hash(): true}
	level := []rules.Position{*start}
	const chunk = 2000 // positions per batch of queries
	for ply := 0; len(level) > 0 && (maxPly <= 0 || ply <= maxPly); ply++ {
		var next []rules.Position
		for lo := 0; lo < len(level); lo += chunk {
			part := level[lo:min(lo+chunk, len(level))]
			nodes, err := TreesFrom(ctx, q, part, sources)
			if err != nil {
				return err
			}
			for i, node := range nodes {
				if len(node.Branch) == 0 {
					continue
				}
				if err := fn(ply, node); err != nil {
					return err
				}
				for _, b := range node.Branch {
					if b.Games < minGames || b.Child == 0 || seen[b.Child] {
						continue
					}
					seen[b.Child] = true
					child := part[i]
					child.Play(&b.Move)
					next = append(next, child)
				}
			}
		}
		level = next
	}
	return ctx.Err()
}
