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

// sqlShape matches a string that is SQL, or a fragment of a statement
// put together in Go: a statement's opening words, or a clause of one.
var sqlShape = regexp.MustCompile(`(?s)\b(SELECT\b.*\bFROM|WHERE|FROM\s+STDIN|INSERT\s+INTO|UPDATE\s+[a-z_.]+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|TEMP|UNIQUE|OR\s+REPLACE|ROLE|DATABASE)|ALTER\s+(TABLE|ROLE|DATABASE)|DROP\s+(TABLE|INDEX|DATABASE|ROLE)|TRUNCATE\s|COPY\s+[a-z_]+|ON\s+CONFLICT|GROUP\s+BY|ORDER\s+BY|LEFT\s+JOIN|pg_advisory_|BEGIN\s+READ|SET\s+LOCAL|SELECT\s+[a-z_]+\()`)

// TestSQLOnlyInTheStore: no Go string literal outside the store layer
// looks like SQL, and no .sql file lives outside it. The store layer is
// schema/ (its .sql files, and the runner's and the harness's Go); the
// user-facing SQL lives in queries/sql and the migrations. New SQL belongs
// in a schema/*.sql file beside the typed function that runs it. The
// store's own Go is scanned too, as the control: the scan must find the
// SQL that the runner and the harness do hold there, or it reads nothing.
func TestSQLOnlyInTheStore(t *testing.T) {
	t.Parallel()
	root := ".."
	found := map[string][]string{}
	inStore := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		store := rel == "schema" || strings.HasPrefix(rel, "schema/")
		if d.IsDir() {
			if d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".sql") && !store && !strings.HasPrefix(rel, "queries/sql/") {
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
				if store {
					inStore++
				} else {
					found[rel] = append(found[rel], s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if inStore == 0 {
		t.Fatal("no SQL string found in schema's Go either: the scan reads nothing")
	}
	var files []string
	for f := range found {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		t.Errorf("%s: %d SQL strings outside the store layer (put them in a schema/*.sql file with a typed function beside it), the first: %.120q", f, len(found[f]), found[f][0])
	}
}
