package codec

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// golden is testdata/formats.golden.json: what the games of
// testdata/games.pdn are stored as, written by the encoders of the release
// before this package existed (ingest.AppendMoves, ingest.MovesHash,
// ingest.PositionEntry, openings.MoveCode, openings.Key, opening_index
// singles and openings.Counts.Pack). Databases hold these bytes, so a test
// that fails here means the stored formats changed: change the code back,
// never the file.
type golden struct {
	Games []struct {
		Source    string `json:"source"`
		GameType  int    `json:"gametype"`
		StartFEN  string `json:"start_fen"`
		Result    int16  `json:"result"`
		Moves     string `json:"moves"` // hex
		MovesHash int64  `json:"moves_hash"`
		GameID    int64  `json:"game_id"`
		Positions []struct {
			Hash   string `json:"hash"` // hex
			Prefix int16  `json:"prefix"`
			Entry  int64  `json:"entry"` // of GameID
		} `json:"positions"`
		Plies []struct {
			Code   uint32 `json:"code"`
			Key    int64  `json:"key"`    // played from the position before
			Single int64  `json:"single"` // with the game's result
		} `json:"plies"`
	} `json:"games"`
	Counts []struct {
		Counts Counts `json:"counts"`
		Packed int64  `json:"packed"`
	} `json:"counts"`
}

func readGolden(t *testing.T) *golden {
	t.Helper()
	b, err := os.ReadFile("testdata/formats.golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Games) == 0 || len(g.Counts) == 0 {
		t.Fatal("empty golden file")
	}
	return &g
}

// TestGoldenEncoding replays the games of testdata/games.pdn and encodes
// them: moves, moves_hash and result code as stored.
func TestGoldenEncoding(t *testing.T) {
	want := readGolden(t)
	f, err := os.Open("testdata/games.pdn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := pdn.NewReader(f, "games.pdn")
	r := replay.NewReplayer(replay.Options{})
	var g replay.Game
	n := 0
	for ; ; n++ {
		pg, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err := r.Replay(pg, err, &g); err != nil {
			t.Fatalf("game %d: %v", pg.Ordinal, err)
		}
		if n >= len(want.Games) {
			t.Fatalf("games.pdn has more games than the golden file")
		}
		w := &want.Games[n]
		enc := AppendMoves(nil, g.Moves)
		if got := hex.EncodeToString(enc); got != w.Moves {
			t.Errorf("%s: moves\n got %s\nwant %s", w.Source, got, w.Moves)
		}
		if got := MovesHash(g.Variant, g.StartFEN, enc); got != w.MovesHash {
			t.Errorf("%s: moves_hash %d, want %d", w.Source, got, w.MovesHash)
		}
		if g.Variant.GameType != w.GameType || g.StartFEN != w.StartFEN {
			t.Errorf("%s: read as GameType %d FEN %q", w.Source, g.Variant.GameType, g.StartFEN)
		}
		if got := ResultCode(g.Result); got != w.Result {
			t.Errorf("%s: result %d, want %d", w.Source, got, w.Result)
		}
	}
	if n != len(want.Games) {
		t.Fatalf("%d games in games.pdn, %d in the golden file", n, len(want.Games))
	}
}

// TestGoldenDecoding decodes the golden bytes back (the positions are the
// replayed game's) and packs the index entries of every position and ply.
func TestGoldenDecoding(t *testing.T) {
	want := readGolden(t)
	captures, multi, kings := 0, 0, 0
	for _, w := range want.Games {
		v, err := rules.VariantByGameType(w.GameType)
		if err != nil {
			t.Fatal(err)
		}
		moves, err := hex.DecodeString(w.Moves)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Decode(v, w.StartFEN, moves)
		if err != nil {
			t.Fatalf("%s: %v", w.Source, err)
		}
		if len(d.Positions) != len(w.Positions) || len(d.Moves) != len(w.Plies) {
			t.Fatalf("%s: %d positions, %d moves; want %d, %d", w.Source, len(d.Positions), len(d.Moves), len(w.Positions), len(w.Plies))
		}
		if again := AppendMoves(nil, d.Moves); !bytes.Equal(again, moves) {
			t.Errorf("%s: decoded moves encode differently", w.Source)
		}
		for i, p := range w.Positions {
			h, err := strconv.ParseUint(p.Hash, 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			if got := d.Positions[i].Hash(); got != h {
				t.Errorf("%s: position %d hash %x, want %x", w.Source, i, got, h)
			}
			if got := PositionPrefix(h); got != p.Prefix {
				t.Errorf("%s: position %d prefix %d, want %d", w.Source, i, got, p.Prefix)
			}
			if got := PositionEntry(h, w.GameID); got != p.Entry {
				t.Errorf("%s: position %d entry %x, want %x", w.Source, i, got, p.Entry)
			}
			if i == len(w.Plies) {
				break
			}
			m := &d.Moves[i]
			c := MoveCodeOf(m)
			pl := w.Plies[i]
			if uint32(c) != pl.Code || c.From() != m.From() || c.To() != m.To() || c.Capture() != m.IsCapture() {
				t.Errorf("%s: ply %d code %x, want %x", w.Source, i+1, c, pl.Code)
			}
			if got := OpeningKey(h, c); got != pl.Key {
				t.Errorf("%s: ply %d key %x, want %x", w.Source, i+1, got, pl.Key)
			}
			if got := SingleEntry(pl.Key, ResultSlot(w.Result)); got != pl.Single {
				t.Errorf("%s: ply %d single %x, want %x", w.Source, i+1, got, pl.Single)
			}
			if m.IsCapture() {
				captures++
				if len(m.Path(nil)) > 1 {
					multi++
				}
			}
			if d.Positions[i].Piece(m.From()).IsKing() {
				kings++
			}
		}
	}
	// What the golden games must cover to test anything.
	if captures == 0 || multi == 0 || kings == 0 {
		t.Fatalf("golden games: %d captures, %d multiple, %d king moves", captures, multi, kings)
	}
	for _, c := range want.Counts {
		if got := c.Counts.Pack(); got != c.Packed || UnpackCounts(c.Packed) != c.Counts {
			t.Errorf("%v packs to %x, want %x", c.Counts, got, c.Packed)
		}
	}
}
