package rules

import (
	"bytes"
	"os"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules/internal/movegen"
)

// TestGeneratedUpToDate fails if a move generator differs from what the
// template renders (the template was edited without go generate, or a
// generated file by hand), and checks each starts with the generated-code
// header that tools and readers recognise.
func TestGeneratedUpToDate(t *testing.T) {
	for _, b := range movegen.Generators {
		want, err := movegen.Render(b)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(b.File)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./replay/rules", b.File)
		}
		if !bytes.HasPrefix(got, []byte("// Code generated ")) || !bytes.Contains(bytes.SplitN(got, []byte("\n"), 2)[0], []byte("DO NOT EDIT.")) {
			t.Errorf("%s does not start with the generated-code header", b.File)
		}
	}
}
