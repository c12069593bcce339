package export

import (
	"fmt"
	"io"
	"reflect"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// DefaultRowGroupRows is the Parquet row group size when Options does not
// set one: about 2^20 rows, tens of megabytes compressed for positions,
// large enough for efficient scans and small enough for a reader to hold
// one group in memory. The writer holds one row group (compressed) in
// memory before it writes it out, so this also bounds the export's memory.
const DefaultRowGroupRows = 1 << 20

// parquetWriter writes Parquet through github.com/parquet-go/parquet-go:
// one leaf column per Column in order, required unless Nullable; String
// as BYTE_ARRAY (STRING), dictionary-encoded (RLE_DICTIONARY) when Dict
// is set (columns with few distinct values: variant, side, engine, event,
// players, ...), Int as INT64, Float as DOUBLE, Bool as BOOLEAN, Time as
// INT64 TIMESTAMP(MICROS, UTC); zstd compression; data pages v2.
type parquetWriter struct {
	w     *parquet.Writer
	cols  []Column
	rows  []parquet.Row
	n     int
	store []parquet.Value
}

const parquetBatch = 1024

func parquetSchema(cols []Column) (*parquet.Schema, error) {
	fields := make([]reflect.StructField, len(cols))
	for i, c := range cols {
		var t reflect.Type
		tag := c.Name
		switch c.Kind {
		case String:
			t = reflect.TypeFor[string]()
			if c.Dict {
				tag += ",dict"
			}
		case Int:
			t = reflect.TypeFor[int64]()
		case Float:
			t = reflect.TypeFor[float64]()
		case Bool:
			t = reflect.TypeFor[bool]()
		case Time:
			t = reflect.TypeFor[int64]()
			tag += ",timestamp(microsecond:utc)"
		default:
			return nil, fmt.Errorf("column %s: no Parquet type for kind %v", c.Name, c.Kind)
		}
		if c.Nullable {
			tag += ",optional"
		}
		fields[i] = reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: t, Tag: reflect.StructTag(`parquet:"` + tag + `"`)}
	}
	return parquet.SchemaOf(reflect.New(reflect.StructOf(fields)).Elem().Interface()), nil
}

func newParquetWriter(w io.Writer, cols []Column, rowGroupRows int64) (*parquetWriter, error) {
	schema, err := parquetSchema(cols)
	if err != nil {
		return nil, err
	}
	if rowGroupRows <= 0 {
		rowGroupRows = DefaultRowGroupRows
	}
	cfg, err := parquet.NewWriterConfig(schema,
		parquet.Compression(&zstd.Codec{Level: zstd.SpeedDefault}),
		parquet.MaxRowsPerRowGroup(rowGroupRows),
		parquet.CreatedBy("draughtsdb export", "", ""),
	)
	if err != nil {
		return nil, err
	}
	p := &parquetWriter{w: parquet.NewWriter(w, cfg), cols: cols}
	p.store = make([]parquet.Value, parquetBatch*len(cols))
	p.rows = make([]parquet.Row, parquetBatch)
	for i := range p.rows {
		p.rows[i] = p.store[i*len(cols) : (i+1)*len(cols) : (i+1)*len(cols)]
	}
	return p, nil
}

func (p *parquetWriter) write(row []Value) error {
	out := p.rows[p.n]
	for i, v := range row {
		c := &p.cols[i]
		def := 0
		if c.Nullable {
			def = 1
		}
		var pv parquet.Value
		switch {
		case v.Null:
			pv, def = parquet.NullValue(), 0
		case c.Kind == String:
			pv = parquet.ValueOf(v.S)
		case c.Kind == Int, c.Kind == Time:
			pv = parquet.Int64Value(v.I)
		case c.Kind == Float:
			pv = parquet.DoubleValue(v.F)
		case c.Kind == Bool:
			pv = parquet.BooleanValue(v.I != 0)
		}
		out[i] = pv.Level(0, def, i)
	}
	p.n++
	if p.n == parquetBatch {
		return p.flush()
	}
	return nil
}

func (p *parquetWriter) flush() error {
	if p.n == 0 {
		return nil
	}
	_, err := p.w.WriteRows(p.rows[:p.n])
	for i := range p.store[:p.n*len(p.cols)] {
		p.store[i] = parquet.Value{} // drop the string references
	}
	p.n = 0
	return err
}

func (p *parquetWriter) close() error {
	if err := p.flush(); err != nil {
		return err
	}
	return p.w.Close()
}
