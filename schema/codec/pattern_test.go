package codec

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
	"github.com/draughtsdb/draughtsdb/replay/pattern"
	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// patternGolden is testdata/pattern.golden.json: the pattern_index record of
// each game of testdata/games.pdn (delta 1). DRAUGHTSDB_WRITE_PATTERN_GOLDEN=1
// writes the file when it is missing; once written, a difference means the
// stored format changed.
type patternGolden struct {
	Games []struct {
		GameType int    `json:"gametype"`
		StartFEN string `json:"start_fen"`
		Record   string `json:"record"` // hex
	} `json:"games"`
}

func patternRecords(t *testing.T) (records [][]byte, games []replay.Game) {
	t.Helper()
	f, err := os.Open("testdata/games.pdn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := pdn.NewReader(f, "games.pdn")
	r := replay.NewReplayer(replay.Options{})
	for {
		pg, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var g replay.Game
		if err := r.Replay(pg, err, &g); err != nil {
			t.Fatalf("game %d: %v", pg.Ordinal, err)
		}
		start := g.Start
		records = append(records, AppendPatternEntry(nil, 1, AppendPatternGame(nil, &start, g.StartFEN == "", g.Moves)))
		games = append(games, g)
	}
	return records, games
}

func TestPatternGolden(t *testing.T) {
	records, games := patternRecords(t)
	const path = "testdata/pattern.golden.json"
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && os.Getenv("DRAUGHTSDB_WRITE_PATTERN_GOLDEN") == "1" {
		var g patternGolden
		for i, rec := range records {
			g.Games = append(g.Games, struct {
				GameType int    `json:"gametype"`
				StartFEN string `json:"start_fen"`
				Record   string `json:"record"`
			}{games[i].Variant.GameType, games[i].StartFEN, hex.EncodeToString(rec)})
		}
		out, _ := json.MarshalIndent(g, "", " ")
		if err := os.WriteFile(path, append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		b = out
	} else if err != nil {
		t.Fatal(err)
	}
	var want patternGolden
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want.Games) != len(records) {
		t.Fatalf("%d games in games.pdn, %d in %s", len(records), len(want.Games), path)
	}
	setups := 0
	for i, rec := range records {
		w := want.Games[i]
		if got := hex.EncodeToString(rec); got != w.Record || games[i].Variant.GameType != w.GameType {
			t.Errorf("game %d (%s): record\n got %s\nwant %s", i+1, games[i].Variant.Name, got, w.Record)
		}
		if w.StartFEN != "" {
			setups++
		}
	}
	if setups == 0 {
		t.Error("no game of the golden file starts from a setup")
	}
}

// TestPatternDecode reads the records back and replays them as boards: each
// position equals the replayed game's.
func TestPatternDecode(t *testing.T) {
	records, games := patternRecords(t)
	var row []byte
	for _, rec := range records {
		row = append(row, rec...)
	}
	r := NewPatternReader(100, row)
	captures := 0
	for i := range games {
		g := &games[i]
		if !r.More() {
			t.Fatalf("row ends before game %d", i+1)
		}
		h, err := r.Game()
		if err != nil {
			t.Fatal(err)
		}
		if h.ID != int64(101+i) || h.Plies != len(g.Moves) || h.Setup != (g.StartFEN != "") {
			t.Fatalf("game %d: header %+v", i+1, h)
		}
		d, err := Decode(g.Variant, g.StartFEN, AppendMoves(nil, g.Moves))
		if err != nil {
			t.Fatal(err)
		}
		var b pattern.Board
		if h.Setup {
			b.Side = h.Side
			p := rules.NewPosition(g.Variant, h.Side)
			for j := 0; j < len(h.Pieces); j += 2 {
				p.SetPiece(int(h.Pieces[j]), rules.Piece(h.Pieces[j+1]))
			}
			b = pattern.FromPosition(&p)
		} else {
			start := g.Variant.StartPosition()
			b = pattern.FromPosition(&start)
		}
		for ply := 0; ; ply++ {
			if want := pattern.FromPosition(&d.Positions[ply]); b != want {
				t.Fatalf("game %d ply %d: board %+v, want %+v", i+1, ply, b, want)
			}
			if ply == h.Plies {
				break
			}
			from, to, prom, capt, ok := r.Ply()
			if !ok {
				t.Fatalf("game %d ply %d: cut short", i+1, ply+1)
			}
			captures += len(capt)
			b.Play(from, to, prom, capt)
		}
	}
	if r.More() {
		t.Fatal("bytes after the last game")
	}
	if captures == 0 {
		t.Fatal("no capture decoded")
	}
}
