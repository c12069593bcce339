//go:build tools

package search_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/hub"
	"github.com/draughtsdb/draughtsdb/analysis/search"
)

// TestGenerateOrderGolden rewrites testdata/order_golden.tsv: it keeps the
// first three columns (variant, depth, FEN) and the comment lines, and
// writes this engine's best move, score and node count after them. The
// file in the repository was generated with the baseline engine named in
// testdata/README.md: copy this file and order_test.go into a checkout of
// it and run
//
//	go test -tags tools -run TestGenerateOrderGolden ./analysis/search
//
// there (they use only what that engine had), then copy the file back.
func TestGenerateOrderGolden(t *testing.T) {
	data, err := os.ReadFile(orderGoldenFile)
	if err != nil {
		t.Fatal(err)
	}
	var comments []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "#") {
			comments = append(comments, l)
		}
	}
	var sb strings.Builder
	for _, l := range comments {
		sb.WriteString(l + "\n")
	}
	for _, g := range readOrderGolden(t, false) {
		r := search.Search(g.pos, search.Options{Depth: g.depth}, nil)
		fmt.Fprintf(&sb, "%s\t%d\t%s\t%s\t%d\t%d\n", g.name, g.depth, g.fen, hub.FormatMove(&r.Best), r.Score, r.Nodes)
	}
	if err := os.WriteFile(orderGoldenFile, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
