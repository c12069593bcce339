// Command gennames keeps the named openings of the database in step with
// the ballot lists in analysis/openings/testdata/ballots: when the newest
// schema/migrations/*_opening_names.sql does not load exactly these names
// (the lists or the Zobrist keys changed), it adds a new migration that
// replaces them. It never edits an existing migration: databases have
// applied them. Run it through `go generate ./analysis/openings`.
package main

import (
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
)

func main() {
	named, err := openings.LoadBallots(filepath.Join("testdata", "ballots"))
	if err != nil {
		log.Fatal(err)
	}
	dir := filepath.Join("..", "..", "schema", "migrations")
	entries, err := os.ReadDir(dir)
	if err != nil {
		log.Fatal(err)
	}
	migrations := map[string][]byte{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			log.Fatal(err)
		}
		migrations[e.Name()] = b
	}
	name, content, err := openings.BallotMigration(migrations, named)
	if err != nil {
		log.Fatal(err)
	}
	if name == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("added schema/migrations/%s: the named openings changed", name)
}
