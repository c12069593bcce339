package codec

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/draughtsdb/draughtsdb"

// imports returns the imports of the non-test Go files of the package in
// dir.
func imports(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if isTool(af.Comments) {
			continue
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// isTool reports a file built only with a build tag (//go:build tools or
// ignore): not part of the package.
func isTool(groups []*ast.CommentGroup) bool {
	for _, g := range groups {
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:build") {
				return true
			}
		}
	}
	return false
}

// TestCodecIsPure: the stored formats depend on the rules (and the PDN
// reader's model of annotations, which replay reads too) and nothing that
// touches a database, the network or files.
func TestCodecIsPure(t *testing.T) {
	for _, p := range imports(t, ".") {
		switch {
		case p == module+"/replay", p == module+"/replay/rules", p == module+"/ingest/pdn":
		case strings.Contains(p, "."), strings.HasPrefix(p, module):
			t.Errorf("codec imports %s", p)
		case p == "os", p == "io", strings.HasPrefix(p, "net"), strings.HasPrefix(p, "database/"), strings.HasPrefix(p, "io/"):
			t.Errorf("codec imports %s", p)
		}
	}
}

// TestReadersDoNotImportIngest: nothing under analysis/ or queries/
// depends, even indirectly, on the importer (package ingest and its
// sources); they read stored games with this package. ingest/pdn, the PDN
// syntax, is allowed.
func TestReadersDoNotImportIngest(t *testing.T) {
	root := filepath.Join("..", "..")
	seen := map[string]bool{}
	// chain is how the walk reached pkg, for the message.
	var visit func(pkg, chain string)
	visit = func(pkg, chain string) {
		if seen[pkg] {
			return
		}
		seen[pkg] = true
		rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
		if (rel == "ingest" || strings.HasPrefix(rel, "ingest/")) && rel != "ingest/pdn" {
			t.Errorf("%s: reaches the importer (%s)", chain, rel)
			return
		}
		for _, p := range imports(t, filepath.Join(root, filepath.FromSlash(rel))) {
			if p == module || strings.HasPrefix(p, module+"/") {
				visit(p, chain+" -> "+strings.TrimPrefix(p, module+"/"))
			}
		}
	}
	n := 0
	for _, top := range []string{"analysis", "queries"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d os.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			visit(module+"/"+filepath.ToSlash(rel), filepath.ToSlash(rel))
			n++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 6 || !seen[module+"/schema/codec"] {
		t.Fatalf("%d packages walked; codec reached: %v", n, seen[module+"/schema/codec"])
	}
}
