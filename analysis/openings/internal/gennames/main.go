// Command gennames writes schema/migrations/0005_opening_names.sql from the
// ballot lists in analysis/openings/testdata/ballots. Run it through
// `go generate ./analysis/openings`.
package main

import (
	"log"
	"os"
	"path/filepath"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
)

func main() {
	var named []openings.NamedPosition
	for _, l := range openings.BallotLists {
		data, err := os.ReadFile(filepath.Join("testdata", "ballots", l.File))
		if err != nil {
			log.Fatal(err)
		}
		n, err := openings.ParseBallots(l, data)
		if err != nil {
			log.Fatal(err)
		}
		named = append(named, n...)
	}
	out := filepath.Join("..", "..", "schema", "migrations", "0005_opening_names.sql")
	if err := os.WriteFile(out, openings.BallotSQL(named), 0o644); err != nil {
		log.Fatal(err)
	}
}
