package ingest

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestDecodeMovesRoundTrip encodes synthetic games of every variant with
// AppendMoves and decodes them back: the same moves (same path, same
// captures) and the same positions, ply by ply.
func TestDecodeMovesRoundTrip(t *testing.T) {
	for _, v := range rules.Variants() {
		var buf bytes.Buffer
		if err := synth.Write(&buf, synth.Options{Variant: v, Games: 40, Seed: 11}); err != nil {
			t.Fatal(err)
		}
		rd := pdn.NewReader(&buf, "gen.pdn")
		r := replay.NewReplayer(replay.Options{})
		var g replay.Game
		games, plies, captures := 0, 0, 0
		for {
			pg, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err := r.Replay(pg, err, &g); err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
			enc := AppendMoves(nil, &g)
			got, err := DecodeMoves(g.Variant, g.Start, enc)
			if err != nil {
				t.Fatalf("%s game %d: %v", v.Name, pg.Ordinal, err)
			}
			if len(got) != len(g.Moves) {
				t.Fatalf("%s game %d: %d moves decoded, want %d", v.Name, pg.Ordinal, len(got), len(g.Moves))
			}
			pos := g.Start
			for i := range got {
				if !got[i].SameAs(&g.Moves[i]) || !slicesEqual(got[i].Path(nil), g.Moves[i].Path(nil)) {
					t.Fatalf("%s game %d ply %d: decoded %s, want %s", v.Name, pg.Ordinal, i+1,
						rules.FormatMove(&got[i], rules.Numeric, true), rules.FormatMove(&g.Moves[i], rules.Numeric, true))
				}
				if got[i].IsCapture() {
					captures++
				}
				pos.Play(&got[i])
				if pos.Hash() != g.Hashes[i] {
					t.Fatalf("%s game %d ply %d: hash differs", v.Name, pg.Ordinal, i+1)
				}
			}
			if again := appendDecoded(nil, got); !bytes.Equal(again, enc) {
				t.Fatalf("%s game %d: re-encoding differs", v.Name, pg.Ordinal)
			}
			games++
			plies += len(got)
		}
		if games != 40 || captures == 0 {
			t.Fatalf("%s: %d games, %d captures", v.Name, games, captures)
		}
		t.Logf("%s: %d games, %d plies, %d captures round-tripped", v.Name, games, plies, captures)
	}
}

func TestDecodeMovesRejectsIllegal(t *testing.T) {
	v := rules.Russian
	if _, err := DecodeMoves(v, v.StartPosition(), []byte{22, 17, 22}); err == nil {
		t.Fatal("truncated move accepted")
	}
	if _, err := DecodeMoves(v, v.StartPosition(), []byte{1, 5}); err == nil {
		t.Fatal("illegal move accepted")
	}
}

func appendDecoded(dst []byte, moves []rules.Move) []byte {
	return AppendMoves(dst, &replay.Game{Moves: moves})
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
