package replay

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// normalizeAll replays every game of src and writes the accepted ones in
// notation n; it returns the PDN and each game's hash sequence.
func normalizeAll(t *testing.T, src []byte, n rules.Notation) ([]byte, [][]uint64) {
	t.Helper()
	rd := pdn.NewReader(bytes.NewReader(src), "in.pdn")
	r := NewReplayer(Options{})
	var out bytes.Buffer
	w := pdn.NewWriter(&out)
	var hashes [][]uint64
	var g Game
	for {
		pg, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if r.Replay(pg, err, &g) != nil {
			continue
		}
		hashes = append(hashes, slices.Clone(g.Hashes))
		if err := w.WriteGame(g.ToPDN(n)); err != nil {
			t.Fatal(err)
		}
	}
	return out.Bytes(), hashes
}

func TestNormalizeIsIdempotentAndNotationFree(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.pdn")
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []rules.Notation{rules.Numeric, rules.Algebraic} {
				once, h1 := normalizeAll(t, raw, n)
				twice, h2 := normalizeAll(t, once, n)
				if !bytes.Equal(once, twice) {
					t.Fatalf("notation %d: normalising the normalised output changed it:\n%s", n, firstDiff(once, twice))
				}
				if len(h1) == 0 || !slices.EqualFunc(h1, h2, slices.Equal) {
					t.Fatalf("notation %d: %d games, hashes differ after re-reading", n, len(h1))
				}
			}
			_, hn := normalizeAll(t, raw, rules.Numeric)
			num, _ := normalizeAll(t, raw, rules.Numeric)
			alg, _ := normalizeAll(t, raw, rules.Algebraic)
			_, fromNum := normalizeAll(t, num, rules.Numeric)
			_, fromAlg := normalizeAll(t, alg, rules.Numeric)
			if !slices.EqualFunc(fromNum, fromAlg, slices.Equal) || !slices.EqualFunc(hn, fromAlg, slices.Equal) {
				t.Fatal("numeric and algebraic outputs replay to different Zobrist sequences")
			}
		})
	}
}

func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-200)
	return "...\n" + string(a[lo:min(len(a), i+200)]) + "\n--- vs ---\n" + string(b[lo:min(len(b), i+200)])
}
