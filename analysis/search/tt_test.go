package search

import (
	"testing"
	"unsafe"
)

// TestTableEntrySize: a bucket is bucketBytes (the table's size in MB
// counts with it), two to a cache line; a field added to ttEntry must not
// pad it (it was 24 bytes, a bucket 48, before the fields were ordered).
func TestTableEntrySize(t *testing.T) {
	if n := unsafe.Sizeof(ttBucket{}); n != bucketBytes || 64%n != 0 {
		t.Fatalf("a bucket is %d bytes, want %d", n, bucketBytes)
	}
}
