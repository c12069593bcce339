package explorer

import (
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
	"github.com/draughtsdb/draughtsdb/schema/codec"
)

// TestGamePDNOfEveryVariantReadsBack: the PDN of /api/game names the
// variant so that the import reads it back as that variant, also for
// Killer, which has no PDN GameType (it wrote GameType "0", refused).
func TestGamePDNOfEveryVariantReadsBack(t *testing.T) {
	t.Parallel()
	for _, v := range rules.Variants() {
		pos := v.StartPosition()
		moves := pos.LegalMoves(nil)
		if len(moves) == 0 {
			t.Fatalf("%s: no move", v)
		}
		stored := codec.AppendMoves(nil, moves[:1])
		dg, err := codec.Decode(v, "", stored)
		if err != nil {
			t.Fatal(err)
		}
		a := &GameAnswer{Result: "*"}
		_, text, err := gamePDN(v, &dg, a, nil, nil, nil, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		pg, err := pdn.NewReader(strings.NewReader(text), "game.pdn").Next()
		if err != nil {
			t.Fatalf("%s: %v\n%s", v, err, text)
		}
		var g replay.Game
		if err := replay.NewReplayer(replay.Options{}).Replay(pg, nil, &g); err != nil || g.Variant != v {
			t.Errorf("%s: read back as %v (%v):\n%s", v, g.Variant, err, text)
		}
	}
}
