package export

import (
	"fmt"
	"io"
)

// rowWriter writes rows of one column set in one format. write may keep
// no reference to the row (its strings excepted) after it returns; close
// flushes everything (the Parquet footer) but does not close the
// underlying io.Writer.
type rowWriter interface {
	write(row []Value) error
	close() error
}

func newRowWriter(format string, w io.Writer, cols []Column, o *Options) (rowWriter, error) {
	switch format {
	case CSV:
		return newCSVWriter(w, cols)
	case JSONL:
		return newJSONLWriter(w, cols), nil
	case Parquet:
		return newParquetWriter(w, cols, o.RowGroupRows)
	}
	return nil, fmt.Errorf("format %s does not write rows", format)
}
