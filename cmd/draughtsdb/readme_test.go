package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readmeSection returns the lines of the README section under heading
// (a "## " line), up to the next heading of that level.
func readmeSection(t *testing.T, readme, heading string) []string {
	t.Helper()
	_, after, ok := strings.Cut(readme, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README.md has no %q section", heading)
	}
	if i := strings.Index(after, "\n## "); i >= 0 {
		after = after[:i]
	}
	return strings.Split(after, "\n")
}

// tableFirstCells returns the first cell of each table row among lines
// (header and separator rows included; they never name a command or a
// package).
func tableFirstCells(lines []string) []string {
	var cells []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "| ") {
			continue
		}
		// A cell may hold "\|" (an escaped bar inside code).
		cell, _, _ := strings.Cut(strings.ReplaceAll(l[2:], `\|`, "\x00"), " | ")
		cells = append(cells, strings.ReplaceAll(cell, "\x00", `\|`))
	}
	return cells
}

// TestREADMEListsEveryCommandAndPackage: the README's table of commands has
// a row for each command of the binary (issue #19: dxp and match had none),
// and "How the code is laid out" a row naming each package outside
// internal/ directories.
func TestREADMEListsEveryCommandAndPackage(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)

	commandCells := tableFirstCells(readmeSection(t, readme, "## Commands"))
	var commands []string
	for _, c := range newRootCommand().Commands() {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		commands = append(commands, c.Name())
		if !slices.ContainsFunc(commandCells, func(cell string) bool {
			return cell == "`"+c.Name()+"`" || strings.HasPrefix(cell, "`"+c.Name()+" ")
		}) {
			t.Errorf("README.md, ## Commands: no row for %q (%s)", c.Name(), c.Short)
		}
	}
	for _, want := range []string{"dxp", "match"} { // the rows this test was written for
		if !slices.Contains(commands, want) {
			t.Errorf("the binary has no %q command", want)
		}
	}

	layoutCells := tableFirstCells(readmeSection(t, readme, "## How the code is laid out"))
	var named []string
	for _, cell := range layoutCells {
		for _, p := range strings.Split(cell, ", ") {
			named = append(named, strings.Trim(p, "`"))
		}
	}
	var packages []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch name := d.Name(); {
			case path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")),
				name == "testdata", name == "internal", name == "node_modules", name == "vendor":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			if rel = filepath.ToSlash(rel); rel != "." && !slices.Contains(packages, rel) {
				packages = append(packages, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"analysis/dxp", "analysis/match", "cmd/draughtsdb"} {
		if !slices.Contains(packages, want) {
			t.Errorf("walking the module found no package %s: %q", want, packages)
		}
	}
	for _, p := range packages {
		if !slices.Contains(named, p) {
			t.Errorf("README.md, ## How the code is laid out: no row names package %s", p)
		}
	}
}
