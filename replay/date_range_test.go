package replay

import "testing"

// TestIsDateRange: the ranges CleanDate keeps the first date of, and the
// dates that are not ranges; it allocates nothing (it runs for every game).
func TestIsDateRange(t *testing.T) {
	for s, want := range map[string]bool{
		"2004.10.27 - 2004.11.01": true, "1950-1951": true, "2001.05.01-2001.05.07": true,
		"2005.03.12": false, "1841-??-??": false, "1950.": false, "1950": false, "12.03.2005": false,
		"1950-05": false, "": false, "1950-195x": false,
	} {
		if got := isDateRange(s); got != want {
			t.Errorf("isDateRange(%q) = %v, want %v", s, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { isDateRange("2004.10.27 - 2004.11.01") }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
