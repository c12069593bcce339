package openings

import (
	"context"

	"github.com/draughtsdb/draughtsdb/schema"
)

// countEnding fills in Node.Ending and Branch.Ending: the games of the
// nodes' sources that ended at each node's position and at the position
// after each of its moves, in one query; with minRating above 0 only the
// games whose players are both rated at least that.
func countEnding(ctx context.Context, q Querier, gt int16, nodes []*Node, minRating int) error {
	if len(nodes) == 0 {
		return nil
	}
	var hashes []int64
	for _, n := range nodes {
		hashes = append(hashes, int64(n.Hash))
		for _, b := range n.Branch {
			if b.Child != 0 {
				hashes = append(hashes, int64(b.Child))
			}
		}
	}
	ending, err := schema.GamesEnding(ctx, q, gt, hashes, nodes[0].Sources, minRating)
	if err != nil {
		return err
	}
	for _, n := range nodes {
		n.Ending = ending[int64(n.Hash)]
		for i := range n.Branch {
			if b := &n.Branch[i]; b.Child != 0 {
				b.Ending = ending[int64(b.Child)]
			}
		}
	}
	return nil
}
