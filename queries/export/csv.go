package export

import (
	"bufio"
	"bytes"
	"io"
)

// csvWriter writes RFC 4180 CSV: a header line with the column names, then
// one line per row; a field is quoted when it holds a comma, a quote or a
// line break (quotes doubled); null is the empty field (as is "", so a
// nullable string column's CSV cannot tell them apart: use JSON lines or
// Parquet when that matters).
type csvWriter struct {
	w    *bufio.Writer
	cols []Column
	buf  []byte
}

func newCSVWriter(w io.Writer, cols []Column) (*csvWriter, error) {
	c := &csvWriter{w: bufio.NewWriterSize(w, 1<<16), cols: cols}
	for i, col := range cols {
		if i > 0 {
			c.buf = append(c.buf, ',')
		}
		c.buf = appendCSVField(c.buf, []byte(col.Name))
	}
	c.buf = append(c.buf, '\n')
	_, err := c.w.Write(c.buf)
	return c, err
}

func (c *csvWriter) write(row []Value) error {
	b := c.buf[:0]
	for i, v := range row {
		if i > 0 {
			b = append(b, ',')
		}
		if v.Null {
			continue
		}
		if c.cols[i].Kind != String {
			b = appendText(b, c.cols[i].Kind, v)
			continue
		}
		b = appendCSVField(b, []byte(v.S))
	}
	b = append(b, '\n')
	c.buf = b
	_, err := c.w.Write(b)
	return err
}

func appendCSVField(dst, s []byte) []byte {
	if bytes.IndexAny(s, ",\"\r\n") < 0 {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for _, ch := range s {
		if ch == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, ch)
	}
	return append(dst, '"')
}

func (c *csvWriter) close() error { return c.w.Flush() }
