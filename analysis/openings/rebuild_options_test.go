package openings

import (
	"context"
	"testing"
)

// TestRebuildChecksOptionsFirst: Rebuild refuses a depth over MaxDepth
// (stored as a smallint) before it touches the database (the pool here is
// nil), and takes DefaultDepth for none.
func TestRebuildChecksOptionsFirst(t *testing.T) {
	t.Parallel()
	if sum, err := Rebuild(context.Background(), nil, RebuildOptions{Depth: MaxDepth + 1}); err == nil || sum != nil {
		t.Errorf("depth %d: %+v, %v; want an error", MaxDepth+1, sum, err)
	}
	o := RebuildOptions{}
	if err := o.check(); err != nil || o.Depth != DefaultDepth {
		t.Errorf("defaults: %+v, %v", o, err)
	}
	o = RebuildOptions{Depth: MaxDepth}
	if err := o.check(); err != nil || o.Depth != MaxDepth {
		t.Errorf("depth %d: %v", MaxDepth, err)
	}
}
