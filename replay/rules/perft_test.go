package rules

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"
	"time"
)

type perftTable struct {
	Variant    string            `json:"variant"`
	Name       string            `json:"name"`
	Duplicates string            `json:"duplicates"`
	FEN        *string           `json:"fen"`
	Perft      map[string]uint64 `json:"perft"`
}

func loadPerft(t testing.TB) []perftTable {
	data, err := os.ReadFile("testdata/perft.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Positions []perftTable `json:"positions"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f.Positions
}

func TestPerftQuick(t *testing.T) {
	for _, tb := range loadPerft(t) {
		v, err := VariantByName(tb.Variant)
		if err != nil {
			continue
		}
		if tb.FEN != nil {
			continue
		}
		pos := v.StartPosition()
		keep := tb.Duplicates == "keep"
		for d := 1; d <= 20; d++ {
			want, ok := tb.Perft[strconv.Itoa(d)]
			if !ok {
				break
			}
			start := time.Now()
			got := Perft(v, &pos, d, PerftOptions{Keep: keep})
			if got != want {
				t.Errorf("%s %s %s perft(%d) = %d, want %d", tb.Variant, tb.Name, tb.Duplicates, d, got, want)
				break
			}
			if time.Since(start) > 300*time.Millisecond {
				t.Logf("%s %s %s ok to depth %d", tb.Variant, tb.Name, tb.Duplicates, d)
				break
			}
		}
	}
}
