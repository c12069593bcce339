package ingest_test

import (
	"context"
	"fmt"

	"github.com/draughtsdb/draughtsdb/ingest"
	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay"
)

// ReplayGames reads and verifies every game of its sources as an import
// would, without a database: here the bundled sample, counted by variant.
func ExampleReplayGames() {
	srcs, errs := source.Expand([]string{"sample"})
	if len(errs) > 0 {
		fmt.Println(errs)
		return
	}
	byVariant := map[string]int{}
	rejected := 0
	err := ingest.ReplayGames(context.Background(), srcs, func(_ *source.Source, _ *pdn.Game, g *replay.Game, err error) error {
		if err != nil {
			rejected++
			return nil
		}
		byVariant[g.Variant.Name]++
		return nil
	})
	fmt.Println(err, byVariant, "rejected:", rejected)
	// Output:
	// <nil> map[english:200 international:43 russian:153] rejected: 0
}
