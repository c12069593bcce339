package schema_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// notYetMoved lists the files outside the store layer that still hold SQL
// in Go string literals, with how many such literals each has. The store
// layer is schema/ (its .sql files, and the runner's and the harness's
// Go); the user-facing SQL lives in queries/sql and the migrations. A
// file's SQL moves into schema one aggregate at a time; then its line here
// goes, or its count drops. Nothing may be added: new SQL belongs in the
// store.
var notYetMoved = map[string]int{
	// Game batches and COPY: the import's writer.
	"ingest/importer.go":     12,
	"ingest/store.go":        7,
	"ingest/hashfilter.go":   1,
	"ingest/evalcomments.go": 1,
	// Evaluation leases and the analysis's game selection.
	"analysis/annotate/annotate.go": 6,
	"analysis/annotate/status.go":   2,
	"analysis/annotate/worker.go":   11,
	// The opening statistics and names.
	"analysis/openings/coverage.go":  1,
	"analysis/openings/filtered.go":  1,
	"analysis/openings/firstmove.go": 1,
	"analysis/openings/names.go":     4,
	"analysis/openings/rebuild.go":   4,
	"analysis/openings/tree.go":      3,
	// Export.
	"queries/export/distinct.go":    3,
	"queries/export/evals.go":       2,
	"queries/export/evaluations.go": 4,
	"queries/export/filter.go":      4,
	"queries/export/games.go":       1,
	"queries/export/gamestream.go":  2,
	"queries/export/positions.go":   1,
	"queries/export/rejected.go":    3,
	"queries/export/session.go":     2,
}

// sqlShape matches a string that is SQL, or a fragment of a statement
// put together in Go: a statement's opening words, or a clause of one.
var sqlShape = regexp.MustCompile(`(?s)\b(SELECT\b.*\bFROM|WHERE|FROM\s+STDIN|INSERT\s+INTO|UPDATE\s+[a-z_.]+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|TEMP|UNIQUE|OR\s+REPLACE|ROLE|DATABASE)|ALTER\s+(TABLE|ROLE|DATABASE)|DROP\s+(TABLE|INDEX|DATABASE|ROLE)|TRUNCATE\s|COPY\s+[a-z_]+|ON\s+CONFLICT|GROUP\s+BY|ORDER\s+BY|LEFT\s+JOIN|pg_advisory_|BEGIN\s+READ|SET\s+LOCAL|SELECT\s+[a-z_]+\()`)

// TestSQLOnlyInTheStore: no Go string literal outside the store layer
// looks like SQL but in the files of notYetMoved, each with at most its
// count; a count that is now too high is an error too, so the list only
// shrinks.
func TestSQLOnlyInTheStore(t *testing.T) {
	t.Parallel()
	root := ".."
	found := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "schema" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".sql") && !strings.HasPrefix(rel, "queries/sql/") {
			found[rel] = append(found[rel], "the file "+rel)
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), rel, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err == nil && sqlShape.MatchString(s) {
				found[rel] = append(found[rel], s)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatal("no SQL found anywhere: the scan reads nothing")
	}
	var files []string
	for f := range found {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		allowed := notYetMoved[f]
		switch got := len(found[f]); {
		case allowed == 0:
			t.Errorf("%s: %d SQL strings outside the store layer (put them in a schema/*.sql file), the first: %.120q", f, got, found[f][0])
		case got > allowed:
			t.Errorf("%s: %d SQL strings, %d allowed (notYetMoved): new SQL belongs in schema/*.sql; the first: %.120q", f, got, allowed, found[f][0])
		case got < allowed:
			t.Errorf("%s: %d SQL strings now, notYetMoved allows %d: lower it to %d", f, got, allowed, got)
		}
	}
	for f := range notYetMoved {
		if _, ok := found[f]; !ok {
			t.Errorf("%s: no SQL left (or no such file): remove it from notYetMoved", f)
		}
	}
}
