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

// defaultDepth is the deepest depth per table that runs in well under a
// second here (the whole default run of the package stays under ~20 s).
// With DRAUGHTSDB_DEEP_PERFT=1 (and without -short) every depth whose count
// is at most DRAUGHTSDB_DEEP_PERFT_MAX leaf nodes (default 3e8) is checked.
var defaultDepth = map[string]int{
	"international/initial":         9,
	"international/AllKings":        9,
	"international/AlmostPromotion": 7,
	"international/FrontRows":       11,
	"russian/initial":               10,
	"brazilian/initial":             10,
	"english/initial":               10,
	"canadian/initial":              8,
	"pool/initial":                  9,
	"czech/initial":                 9,
	"spanish/initial":               9,
	"italian/initial":               9,
	"thai/initial":                  9,
	"killer/initial":                8,
	"killer/Random178":              7,
	"killer/Woldouby":               13,
	"frisian/initial":               8,
	"turkish/initial":               7,
}

// perftStartOverride gives the start of tables whose "initial" position is
// not the variant's. dctl's Thai table (board_08x08.cpp) starts from
// basic_state<thai, ...>::initial(2): the argument is the number of empty
// rows between the sides, so 3 rows of 12 men each, not Thai's 2 rows of 8
// (thai.hpp's initial_position_gap = 4, our StartPosition). perft.json's
// note "2 rows of men" misreads it; the counts (equal to English's up to
// depth 8) only fit 12 men. Thai numbering has White on 1-12.
var perftStartOverride = map[string]string{
	"thai/initial": "W:W1-12:B21-32",
}

// extraPerft are dctl tables perft.json leaves out: the Thai "drop" counts
// of test/src/algo/traversal/initial/board_08x08.cpp @21869018 (the same
// start as the "keep" table).
var extraPerft = []perftTable{
	{Variant: "thai", Name: "initial", Duplicates: "drop", Perft: map[string]uint64{
		"1": 7, "2": 49, "3": 302, "4": 1469, "5": 7361, "6": 36768, "7": 179740, "8": 845931,
		"9": 3963648, "10": 18363523, "11": 84892793, "12": 385713660, "13": 1745666630}},
	// dctl test/src/algo/traversal/killer/letouzey.cpp @21869018 (from Fabien
	// Letouzey): positions where the killer rule matters.
	{Variant: "killer", Name: "Random178", Duplicates: "drop",
		FEN: ptrString("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"),
		Perft: map[string]uint64{"1": 14, "2": 55, "3": 1168, "4": 5165, "5": 84326, "6": 573965,
			"7": 8476150, "8": 78944517, "9": 1133545351, "10": 12070611997}},
	{Variant: "killer", Name: "Woldouby", Duplicates: "drop",
		FEN: ptrString("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"),
		Perft: map[string]uint64{"1": 6, "2": 12, "3": 30, "4": 73, "5": 215, "6": 590, "7": 1944,
			"8": 6269, "9": 22369, "10": 88043, "11": 377339, "12": 1908829, "13": 9850540,
			"14": 58116971, "15": 343968214, "16": 2251657424, "17": 14783093851}},
}

func ptrString(s string) *string { return &s }

func TestPerft(t *testing.T) {
	deep := os.Getenv("DRAUGHTSDB_DEEP_PERFT") == "1" && !testing.Short()
	maxNodes := uint64(3e8)
	if s := os.Getenv("DRAUGHTSDB_DEEP_PERFT_MAX"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		maxNodes = n
	}
	ran := 0
	for _, tb := range append(loadPerft(t), extraPerft...) {
		limit, ok := defaultDepth[tb.Variant+"/"+tb.Name]
		if !ok {
			continue // variant not implemented yet
		}
		v, err := VariantByName(tb.Variant)
		if err != nil {
			t.Fatal(err)
		}
		pos := v.StartPosition()
		if fen, ok := perftStartOverride[tb.Variant+"/"+tb.Name]; ok {
			tb.FEN = &fen
		}
		if tb.FEN != nil {
			if pos, err = ParseFEN(v, *tb.FEN); err != nil {
				t.Fatal(err)
			}
		}
		// "n/a" (kish's Turkish table): every capture path counts, which
		// is Turkish's keep mode.
		opts := PerftOptions{Keep: tb.Duplicates == "keep" || tb.Duplicates == "n/a"}
		ran++
		t.Run(tb.Variant+"/"+tb.Name+"/"+tb.Duplicates, func(t *testing.T) {
			for d := 1; ; d++ {
				want, ok := tb.Perft[strconv.Itoa(d)]
				if !ok || (d > limit && !(deep && want <= maxNodes)) {
					break
				}
				start := time.Now()
				if got := Perft(v, &pos, d, opts); got != want {
					t.Fatalf("perft(%d) = %d, want %d", d, got, want)
				}
				if d > limit {
					t.Logf("deep perft(%d) = %d ok in %v", d, want, time.Since(start))
				}
			}
		})
	}
	// Every table of an implemented variant runs (both duplicate modes of
	// a position share its depth entry).
	want := 0
	for _, tb := range append(loadPerft(t), extraPerft...) {
		if _, err := VariantByName(tb.Variant); err == nil {
			want++
			if _, ok := defaultDepth[tb.Variant+"/"+tb.Name]; !ok {
				t.Errorf("%s/%s: implemented but has no default depth", tb.Variant, tb.Name)
			}
		}
	}
	if ran != want || ran < 14 {
		t.Errorf("ran %d perft tables, want %d", ran, want)
	}
}

// TestPerftNoBulk checks that playing the last ply gives the same counts
// as bulk counting, and Divide sums to Perft.
func TestPerftNoBulk(t *testing.T) {
	for _, v := range Variants() {
		pos := v.StartPosition()
		for _, keep := range []bool{false, true} {
			bulk := Perft(v, &pos, 6, PerftOptions{Keep: keep})
			if nb := Perft(v, &pos, 6, PerftOptions{Keep: keep, NoBulk: true}); nb != bulk {
				t.Errorf("%s keep=%v: no-bulk %d != bulk %d", v.Name, keep, nb, bulk)
			}
			var sum uint64
			for _, e := range Divide(v, &pos, 6, PerftOptions{Keep: keep}) {
				sum += e.Nodes
			}
			if sum != bulk {
				t.Errorf("%s: divide sum %d != %d", v.Name, sum, bulk)
			}
		}
	}
	d := Divide(International, ptr(International.StartPosition()), 2, PerftOptions{})
	if len(d) != 9 || d[0].Move != "31-26" || d[0].Nodes != 9 {
		t.Errorf("international divide: %v", d)
	}
	d = Divide(Russian, ptr(Russian.StartPosition()), 1, PerftOptions{})
	if len(d) != 7 || d[0].Move != "a3-b4" {
		t.Errorf("russian divide: %v", d)
	}
}

func ptr(p Position) *Position { return &p }
