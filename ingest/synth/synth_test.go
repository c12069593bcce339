package synth

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

func TestSameSeedSameGamesAllLegal(t *testing.T) {
	for _, v := range rules.Variants() {
		var a, b, c bytes.Buffer
		if err := Write(&a, Options{Variant: v, Games: 50, Seed: 7}); err != nil {
			t.Fatal(err)
		}
		Write(&b, Options{Variant: v, Games: 50, Seed: 7})
		Write(&c, Options{Variant: v, Games: 50, Seed: 8})
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("%s: same seed, different output", v.Name)
		}
		if bytes.Equal(a.Bytes(), c.Bytes()) {
			t.Fatalf("%s: different seeds, same output", v.Name)
		}
		rd := pdn.NewReader(&a, "gen.pdn")
		r := replay.NewReplayer(replay.Options{})
		var g replay.Game
		n, plies := 0, 0
		for {
			pg, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err := r.Replay(pg, err, &g); err != nil {
				t.Fatalf("%s game %d: %v", v.Name, pg.Ordinal, err)
			}
			if g.Variant != v || len(g.Warnings) != 0 {
				t.Fatalf("%s game %d: variant %v, warnings %v", v.Name, pg.Ordinal, g.Variant, g.Warnings)
			}
			n++
			plies += g.Plies()
		}
		if n != 50 || plies < 50*30 {
			t.Fatalf("%s: %d games, %d plies", v.Name, n, plies)
		}
	}
}
