package export

import (
	"strconv"
	"time"
)

// Kind is a column's type, the same in every format: CSV and JSON lines
// write it as text or a JSON number/boolean, Parquet as the physical and
// logical type named here.
type Kind uint8

const (
	String Kind = iota // UTF-8 text; Parquet BYTE_ARRAY (STRING)
	Int                // Parquet INT64
	Float              // Parquet DOUBLE
	Bool               // Parquet BOOLEAN
	Time               // Parquet INT64 TIMESTAMP(MICROS, UTC); text as RFC 3339 in UTC
)

func (k Kind) String() string {
	switch k {
	case Int:
		return "int64"
	case Float:
		return "double"
	case Bool:
		return "boolean"
	case Time:
		return "timestamp"
	}
	return "string"
}

// Column describes one output column.
type Column struct {
	Name     string
	Kind     Kind
	Nullable bool   // may be null (empty in CSV, null in JSON)
	Dict     bool   // few distinct values: dictionary-encoded in Parquet
	Doc      string // one line for the README table
}

// Value is one cell. The field used depends on the column's Kind: S for
// String, I for Int, Bool (0 or 1) and Time (microseconds since the Unix
// epoch, UTC), F for Float.
type Value struct {
	S    string
	I    int64
	F    float64
	Null bool
}

func str(s string) Value  { return Value{S: s} }
func num(i int64) Value   { return Value{I: i} }
func flt(f float64) Value { return Value{F: f} }
func null() Value         { return Value{Null: true} }
func boolean(b bool) Value {
	if b {
		return Value{I: 1}
	}
	return Value{}
}

// optStr is a nullable string column's value.
func optStr(s *string) Value {
	if s == nil {
		return null()
	}
	return Value{S: *s}
}

func timestamp(t time.Time) Value { return Value{I: t.UnixMicro()} }

// hex64 writes a Zobrist hash as 16 lowercase hexadecimal digits (its bits
// as unsigned; the database stores the same bits as a signed bigint).
func hex64(h uint64) string {
	var b [16]byte
	const digits = "0123456789abcdef"
	for i := 15; i >= 0; i-- {
		b[i] = digits[h&15]
		h >>= 4
	}
	return string(b[:])
}

// text writes v as the text CSV and JSON use for its kind.
func appendText(dst []byte, k Kind, v Value) []byte {
	switch k {
	case Int:
		return strconv.AppendInt(dst, v.I, 10)
	case Float:
		return strconv.AppendFloat(dst, v.F, 'g', -1, 64)
	case Bool:
		return strconv.AppendBool(dst, v.I != 0)
	case Time:
		return time.UnixMicro(v.I).UTC().AppendFormat(dst, time.RFC3339Nano)
	}
	return append(dst, v.S...)
}
