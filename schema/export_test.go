package schema

// ParseSQL is parseSQL for the tests: the statements of text by name, in
// file order.
func ParseSQL(file, text string) (names []string, stmts map[string]string, err error) {
	f, err := parseSQL(file, text)
	if err != nil {
		return nil, nil, err
	}
	return f.order, f.stmts, nil
}

// UnusedStatements lists "file: name" for each statement of the store's
// files that no Go code takes.
func UnusedStatements() []string {
	var out []string
	for _, f := range sqlFiles {
		for _, n := range f.order {
			if !f.taken[n] {
				out = append(out, f.file+": "+n)
			}
		}
	}
	return out
}

// StoreFiles is the store's .sql files by name.
func StoreFiles() []string {
	var out []string
	for _, f := range sqlFiles {
		out = append(out, f.file)
	}
	return out
}
