package export

import (
	"bufio"
	"io"
	"math"
	"unicode/utf8"
)

// jsonlWriter writes one JSON object per line, keys in column order: null
// for null, numbers for Int and Float (NaN and infinities, which never
// occur, as null), true/false for Bool, strings for String and Time
// (RFC 3339, UTC).
type jsonlWriter struct {
	w    *bufio.Writer
	cols []Column
	keys [][]byte // `"name":` per column, with the separator before it
	buf  []byte
}

func newJSONLWriter(w io.Writer, cols []Column) *jsonlWriter {
	j := &jsonlWriter{w: bufio.NewWriterSize(w, 1<<16), cols: cols}
	for i, c := range cols {
		k := []byte{','}
		if i == 0 {
			k = []byte{'{'}
		}
		k = appendJSONString(k, c.Name)
		j.keys = append(j.keys, append(k, ':'))
	}
	return j
}

func (j *jsonlWriter) write(row []Value) error {
	b := j.buf[:0]
	for i, v := range row {
		b = append(b, j.keys[i]...)
		k := j.cols[i].Kind
		switch {
		case v.Null, k == Float && (math.IsNaN(v.F) || math.IsInf(v.F, 0)):
			b = append(b, "null"...)
		case k == String:
			b = appendJSONString(b, v.S)
		case k == Time:
			b = append(b, '"')
			b = appendText(b, k, v)
			b = append(b, '"')
		default:
			b = appendText(b, k, v)
		}
	}
	if len(row) == 0 {
		b = append(b, '{')
	}
	b = append(b, '}', '\n')
	j.buf = b
	_, err := j.w.Write(b)
	return err
}

func (j *jsonlWriter) close() error { return j.w.Flush() }

// appendJSONString writes s as a JSON string: ", \ and control characters
// escaped, invalid UTF-8 as U+FFFD, the rest as is.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, "\\ufffd"...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}
