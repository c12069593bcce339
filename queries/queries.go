package queries

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed sql/*.sql
var files embed.FS

// ErrUnknownQuery and ErrMissingParam are returned by Lookup and Bind.
var (
	ErrUnknownQuery = errors.New("no such query")
	ErrMissingParam = errors.New("missing parameter")
	ErrUnknownParam = errors.New("unknown parameter")
	ErrBadParam     = errors.New("bad parameter")
)

// checks are the values the parameters of these names take in every query
// file that declares one, checked by Bind before the query runs. The SQL
// would take a variant name it does not know for NULL and a count of moves
// below 1 for none, and answer no rows or a meaningless one, which reads
// as an answer rather than a mistake.
var checks = map[string]func(p Param, v string) error{
	// variant: a name package rules knows (draughtsdb_variants holds the
	// same names and aliases); empty only where the query takes empty for
	// every variant (its default is empty).
	"variant": func(p Param, v string) error {
		if strings.TrimSpace(v) == "" {
			if p.Default != nil && *p.Default == "" {
				return nil
			}
			return errors.New("give a variant name")
		}
		_, err := rules.VariantByName(v)
		return err
	},
	// n: how many first moves (plies) make an opening.
	"n": func(p Param, v string) error {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err != nil || n < 1 {
			return fmt.Errorf("%q: want a number of moves, 1 or more", v)
		}
		return nil
	},
}

// Param is one parameter of a query.
type Param struct {
	Name        string
	Description string
	Default     *string // nil: required
}

// Query is one named SQL file.
type Query struct {
	Name        string
	Description string
	Params      []Param
	File        string // path inside the embedded sql/ directory
	SQL         string
}

var (
	paramLine = regexp.MustCompile(`^--\s*param:\s*([a-z_][a-z0-9_]*)\s*(?:\(default\s+("[^"]*"|[^)]*)\))?\s*:\s*(.*)$`)
	// :'name' in the SQL; comments are stripped first (see stripComments).
	placeholder = regexp.MustCompile(`:'([a-z_][a-z0-9_]*)'`)
)

// All returns every named query, by name.
func All() ([]*Query, error) {
	entries, err := fs.ReadDir(files, "sql")
	if err != nil {
		return nil, err
	}
	var out []*Query
	for _, e := range entries {
		b, err := fs.ReadFile(files, "sql/"+e.Name())
		if err != nil {
			return nil, err
		}
		q, err := parse("sql/"+e.Name(), string(b))
		if err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Lookup returns the query called name.
func Lookup(name string) (*Query, error) {
	all, err := All()
	if err != nil {
		return nil, err
	}
	for _, q := range all {
		if q.Name == name {
			return q, nil
		}
	}
	return nil, fmt.Errorf("%w %q (draughtsdb query --list shows them)", ErrUnknownQuery, name)
}

func parse(file, text string) (*Query, error) {
	q := &Query{File: file, SQL: text}
	var desc []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "--") {
			break
		}
		switch body := strings.TrimSpace(strings.TrimPrefix(line, "--")); {
		case strings.HasPrefix(body, "name:"):
			q.Name = strings.TrimSpace(strings.TrimPrefix(body, "name:"))
		case strings.HasPrefix(body, "param:"):
			m := paramLine.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("%s: bad parameter line %q", file, line)
			}
			p := Param{Name: m[1], Description: m[3]}
			if m[2] != "" || strings.Contains(line, "(default") {
				d := strings.Trim(m[2], `"`)
				p.Default = &d
			}
			q.Params = append(q.Params, p)
		default:
			desc = append(desc, body)
		}
	}
	if q.Name == "" {
		return nil, fmt.Errorf("%s: no '-- name:' header", file)
	}
	q.Description = strings.Join(desc, " ")
	declared := map[string]bool{}
	for _, p := range q.Params {
		declared[p.Name] = true
	}
	for _, m := range placeholder.FindAllStringSubmatch(stripComments(text), -1) {
		if !declared[m[1]] {
			return nil, fmt.Errorf("%s: :'%s' is used but not declared", file, m[1])
		}
	}
	return q, nil
}

// stripComments removes -- comments, so header text is not taken for SQL,
// and psql meta-command lines (starting with a backslash: the files give
// psql their parameters' defaults with \if and \set), which are not SQL.
// It does not parse string literals: a query file must not write "--"
// inside a string (none does; the tests run every one).
func stripComments(sql string) string {
	var b strings.Builder
	for _, line := range strings.Split(sql, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), `\`) {
			continue
		}
		if i := strings.Index(line, "--"); i >= 0 {
			line = line[:i]
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// Bind turns the query into SQL with $n placeholders and its arguments,
// filling defaults and checking the values checks knows. Every value is
// passed as text.
func (q *Query) Bind(values map[string]string) (string, []any, error) {
	args := []any{}
	index := map[string]int{}
	for name := range values {
		if !q.Has(name) {
			return "", nil, fmt.Errorf("%w %q for query %s", ErrUnknownParam, name, q.Name)
		}
	}
	for _, p := range q.Params {
		v, ok := values[p.Name]
		if !ok {
			if p.Default == nil {
				return "", nil, fmt.Errorf("%w %q for query %s (%s)", ErrMissingParam, p.Name, q.Name, p.Description)
			}
			v = *p.Default
		}
		if check := checks[p.Name]; check != nil {
			if err := check(p, v); err != nil {
				return "", nil, fmt.Errorf("%w %s for query %s: %w", ErrBadParam, p.Name, q.Name, err)
			}
		}
		args = append(args, v)
		index[p.Name] = len(args)
	}
	sql := placeholder.ReplaceAllStringFunc(stripComments(q.SQL), func(m string) string {
		name := m[2 : len(m)-1]
		return "$" + strconv.Itoa(index[name]) + "::text"
	})
	return strings.TrimRight(strings.TrimSpace(sql), ";"), args, nil
}

// Has reports whether q declares the parameter name.
func (q *Query) Has(name string) bool {
	for _, p := range q.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// Result is a query's columns and rows, every value as text ("" for NULL
// in Rows, with Null marking it).
type Result struct {
	Columns []string
	Rows    [][]string
	Null    [][]bool
}

// Querier is what RunTx needs (a pgx.Tx, *pgx.Conn or *pgxpool.Pool).
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Run executes q with the given parameter values through schema.ReadOnly:
// read only, as the role draughtsdb_reader, with a statement timeout, rolled
// back. The query files are ours, but people add their own and run them, so
// they get no more power than any other SQL text a user supplies.
func Run(ctx context.Context, pool *pgxpool.Pool, q *Query, values map[string]string) (*Result, error) {
	var res *Result
	err := schema.ReadOnly(ctx, pool, func(tx pgx.Tx) error {
		var err error
		res, err = RunTx(ctx, tx, q, values)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// RunTx executes q with the given parameter values on db as it is: for a
// caller already inside schema.ReadOnly (the explorer), which runs several
// queries in one transaction.
func RunTx(ctx context.Context, db Querier, q *Query, values map[string]string) (*Result, error) {
	sql, args, err := q.Bind(values)
	if err != nil {
		return nil, err
	}
	// Text results: every value exactly as PostgreSQL prints it.
	rows, err := db.Query(ctx, sql, append([]any{pgx.QueryResultFormats{pgx.TextFormatCode}}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("query %s: %w", q.Name, err)
	}
	defer rows.Close()
	res := &Result{}
	for _, f := range rows.FieldDescriptions() {
		res.Columns = append(res.Columns, f.Name)
	}
	for rows.Next() {
		vals := rows.RawValues()
		row := make([]string, len(vals))
		null := make([]bool, len(vals))
		for i, v := range vals {
			if v == nil {
				null[i] = true
				continue
			}
			row[i] = string(v)
		}
		res.Rows = append(res.Rows, row)
		res.Null = append(res.Null, null)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("query %s: %w", q.Name, err)
	}
	return res, nil
}
