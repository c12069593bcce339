package dxp

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/replay/rules"
)

// name32 pads a name to the 32 bytes of GAMEREQ and GAMEACC.
func name32(s string) string { return s + strings.Repeat(" ", 32-len(s)) }

// setupSquares is the 50 squares of a GAMEREQ: a black man on 6, white
// men on 11, 17 and 40, a white king on 50.
var setupSquares = func() string {
	b := bytes.Repeat([]byte("e"), 50)
	b[6-1], b[11-1], b[17-1], b[40-1], b[50-1] = 'z', 'w', 'w', 'w', 'W'
	return string(b)
}()

func TestParseExamples(t *testing.T) {
	setup := rules.NewPosition(rules.International, rules.White)
	setup.SetPiece(6, rules.BlackMan)
	setup.SetPiece(11, rules.WhiteMan)
	setup.SetPiece(17, rules.WhiteMan)
	setup.SetPiece(40, rules.WhiteMan)
	setup.SetPiece(50, rules.WhiteKing)
	if len(setupSquares) != 50 {
		t.Fatalf("setupSquares has %d squares", len(setupSquares))
	}
	for _, c := range []struct {
		raw  string
		want Message
	}{
		// The public description's examples.
		{"M0012061100", Move{Seconds: 12, From: 6, To: 11}},
		{"M001205250422122320", Move{Seconds: 12, From: 5, To: 25, Captured: []int{22, 12, 23, 20}}},
		{"A" + name32("Tornado voor Windows 4.0") + "0", GameAcc{Name: "Tornado voor Windows 4.0", Code: Accepted}},
		{"E00", GameEnd{}},
		{"E21", GameEnd{Reason: EndDraw, Stop: true}},
		{"B005Z", BackReq{MoveNumber: 5, Color: rules.Black}},
		{"K2", BackAcc{Code: BackRefused}},
		{"CWhat do you think about move 35?", Chat{Text: "What do you think about move 35?"}},
		{"C", Chat{}},
		// Moby Dam's match manager (test/mm.c) and its own GAMEACC.
		{"R01" + name32("MatchMaker") + "W010000A", GameReq{Version: 1, Name: "MatchMaker", Follower: rules.White, Minutes: 10}},
		{"R01" + name32("MatchMaker") + "Z005075BW" + setupSquares,
			GameReq{Version: 1, Name: "MatchMaker", Follower: rules.Black, Minutes: 5, Moves: 75, Setup: true, Position: setup}},
		{"A" + name32("Moby Dam (Jan  1 2024)") + "2", GameAcc{Name: "Moby Dam (Jan  1 2024)", Code: Refused}},
	} {
		m, err := Parse([]byte(c.raw))
		if err != nil {
			t.Errorf("Parse(%q): %v", c.raw, err)
			continue
		}
		if !reflect.DeepEqual(m, c.want) {
			t.Errorf("Parse(%q) = %#v, want %#v", c.raw, m, c.want)
		}
		out, err := Marshal(m)
		if err != nil || string(out) != c.raw {
			t.Errorf("Marshal(Parse(%q)) = %q, %v", c.raw, out, err)
		}
	}
	// The set position reads back as the same board (hash), and Start
	// gives it; a normal-start request starts from the start position.
	m, _ := Parse([]byte("R01" + name32("x") + "Z005075BW" + setupSquares))
	r := m.(GameReq)
	if got := r.Start(); got.Hash() != setup.Hash() || got.FEN() != setup.FEN() {
		t.Errorf("Start() = %s, want %s", got.FEN(), setup.FEN())
	}
	normal := GameReq{}
	start := rules.International.StartPosition()
	if got := normal.Start(); got.Hash() != start.Hash() {
		t.Errorf("Start() of an 'A' request = %s", got.FEN())
	}
}

