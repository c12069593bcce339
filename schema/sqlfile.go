package schema

import (
	"fmt"
	"strings"
)

// sqlFile is one embedded .sql file of the store: named statements, each
// beginning at a line "-- name: NAME" and running to the next such line.
// The SQL lives in .sql files rather than Go strings so that it can be read,
// run in psql and reviewed as SQL; every statement of the store is named in
// one of them.
type sqlFile struct {
	file  string
	stmts map[string]string
	order []string
	taken map[string]bool
}

// sqlFiles are the store's files, for the test that each statement is
// used.
var sqlFiles []*sqlFile

// storeSQL is parseSQL for an embedded file of the store: it panics on a
// file that does not parse, which, the files being embedded, happens at
// package initialisation, in every test of the package.
func storeSQL(file, text string) *sqlFile {
	f, err := parseSQL(file, text)
	if err != nil {
		panic("schema: " + err.Error())
	}
	sqlFiles = append(sqlFiles, f)
	return f
}

// parseSQL reads text, the file named file, into its named statements.
func parseSQL(file, text string) (*sqlFile, error) {
	f := &sqlFile{file: file, stmts: map[string]string{}, taken: map[string]bool{}}
	name := ""
	var body strings.Builder
	var err error
	flush := func() {
		s := strings.TrimSpace(body.String())
		body.Reset()
		switch {
		case name == "" && !onlyComments(s):
			err = fmt.Errorf("%s: SQL before the first \"-- name:\" line", file)
		case name != "" && onlyComments(s):
			err = fmt.Errorf("%s: statement %q is empty", file, name)
		case name != "":
			f.stmts[name] = s
		}
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		n, ok := strings.CutPrefix(strings.TrimSpace(line), "-- name:")
		if !ok {
			body.WriteString(line)
			continue
		}
		if flush(); err != nil {
			return nil, err
		}
		name = strings.TrimSpace(n)
		if name == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("%s: bad statement name %q", file, n)
		}
		if _, dup := f.stmts[name]; dup {
			return nil, fmt.Errorf("%s: statement %q named twice", file, name)
		}
		f.order = append(f.order, name)
	}
	if flush(); err != nil {
		return nil, err
	}
	return f, nil
}

// onlyComments reports whether s holds no SQL but "--" comments.
func onlyComments(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "--") {
			return false
		}
	}
	return true
}

// get returns the statement name. A name the file lacks panics: get is
// called in package-level variable declarations, so a typo fails every
// test of the package rather than one query at run time.
func (f *sqlFile) get(name string) string {
	s, ok := f.stmts[name]
	if !ok {
		panic(fmt.Sprintf("schema: %s has no statement %q", f.file, name))
	}
	f.taken[name] = true
	return s
}
