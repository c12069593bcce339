package queries

import "testing"

// TestDateBound: the bounds of export's --from/--to and the explorer's
// from/to, as games.date writes dates; a month or day out of range is an
// error (compared as text, "1995.13" was a prefix that bounded nothing).
func TestDateBound(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"1995": "1995", "1995-02": "1995.02", "1995/02/28": "1995.02.28", "1995.12.31": "1995.12.31"} {
		if got, err := DateBound(in); err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"1995.13", "1995.00", "1995.02.32", "1995.02.00", "May 1990", "95", "1995.2"} {
		if got, err := DateBound(in); err == nil {
			t.Errorf("%q accepted as %q", in, got)
		}
	}
}
