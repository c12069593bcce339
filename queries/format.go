package queries

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// WriteTable writes r as aligned columns with a header line.
func (r *Result) WriteTable(w io.Writer) error {
	widths := make([]int, len(r.Columns))
	for i, c := range r.Columns {
		widths[i] = utf8.RuneCountInString(c)
	}
	for _, row := range r.Rows {
		for i, v := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(v))
		}
	}
	line := func(cells []string) string {
		var b strings.Builder
		for i, c := range cells {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(c)
			if i < len(cells)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)))
			}
		}
		return b.String() + "\n"
	}
	if _, err := io.WriteString(w, line(r.Columns)); err != nil {
		return err
	}
	rule := make([]string, len(r.Columns))
	for i := range rule {
		rule[i] = strings.Repeat("-", widths[i])
	}
	io.WriteString(w, line(rule))
	for _, row := range r.Rows {
		if _, err := io.WriteString(w, line(row)); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "(%d rows)\n", len(r.Rows))
	return err
}

// WriteCSV writes r as CSV with a header line (NULL as an empty field).
func (r *Result) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(r.Columns)
	for _, row := range r.Rows {
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes r as a JSON array of objects, one per row, each with
// its keys in column order (the query's SELECT order, as the table and CSV
// forms show them); NULL is null. Values are strings as PostgreSQL prints
// them, except that columns whose every value is an integer or a decimal
// number are written as numbers.
func (r *Result) WriteJSON(w io.Writer) error {
	numeric := make([]bool, len(r.Columns))
	for i := range r.Columns {
		numeric[i] = len(r.Rows) > 0
		for j, row := range r.Rows {
			if !r.Null[j][i] && !json.Valid([]byte(row[i])) || !r.Null[j][i] && (row[i] == "" || strings.ContainsAny(row[i][:1], `"[{tfn`)) {
				numeric[i] = false
				break
			}
		}
	}
	out := make([]orderedObject, 0, len(r.Rows))
	for j, row := range r.Rows {
		obj := orderedObject{keys: r.Columns, values: make([]any, len(row))}
		for i := range r.Columns {
			switch {
			case r.Null[j][i]:
				obj.values[i] = nil
			case numeric[i]:
				obj.values[i] = json.Number(row[i])
			default:
				obj.values[i] = row[i]
			}
		}
		out = append(out, obj)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// orderedObject is a JSON object whose keys keep their order (a Go map's
// would be sorted).
type orderedObject struct {
	keys   []string
	values []any
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := json.Marshal(o.values[i])
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
