package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/source"
	"github.com/draughtsdb/draughtsdb/replay"
)

// TestValidateDropsAcceptedText: validate lets the parsed text of accepted
// games go (Config.DropAccepted: their moves go to the next game read),
// but for standard input's, which source inference cannot read again; the
// counts and warnings are the same either way. mrcd2007 is the case where
// inference reads the text again: 84 of its 102 games replay only as
// Czech, and the 18 others are Czech by their source, with a warning.
func TestValidateDropsAcceptedText(t *testing.T) {
	path := filepath.Join(sharedDir, "testsuite/succeed/mrcd2007.pdn.gz")
	type result struct {
		accepted, rejected, bySource, kept, dropped int
		warnings                                    map[string]int
	}
	run := func(t *testing.T, paths []string) result {
		t.Helper()
		srcs, errs := source.Expand(paths)
		if len(errs) != 0 {
			t.Fatal(errs)
		}
		var r result
		sum, err := Validate(context.Background(), srcs, ValidateOptions{
			Workers: 2,
			OnWarning: func(_ *source.Source, it *Item, w string) {
				if strings.HasPrefix(w, replay.TextVariantBySource) {
					r.bySource++
				}
				if it.PDN != nil {
					r.kept++
				} else {
					r.dropped++
				}
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		r.accepted, r.rejected, r.warnings = sum.Accepted, sum.Rejected, sum.WarningsByKind
		return r
	}
	file := run(t, []string{path})
	// The 84 are handed on as the workers left them: text dropped. The 18
	// were replayed again as Czech by inference, from the text read again.
	if file.accepted != 102 || file.rejected != 0 || file.bySource != 18 || file.dropped != 84 {
		t.Fatalf("file: %+v; want 102 accepted, 18 Czech by their source, the 84 others' texts dropped", file)
	}

	old := source.Stdin
	source.Stdin = bytes.NewReader(readGz(t, path))
	defer func() { source.Stdin = old }()
	stdin := run(t, []string{"-"})
	if stdin.dropped != 0 || stdin.kept != file.dropped+file.kept {
		t.Errorf("standard input: %d accepted games' texts dropped, %d kept; want none dropped, %d kept", stdin.dropped, stdin.kept, file.dropped+file.kept)
	}
	stdin.kept, stdin.dropped, file.kept, file.dropped = 0, 0, 0, 0
	if !mapsEqual(stdin.warnings, file.warnings) || stdin.accepted != file.accepted || stdin.rejected != file.rejected || stdin.bySource != file.bySource {
		t.Errorf("standard input %+v, file %+v: want the same", stdin, file)
	}
}

// readGz returns the unpacked contents of a gzipped file.
func readGz(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
