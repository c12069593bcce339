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
	named, err := openings.LoadBallots(filepath.Join("testdata", "ballots"))
	if err != nil {
		log.Fatal(err)
	}
	out := filepath.Join("..", "..", "schema", "migrations", "0005_opening_names.sql")
	if err := os.WriteFile(out, openings.BallotSQL(named), 0o644); err != nil {
		log.Fatal(err)
	}
}
