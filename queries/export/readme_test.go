package export

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// readmeTable is the README table of a column set.
func readmeTable(set ColumnSet) string {
	var b strings.Builder
	b.WriteString("| column | type | null | meaning |\n|---|---|---|---|\n")
	for _, c := range set.Columns {
		kind := c.Kind.String()
		if c.Dict {
			kind += ", dict"
		}
		null := ""
		if c.Nullable {
			null = "yes"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", c.Name, kind, null, strings.ReplaceAll(c.Doc, "|", `\|`))
	}
	return b.String()
}

// TestReadmeDocumentsEveryColumn keeps the README's Export section equal
// to the columns the code writes. DRAUGHTSDB_PRINT_README=1 prints the
// tables to paste.
func TestReadmeDocumentsEveryColumn(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, set := range ColumnSets() {
		table := readmeTable(set)
		if os.Getenv("DRAUGHTSDB_PRINT_README") != "" {
			fmt.Printf("%s distinct=%v\n%s\n", set.What, set.Distinct, table)
			continue
		}
		if !strings.Contains(readme, table) {
			t.Errorf("README.md lacks the table of --what %s (distinct %v):\n%s", set.What, set.Distinct, table)
		}
	}
}
