package codec

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/ingest/synth"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// TestDecodeMovesRoundTrip encodes synthetic games of every variant with
// AppendMoves and decodes them back: the same moves (same path, same
// captures) and the same positions, ply by ply, with DecodeMoves and with
// Decode.
func TestDecodeMovesRoundTrip(t *testing.T) {
	for _, v := range rules.Variants() {
		var buf bytes.Buffer
		if err := synth.Write(&buf, synth.Options{Variant: v, Games: 40, Seed: 11}); err != nil {
			t.Fatal(err)
		}
		rd := pdn.NewReader(&buf, "gen.pdn")
		// The variant is forced: not every variant has a PDN GameType.
		r := replay.NewReplayer(replay.Options{Variant: v})
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
			enc := AppendMoves(nil, g.Moves)
			got, err := DecodeMoves(g.Variant, g.Start, enc)
			if err != nil {
				t.Fatalf("%s game %d: %v", v.Name, pg.Ordinal, err)
			}
			if len(got) != len(g.Moves) {
				t.Fatalf("%s game %d: %d moves decoded, want %d", v.Name, pg.Ordinal, len(got), len(g.Moves))
			}
			d, err := Decode(g.Variant, g.StartFEN, enc)
			if err != nil {
				t.Fatalf("%s game %d: Decode: %v", v.Name, pg.Ordinal, err)
			}
			if len(d.Moves) != len(g.Moves) || len(d.Positions) != len(g.Moves)+1 || d.Start().Hash() != g.Start.Hash() || d.Final().Hash() != g.Final.Hash() {
				t.Fatalf("%s game %d: Decode gives %d moves, %d positions", v.Name, pg.Ordinal, len(d.Moves), len(d.Positions))
			}
			pos := g.Start
			for i := range got {
				if !got[i].SameAs(&g.Moves[i]) || !slices.Equal(got[i].Path(nil), g.Moves[i].Path(nil)) || !d.Moves[i].SameAs(&g.Moves[i]) {
					t.Fatalf("%s game %d ply %d: decoded %s, want %s", v.Name, pg.Ordinal, i+1,
						rules.FormatMove(v, &got[i], rules.Numeric, true), rules.FormatMove(v, &g.Moves[i], rules.Numeric, true))
				}
				if got[i].IsCapture() {
					captures++
				}
				pos.Play(&got[i])
				if pos.Hash() != g.Hashes[i] || d.Positions[i+1] != pos {
					t.Fatalf("%s game %d ply %d: position differs", v.Name, pg.Ordinal, i+1)
				}
			}
			// FirstVisit finds each position's first ply and the move
			// from it, as a walk over Decode's positions does; a position
			// of another game is not found.
			for _, k := range []int{0, 1, len(got) / 2, len(got)} {
				want := slices.IndexFunc(d.Positions, func(p rules.Position) bool { return p.Hash() == d.Positions[k].Hash() })
				ply, next, hasNext, found, err := FirstVisit(g.Variant, g.StartFEN, enc, d.Positions[k].Hash())
				if err != nil || !found || ply != want || hasNext != (want < len(got)) || hasNext && !next.SameAs(&got[want]) {
					t.Fatalf("%s game %d: FirstVisit of ply %d: ply %d, next %v %v, found %v, %v; want ply %d", v.Name, pg.Ordinal, k, ply, hasNext, next, found, err, want)
				}
			}
			if _, _, _, found, err := FirstVisit(g.Variant, g.StartFEN, enc, d.Final().Hash()^1); found || err != nil {
				t.Fatalf("%s game %d: FirstVisit found a position the game never reaches (%v)", v.Name, pg.Ordinal, err)
			}
			if again := AppendMoves(nil, got); !bytes.Equal(again, enc) {
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
	for _, c := range []struct {
		moves []byte
		ply   int
		msg   string
	}{
		{[]byte{22, 17, 22}, 2, "ply 2: truncated move"},
		{[]byte{22, 17, 9 | captureBit, 18 | moreBit}, 2, "ply 2: truncated capture"},
		{[]byte{1, 5}, 1, "ply 1: encoded move from 1 ([5]) is not legal in "},
	} {
		moves, err := DecodeMoves(v, v.StartPosition(), c.moves)
		var de *DecodeError
		if !errors.As(err, &de) || de.Ply != c.ply || !strings.HasPrefix(err.Error(), c.msg) || len(moves) != c.ply-1 {
			t.Errorf("% x: %d moves, error %v; want ply %d, %q", c.moves, len(moves), err, c.ply, c.msg)
		}
		if _, err := Decode(v, "", c.moves); !errors.As(err, &de) || de.Ply != c.ply {
			t.Errorf("Decode % x: %v", c.moves, err)
		}
	}
	long := []byte{9 | captureBit}
	for range maxPath + 1 {
		long = append(long, 1|moreBit)
	}
	if _, err := DecodeMoves(v, v.StartPosition(), long); err == nil || err.Error() != "ply 1: capture path too long" {
		t.Errorf("a path of %d landings: %v", maxPath+1, err)
	}
}

// TestDecodeStartFEN: Decode starts from the stored FEN, and a FEN that
// does not parse is an error that says so, not a *DecodeError.
func TestDecodeStartFEN(t *testing.T) {
	v := rules.Russian
	d, err := Decode(v, "W:WKc1:BKh8", []byte{30, 26})
	if err != nil || len(d.Moves) != 1 || d.Start().FEN() == v.StartPosition().FEN() {
		t.Fatalf("%+v %v", d, err)
	}
	_, err = Decode(v, "W:Wz9", nil)
	var de *DecodeError
	if err == nil || errors.As(err, &de) || !strings.HasPrefix(err.Error(), "start FEN: ") {
		t.Fatalf("bad FEN: %v", err)
	}
}

// TestResultCodes: every replay.Result has its code, and ResultOf reads it
// back.
func TestResultCodes(t *testing.T) {
	want := map[replay.Result]int16{replay.ResultUnknown: 0, replay.WhiteWins: 1, replay.Draw: 2, replay.BlackWins: 3, replay.DoubleForfeit: 4}
	for r, code := range want {
		if got := ResultCode(r); got != code || ResultOf(code) != r {
			t.Errorf("%v: code %d, want %d; ResultOf(%d) = %v", r, got, code, code, ResultOf(code))
		}
	}
	if ResultOf(9) != replay.ResultUnknown {
		t.Error("an unknown code is not ResultUnknown")
	}
	slots := map[int16]uint8{0: SlotOther, 1: SlotWhiteWins, 2: SlotDraw, 3: SlotBlackWins, 4: SlotOther}
	for code, slot := range slots {
		if got := ResultSlot(code); got != slot {
			t.Errorf("slot of %d: %d, want %d", code, got, slot)
		}
	}
}
