//go:build ignore

// gen_movegen writes the movegen_*.go files (movegen.Generators)
// from the one template internal/movegen/movegen.go.tmpl (run it with
// go generate ./replay/rules).
package main

import (
	"log"
	"os"

	"github.com/draughtsdb/draughtsdb/replay/rules/internal/movegen"
)

func main() {
	for _, b := range movegen.Generators {
		src, err := movegen.Render(b)
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(b.File, src, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
