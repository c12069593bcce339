package schema_test

import (
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
