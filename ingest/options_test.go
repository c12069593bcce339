package ingest

import (
	"context"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
)

// TestImportChecksOptionsFirst: Import refuses options out of range before
// it reads a source or touches the database (the pool here is nil).
func TestImportChecksOptionsFirst(t *testing.T) {
	for name, o := range map[string]Options{
		"workers":       {Workers: maxWorkers + 1},
		"batch size":    {BatchSize: maxBatchSize + 1},
		"opening depth": {OpeningDepth: openings.MaxDepth + 1},
	} {
		sum, err := Import(context.Background(), nil, []string{"-"}, o)
		if err == nil || sum != nil {
			t.Errorf("%s: %+v, %v; want an error", name, sum, err)
		}
	}
	o := Options{}
	if err := o.check(); err != nil || o.BatchSize != 5000 || o.OpeningDepth != openings.DefaultDepth || o.Notice == nil {
		t.Errorf("defaults: %+v, %v", o, err)
	}
}