func TestParseNamesMessageAndField(t *testing.T) {
	req := "R01" + name32("X")
	for _, c := range []struct {
		raw   string
		kind  Kind
		field string
	}{
		{"", 0, "header"},
		{"X123", Kind('X'), "header"},
		{"R1", KindGameReq, "length"},
		{"R0x" + name32("X") + "W010000A", KindGameReq, "version"},
		{req + "Q010000A", KindGameReq, "follower color"},
		{req + "W1x5000A", KindGameReq, "thinking time"},
		{req + "W010-01A", KindGameReq, "number of moves"},
		{req + "W010000C", KindGameReq, "starting position"},
		{req + "W010000Ajunk", KindGameReq, "starting position"},
		{req + "W010000BW" + setupSquares[:49], KindGameReq, "position"},
		{req + "W010000BX" + setupSquares, KindGameReq, "color to move first"},
		{req + "W010000BW" + strings.Replace(setupSquares, "W", "k", 1), KindGameReq, "position"},
		{"A" + name32("X"), KindGameAcc, "length"},
		{"A" + name32("X") + "7", KindGameAcc, "acceptance code"},
		{"M00120611", KindMove, "length"},
		{"M00a2061100", KindMove, "time"},
		{"M0012001100", KindMove, "from field"},
		{"M0012065100", KindMove, "to field"},
		{"M0012061121", KindMove, "number captured"},
		{"M0012061101", KindMove, "captured pieces"},
		{"M00120611012", KindMove, "captured pieces"},
		{"M001206110299", KindMove, "captured pieces"},
		{"M00120611021717", KindMove, "captured pieces"},
		{"E0", KindGameEnd, "length"},
		{"E40", KindGameEnd, "reason"},
		{"E02", KindGameEnd, "stop code"},
		{"B000W", KindBackReq, "move number"},
		{"B005X", KindBackReq, "color to move"},
		{"B05W", KindBackReq, "length"},
		{"K3", KindBackAcc, "acceptance code"},
		{"K", KindBackAcc, "length"},
		{"C" + strings.Repeat("x", 127), KindChat, "length"},
		{"Cab\x00cd", KindChat, "length"},
	} {
		_, err := Parse([]byte(c.raw))
		var me *MessageError
		if !errors.As(err, &me) || !errors.Is(err, ErrMalformed) {
			t.Errorf("Parse(%q) = %v, want a *MessageError", c.raw, err)
			continue
		}
		if me.Kind != c.kind || me.Field != c.field {
			t.Errorf("Parse(%q): kind %q field %q, want %q %q (%v)", c.raw, me.Kind, me.Field, c.kind, c.field, err)
		}
		if !strings.Contains(err.Error(), c.field) || (c.kind != 0 && !strings.Contains(err.Error(), c.kind.String())) {
			t.Errorf("Parse(%q): the message %q does not name %s and %s", c.raw, err, c.kind, c.field)
		}
	}
}

func TestMarshalChecksFields(t *testing.T) {
	russian := rules.Russian.StartPosition()
	for _, c := range []struct {
		m     Message
		field string
	}{
		{Move{From: 0, To: 5}, "from field"},
		{Move{From: 5, To: 51}, "to field"},
		{Move{From: 5, To: 10, Seconds: 10000}, "time"},
		{Move{From: 5, To: 10, Captured: []int{7, 7}}, "captured pieces"},
		{Move{From: 5, To: 10, Captured: make([]int, 21)}, "number captured"},
		{Chat{Text: strings.Repeat("x", 127)}, "text"},
		{GameReq{Version: 1, Name: strings.Repeat("n", 33)}, "initiator name"},
		{GameReq{Version: 1, Minutes: 1000}, "thinking time"},
		{GameReq{Version: 1, Moves: -1}, "number of moves"},
		{GameReq{Version: 1, Setup: true, Position: russian}, "position"},
		{GameReq{Version: 1, Setup: true}, "position"},
		{GameAcc{Code: 4}, "acceptance code"},
		{GameEnd{Reason: 5}, "reason"},
		{BackReq{MoveNumber: 0}, "move number"},
		{BackAcc{Code: -1}, "acceptance code"},
	} {
		_, err := Marshal(c.m)
		var me *MessageError
		if !errors.As(err, &me) || me.Field != c.field || me.Kind != c.m.Kind() {
			t.Errorf("Marshal(%#v) = %v, want a %s error", c.m, err, c.field)
		}
	}
	if _, err := Marshal(nil); !errors.Is(err, ErrMalformed) {
		t.Errorf("Marshal(nil) = %v", err)
	}
}

