package queries

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestWriteJSONKeepsColumnOrder: each object lists its keys in the
// query's column order (they used to come out sorted), with NULL as null,
// numeric columns as numbers and the rest as strings.
func TestWriteJSONKeepsColumnOrder(t *testing.T) {
	t.Parallel()
	r := &Result{
		Columns: []string{"white_wins", "move", "games", "score", "date", "<a&b>"},
		Rows: [][]string{
			{"3", "32-28", "10", "", "2001.02.03", "x"},
			{"0", "c3-d4", "2", "55.5", "????.??.??", "é\"\n"},
		},
		Null: [][]bool{{false, false, false, true, false, false}, {false, false, false, false, false, false}},
	}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	want := `[
  {
    "white_wins": 3,
    "move": "32-28",
    "games": 10,
    "score": null,
    "date": "2001.02.03",
    "\u003ca\u0026b\u003e": "x"
  },
  {
    "white_wins": 0,
    "move": "c3-d4",
    "games": 2,
    "score": 55.5,
    "date": "????.??.??",
    "\u003ca\u0026b\u003e": "é\"\n"
  }
]
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	var back []map[string]any
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || len(back) != 2 || back[1]["score"] != 55.5 || back[0]["score"] != nil {
		t.Errorf("read back: %v %v", back, err)
	}
	// No rows: an empty array.
	b.Reset()
	if err := (&Result{Columns: []string{"b", "a"}}).WriteJSON(&b); err != nil || b.String() != "[]\n" {
		t.Errorf("no rows: %q %v", b.String(), err)
	}
}
