package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The code's comments and the README say what the code does now and why;
// history (what changed when, against which commit) belongs in CHANGELOG.md
// and measured figures in BENCHMARKS.md. These patterns find history that
// slipped back in.
var (
	// A hex token that may be an abbreviated or full commit id; it counts
	// only when git knows it as a commit of this repository.
	hexToken = regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)
	// A test's name cited as evidence ("TestFoo checks ...").
	testName = regexp.MustCompile(`\bTest[A-Z][A-Za-z0-9_]*`)
	// A calendar date in prose ("Dec 1 2026", "2026-12-01").
	proseDate = regexp.MustCompile(`\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* [0-9]{1,2},? 20[0-9]{2}\b|\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\b|\b(on|of) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{1,2}\b`)
)

// TestNoHistoryInCommentsOrREADME: no commit id in any Go comment (tests
// included) or in the README; no test name or date in the comments of
// non-test code or in the README's prose.
func TestNoHistoryInCommentsOrREADME(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	isCommit := commitChecker(t, root)

	var problems []string
	report := func(where, what, text string) {
		problems = append(problems, where+": "+what+": "+strings.TrimSpace(text))
	}
	check := func(where, text string, commits, names, dates bool) {
		for _, h := range hexToken.FindAllString(text, -1) {
			if commits && isCommit(h) {
				report(where, "commit id "+h, text)
			}
		}
		if names {
			if m := testName.FindString(text); m != "" && m != "TestMain" {
				report(where, "test name "+m, text)
			}
		}
		if dates {
			if m := proseDate.FindString(text); m != "" {
				report(where, "date "+m, text)
			}
		}
	}

	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == ".git" || n == "testdata" || (strings.HasPrefix(n, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		inTest := strings.HasSuffix(path, "_test.go")
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				pos := fset.Position(c.Slash)
				rel, _ := filepath.Rel(root, pos.Filename)
				for i, line := range strings.Split(c.Text, "\n") {
					// A doc comment's code lines (indented by a tab) are
					// examples, which may name a test function.
					code := strings.HasPrefix(line, "//\t")
					check(rel+":"+strconv.Itoa(pos.Line+i), line, true, !inTest && !code, !inTest)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	fenced := false
	for i, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		// Program output and examples (code blocks and spans) may show
		// dates and test names as a program prints them; prose may not.
		prose := line
		if fenced {
			prose = ""
		} else {
			prose = codeSpan.ReplaceAllString(line, "")
		}
		check("README.md:"+strconv.Itoa(i+1), line, true, false, false)
		check("README.md:"+strconv.Itoa(i+1), prose, false, true, true)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

var codeSpan = regexp.MustCompile("`[^`]*`")

// commitChecker returns a function that reports whether a hex token names
// a commit of the repository at root. Outside a git checkout (a source
// archive) nothing can be a commit id and the check passes.
func commitChecker(t *testing.T, root string) func(string) bool {
	if _, err := exec.LookPath("git"); err != nil {
		t.Log("git not found: commit ids are not checked")
		return func(string) bool { return false }
	}
	if err := exec.Command("git", "-C", root, "rev-parse", "--git-dir").Run(); err != nil {
		t.Log("not a git checkout: commit ids are not checked")
		return func(string) bool { return false }
	}
	seen := map[string]bool{}
	return func(h string) bool {
		if v, ok := seen[h]; ok {
			return v
		}
		err := exec.Command("git", "-C", root, "cat-file", "-e", h+"^{commit}").Run()
		seen[h] = err == nil
		return err == nil
	}
}
