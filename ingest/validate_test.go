package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestValidateCounts: Validate counts accepted and rejected games by
// reason and warnings by kind, and hands each rejection and warning to its
// callback in input order.
func TestValidateCounts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "v.pdn")
	text := `[Event "good"]
[GameType "20"]
[Date "2004.10.27 - 2004.11.01"]

1. 32-28 19-23 2. 28x19 14x23 *

[Event "illegal"]
[GameType "20"]

1. 32-28 19-23 2. 31-27 *
`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, errs := source.Expand([]string{path, filepath.Join(dir, "missing.pdn")})
	if len(errs) != 1 {
		t.Fatalf("expand: %v", errs)
	}
	var rejected, warned []int
	sum, err := Validate(context.Background(), srcs, ValidateOptions{
		Workers:   2,
		OnReject:  func(_ *source.Source, it *Item) error { rejected = append(rejected, it.Ordinal); return nil },
		OnWarning: func(_ *source.Source, it *Item, w string) { warned = append(warned, it.Ordinal) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Files != 1 || sum.GamesRead != 2 || sum.Accepted != 1 || sum.Rejected != 1 || sum.RejectedByReason["illegal move"] != 1 ||
		sum.Warnings != 1 || sum.WarningsByKind["date range"] != 1 || sum.Plies != 4 {
		t.Fatalf("summary %+v", sum)
	}
	if len(rejected) != 1 || rejected[0] != 2 || len(warned) != 1 || warned[0] != 1 {
		t.Fatalf("callbacks: rejected %v warned %v", rejected, warned)
	}
	if _, err := Validate(context.Background(), srcs, ValidateOptions{Workers: 1 << 20}); err == nil {
		t.Fatal("a million workers accepted")
	}
}

// TestNormalizeWritesAcceptedGames: Normalize writes the accepted games in
// each variant's notation (or the one asked), counts the rejected ones and
// the variations left out.
func TestNormalizeWritesAcceptedGames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "n.pdn")
	text := "[GameType \"20\"]\n\n1. 32-28 (1. 99-98) 19-23 *\n\n[GameType \"20\"]\n\n1. 32-28 19-23 2. 31-27 *\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, _ := source.Expand([]string{path})
	for _, c := range []struct {
		notation *rules.Notation
		want     string
	}{{nil, "1. 32-28 19-23 *"}, {ptr(rules.Algebraic), "1. d4-e5 g7-f6 *"}} {
		var out strings.Builder
		var rejected []int
		sum, err := Normalize(context.Background(), srcs, &out, NormalizeOptions{Notation: c.notation,
			OnReject: func(_ *source.Source, it *Item) { rejected = append(rejected, it.Ordinal) }})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Written != 1 || sum.Rejected != 1 || sum.VariationsDropped != 1 || len(rejected) != 1 || rejected[0] != 2 {
			t.Fatalf("summary %+v, rejected %v", sum, rejected)
		}
		if !strings.Contains(out.String(), c.want) {
			t.Fatalf("output lacks %q:\n%s", c.want, out.String())
		}
	}
}

func ptr[T any](v T) *T { return &v }
