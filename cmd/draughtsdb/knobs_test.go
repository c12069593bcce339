package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// testKnobs finds every knob the tests read: the environment variables
// that test code (the _test.go files and package pgtest, which only tests
// import) reads with os.Getenv or os.LookupEnv, by a literal name or a
// string constant; every DRAUGHTSDB_ name spelt in test code that is no
// setting of the command (those are the command's configuration, which
// the tests set to check it, not knobs); but not a variable the same package's
// tests set with t.Setenv (the test sets it itself, for its own use or its
// child processes'); and every flag a test file
// defines with package flag, as "-name", and -short when a test
// asks testing.Short. It returns each knob with the
// file that reads it.
func testKnobs(t *testing.T, root string) map[string]string {
	t.Helper()
	settingEnv := map[string]bool{}
	for _, s := range settings {
		settingEnv[envName(s.key)] = true
	}
	draughtsdbName := regexp.MustCompile(`^(DRAUGHTSDB_[A-Z0-9_]+)(=|$)`)
	knobs := map[string]string{}
	// By package directory: the variables its tests set themselves, and
	// every name its tests read (with the file).
	setIn := map[string]map[string]bool{}
	foundIn := map[string]map[string]string{}
	// The string constants of each package directory's test files, for
	// the names spelt as a constant (os.Getenv(engineEnv)).
	constsIn := map[string]map[string]string{}
	type parsed struct {
		rel string
		f   *ast.File
	}
	var files []parsed
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if !strings.HasSuffix(path, "_test.go") && !(strings.HasPrefix(rel, "schema/pgtest/") && strings.HasSuffix(path, ".go")) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files = append(files, parsed{rel, f})
		dir := filepath.Dir(rel)
		if constsIn[dir] == nil {
			constsIn[dir] = map[string]string{}
		}
		consts := constsIn[dir]
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if i < len(vs.Values) {
						if s, ok := stringLit(vs.Values[i]); ok {
							consts[name.Name] = s
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, pf := range files {
		rel, f, dir := pf.rel, pf.f, filepath.Dir(pf.rel)
		consts := constsIn[dir]
		name := func(e ast.Expr) (string, bool) {
			if id, ok := e.(*ast.Ident); ok {
				s, ok := consts[id.Name]
				return s, ok
			}
			return stringLit(e)
		}
		// First the variables the file sets itself.
		if setIn[dir] == nil {
			setIn[dir], foundIn[dir] = map[string]bool{}, map[string]string{}
		}
		set := setIn[dir]
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && len(c.Args) == 2 {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Setenv" {
					if s, ok := name(c.Args[0]); ok {
						set[s] = true
					}
				}
			}
			return true
		})
		found := foundIn[dir]
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if s, ok := stringLit(n); ok {
					if m := draughtsdbName.FindStringSubmatch(s); m != nil && !settingEnv[m[1]] {
						found[m[1]] = rel
					}
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				pkg, ok := sel.X.(*ast.Ident)
				if !ok || len(n.Args) == 0 && sel.Sel.Name != "Short" {
					return true
				}
				switch {
				case pkg.Name == "testing" && sel.Sel.Name == "Short":
					found["-short"] = rel
				case pkg.Name == "os" && (sel.Sel.Name == "Getenv" || sel.Sel.Name == "LookupEnv"):
					if s, ok := name(n.Args[0]); ok && !settingEnv[s] {
						found[s] = rel
					}
				case pkg.Name == "flag" && slices.Contains([]string{"Bool", "String", "Int", "Int64", "Uint", "Uint64", "Float64", "Duration"}, sel.Sel.Name):
					if s, ok := stringLit(n.Args[0]); ok {
						found["-"+s] = rel
					}
				}
			}
			return true
		})
	}
	for dir, found := range foundIn {
		for k, rel := range found {
			if !setIn[dir][k] {
				knobs[k] = rel
			}
		}
	}
	return knobs
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// TestREADMEListsEveryTestKnob: the table of test knobs in the README's
// Development section names every knob the tests read, and nothing else,
// so that the one place to look for them stays complete.
func TestREADMEListsEveryTestKnob(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	// A first cell holds one or more knobs in backquotes, each a name
	// with an optional =value: `DRAUGHTSDB_FULL=1`, `-long`.
	code := regexp.MustCompile("`([^`=]+)(=[^`]*)?`")
	listed := map[string]bool{}
	for _, cell := range tableFirstCells(readmeSection(t, string(b), "## Development")) {
		for _, m := range code.FindAllStringSubmatch(cell, -1) {
			listed[m[1]] = true
		}
	}
	knobs := testKnobs(t, root)
	if len(knobs) < 20 || knobs["CI"] == "" || knobs["-long"] == "" {
		t.Fatalf("found only %d knobs (%v): the scan misses some", len(knobs), knobs)
	}
	for _, k := range slices.Sorted(maps.Keys(knobs)) {
		if !listed[k] {
			t.Errorf("README.md, ## Development: the table of test knobs lacks %s (read by %s)", k, knobs[k])
		}
	}
	for k := range listed {
		if knobs[k] == "" {
			t.Errorf("README.md, ## Development: the table of test knobs lists %s, which no test reads", k)
		}
	}
}
