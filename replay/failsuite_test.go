package replay

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestFailSuiteNeverSilent: every file of the PDN test suite's fail set
// (wiegerw/pdn games/fail: files a strict reader rejects) gives at least
// one rejection or warning that names its problem: a lenient reader may go
// on, but never silently. Expected problems, from reading each file:
var failSuiteProblems = map[string]string{
	// Date "2004.10.27 - 2004.11.01" and result tokens that differ from
	// the Result tag.
	"40Camp.DamaInternazionaleAssoluto.pdn": "date range",
	"Cat.A1.pdn":                            "PDN syntax error",
	"Cat.C1.pdn":                            "illegal move",
	"abatsiev.pdn":                          "unknown move",
	"delfts.pdn":                            "result not understood",
	// Czech games without GameType: read as Russian; those Russian
	// rejects are Czech by replay, with a warning (TestCzechFilesByReplay).
	"mrdrcd07.pdn":       "variant decided by replay",
	"mrdrcd08.pdn":       "variant decided by replay",
	"nested_comment.pdn": "PDN syntax error",
}

func TestFailSuiteNeverSilent(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "ingest", "pdn", "testdata", "shared", "testsuite", "fail", "*.pdn.gz"))
	if len(files) != len(failSuiteProblems) {
		t.Fatalf("%d fail-suite files, want %d", len(files), len(failSuiteProblems))
	}
	var table []string
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".gz")
		rejected := map[string]int{}
		warned := map[string]int{}
		games := 0
		sharedGamesAll(t, filepath.Join("testsuite", "fail", name), func(g *Game, err error) {
			games++
			if err != nil {
				rejected[Reason(err)]++
				return
			}
			for _, w := range g.Warnings {
				warned[w.Kind.String()]++
			}
		})
		if len(rejected)+len(warned) == 0 {
			t.Errorf("%s: %d games, no rejection and no warning", name, games)
		}
		if want := failSuiteProblems[name]; want != "" && rejected[want]+warned[want] == 0 {
			t.Errorf("%s: no %q among rejections %v and warnings %v", name, want, rejected, warned)
		}
		table = append(table, fmt.Sprintf("%-40s %3d games  rejected %v  warnings %v", name, games, sorted(rejected), sorted(warned)))
	}
	t.Logf("fail suite:\n%s", strings.Join(table, "\n"))
}

func sorted(m map[string]int) string {
	var s []string
	for k, v := range m {
		s = append(s, fmt.Sprintf("%s: %d", k, v))
	}
	sort.Strings(s)
	return "{" + strings.Join(s, ", ") + "}"
}