func TestMoveResolve(t *testing.T) {
	start := rules.International.StartPosition()
	m, err := Move{From: 32, To: 28}.Resolve(&start)
	if err != nil || m.From() != 32 || m.To() != 28 {
		t.Fatalf("32-28: %v %v", m, err)
	}
	var ie *IllegalMoveError
	if _, err := (Move{From: 32, To: 26}).Resolve(&start); !errors.As(err, &ie) || !errors.Is(err, ErrIllegal) {
		t.Fatalf("32-26: %v", err)
	}
	if !strings.Contains(ie.Error(), "32-26") || !strings.Contains(ie.Error(), start.FEN()) {
		t.Errorf("message %q names neither the move nor the position", ie)
	}
	if _, err := (Move{From: 19, To: 23}).Resolve(&start); !errors.Is(err, ErrIllegal) || !strings.Contains(err.Error(), "no piece of the side to move") {
		t.Errorf("a black move for White: %v", err)
	}

	// A capture: the captured squares in any order, or none at all when
	// from and to say which; the wrong set is illegal.
	pos, err := rules.ParseFEN(rules.International, "W:W32:B28,18")
	if err != nil {
		t.Fatal(err)
	}
	legal := pos.LegalMoves(nil)
	if len(legal) != 1 || legal[0].CaptureCount() != 2 {
		t.Fatalf("want one capture of two pieces, have %d moves", len(legal))
	}
	want := legal[0]
	got := MoveOf(&want, 3)
	if len(got.Captured) != want.CaptureCount() || got.Seconds != 3 {
		t.Fatalf("MoveOf = %+v", got)
	}
	rev := Move{From: got.From, To: got.To, Captured: []int{got.Captured[len(got.Captured)-1]}}
	for _, m := range []Move{got, {From: got.From, To: got.To}} {
		r, err := m.Resolve(&pos)
		if err != nil || !r.SameAs(&want) {
			t.Errorf("%s: %v", m, err)
		}
	}
	if _, err := rev.Resolve(&pos); !errors.Is(err, ErrIllegal) {
		t.Errorf("%s (part of the captured set): %v", rev, err)
	}
	swapped := Move{From: got.From, To: got.To, Captured: []int{got.Captured[1], got.Captured[0]}}
	if r, err := swapped.Resolve(&pos); err != nil || !r.SameAs(&want) {
		t.Errorf("%s (captured squares in the other order): %v", swapped, err)
	}
	if MoveOf(&want, 20000).Seconds != 9999 {
		t.Error("MoveOf does not clamp the seconds")
	}
}

// FuzzParse: whatever Parse accepts, Marshal writes back byte for byte;
// whatever it refuses is a *MessageError.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"M0012061100", "M001205250422122320", "E00", "B005Z", "K0", "CHello",
		"A" + name32("Tornado voor Windows 4.0") + "0", "R01" + name32("MatchMaker") + "W010000A",
		"R01" + name32("MatchMaker") + "Z005075BW" + setupSquares} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Parse(b)
		if err != nil {
			var me *MessageError
			if !errors.As(err, &me) || !errors.Is(err, ErrMalformed) {
				t.Fatalf("Parse(%q): %v is not a *MessageError", b, err)
			}
			return
		}
		out, err := Marshal(m)
		if err != nil {
			t.Fatalf("Marshal(Parse(%q)) = %v", b, err)
		}
		if !bytes.Equal(out, b) {
			t.Fatalf("Marshal(Parse(%q)) = %q", b, out)
		}
	})
}
