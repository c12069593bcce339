package schema_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/schema"
)

func TestParseSQL(t *testing.T) {
	t.Parallel()
	names, stmts, err := schema.ParseSQL("x.sql", "-- a file comment\n\n-- name: one\n-- what one does\nSELECT 1;\n\n-- name: two\nSELECT 2\nFROM t\n")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"one": "-- what one does\nSELECT 1;", "two": "SELECT 2\nFROM t"}
	if !reflect.DeepEqual(names, []string{"one", "two"}) || !reflect.DeepEqual(stmts, want) {
		t.Fatalf("got %q %q", names, stmts)
	}
	for text, msg := range map[string]string{
		"SELECT 0;\n-- name: one\nSELECT 1":                "before the first",
		"-- name: one\nSELECT 1\n-- name: one\nSELECT 2":   "named twice",
		"-- name: one\n-- nothing\n-- name: two\nSELECT 2": `"one" is empty`,
		"-- name: two words\nSELECT 1":                     "bad statement name",
		"-- name:\nSELECT 1":                               "bad statement name",
	} {
		if _, _, err := schema.ParseSQL("x.sql", text); err == nil || !strings.Contains(err.Error(), msg) || !strings.Contains(err.Error(), "x.sql") {
			t.Errorf("%q: got %v, want an error naming x.sql with %q", text, err, msg)
		}
	}
}

// TestEveryStoreStatementIsUsed: a statement of the store's .sql files
// that no Go code takes is dead SQL (or a name typed twice).
func TestEveryStoreStatementIsUsed(t *testing.T) {
	t.Parallel()
	if len(schema.StoreFiles()) == 0 {
		t.Fatal("no store files registered")
	}
	if un := schema.UnusedStatements(); len(un) > 0 {
		t.Fatalf("statements no code uses: %q", un)
	}
}

// FuzzParseSQL: any text parses or fails without a panic; what parses
// has unique names, each with SQL that is not only comments, and writing
// the statements out again under their names parses to the same.
func FuzzParseSQL(f *testing.F) {
	files, _ := filepath.Glob("*.sql")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("-- name: a\nSELECT 1\n-- name: b\n  -- name: c\nSELECT 2")
	f.Fuzz(func(t *testing.T, text string) {
		names, stmts, err := schema.ParseSQL("f.sql", text)
		if err != nil {
			return
		}
		if len(names) != len(stmts) {
			t.Fatalf("%d names, %d statements", len(names), len(stmts))
		}
		var again strings.Builder
		for _, n := range names {
			s, ok := stmts[n]
			if !ok || strings.TrimSpace(s) == "" {
				t.Fatalf("statement %q: %q", n, s)
			}
			fmt.Fprintf(&again, "-- name: %s\n%s\n", n, s)
		}
		names2, stmts2, err := schema.ParseSQL("f.sql", again.String())
		if err != nil || !reflect.DeepEqual(names, names2) || !reflect.DeepEqual(stmts, stmts2) {
			t.Fatalf("written out again: %q %q, %v; was %q %q", names2, stmts2, err, names, stmts)
		}
	})
}
