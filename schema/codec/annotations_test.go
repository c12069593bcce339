package codec

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/draughtsdb/draughtsdb/ingest/pdn"
	"github.com/draughtsdb/draughtsdb/replay"
)

// annotationsGolden is testdata/annotations.golden.json: the
// games.annotations value of each game of testdata/annotations.pdn, in
// hex, with the warnings its variations gave. Databases hold these bytes:
// a failure means the format changed; fix the code, never the file (add
// games only).
type annotationsGolden struct {
	Games []struct {
		Event       string   `json:"event"`
		Plies       int      `json:"plies"`
		Annotations string   `json:"annotations"` // hex
		Warnings    []string `json:"warnings"`
	} `json:"games"`
}

// annotatedGames replays testdata/annotations.pdn and returns each game's
// annotations as the import takes them, with the variations' warnings.
func annotatedGames(t *testing.T) ([]*replay.Game, []*Annotations, [][]string) {
	t.Helper()
	f, err := os.Open("testdata/annotations.pdn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := pdn.NewReader(f, "annotations.pdn")
	r := replay.NewReplayer(replay.Options{})
	var games []*replay.Game
	var anns []*Annotations
	var warns [][]string
	for {
		pg, err := rd.Next()
		if err == io.EOF {
			break
		}
		var g replay.Game
		if err := r.Replay(pg, err, &g); err != nil {
			t.Fatalf("game %d: %v", len(games)+1, err)
		}
		out, w := r.AnnotatedPDN(&g, g.Variant.DefaultNotation)
		c := g.Clone()
		games, anns, warns = append(games, c), append(anns, AnnotationsOf(out)), append(warns, w)
	}
	return games, anns, warns
}

func readAnnotationsGolden(t *testing.T) *annotationsGolden {
	t.Helper()
	b, err := os.ReadFile("testdata/annotations.golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g annotationsGolden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Games) == 0 {
		t.Fatal("empty golden file")
	}
	return &g
}

// TestAnnotationsGolden: the annotations of the golden games encode to
// the stored bytes, and the stored bytes decode to the same annotations.
func TestAnnotationsGolden(t *testing.T) {
	want := readAnnotationsGolden(t)
	games, anns, warns := annotatedGames(t)
	if len(games) != len(want.Games) {
		t.Fatalf("%d games, golden has %d", len(games), len(want.Games))
	}
	for i, g := range games {
		w := want.Games[i]
		if ev := g.PDN.Tag("Event"); ev != w.Event || g.Plies() != w.Plies {
			t.Errorf("game %d: event %q, %d plies; golden %q, %d", i+1, ev, g.Plies(), w.Event, w.Plies)
		}
		enc := AppendAnnotations(nil, anns[i])
		if got := hex.EncodeToString(enc); got != w.Annotations {
			t.Errorf("game %d encodes to\n%s\nwant\n%s", i+1, got, w.Annotations)
		}
		if !reflect.DeepEqual(warns[i], w.Warnings) && (len(warns[i]) > 0 || len(w.Warnings) > 0) {
			t.Errorf("game %d warnings %q, want %q", i+1, warns[i], w.Warnings)
		}
		b, _ := hex.DecodeString(w.Annotations)
		dec, err := DecodeAnnotations(b, w.Plies)
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		if !reflect.DeepEqual(dec, anns[i]) {
			t.Errorf("game %d decodes to %+v, want %+v", i+1, dec, anns[i])
		}
		if again := AppendAnnotations(nil, dec); !bytes.Equal(again, b) {
			t.Errorf("game %d: decoded and encoded again differs", i+1)
		}
	}
}

// TestAnnotationsOfFirstGame: what the first golden game keeps, ply by
// ply: comments before the first move and after moves, strength marks, a
// NAG, a variation with a comment, verified and written with full paths.
func TestAnnotationsOfFirstGame(t *testing.T) {
	_, anns, warns := annotatedGames(t)
	a := anns[0]
	if len(warns[0]) != 0 {
		t.Errorf("warnings %q", warns[0])
	}
	if !reflect.DeepEqual(a.Comments, []string{"Opening comment."}) {
		t.Errorf("comments before the first move %q", a.Comments)
	}
	type ply struct {
		strength string
		nags     []int
		comments []string
		vars     int
	}
	want := map[int]ply{1: {comments: []string{"Centre first."}}, 2: {strength: "!"}, 4: {vars: 1},
		5: {strength: "?", comments: []string{"A loose move."}}, 6: {strength: "!?"}, 7: {nags: []int{14}}}
	if len(a.Plies) != len(want) {
		t.Fatalf("notes on %d plies, want %d: %+v", len(a.Plies), len(want), a.Plies)
	}
	for _, p := range a.Plies {
		w, ok := want[p.Ply]
		if !ok {
			t.Fatalf("a note on ply %d", p.Ply)
		}
		var got ply
		got.strength = p.Strength
		if p.Note != nil {
			got.nags, got.comments, got.vars = p.Note.NAGs, p.Note.Comments, len(p.Note.Variations)
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("ply %d: %+v, want %+v", p.Ply, got, w)
		}
	}
	v := a.Plies[2].Note.Variations[0]
	if v.Unverified || len(v.Moves) != 2 || v.Moves[0].Text != "13x24" || v.Moves[0].Number != 2 || !v.Moves[0].Black ||
		!reflect.DeepEqual(v.Moves[0].Comments(), []string{"the other way"}) || v.Moves[1].Text != "34-29" || v.Moves[1].Number != 3 {
		t.Errorf("variation %+v", v)
	}
}

// TestAnnotationsUnverified: a variation with a move that is not legal is
// kept as written, flagged, with a warning naming the game and the ply;
// nested ones inside a legal variation are verified too.
func TestAnnotationsUnverified(t *testing.T) {
	_, anns, warns := annotatedGames(t)
	a := anns[1]
	if len(warns[1]) != 1 || !strings.Contains(warns[1][0], "game 2: variation 2 at ply 2 kept as written, not verified") {
		t.Errorf("warnings %q", warns[1])
	}
	vars := a.Plies[1].Note.Variations
	if len(vars) != 2 || vars[0].Unverified || !vars[1].Unverified || vars[1].Moves[0].Text != "99-98" {
		t.Fatalf("variations %+v", vars)
	}
	inner := vars[0].Moves[0].Variations()
	if len(inner) != 1 || inner[0].Unverified || inner[0].Moves[0].Text != "17-21" || !reflect.DeepEqual(inner[0].Moves[0].Comments(), []string{"inner"}) {
		t.Errorf("nested variation %+v", inner)
	}
	if c := a.Plies[0].Note.Comments; len(c) != 1 || c[0] != "[%clk 0:59:58][%emt 0:00:02]" {
		t.Errorf("a PDN command comment: %q", c)
	}
	ru := anns[2].Plies[0].Note.Variations[0]
	if !ru.Unverified || ru.Moves[0].Text != "b2-c3" {
		t.Errorf("the Russian variation (a capture was compulsory): %+v", ru)
	}
}

// TestAnnotationsEmpty: no annotations is no bytes (a NULL column), and
// NULL decodes to none.
func TestAnnotationsEmpty(t *testing.T) {
	if b := AppendAnnotations(nil, &Annotations{}); b != nil {
		t.Errorf("empty annotations encode to %x", b)
	}
	if b := AppendAnnotations(nil, nil); b != nil {
		t.Errorf("nil annotations encode to %x", b)
	}
	a, err := DecodeAnnotations(nil, 10)
	if err != nil || !a.Empty() {
		t.Errorf("NULL decodes to %+v, %v", a, err)
	}
}

// TestAnnotationsDecodeErrors: bytes not in the format are an
// *AnnotationsError with the offset, never a panic or a wrong value.
func TestAnnotationsDecodeErrors(t *testing.T) {
	ok := AppendAnnotations(nil, &Annotations{Comments: []string{"c"}, Plies: []PlyNote{{Ply: 2, Strength: "!"}}})
	if hex.EncodeToString(ok) != "010101630102010121" {
		t.Fatalf("the format's layout: %x", ok)
	}
	cases := []struct {
		name  string
		b     string
		plies int
		want  string
	}{
		{"another version", "020000", 5, "format 2"},
		{"cut short", "01", 5, "cut short"},
		{"a ply past the game", "010101630102010121", 1, "ply delta 2 after ply 0 of a game of 1 plies"},
		{"a zero delta", "010002010101210001", 5, "ply delta 0"},
		{"comments alone", "0101016300", 0, ""},
		{"an empty note", "01000101" + "00", 5, "an empty note"},
		{"trailing bytes", "010101630102010121ff", 5, "1 byte(s) after the end"},
		{"unknown flags", "0100010180", 5, "note flags"},
		{"setup on the main line", "0100010110", 5, "note flags"},
		{"a huge count", "0100ffffffff0f", 5, "count"},
		{"an overlong number", "01018000", 5, "overlong number"},
		{"nothing at all", "010000", 5, "no annotations"},
		{"not UTF-8", "010101ff00", 5, "not UTF-8"},
	}
	for _, c := range cases {
		b, _ := hex.DecodeString(c.b)
		_, err := DecodeAnnotations(b, c.plies)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s (%s): %v", c.name, c.b, err)
			}
			continue
		}
		var ae *AnnotationsError
		if !errors.As(err, &ae) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s (%s): %v, want an *AnnotationsError with %q", c.name, c.b, err, c.want)
		}
	}
}

// FuzzDecodeAnnotations: the decoder never panics, and what it accepts
// encodes back to the same bytes (one encoding per value).
func FuzzDecodeAnnotations(f *testing.F) {
	for _, s := range []string{"", "010101630102010121", "010002010101210001", "0101016300"} {
		b, _ := hex.DecodeString(s)
		f.Add(b, 8)
	}
	if g, err := os.ReadFile("testdata/annotations.golden.json"); err == nil {
		var gold annotationsGolden
		if json.Unmarshal(g, &gold) == nil {
			for _, x := range gold.Games {
				b, _ := hex.DecodeString(x.Annotations)
				f.Add(b, x.Plies)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, plies int) {
		if plies < 0 || plies > 1<<15 {
			return
		}
		a, err := DecodeAnnotations(b, plies)
		if err != nil {
			var ae *AnnotationsError
			if !errors.As(err, &ae) {
				t.Fatalf("error %v is not an *AnnotationsError", err)
			}
			return
		}
		if again := AppendAnnotations(nil, a); !bytes.Equal(again, b) && len(b) > 0 {
			t.Fatalf("%x decodes and encodes back to %x", b, again)
		}
	})
}
