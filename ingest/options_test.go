package ingest

import (
	"context"
	"runtime"
	"testing"

	"github.com/draughtsdb/draughtsdb/analysis/openings"
)

// TestImportChecksOptionsFirst: Import refuses options out of range before
// it reads a source or touches the database (the pool here is nil).
func TestImportChecksOptionsFirst(t *testing.T) {
	t.Parallel()
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
	// One replay worker per CPU but one: the database server's COPY
	// backend needs a core (DefaultImportWorkers).
	if want := max(1, runtime.NumCPU()-1); o.Workers != want {
		t.Errorf("default workers %d, want %d (CPUs %d)", o.Workers, want, runtime.NumCPU())
	}
	o = Options{Workers: 3}
	if err := o.check(); err != nil || o.Workers != 3 {
		t.Errorf("workers 3: %+v, %v", o, err)
	}
}
